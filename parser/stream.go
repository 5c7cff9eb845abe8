package parser

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/transparse/transparse/parser/conllu"
	"github.com/transparse/transparse/parser/internal/core"
)

// OnError says what a document parse does with a sentence it cannot parse:
// a malformed one, or one the parser rejects (see Parse).
type OnError int

const (
	// StopOnError ends the parse with the first error, after writing the
	// sentences before it.
	StopOnError OnError = iota
	// SkipOnError copies the sentence through unparsed and goes on: a
	// sentence the parser rejects is written as it was given to the parser
	// (HEAD and DEPREL as in the input); the lines of a malformed sentence
	// (or of a malformed line of pre-tokenized text) are copied as they
	// were read. Either way the first comment added is
	// "# transparse_error = " followed by the error message, which names
	// the line. Errors that end the input (a read error, a line longer
	// than conllu.MaxLineLength) still end the parse. In raw text
	// (InputText) invalid UTF-8 is replaced by U+FFFD and reported in a
	// ReplacedComment (see the package documentation, "Raw text").
	SkipOnError
)

// ErrorComment starts the comment that SkipOnError adds to a sentence it
// copies through unparsed.
const ErrorComment = "# transparse_error = "

// ParseOnError returns the OnError named "stop" or "skip".
func ParseOnError(name string) (OnError, error) {
	switch name {
	case "stop":
		return StopOnError, nil
	case "skip":
		return SkipOnError, nil
	}
	return 0, fmt.Errorf("%w: on_error %s: want \"stop\" or \"skip\"", ErrInput, conllu.Quote(name))
}

// String returns "stop" or "skip".
func (o OnError) String() string {
	if o == SkipOnError {
		return "skip"
	}
	return "stop"
}

// InputFormat is the format of a document's input.
type InputFormat int

const (
	// InputCoNLLU is CoNLL-U: every sentence is parsed with the tags it
	// carries (see Parse); comments, multiword tokens, MISC and the other
	// columns are kept, DEPS of every word parsed is "_", and the empty
	// nodes of a parsed sentence are left out: they are nodes of the
	// enhanced graph only, which the parser does not predict, and a file
	// with empty nodes but no enhanced graph is not valid CoNLL-U (UD's
	// validator rejects it).
	InputCoNLLU InputFormat = iota
	// InputTokens is pre-tokenized text: one sentence per line, tokens
	// separated by spaces (conllu.TokenReader), parsed from its plain
	// tokens; each sentence is written with a "# sent_id = N" (from
	// DocOptions.First+1 on) and a "# text" comment.
	InputTokens
	// InputText is raw UTF-8 text, segmented into paragraphs, sentences,
	// tokens and syntactic words by the model's segmenter
	// (Model.HasSegmenter; parser/segment), read as a stream: memory is
	// bounded whatever the size of the input. Each sentence is then tagged
	// and parsed as a CoNLL-U sentence without tags would be (the
	// plain-token parser; SpaceAfter=No in MISC is read by the XPOS tagger
	// as usual). The output keeps every byte of the input: see the
	// package documentation, "Raw text", for its comments and MISC
	// attributes, and conllu.RebuildText for the way back. A model
	// without a segmenter gives an error wrapping ErrOptions.
	InputText
)

