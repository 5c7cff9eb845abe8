package parser_test

// Fuzz targets for the library boundary: the entry points the C
// API calls with caller data. tp_parse calls (*parser.Model).Parse,
// tp_parse_document calls (*parser.Model).ParseDocument and
// tp_model_load_from_memory calls parser.LoadBytes; the targets call the
// same functions with the same argument shapes.
//
//	go test -run='^$' -fuzz='^FuzzParse$' -fuzztime=10m -parallel=1 ./parser/
//
// The models are tiny ones trained at start-up on a few EWT sentences (one
// per transition system, in about a second) plus the bundled model when it
// exists. The seed corpora are in testdata/fuzz/<FuzzName>/.

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"
	"unsafe"

	"github.com/transparse/transparse/internal/testenv"

	"github.com/golang/snappy"

	"github.com/transparse/transparse/modelfmt"
	"github.com/transparse/transparse/parser"
	"github.com/transparse/transparse/parser/conllu"
	"github.com/transparse/transparse/parser/internal/core"
	"github.com/transparse/transparse/parser/linear"
	"github.com/transparse/transparse/parser/pseudoproj"
	"github.com/transparse/transparse/parser/train"
	"github.com/transparse/transparse/parser/transition"
	"github.com/transparse/transparse/parser/tree"
)

// udDir holds the shared Universal Dependencies treebanks (testenv.UDDir).
var udDir = testenv.UDDir()

// tinySystems are the transition systems of the fuzz targets' tiny models:
// the linear ones, so that every fuzz input runs in milliseconds (the
// quadratic systems take seconds on a 10,000-word input, which makes a
// fuzzer's deadline flaky). TestLongSentencesBounded covers every system.
var tinySystems = []string{"arc-eager", "arc-standard", "arc-hybrid"}

// A tinyModel is a model trained on a few sentences: small enough to be
// fuzzed and corrupted byte by byte (tens of KiB), real enough to exercise
// every part of the loader and the parser.
type tinyModel struct {
	system string
	model  *parser.Model
	file   []byte // the model file
	// small is the file of the same model with its taggers' weights and
	// dictionaries emptied (a few KiB): a valid model whose every section
	// the fuzzer can reach quickly. Nil if the layouts changed so that
	// emptying them no longer gives a valid model (the load targets then
	// fail: fix shrink).
	small []byte
}

var (
	tinyOnce   sync.Once
	tinyModels []tinyModel
	tinyErr    error
)

// needData skips tb when the UD data is absent, and fails it in CI.
func needData(tb testing.TB, err error) {
	tb.Helper()
	testenv.SkipOrFail(tb, "no UD data: %v", err)
}

// tiny trains (once per process) one tiny model per system of tinySystems
// on the first sentences of EWT train, with a 20-sentence dev set.
func tiny(tb testing.TB) []tinyModel {
	tb.Helper()
	tinyOnce.Do(func() { tinyModels, tinyErr = trainTiny(tinySystems) })
	if tinyErr != nil {
		if errors.Is(tinyErr, os.ErrNotExist) {
			needData(tb, tinyErr)
		}
		tb.Fatalf("training tiny models: %v", tinyErr)
	}
	return tinyModels
}

