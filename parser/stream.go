package parser

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/transparse/transparse/parser/conllu"
)

// ParseCoNLLU reads CoNLL-U from r, parses every sentence (using the tags it
// carries, see Parse) and writes CoNLL-U to w; comments, multiword tokens,
// empty nodes and the other columns are kept. name is used in error
// messages, which carry the line number: of the malformed line, or of the
// first line of a sentence the parser rejects ("name:12: sentence 3: ...").
// The sentences before the one in error are written.
func (m *Model) ParseCoNLLU(r io.Reader, w io.Writer, name string) error {
	return m.ParseCoNLLUWorkers(r, w, name, 1)
}

// ParseCoNLLUWorkers is ParseCoNLLU with the sentences parsed by up to
// workers goroutines (1 or less: on the calling goroutine). The output, and
// the error if any, are those of ParseCoNLLU: sentences are written in
// input order, and parsing stops at the first error in input order.
func (m *Model) ParseCoNLLUWorkers(r io.Reader, w io.Writer, name string, workers int) error {
	rd := conllu.NewReader(r, name)
	next := func() (*conllu.Sentence, int, error) {
		s, err := rd.Next()
		return s, rd.SentenceLine(), err
	}
	fail := func(s *conllu.Sentence, line int, err error) error {
		return fmt.Errorf("%s:%d: sentence %s: %w", name, line, sentName(s), err)
	}
	_, err := m.stream(next, fail, w, workers)
	return err
}

// ParseTokens reads pre-tokenized text from r — one sentence per line,
// tokens separated by spaces (conllu.TokenReader) — parses every sentence
// from its plain tokens and writes CoNLL-U to w, each sentence with a
// "# sent_id = N" (from first+1 on) and a "# text" comment. It returns the
// number of sentences written. name is used in error messages, which carry
// the line number (malformed text) or the sentence number (a sentence the
// parser refuses).
func (m *Model) ParseTokens(r io.Reader, w io.Writer, name string, first int) (int, error) {
	return m.ParseTokensWorkers(r, w, name, first, 1)
}

// ParseTokensWorkers is ParseTokens with the sentences parsed by up to
// workers goroutines, as ParseCoNLLUWorkers.
func (m *Model) ParseTokensWorkers(r io.Reader, w io.Writer, name string, first, workers int) (int, error) {
	tr := conllu.NewTokenReader(r, name)
	n := first
	next := func() (*conllu.Sentence, int, error) {
		s, err := tr.Next()
		if err != nil {
			return nil, 0, err
		}
		n++
		forms := make([]string, len(s.Words))
		for i, w := range s.Words {
			forms[i] = w.Form
		}
		s.Comments = []string{fmt.Sprintf("# sent_id = %d", n), "# text = " + strings.Join(forms, " ")}
		return s, n, nil
	}
	fail := func(_ *conllu.Sentence, k int, err error) error {
		return fmt.Errorf("%s: sentence %d: %w", name, k, err)
	}
	return m.stream(next, fail, w, workers)
}

// streamBatch is the number of sentences a worker of stream parses at a
// time.
const streamBatch = 64

// streamJob is a batch of sentences of stream, in input order.
type streamJob struct {
	sents   []*conllu.Sentence
	at      []int // what next returned with each sentence (for fail)
	readErr error // reading stopped after these sentences with this error
	last    bool  // the input ends with this batch
	bad     int   // the first sentence the parser rejected, or -1
	err     error // its error
	done    chan struct{}
}

// stream parses the sentences next returns (with an int that fail gets
// back; io.EOF ends the input) and writes them to w in input order, with
// up to workers goroutines parsing. It stops at the first error in input
// order, after writing the sentences before it: a read error as is, a
// sentence the parser rejects as fail(sentence, its int, err). It returns
// the number of sentences written.
//
// The input goes in batches of streamBatch sentences through three steps:
// read, parse, write. With one worker they run in turn on the calling
// goroutine; with more, a reader goroutine hands each batch to the writer
// (the calling goroutine, in order) and to the workers, and the writer
// waits for each batch to be parsed.
func (m *Model) stream(next func() (*conllu.Sentence, int, error), fail func(*conllu.Sentence, int, error) error,
	w io.Writer, workers int) (int, error) {
	read := func() *streamJob {
		j := &streamJob{bad: -1, done: make(chan struct{})}
		for len(j.sents) < streamBatch {
			s, at, err := next()
			if err != nil {
				if err != io.EOF {
					j.readErr = err
				}
				j.last = true
				break
			}
			j.sents, j.at = append(j.sents, s), append(j.at, at)
		}
		return j
	}
	parse := func(j *streamJob) {
		for i, s := range j.sents {
			if err := m.Parse(s.Words); err != nil {
				j.bad, j.err = i, err
				break
			}
		}
		close(j.done)
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	written := 0
	write := func(j *streamJob) error {
		for i, s := range j.sents {
			if i == j.bad {
				return fail(s, j.at[i], j.err)
			}
			if err := conllu.Write(bw, s); err != nil {
				return err
			}
			written++
		}
		return j.readErr
	}
	if workers <= 1 {
		for {
			j := read()
			parse(j)
			if err := write(j); err != nil || j.last {
				return written, flushed(bw, err)
			}
		}
	}

	order := make(chan *streamJob, 2*workers)
	work := make(chan *streamJob, 2*workers)
	quit := make(chan struct{})
	go func() {
		defer close(order)
		for {
			j := read()
			select {
			case order <- j:
			case <-quit:
				return
			}
			select {
			case work <- j:
			case <-quit:
				return
			}
			if j.last {
				return
			}
		}
	}()
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case j := <-work:
					parse(j)
				case <-quit:
					return
				}
			}
		}()
	}
	var err error
	for j := range order {
		<-j.done
		if err = write(j); err != nil {
			break
		}
	}
	close(quit)
	wg.Wait()
	return written, flushed(bw, err)
}

// flushed flushes bw, so that what was written before an error is not lost,
// and returns err, or else the flush's error.
func flushed(bw *bufio.Writer, err error) error {
	if ferr := bw.Flush(); err == nil {
		err = ferr
	}
	return err
}

func sentName(s *conllu.Sentence) string {
	if id := s.SentID(); id != "" {
		return id
	}
	if len(s.Words) > 0 {
		return fmt.Sprintf("starting %q", s.Words[0].Form)
	}
	return "(empty)"
}