// DocOptions are the options of a document parse (ParseDocument,
// NewStream). The zero value reads CoNLL-U, parses on the calling
// goroutine with the model's default options and stops at the first
// error.
type DocOptions struct {
	// Name names the input in error messages, which carry the line number:
	// of the malformed line, or of the first line of a sentence the parser
	// rejects ("name:12: sentence 3: ...").
	Name string
	// Input is the input's format.
	Input InputFormat
	// Workers is the number of goroutines parsing (1 or less: the calling
	// goroutine; more than MaxWorkers: MaxWorkers). A goroutine is started
	// only when there is a batch of sentences for it, so a short input
	// starts few. The output, and the error if any, are the same for any
	// number: sentences are written in input order, and parsing stops at
	// the first error in input order. NewStream ignores it.
	Workers int
	// OnError says what to do with a sentence that cannot be parsed.
	OnError OnError
	// NoTags blanks LEMMA, UPOS, XPOS and FEATS of CoNLL-U input, on
	// words and empty nodes, before parsing, so that the model predicts
	// the tags (conllu.Sentence.StripTags). Pre-tokenized text has none.
	NoTags bool
	// First numbers the sentences of pre-tokenized and raw text: the
	// first gets "# sent_id = First+1".
	First int
	// Presegmented, with InputText, makes every line break end a
	// sentence: one sentence a line (a blank line still ends a paragraph
	// too); the segmenter still decides the tokens and multiword tokens
	// but never ends a sentence inside a line (except at
	// segment.MaxTokens tokens). With another input it is an error
	// wrapping ErrOptions.
	Presegmented bool
	// Ranges, with InputText, adds TokenRange=START:END to the MISC of
	// every token (of the multiword-token line for a multiword token):
	// the token's offsets in the whole input, END exclusive, in bytes
	// (RangesBytes) or Unicode code points (RangesCodePoints). With
	// another input anything but RangesNone is an error wrapping
	// ErrOptions.
	Ranges Ranges
	// TokenizeOnly, with InputText, segments without tagging or parsing:
	// the same sentences, comments and MISC, with every column but ID,
	// FORM and MISC "_" (HEAD and DEPREL too); Parse is then checked but
	// not used. With another input it is an error wrapping ErrOptions.
	TokenizeOnly bool
	// Parse is how each sentence is parsed (see Model.Parse). With
	// Parse.Confidence every word parsed gets its confidence in MISC as
	// "Confidence=0.931" (three decimals; an attribute Confidence given
	// in MISC is replaced, the others kept). With Parse.KBest above 1,
	// each sentence parsed is followed by its other trees of the k best
	// (see writeKBest).
	Parse Options
}

// DocStats counts what a document parse wrote.
type DocStats struct {
	Sentences int // sentences written, parsed or copied through
	Skipped   int // of which copied through unparsed (SkipOnError)
	// Replaced counts the bytes of invalid UTF-8 in raw text
	// (InputText) replaced by U+FFFD (SkipOnError; see ReplacedComment).
	Replaced int
}

// ParseDocument reads a document in the format o.Input from r, parses
// every sentence with o.Parse and writes CoNLL-U to w. The sentences before
// the first error are written (with SkipOnError, every sentence is). It
// returns what it wrote, also when it stops at an error. Errors wrap
// ErrInput (the document), ErrOptions (o, checked first) or the reader's
// or writer's error.
func (m *Model) ParseDocument(r io.Reader, w io.Writer, o DocOptions) (DocStats, error) {
	src, err := m.source(r, o)
	if err != nil {
		return DocStats{}, err
	}
	return m.stream(src, w, o.Workers)
}

// source returns the source of the sentences of r for o, with o.Parse
// resolved on the model.
func (m *Model) source(r io.Reader, o DocOptions) (source, error) {
	opt, err := m.c.ResolveOptions(core.Options(o.Parse))
	if err != nil {
		return source{}, err
	}
	if err := m.checkTextOptions(o); err != nil {
		return source{}, err
	}
	switch o.Input {
	case InputCoNLLU:
		return conlluSource(r, o, opt), nil
	case InputTokens:
		return tokenSource(r, o, opt), nil
	case InputText:
		return m.textSource(r, o, opt), nil
	}
	return source{}, fmt.Errorf("%w: input format %d: want InputCoNLLU, InputTokens or InputText", ErrOptions, o.Input)
}

// docItem is one sentence of a document: s to parse (failing with fail),
// or raw, the lines of a malformed sentence to copy through (SkipOnError).
type docItem struct {
	s    *conllu.Sentence
	fail func(error) error // the error of a sentence the parser rejects
	raw  []byte
	alts []core.ScoredTree // the k best trees after the first (DocOptions.Parse)
	// replaced counts the bytes of invalid UTF-8 of its text replaced by
	// U+FFFD (see ReplacedComment).
	replaced int
}

// source returns the sentences of a document one by one (io.EOF at its
// end); skip reports the option SkipOnError.
type source struct {
	next     func() (docItem, error)
	skip     bool
	tokenize bool // DocOptions.TokenizeOnly: the sentences are not parsed
	opt      core.Options
}

// errorComment returns the comment line that SkipOnError puts before a
// sentence it copies through: the error message on one line.
func errorComment(err error) string {
	return ErrorComment + strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' {
			return ' '
		}
		return r
	}, err.Error())
}