func trainTiny(systems []string) ([]tinyModel, error) {
	dir, err := os.MkdirTemp("", "transparse-tiny-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	head := func(name string, n int) (string, error) {
		r, err := os.Open(filepath.Join(udDir, name))
		if err != nil {
			return "", err
		}
		defer r.Close()
		rd := conllu.NewReader(r, name)
		var sents []*conllu.Sentence
		for len(sents) < n {
			s, err := rd.Next()
			if err != nil {
				return "", err
			}
			sents = append(sents, s)
		}
		var b bytes.Buffer
		if err := conllu.WriteAll(&b, sents); err != nil {
			return "", err
		}
		p := filepath.Join(dir, name)
		return p, os.WriteFile(p, b.Bytes(), 0o644)
	}
	trainPath, err := head("en_ewt-ud-train.conllu", 3)
	if err != nil {
		return nil, err
	}
	devPath, err := head("en_ewt-ud-dev.conllu", 20)
	if err != nil {
		return nil, err
	}
	var out []tinyModel
	for _, sys := range systems {
		m, err := train.Train(train.Options{System: sys, TrainPath: trainPath, DevPath: devPath,
			Gold: train.ParserOptions{Epochs: 1}, Plain: train.ParserOptions{Epochs: 1}, Taggers: train.TaggerOptions{Epochs: 1},
			Seed: 1, Name: "tiny-" + sys})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", sys, err)
		}
		b, err := m.MarshalBinary()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", sys, err)
		}
		// The model as the C API sees it: loaded from its bytes.
		lm, err := parser.LoadBytes(b)
		if err != nil {
			return nil, fmt.Errorf("%s: loading the tiny model: %w", sys, err)
		}
		out = append(out, tinyModel{system: sys, model: lm, file: b, small: shrink(b)})
	}
	return out, nil
}

// shrink returns the model file b with the weights and dictionaries of its
// taggers emptied (a linear classifier without features and a tag
// dictionary without entries are valid), or nil if that does not load.
func shrink(b []byte) []byte {
	doc, err := modelfmt.Decode(b)
	if err != nil {
		return nil
	}
	for i := range doc.Classifiers {
		c := &doc.Classifiers[i]
		if (c.Layout != linear.Layout && c.Layout != linear.LayoutCodebook) || !strings.HasPrefix(c.Name, "tagger.") {
			continue
		}
		c.Params["features"], c.Params["entries"] = 0, 0
		for _, k := range []string{"keys", "counts", "classes", "weights"} {
			c.Blobs[k] = []byte{}
		}
		if _, ok := c.Params["tagger.dict_entries"]; ok {
			c.Params["tagger.dict_entries"] = 0
			c.Blobs["tagger.dict.masks"] = []byte{}
			if _, ok := c.Blobs["tagger.dict.keys"]; ok { // else shared with the UPOS tagger
				c.Blobs["tagger.dict.keys"] = []byte{}
			}
		}
	}
	small, err := modelfmt.Marshal(doc)
	if err != nil {
		return nil
	}
	if _, err := parser.LoadBytes(small); err != nil {
		return nil
	}
	return small
}

// codebook returns the model file b with the weights of every linear
// classifier rounded to 16 levels, so stored as one-byte codes (layout
// linear.LayoutCodebook), or nil if that fails.
func codebook(b []byte) []byte {
	doc, err := modelfmt.Decode(b)
	if err != nil {
		return nil
	}
	for i := range doc.Classifiers {
		if doc.Classifiers[i].Layout != linear.Layout {
			continue // the parts of the lemmatizer and FEATS tagger that are not weights
		}
		c, err := linear.Requantize(&doc.Classifiers[i], 16)
		if err != nil {
			return nil
		}
		doc.Classifiers[i] = *c
	}
	out, err := modelfmt.Marshal(doc)
	if err != nil {
		return nil
	}
	if _, err := parser.LoadBytes(out); err != nil {
		return nil
	}
	return out
}

var (
	bundledOnce  sync.Once
	bundledModel *parser.Model
)

// bundled returns the bundled model ($TRANSPARSE_MODEL or
// ../models/en_ewt.tpm), or nil when there is none.
func bundled() *parser.Model {
	bundledOnce.Do(func() {
		if m, err := parser.Load(testenv.ModelPath()); err == nil {
			bundledModel = m
		}
	})
	return bundledModel
}

// fuzzModels are the models the parse targets choose from.
func fuzzModels(tb testing.TB) []*parser.Model {
	var ms []*parser.Model
	for _, t := range tiny(tb) {
		ms = append(ms, t.model)
	}
	if m := bundled(); m != nil {
		ms = append(ms, m)
	}
	return ms
}

