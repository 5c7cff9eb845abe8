package parser

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"runtime"
	"strings"
	"sync"

	"github.com/transparse/transparse/internal/par"
	"github.com/transparse/transparse/modelfmt"
	"github.com/transparse/transparse/parser/conllu"
	"github.com/transparse/transparse/parser/feature"
	"github.com/transparse/transparse/parser/linear"
	"github.com/transparse/transparse/parser/pseudoproj"
	"github.com/transparse/transparse/parser/tagger"
	"github.com/transparse/transparse/parser/transition"
)

// Classifier names inside the model file. A variant's fast classifier (a
// cascade, Variant.Fast) is stored as its name + fastSuffix, with
// Params[fastMarginParam] = round(1000 * FastMargin).
const (
	clfGold         = "parser.gold"
	clfPlain        = "parser.plain"
	fastSuffix      = ".fast"
	fastMarginParam = "fast_margin_milli"
)

// Document returns the model as a model-file document.
func (m *Model) Document() *modelfmt.Model {
	names := m.classes.Names()
	doc := &modelfmt.Model{
		Card:          m.card,
		System:        m.classes.Sys.Name(),
		SystemOptions: map[string]string{"pseudo_projective": m.pproj.String()},
		Strings:       map[string][]string{"deprels": m.classes.Deprels},
		Params:        map[string]int64{"root_deprel": int64(m.classes.RootLabel)},
	}
	for _, v := range []struct {
		name string
		v    *Variant
	}{{clfGold, &m.gold}, {clfPlain, &m.plain}} {
		if v.v.Clf == nil {
			continue
		}
		doc.Classifiers = append(doc.Classifiers, v.v.classifier(v.name, names))
		if f := v.v.Fast; f != nil {
			c := f.classifier(v.name+fastSuffix, names)
			c.Params[fastMarginParam] = int64(math.Round(1000 * float64(v.v.FastMargin)))
			doc.Classifiers = append(doc.Classifiers, c)
		}
	}
	doc.Classifiers = append(doc.Classifiers, tagger.Classifiers(m.taggers.UPOS, m.taggers.XPOS)...)
	return doc
}

// classifier encodes a parser classifier with its templates and feature
// hash version (Params["feature_hash"]; absent means feature.HashV1).
func (v *Variant) classifier(name string, classes []string) modelfmt.Classifier {
	c := v.Clf.Classifier(name, v.Ext.Templates(), classes)
	c.Params["feature_hash"] = int64(v.Ext.HashVersion())
	return c
}

// Save writes the model file to path (atomically: a temporary file renamed;
// see modelfmt.WriteFile). A symbolic link is written through; a
// directory, device, FIFO or socket at path is refused, untouched.
func (m *Model) Save(path string) error { return modelfmt.WriteFile(path, m.Document()) }

// MarshalBinary returns the bytes of the model file.
func (m *Model) MarshalBinary() ([]byte, error) { return modelfmt.Marshal(m.Document()) }

// Load reads a model file from path, which may also be a pipe or a device:
// it is read as a stream within the bounds of modelfmt.ReadFile. Errors
// wrap the modelfmt sentinels (modelfmt.ErrNotModel, ErrNewerVersion,
// ErrCorrupt) or the os error.
func Load(path string) (*Model, error) {
	doc, err := modelfmt.ReadFile(path)
	if err != nil {
		return nil, err
	}
	m, err := FromDocument(doc)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return m, nil
}

// LoadBytes reads a model from the bytes of a model file. data is not
// retained.
func LoadBytes(data []byte) (*Model, error) {
	doc, err := modelfmt.Decode(data)
	if err != nil {
		return nil, err
	}
	return FromDocument(doc)
}