// skipped returns raw (the lines of a malformed sentence) after the
// comment naming err, as the block of text that SkipOnError writes.
func skipped(err error, raw []byte) []byte {
	b := append([]byte(errorComment(err)), '\n')
	return append(append(b, raw...), '\n')
}

// conlluSource reads the sentences of CoNLL-U input.
func conlluSource(r io.Reader, o DocOptions, opt core.Options) source {
	name := o.Name
	rd := conllu.NewReader(r, name)
	skip := o.OnError == SkipOnError
	if skip {
		rd.KeepLines()
	}
	return source{skip: skip, opt: opt, next: func() (docItem, error) {
		s, err := rd.Next()
		if err != nil {
			var ce *conllu.Error
			if !skip || !errors.As(err, &ce) {
				return docItem{}, err
			}
			raw, ferr := rd.SkipRest()
			if ferr != nil {
				return docItem{}, ferr
			}
			return docItem{raw: skipped(err, raw)}, nil
		}
		if o.NoTags {
			s.StripTags()
		}
		line := rd.SentenceLine()
		return docItem{s: s, fail: func(err error) error {
			return fmt.Errorf("%s:%d: sentence %s: %w", name, line, sentName(s), err)
		}}, nil
	}}
}

// tokenSource reads the sentences of pre-tokenized text.
func tokenSource(r io.Reader, o DocOptions, opt core.Options) source {
	name := o.Name
	tr := conllu.NewTokenReader(r, name)
	skip := o.OnError == SkipOnError
	if skip {
		tr.KeepLines()
	}
	n := o.First
	return source{skip: skip, opt: opt, next: func() (docItem, error) {
		s, err := tr.Next()
		if err != nil {
			var ce *conllu.Error
			if !skip || !errors.As(err, &ce) || len(tr.Line()) == 0 {
				return docItem{}, err
			}
			n++
			raw := fmt.Appendf(nil, "# sent_id = %d\n", n)
			return docItem{raw: append(raw, skipped(err, tr.Line())...)}, nil
		}
		n++
		forms := make([]string, len(s.Words))
		for i, w := range s.Words {
			forms[i] = w.Form
		}
		s.Comments = []string{fmt.Sprintf("# sent_id = %d", n), "# text = " + strings.Join(forms, " ")}
		k, line := n, tr.LineNumber()
		return docItem{s: s, fail: func(err error) error {
			return fmt.Errorf("%s:%d: sentence %d: %w", name, line, k, err)
		}}, nil
	}}
}

// streamBatch is the number of sentences a worker of stream parses at a
// time.
const streamBatch = 64

// streamJob is a batch of sentences of stream, in input order.
type streamJob struct {
	items   []docItem
	readErr error // reading stopped after these sentences with this error
	last    bool  // the input ends with this batch
	errs    []error
	done    chan struct{}
}

// stream parses the sentences src returns and writes them to w in input
// order, with up to workers goroutines parsing. Without src.skip it stops
// at the first error in input order, after writing the sentences before
// it: a read error as is, a sentence the parser rejects as its item's
// fail(err). With src.skip a rejected sentence is written unparsed after
// an error comment. It returns what it wrote.
func (m *Model) stream(src source, w io.Writer, workers int) (DocStats, error) {
	d := &docParse{m: m, src: src, bw: bufio.NewWriterSize(w, 64<<10)}
	var err error
	if workers <= 1 {
		err = d.serial()
	} else {
		err = d.concurrent(min(workers, MaxWorkers()))
	}
	return d.st, flushed(d.bw, err)
}

// docParse is one run of stream. The input goes in batches of streamBatch
// sentences through three steps: read, parse, write. With one worker they
// run in turn on the calling goroutine (serial); with more (concurrent),
// a reader goroutine hands each batch to the writer (the calling
// goroutine, in order) and to the workers, and the writer waits for each
// batch to be parsed.
type docParse struct {
	m   *Model
	src source
	bw  *bufio.Writer
	st  DocStats
}

// read reads the next batch.
func (d *docParse) read() *streamJob {
	j := &streamJob{done: make(chan struct{})}
	for len(j.items) < streamBatch {
		it, err := d.src.next()
		if err != nil {
			if err != io.EOF {
				j.readErr = err
			}
			j.last = true
			break
		}
		j.items = append(j.items, it)
	}
	return j
}