// rawDocument returns the msgpack document inside a model file.
func rawDocument(tb testing.TB, file []byte) []byte {
	tb.Helper()
	const hdr = modelfmt.SniffLen + 8
	if len(file) < hdr {
		tb.Fatalf("model file of %d bytes", len(file))
	}
	n := binary.LittleEndian.Uint64(file[modelfmt.SniffLen:])
	doc, err := io.ReadAll(snappy.NewReader(bytes.NewReader(file[hdr:])))
	if err != nil || uint64(len(doc)) != n {
		tb.Fatalf("decompressing the document: %v (%d bytes, header says %d)", err, len(doc), n)
	}
	return doc
}

// container wraps a msgpack document in a version 1 model file (magic,
// version, document length, snappy framing stream; docs/model-format.md),
// with correct checksums, so that a damaged document reaches the decoder.
func container(doc []byte) []byte {
	var b bytes.Buffer
	b.WriteString(modelfmt.Magic)
	var n [12]byte
	binary.LittleEndian.PutUint32(n[:4], modelfmt.FormatVersion)
	binary.LittleEndian.PutUint64(n[4:], uint64(len(doc)))
	b.Write(n[:])
	w := snappy.NewBufferedWriter(&b)
	w.Write(doc)
	w.Close()
	return b.Bytes()
}

// ---- the sentence entry point (tp_parse) ---------------------------------

// fuzzWords decodes a fuzz input into the words tp_parse builds: words are
// separated by 0x1e and the fields of a word (form, UPOS, XPOS, FEATS,
// LEMMA) by 0x1f, so that every other byte, tabs and line breaks included,
// can appear in a value. The words are repeated cyclically up to n words
// when n is larger (up to parser.MaxWords+1, to reach the length limit
// cheaply). As in capi's parse, a tag that is empty stays "_".
func fuzzWords(data []byte, n int) []conllu.Word {
	var words []conllu.Word
	if len(data) > 0 {
		for _, rec := range bytes.Split(data, []byte{0x1e}) {
			f := bytes.Split(rec, []byte{0x1f})
			w := conllu.Word{Form: string(f[0]), Lemma: "_", UPOS: "_", XPOS: "_",
				Feats: "_", Head: -1, Deprel: "_", Deps: "_", Misc: "_"}
			for i, dst := range []*string{&w.UPOS, &w.XPOS, &w.Feats, &w.Lemma} {
				if i+1 < len(f) && len(f[i+1]) > 0 {
					*dst = string(f[i+1])
				}
			}
			words = append(words, w)
		}
	}
	n = min(n, parser.MaxWords+1)
	for k := 0; len(words) > 0 && len(words) < n; k++ {
		words = append(words, words[k])
	}
	for i := range words {
		words[i].ID = i + 1
	}
	return words
}

// checkParsed checks what Parse promises for the words in, parsed into out:
// the forms and given tags are kept, UPOS is filled in, the heads form a
// tree and every label is one of the model's.
func checkParsed(t testing.TB, m *parser.Model, in, out []conllu.Word) {
	t.Helper()
	if len(out) != len(in) {
		t.Fatalf("%d words in, %d out", len(in), len(out))
	}
	labels := labelSet(m)
	tg := parser.Core(m).Taggers()
	head := make([]int32, len(out)+1)
	for i := range out {
		w, w0 := &out[i], &in[i]
		if w.ID != i+1 || w.Form != w0.Form {
			t.Fatalf("word %d changed: %+v -> %+v", i+1, *w0, *w)
		}
		// Given columns are kept; absent ones are predicted by the
		// model's taggers, lemmatizer and FEATS tagger, when it has them
		// ("_" is a FEATS prediction: no features; and the lemma of "_").
		for _, c := range []struct {
			name        string
			given, got  string
			predictable bool
			blank       bool // "_" may be predicted
		}{{"UPOS", w0.UPOS, w.UPOS, tg.UPOS != nil, false}, {"XPOS", w0.XPOS, w.XPOS, tg.XPOS != nil, false},
			{"LEMMA", w0.Lemma, w.Lemma, tg.Lemmas != nil, w.Form == "_"}, {"FEATS", w0.Feats, w.Feats, tg.Feats != nil, true}} {
			switch {
			case !conllu.Absent(c.given) && c.got != c.given:
				t.Fatalf("word %d: given %s changed: %+v -> %+v", i+1, c.name, *w0, *w)
			case conllu.Absent(c.given) && c.predictable && (c.got == "" || c.got == "_" && !c.blank):
				t.Fatalf("word %d: no %s after parsing: %+v", i+1, c.name, *w)
			case conllu.Absent(c.given) && !c.predictable && c.got != c.given:
				t.Fatalf("word %d: %s %q the model cannot predict became %q", i+1, c.name, c.given, c.got)
			}
		}
		if !labels[w.Deprel] {
			t.Fatalf("word %d: label %q is not one of the model's", i+1, w.Deprel)
		}
		if w.Head < 0 || w.Head > len(out) {
			t.Fatalf("word %d: head %d out of range", i+1, w.Head)
		}
		head[i+1] = int32(w.Head)
	}
	if err := tree.Check(head); err != nil {
		t.Fatalf("not a tree: %v (heads %v)", err, head[1:])
	}
}