// FromDocument builds a model from a decoded document. Inconsistent content
// gives an error wrapping modelfmt.ErrCorrupt.
func FromDocument(doc *modelfmt.Model) (*Model, error) {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", modelfmt.ErrCorrupt, fmt.Sprintf(format, args...))
	}
	sys, err := transition.Lookup(doc.System)
	if err != nil {
		return nil, bad("%v", err)
	}
	deprels := doc.Strings["deprels"]
	if len(deprels) == 0 {
		return nil, bad("no deprels")
	}
	root := doc.Params["root_deprel"]
	if root < 0 || root >= int64(len(deprels)) {
		return nil, bad("root deprel %d out of range", root)
	}
	classes := transition.NewClasses(sys, deprels, int32(root))
	byName := map[string]*modelfmt.Classifier{}
	for i := range doc.Classifiers {
		byName[doc.Classifiers[i].Name] = &doc.Classifiers[i]
	}
	variant := func(name string, morph bool) (Variant, error) {
		c := byName[name]
		if c == nil {
			return Variant{}, bad("classifier %q missing", name)
		}
		if len(c.Classes) != classes.Len() {
			return Variant{}, bad("classifier %q has %d classes, the system needs %d", name, len(c.Classes), classes.Len())
		}
		hash := int64(feature.HashV1)
		if h, ok := c.Params["feature_hash"]; ok {
			hash = h
		}
		ext, err := feature.NewVersion(c.Templates, int(hash))
		if err != nil {
			return Variant{}, bad("classifier %q: %v", name, err)
		}
		clf, err := linear.FromClassifier(c)
		if err != nil {
			return Variant{}, fmt.Errorf("%w: classifier %q: %v", modelfmt.ErrCorrupt, name, err)
		}
		if clf.NumClasses() != classes.Len() {
			return Variant{}, bad("classifier %q weights have %d classes, want %d", name, clf.NumClasses(), classes.Len())
		}
		return Variant{Morph: morph, Ext: ext, Clf: clf}, nil
	}
	// The classifiers and the taggers decode independently: one step each
	// (and the tag dictionary), run on all CPUs largest first (load time
	// is their decoding).
	type built struct {
		v   Variant
		err error
	}
	var gold, goldFast, plain, plainFast built
	var steps []par.Step
	add := func(b *built, name string, morph bool) {
		steps = append(steps, par.Step{Cost: linear.BuildCost(byName[name]), Run: func() { b.v, b.err = variant(name, morph) }})
	}
	add(&gold, clfGold, true)
	if byName[clfGold+fastSuffix] != nil {
		add(&goldFast, clfGold+fastSuffix, true)
	}
	// A gold-tags-only model (trained for comparing systems) has no
	// plain-token classifier and no taggers.
	if byName[clfPlain] != nil {
		add(&plain, clfPlain, false)
		if byName[clfPlain+fastSuffix] != nil {
			add(&plainFast, clfPlain+fastSuffix, false)
		}
	}
	tsteps, taggers := tagger.PairSteps(doc.Classifiers)
	par.Do(append(steps, tsteps...))
	// withFast is the variant of b with its fast classifier f, if the file
	// has one.
	withFast := func(b, f *built, name string) (Variant, error) {
		if b.err != nil || f.v.Clf == nil && f.err == nil {
			return b.v, b.err
		}
		if f.err != nil {
			return b.v, f.err
		}
		milli, ok := byName[name+fastSuffix].Params[fastMarginParam]
		if !ok || milli < 0 || milli > 1<<40 {
			return b.v, bad("classifier %q: param %q missing or out of range", name+fastSuffix, fastMarginParam)
		}
		v := b.v
		v.Fast, v.FastMargin = &f.v, float32(milli)/1000
		return v, nil
	}
	var errs [4]error
	var tg Taggers
	var goldV, plainV Variant
	goldV, errs[0] = withFast(&gold, &goldFast, clfGold)
	plainV, errs[1] = withFast(&plain, &plainFast, clfPlain)
	var errU, errX error
	tg.UPOS, tg.XPOS, errU, errX = taggers()
	for k, e := range [...]error{errU, errX} {
		if e != nil {
			col := [...]string{tagger.UPOS, tagger.XPOS}[k]
			errs[2+k] = fmt.Errorf("%w: %s: %v", modelfmt.ErrCorrupt, tagger.ClassifierName(col), e)
		}
	}
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	if tg.UPOS == nil && plainV.Clf != nil {
		return nil, bad("classifier %q missing", tagger.ClassifierName(tagger.UPOS))
	}
	m := NewModel(doc.Card, classes, goldV, plainV, tg)
	if p, ok := doc.SystemOptions["pseudo_projective"]; ok {
		enc, err := pseudoproj.Parse(p)
		if err != nil {
			return nil, bad("system option pseudo_projective: %v", err)
		}
		m.pproj = enc
	}
	return m, nil
}

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
// workers goroutines (1 or less: on the calling goroutine; more than
// MaxWorkers: MaxWorkers). A goroutine is started only when there is a
// batch of sentences for it, so a short input starts few. The output, and
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

// MaxWorkers returns the most goroutines ParseCoNLLUWorkers and
// ParseTokensWorkers use: 4 per CPU the Go runtime may use (GOMAXPROCS).
// Parsing is CPU-bound; more would only cost memory.
func MaxWorkers() int { return 4 * runtime.GOMAXPROCS(0) }

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

	workers = min(workers, MaxWorkers())
	order := make(chan *streamJob, 2*workers)
	work := make(chan *streamJob, 2*workers)
	quit := make(chan struct{})
	var wg sync.WaitGroup
	worker := func() {
		defer wg.Done()
		for {
			select {
			case j := <-work:
				parse(j)
			case <-quit:
				return
			}
		}
	}
	// The reader starts a worker per batch, up to workers, until the
	// writer stops.
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
			j := read()
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
		if err = write(j); err != nil {
			break
		}
	}
	mu.Lock()
	stopped = true
	mu.Unlock()
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