// parse parses a batch and closes j.done.
func (d *docParse) parse(j *streamJob) {
	var r core.Result
	for i := range j.items {
		if j.items[i].s == nil || d.src.tokenize {
			continue
		}
		if err := d.m.parseItem(&j.items[i], d.src.opt, &r); err != nil {
			if j.errs == nil {
				j.errs = make([]error, len(j.items))
			}
			j.errs[i] = err
			if !d.src.skip {
				break
			}
		}
	}
	close(j.done)
}

// write writes a parsed batch; it returns the first error that ends the
// document.
func (d *docParse) write(j *streamJob) error {
	for i, it := range j.items {
		var perr error
		if j.errs != nil {
			perr = j.errs[i]
		}
		if err := writeItem(d.bw, it, perr, d.src.skip, &d.st); err != nil {
			return err
		}
	}
	return j.readErr
}

// serial reads, parses and writes batch after batch.
func (d *docParse) serial() error {
	for {
		j := d.read()
		d.parse(j)
		if err := d.write(j); err != nil || j.last {
			return err
		}
	}
}

// concurrent parses with up to workers goroutines. The reader starts a
// worker per batch, up to workers, until the writer stops: a short input
// starts few.
func (d *docParse) concurrent(workers int) error {
	order := make(chan *streamJob, 2*workers)
	work := make(chan *streamJob, 2*workers)
	quit := make(chan struct{})
	var wg sync.WaitGroup
	worker := func() {
		defer wg.Done()
		for {
			select {
			case j := <-work:
				d.parse(j)
			case <-quit:
				return
			}
		}
	}
	var mu sync.Mutex
	stopped := false
	start := func() {
		mu.Lock()
		defer mu.Unlock()
		if !stopped {
			wg.Add(1)
			go worker()
		}
	}
	go func() {
		defer close(order)
		for started := 0; ; {
			j := d.read()
			select {
			case order <- j:
			case <-quit:
				return
			}
			if started < workers {
				started++
				start()
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
	var err error
	for j := range order {
		<-j.done
		if err = d.write(j); err != nil {
			break
		}
	}
	mu.Lock()
	stopped = true
	mu.Unlock()
	close(quit)
	wg.Wait()
	return err
}

// writeItem writes one sentence of a document to w: it.raw, a malformed
// sentence copied through; else it.s, parsed (without its empty nodes), or
// with perr (the parser's error) copied through unparsed when skip is set. It counts what it
// writes in st. Without skip, perr is returned as it.fail(perr).
func writeItem(w io.Writer, it docItem, perr error, skip bool, st *DocStats) error {
	if it.s == nil {
		if _, err := w.Write(it.raw); err != nil {
			return err
		}
		st.Sentences++
		st.Skipped++
		return nil
	}
	if perr != nil {
		err := it.fail(perr)
		if !skip {
			return err
		}
		it.s.Comments = append(it.s.Comments, errorComment(err))
		st.Skipped++
	} else {
		it.s.Empty = nil // nodes of the enhanced graph, which is not predicted (see InputCoNLLU)
	}
	if err := conllu.Write(w, it.s); err != nil {
		return err
	}
	st.Sentences++
	st.Replaced += it.replaced
	if perr == nil && len(it.alts) > 0 {
		return writeKBest(w, it.s, it.alts, 2)
	}
	return nil
}

// parseItem parses the sentence of it with the resolved options opt, with
// the confidences put in MISC and the trees after the best kept in it.alts
// (r is the caller's scratch).
func (m *Model) parseItem(it *docItem, opt core.Options, r *core.Result) error {
	if opt.Default() {
		return m.c.Parse(it.s.Words)
	}
	words := it.s.Words
	if err := m.c.ParseWithOptions(words, opt, r); err != nil {
		return err
	}
	for i, c := range r.Confidence {
		words[i].Misc = setMisc(words[i].Misc, "Confidence", strconv.FormatFloat(c, 'f', 3, 64))
	}
	for _, t := range r.Trees[min(1, len(r.Trees)):] {
		it.alts = append(it.alts, core.ScoredTree{Head: slices.Clone(t.Head), Deprel: slices.Clone(t.Deprel), Score: t.Score})
	}
	return nil
}

// setMisc returns the MISC value misc ("_" or "" for none) with the
// attribute key set to value: an attribute key in misc is replaced where
// it is, else key=value is appended after the others.
func setMisc(misc, key, value string) string {
	kv := key + "=" + value
	if conllu.Absent(misc) {
		return kv
	}
	parts := strings.Split(misc, "|")
	for i, p := range parts {
		if k, _, _ := strings.Cut(p, "="); k == key {
			parts[i] = kv
			return strings.Join(parts, "|")
		}
	}
	return misc + "|" + kv
}

// writeKBest writes the trees of s other than its best one as CoNLL-U
// sentences: for each tree of trees, numbered from first on, a copy of s
// with that tree's HEAD and DEPREL, its comments followed by
// "# kbest_rank = N" and "# kbest_score = SCORE" (ScoredTree.Score, four
// decimals) and its sent_id, if it has one, suffixed with "-kbestN" so
// that every sentence of the output has its own. A parsed sentence s
// itself is written without these comments: it is rank 1.
func writeKBest(w io.Writer, s *conllu.Sentence, trees []core.ScoredTree, first int) error {
	for j, t := range trees {
		rank := first + j
		c := *s
		c.Words = slices.Clone(s.Words)
		for i := range c.Words {
			c.Words[i].Head, c.Words[i].Deprel = t.Head[i], t.Deprel[i]
			c.Words[i].Misc = dropMisc(c.Words[i].Misc, "Confidence")
		}
		c.Comments = make([]string, 0, len(s.Comments)+2)
		for _, line := range s.Comments {
			if k, v, ok := strings.Cut(line, "="); ok && strings.TrimSpace(strings.TrimPrefix(k, "#")) == "sent_id" {
				line = fmt.Sprintf("%s= %s-kbest%d", k, strings.TrimSpace(v), rank)
			}
			c.Comments = append(c.Comments, line)
		}
		c.Comments = append(c.Comments, fmt.Sprintf("# kbest_rank = %d", rank), fmt.Sprintf("# kbest_score = %.4f", t.Score))
		if err := conllu.Write(w, &c); err != nil {
			return err
		}
	}
	return nil
}

// dropMisc returns misc without its attribute key ("_" when none is left).
func dropMisc(misc, key string) string {
	if conllu.Absent(misc) {
		return misc
	}
	parts := strings.Split(misc, "|")
	parts = slices.DeleteFunc(parts, func(p string) bool { k, _, _ := strings.Cut(p, "="); return k == key })
	if len(parts) == 0 {
		return "_"
	}
	return strings.Join(parts, "|")
}

// Stream parses a document one sentence at a time, on the goroutine that
// calls Next: the pull form of ParseDocument, whose memory does not grow
// with the document (one sentence and the reader's buffer). A Stream is
// not safe for concurrent use.
type Stream struct {
	m   *Model
	src source
	buf bytes.Buffer
	st  DocStats
	err error
	r   core.Result
}

// NewStream returns a Stream over the document read from r, with the
// options o (o.Workers is ignored: one sentence is parsed per call). An
// error in o is returned by the first call to Next.
func (m *Model) NewStream(r io.Reader, o DocOptions) *Stream {
	src, err := m.source(r, o)
	return &Stream{m: m, src: src, err: err}
}

// Next reads, parses and returns the next sentence as CoNLL-U (its lines
// and the blank line that ends it), or a sentence copied through with
// SkipOnError. The bytes are valid until the next call. At the end of the
// document it returns io.EOF. An error (the document's first error without
// SkipOnError, or an error that ends the input) is final: every later call
// returns it again. The sentences returned before it are those that
// ParseDocument would write.
func (s *Stream) Next() ([]byte, error) {
	if s.err != nil {
		return nil, s.err
	}
	s.buf.Reset()
	it, err := s.src.next()
	if err == nil {
		var perr error
		if it.s != nil && !s.src.tokenize {
			perr = s.m.parseItem(&it, s.src.opt, &s.r)
		}
		err = writeItem(&s.buf, it, perr, s.src.skip, &s.st)
	}
	if err != nil {
		s.err = err
		return nil, err
	}
	return s.buf.Bytes(), nil
}

// Stats returns what Next has returned so far.
func (s *Stream) Stats() DocStats { return s.st }

// MaxWorkers returns the most goroutines ParseDocument uses: 4 per CPU
// the Go runtime may use (GOMAXPROCS). Parsing is CPU-bound; more would
// only cost memory.
func MaxWorkers() int { return 4 * runtime.GOMAXPROCS(0) }

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
		return "starting " + conllu.Quote(s.Words[0].Form)
	}
	return "(empty)"
}