// labelSet is the set of labels a parse with m may contain: the model's
// deprels (without their pseudo-projective encoding, which Parse undoes)
// and "dep", given to a word the transitions left without a label.
func labelSet(m *parser.Model) map[string]bool {
	set := map[string]bool{"dep": true}
	for _, l := range m.Deprels() {
		if parser.Core(m).PseudoProjective() != pseudoproj.Baseline {
			l, _, _ = strings.Cut(l, pseudoproj.Up)
			l, _, _ = strings.Cut(l, pseudoproj.Down)
		}
		set[l] = true
	}
	return set
}

// parseChecked parses a copy of words with m and checks the outcome against
// core.CheckWords: an error exactly when CheckWords gives one, and then
// the same ErrInput error; a checked tree otherwise. It returns the parsed
// copy (nil on error).
func parseChecked(t *testing.T, m *parser.Model, words []conllu.Word) []conllu.Word {
	t.Helper()
	want := core.CheckWords(slices.Clone(words))
	out := slices.Clone(words)
	_, err := m.Parse(out, nil)
	switch {
	case want != nil && err == nil:
		t.Fatalf("Parse accepted what CheckWords refuses (%v)", want)
	case want == nil && err != nil:
		t.Fatalf("Parse: %v", err)
	case err != nil:
		if !errors.Is(err, parser.ErrInput) || err.Error() != want.Error() {
			t.Fatalf("Parse error %q, want ErrInput %q", err, want)
		}
		if len(words) > 0 && len(words) <= parser.MaxWords && !strings.Contains(err.Error(), "word ") {
			t.Fatalf("error %q does not name the word", err)
		}
		return nil
	}
	checkParsed(t, m, words, out)
	return out
}

// FuzzParse feeds arbitrary forms, tags and lengths to the sentence entry
// point of the C API, (*parser.Model).Parse, with each model: it never
// panics or hangs, refuses exactly what CheckWords refuses (with an
// ErrInput error naming the word), otherwise returns a tree over the words
// with the model's labels, keeps what was given, and is deterministic.
func FuzzParse(f *testing.F) {
	models := fuzzModels(f)
	for _, s := range []string{
		"I\x1esaw\x1eher\x1e.",
		"Dogs\x1fNOUN\x1fNNS\x1f_\x1fdog\x1ebark\x1f\x1fVBP\x1e.\x1fPUNCT",
		"Dogs\x1fNOUN\x1fNNS\x1ebark\x1fVERB\x1fVBP\x1e.\x1fPUNCT\x1f.",
		"The\x1fFOO\x1ecat\x1fBAR\x1fXX\x1fA=B|C=D\x1fcat",
		"",
		"a\x1e\x1eb",
		"a\tb\x1ec\nd",
		"\xff\xfe\x1eok",
		"ok\x1fNOUN\x1f\xc0\xaf",
		strings.Repeat("x", parser.MaxTokenBytes) + "\x1ey",
		strings.Repeat("x", parser.MaxTokenBytes+1),
		"日本\x1e語\x1e:)\x1e\u00a0\x1e\u200b\x1e_",
		"_\x1e_\x1f_\x1f_\x1f_\x1f_",
	} {
		for which := range models {
			f.Add(uint8(which), uint16(0), []byte(s))
		}
	}
	f.Add(uint8(0), uint16(parser.MaxWords), []byte("the\x1edog\x1ebarks\x1e,"))
	f.Add(uint8(1), uint16(parser.MaxWords+1), []byte("a"))
	f.Add(uint8(2), uint16(300), []byte("(\x1e(\x1e)\x1e\""))
	f.Fuzz(func(t *testing.T, which uint8, n uint16, data []byte) {
		m := models[int(which)%len(models)]
		words := fuzzWords(data, int(n))
		out := parseChecked(t, m, words)
		if out == nil {
			return
		}
		// As capi calls it: the strings are views of one buffer that the
		// next call overwrites. The parse is the same, and keeping no
		// string, the parser is not disturbed by the overwriting.
		aliased, buf := aliasWords(words)
		if _, err := m.Parse(aliased, nil); err != nil {
			t.Fatalf("Parse of the same words in one buffer: %v", err)
		}
		got := cloneWords(aliased)
		for i := range buf {
			buf[i] = 0xff
		}
		if !reflect.DeepEqual(out, got) {
			t.Fatalf("parses of the same words differ:\n%+v\n%+v", out, got)
		}
		if again := parseChecked(t, m, words); !reflect.DeepEqual(out, again) {
			t.Fatalf("parses of the same words differ:\n%+v\n%+v", out, again)
		}
	})
}

// aliasWords returns a copy of words whose strings are views of one byte
// buffer, also returned, as capi's callScratch makes them.
func aliasWords(words []conllu.Word) ([]conllu.Word, []byte) {
	var buf []byte
	for _, w := range words {
		for _, v := range []string{w.Form, w.Lemma, w.UPOS, w.XPOS, w.Feats, w.Deprel, w.Deps, w.Misc} {
			buf = append(buf, v...)
		}
	}
	out := slices.Clone(words)
	off := 0
	view := func(v string) string {
		if v == "" {
			return ""
		}
		s := unsafe.String(&buf[off], len(v))
		off += len(v)
		return s
	}
	for i := range out {
		w := &out[i]
		for _, p := range []*string{&w.Form, &w.Lemma, &w.UPOS, &w.XPOS, &w.Feats, &w.Deprel, &w.Deps, &w.Misc} {
			*p = view(*p)
		}
	}
	return out, buf
}

// cloneWords returns a copy of words with strings of their own.
func cloneWords(words []conllu.Word) []conllu.Word {
	out := slices.Clone(words)
	for i := range out {
		w := &out[i]
		for _, p := range []*string{&w.Form, &w.Lemma, &w.UPOS, &w.XPOS, &w.Feats, &w.Deprel, &w.Deps, &w.Misc} {
			*p = strings.Clone(*p)
		}
	}
	return out
}

// TestLongSentencesBounded parses a sentence of parser.MaxWords words with
// a tiny model of every transition system: every system's transitions are
// bounded (parser.MaxTransitionsPerWord caps the quadratic ones), and the
// longest sentence the C API accepts parses in bounded time into a tree.
func TestLongSentencesBounded(t *testing.T) {
	// At most 2.7 s each here; uncapped, Covington took about 7 minutes:
	// the bound is a guard against that blow-up, not a speed measurement.
	if testenv.Race {
		t.Skip("computes only (one goroutine): checked without -race")
	}
	limit := 20 * time.Second
	vocab := strings.Fields("the dog barks , and a cat that I saw sleeps on the mat . ( 42 ) \" -- !")
	models, err := trainTiny(transition.Names())
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			needData(t, err)
		}
		t.Fatalf("training tiny models: %v", err)
	}
	for _, tm := range models {
		words := make([]conllu.Word, parser.MaxWords)
		for i := range words {
			words[i] = conllu.Word{Form: vocab[(i*7+i/13)%len(vocab)], Lemma: "_", UPOS: "_", XPOS: "_",
				Feats: "_", Head: -1, Deprel: "_"}
		}
		start := time.Now()
		out := parseChecked(t, tm.model, words)
		took := time.Since(start)
		t.Logf("%s: %d words in %v", tm.system, len(out), took.Round(time.Millisecond))
		if took > limit {
			t.Errorf("%s: a sentence of %d words took %v, more than %v", tm.system, parser.MaxWords, took, limit)
		}
	}
}

// ---- the CoNLL-U entry point (tp_parse_document) -------------------------

// FuzzParseCoNLLU feeds arbitrary CoNLL-U to (*parser.Model).ParseDocument,
// the function behind tp_parse_document: it never panics; several workers and
// the sentence-at-a-time Stream write the same and fail the same; in
// keep-going mode (SkipOnError) only an over-long line stops the parse, any
// number of workers writes the same, and a clean document parses as without
// it; malformed CoNLL-U gives
// a *conllu.Error with the name and a line of the input; a sentence the
// parser refuses gives an ErrInput error naming the input and the sentence;
// and a document that reads and checks cleanly parses into a document with
// the same sentences, every word with a head and a label.
func FuzzParseCoNLLU(f *testing.F) {
	models := fuzzModels(f)
	tok := func(id, form, upos, head string) string {
		return id + "\t" + form + "\t_\t" + upos + "\t_\t_\t" + head + "\t_\t_\t_\n"
	}
	seeds := []string{
		"# sent_id = a\n# text = I saw her.\n" + tok("1", "I", "PRON", "_") + tok("2", "saw", "VERB", "_") +
			tok("3", "her", "PRON", "_") + tok("4", ".", "PUNCT", "_") + "\n",
		tok("1-2", "don't", "_", "_") + tok("1", "do", "_", "_") + tok("2", "n't", "_", "_") +
			tok("2.1", "x", "_", "_") + tok("3", "go", "_", "_") + "\n",
		tok("1", "A", "_", "2") + tok("2", "B", "_", "0") + "\n\n" + tok("1", "C", "_", "0"),
		"1\tonly\tthree\n\n",
		"",
		"\uFEFF# c\r\n" + tok("1", "x", "_", "_") + "\r\n",
		tok("1", strings.Repeat("y", parser.MaxTokenBytes+1), "_", "_") + "\n",
	}
	if data, err := os.ReadFile(filepath.Join(udDir, "en_ewt-ud-dev.conllu")); err == nil {
		seeds = append(seeds, string(data[:min(len(data), 3000)]))
	}
	for _, s := range seeds {
		for which := range models {
			f.Add(uint8(which), []byte(s))
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		m := models[int(which)%len(models)]
		var out bytes.Buffer
		_, err := m.ParseDocument(bytes.NewReader(data), &out, parser.DocOptions{Name: "fuzz"})
		// Workers write the same and stop at the same error.
		var wout bytes.Buffer
		_, werr := m.ParseDocument(bytes.NewReader(data), &wout, parser.DocOptions{Name: "fuzz", Workers: 3})
		if (err == nil) != (werr == nil) || (err != nil && err.Error() != werr.Error()) || !bytes.Equal(out.Bytes(), wout.Bytes()) {
			t.Fatalf("3 workers: error %v, output of %d bytes; one: error %v, %d bytes", werr, wout.Len(), err, out.Len())
		}
		// The sentence-at-a-time Stream returns the same and fails the same.
		st := m.NewStream(bytes.NewReader(data), parser.DocOptions{Name: "fuzz"})
		var sout bytes.Buffer
		var serr error
		for {
			b, err := st.Next()
			if err != nil {
				if err != io.EOF {
					serr = err
				}
				break
			}
			sout.Write(b)
		}
		if (err == nil) != (serr == nil) || (err != nil && err.Error() != serr.Error()) || !bytes.Equal(out.Bytes(), sout.Bytes()) {
			t.Fatalf("Stream: error %v, output of %d bytes; ParseDocument: error %v, %d bytes", serr, sout.Len(), err, out.Len())
		}
		// Keep-going mode: only an error that ends the input stops it, and
		// workers write what one does.
		skip := parser.DocOptions{Name: "fuzz", OnError: parser.SkipOnError}
		var kout, kwout bytes.Buffer
		kst, kerr := m.ParseDocument(bytes.NewReader(data), &kout, skip)
		skip.Workers = 3
		kwst, kwerr := m.ParseDocument(bytes.NewReader(data), &kwout, skip)
		if kerr != nil && !strings.Contains(kerr.Error(), "longer than") {
			t.Fatalf("skip: %v", kerr)
		}
		if (kerr == nil) != (kwerr == nil) || kst != kwst || !bytes.Equal(kout.Bytes(), kwout.Bytes()) {
			t.Fatalf("skip with 3 workers: %v %+v; one: %v %+v", kwerr, kwst, kerr, kst)
		}
		if err == nil && (kst.Skipped != 0 || !bytes.Equal(kout.Bytes(), out.Bytes())) {
			t.Fatalf("skip changed a clean parse: %+v", kst)
		}
		// What the reader and the parser's own check say about the input.
		var (
			readErr  error
			checkErr error
			sents    []*conllu.Sentence
		)
		rd := conllu.NewReader(bytes.NewReader(data), "fuzz")
		for readErr == nil && checkErr == nil {
			s, err := rd.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				readErr = err
				break
			}
			checkErr = core.CheckWords(slices.Clone(s.Words))
			sents = append(sents, s)
		}
		switch {
		case readErr != nil:
			var ce *conllu.Error
			if err == nil || !errors.As(err, &ce) || ce.File != "fuzz" || ce.Line < 1 || err.Error() != readErr.Error() {
				t.Fatalf("ParseDocument error %v, want the reader's %v", err, readErr)
			}
		case checkErr != nil:
			if err == nil || !errors.Is(err, parser.ErrInput) || !regexp.MustCompile(`^fuzz:[1-9][0-9]*: sentence `).MatchString(err.Error()) ||
				!strings.HasSuffix(err.Error(), checkErr.Error()) {
				t.Fatalf("ParseDocument error %v, want one naming the sentence and %v", err, checkErr)
			}
		case err != nil:
			t.Fatalf("ParseDocument: %v", err)
		default:
			got, err := conllu.ReadAll(bytes.NewReader(out.Bytes()), "out")
			if err != nil {
				t.Fatalf("reading the output back: %v\n%s", err, out.Bytes())
			}
			if len(got) != len(sents) {
				t.Fatalf("%d sentences in, %d out", len(sents), len(got))
			}
			for i, s := range got {
				if len(s.Words) != len(sents[i].Words) || !reflect.DeepEqual(s.Comments, sents[i].Comments) {
					t.Fatalf("sentence %d changed: %+v -> %+v", i, sents[i], s)
				}
				if err := s.CheckTree(); err != nil {
					t.Fatalf("sentence %d: %v", i, err)
				}
				for _, w := range s.Words {
					if conllu.Absent(w.Deprel) || conllu.Absent(w.UPOS) {
						t.Fatalf("sentence %d: word %+v lacks a label or a tag", i, w)
					}
				}
			}
		}
	})
}

// ---- the model loader (tp_model_load_from_memory) ------------------------

// checkLabels fails if a loaded model has a deprel, UPOS or XPOS label
// that is not valid UTF-8 (or a deprel that is empty), holds a NUL, tab, line break or escape
// (it would cut a C string short or break a CoNLL-U line), or repeats one.
func checkLabels(t testing.TB, m *parser.Model) {
	t.Helper()
	for i, ls := range [][]string{m.Deprels(), m.UPOSTags(), m.XPOSTags()} {
		seen := map[string]bool{}
		for _, s := range ls {
			if s == "" && i == 0 || !utf8.ValidString(s) || strings.ContainsAny(s, "\x00\t\n\r\x1b") || seen[s] {
				t.Fatalf("a loaded model has the label %q (of %q)", s, ls)
			}
			seen[s] = true
		}
	}
	c := m.Card()
	for _, s := range []string{c.Name, c.Treebank, c.System, c.Version} {
		if !utf8.ValidString(s) || strings.ContainsAny(s, "\x00\x1b") {
			t.Fatalf("a loaded model's card holds %q", s)
		}
	}
}

// checkLoad checks the outcome of parser.LoadBytes on any input: an error
// of one of the model-file kinds, or a model that parses (a tree) and saves
// into a file that loads again and saves to the same bytes.
func checkLoad(t testing.TB, data []byte) (*parser.Model, error) {
	t.Helper()
	m, err := parser.LoadBytes(data)
	if err != nil {
		if !errors.Is(err, modelfmt.ErrCorrupt) && !errors.Is(err, modelfmt.ErrNotModel) &&
			!errors.Is(err, modelfmt.ErrNewerVersion) {
			t.Fatalf("LoadBytes error %q has no model-file kind", err)
		}
		if m != nil {
			t.Fatalf("LoadBytes returned a model and the error %v", err)
		}
		return nil, err
	}
	checkLabels(t, m)
	for _, forms := range [][]string{{"I", "saw", "her", "."}, {"x"}} {
		in := conllu.FromForms(forms).Words
		if parser.Core(m).GoldTagsOnly() { // no tagger: only sentences with morphology
			for i := range in {
				in[i].UPOS, in[i].XPOS = "NOUN", "NN"
			}
		}
		words := slices.Clone(in)
		if _, err := m.Parse(words, nil); err != nil {
			t.Fatalf("a loaded model cannot parse %q: %v", forms, err)
		}
		checkParsed(t, m, in, words)
	}
	b, err := m.MarshalBinary()
	if err != nil {
		t.Fatalf("a loaded model cannot be saved: %v", err)
	}
	m2, err := parser.LoadBytes(b)
	if err != nil {
		t.Fatalf("a saved model does not load: %v", err)
	}
	b2, err := m2.MarshalBinary()
	if err != nil || !bytes.Equal(b, b2) {
		t.Fatalf("saving a loaded model is not stable (%v)", err)
	}
	return m, nil
}

// FuzzLoadBytes feeds arbitrary bytes to parser.LoadBytes, the function
// behind tp_model_load_from_memory (and, through modelfmt.ReadFile, the
// same decoder as tp_model_load): never a panic or hang, an error of a
// model-file kind, or a working model.
func FuzzLoadBytes(f *testing.F) {
	for i, t := range tiny(f) {
		if i == 0 { // one full-size model; the fuzzer is faster on small ones
			f.Add(t.file)
		}
		if t.small == nil {
			f.Fatalf("%s: the shrunk model does not load", t.system)
		}
		f.Add(t.small)
		f.Add(t.small[:len(t.small)/2])
		f.Add(t.small[:modelfmt.SniffLen+8])
		if i == 0 {
			f.Add(codebook(t.small))
		}
	}
	f.Add([]byte{})
	f.Add([]byte(modelfmt.Magic))
	f.Add([]byte("hello, I am a text file, not a model\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		checkLoad(t, data)
	})
}

// FuzzLoadDocument fuzzes the msgpack document of a model file and wraps it
// in a container with correct checksums, so that damage reaches the
// document decoder and parser.FromDocument instead of stopping at a
// checksum: never a panic or hang, an ErrCorrupt error, or a working model.
func FuzzLoadDocument(f *testing.F) {
	for i, t := range tiny(f) {
		if i == 0 {
			f.Add(rawDocument(f, t.file))
		}
		if t.small == nil {
			f.Fatalf("%s: the shrunk model does not load", t.system)
		}
		f.Add(rawDocument(f, t.small))
		if i == 0 {
			f.Add(rawDocument(f, codebook(t.small)))
		}
	}
	f.Add([]byte{0x80})
	f.Add([]byte{0x81, 0xa6, 's', 'y', 's', 't', 'e', 'm', 0xa9, 'a', 'r', 'c', '-', 'e', 'a', 'g', 'e', 'r'})
	f.Fuzz(func(t *testing.T, doc []byte) {
		if _, err := checkLoad(t, container(doc)); err != nil && !errors.Is(err, modelfmt.ErrCorrupt) {
			t.Fatalf("a damaged document gives %v, want ErrCorrupt", err)
		}
	})
}
