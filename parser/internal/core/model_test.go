package core

import (
	"errors"
	"math/rand"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/transparse/transparse/internal/testenv"
	"github.com/transparse/transparse/modelfmt"
	"github.com/transparse/transparse/parser/conllu"
)

func testModel(t testing.TB) *Model {
	t.Helper()
	m, err := load(testenv.ModelPath())
	if err != nil {
		testenv.SkipOrFail(t, "no model: %v", err)
	}
	return m
}

// loadBytes decodes the bytes of a model file.
func loadBytes(data []byte) (*Model, error) {
	doc, err := modelfmt.Decode(data)
	if err != nil {
		return nil, err
	}
	return FromDocument(doc)
}

// load reads the model file path.
func load(path string) (*Model, error) {
	doc, err := modelfmt.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return FromDocument(doc)
}

// Every parse of every sentence of the shared treebanks (dev and test, with
// gold tags and from plain tokens) is a tree: one root, no cycle, every word
// with a head.
func TestEveryParseIsATree(t *testing.T) {
	if testenv.Race {
		t.Skip("computes only, over whole treebanks: checked without -race")
	}
	m := testModel(t)
	for _, f := range testenv.UDFiles(t, "*-ud-[dt]e*.conllu") {
		sents, err := conllu.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, strip := range []bool{false, true} {
			for i, s := range sents {
				if strip {
					s.StripTags()
				}
				for j := range s.Words {
					s.Words[j].Head, s.Words[j].Deprel = -1, "_"
				}
				if err := m.Parse(s.Words); err != nil {
					t.Fatalf("%s sentence %d: %v", f, i, err)
				}
				if err := checkTree(s.Words); err != nil {
					t.Fatalf("%s sentence %d (strip=%v): %v", f, i, strip, err)
				}
				if strip {
					for _, w := range s.Words {
						if conllu.Absent(w.UPOS) {
							t.Fatalf("%s sentence %d: UPOS not predicted", f, i)
						}
					}
				}
			}
		}
	}
}

// Random token sequences of every length up to 300 words, and one of
// MaxWords words, parse into trees.
func TestRandomSentencesAreTrees(t *testing.T) {
	m := testModel(t)
	rng := rand.New(rand.NewSource(7))
	vocab := strings.Fields("the a of , . and to in is was he she it they said ( ) \" 's n't new 1999 $ % - -- ? ! x ü 日本 :)")
	for n := 1; n <= 300; n++ {
		words := make([]conllu.Word, n)
		for i := range words {
			words[i].Form = vocab[rng.Intn(len(vocab))]
		}
		if err := m.Parse(words); err != nil {
			t.Fatalf("n=%d: %v", n, err)
		}
		if err := checkTree(words); err != nil {
			t.Fatalf("n=%d: %v", n, err)
		}
	}
	words := make([]conllu.Word, MaxWords)
	for i := range words {
		words[i].Form = vocab[rng.Intn(len(vocab))]
	}
	if err := m.Parse(words); err != nil {
		t.Fatal(err)
	}
	if err := checkTree(words); err != nil {
		t.Fatal(err)
	}
}

func TestParseRejectsBadInput(t *testing.T) {
	m := testModel(t)
	cases := []struct {
		name  string
		words []conllu.Word
		want  string
	}{
		{"empty", nil, "empty sentence"},
		{"empty form", []conllu.Word{{Form: "a"}, {Form: ""}}, "word 2: empty form"},
		{"bad utf8", []conllu.Word{{Form: "a\xff"}}, "word 1: form is not valid UTF-8"},
		{"tab", []conllu.Word{{Form: "a\tb"}}, "word 1: form contains a tab"},
		{"long", []conllu.Word{{Form: strings.Repeat("x", MaxTokenBytes+1)}}, "word 1: form is 1025 bytes"},
		{"too many", make([]conllu.Word, MaxWords+1), "sentence has 10001 words"},
	}
	for _, c := range cases {
		err := m.Parse(c.words)
		if err == nil || !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an ErrInput containing %q", c.name, err, c.want)
		}
	}
}

// In steady state a parse allocates nothing, with gold tags and from plain
// tokens, even when garbage collections run between sentences (they empty
// a sync.Pool; the per-call scratch is kept in a free list). A model that
// predicts lemmas allocates them from plain tokens (new strings, and the
// lemmatizer scores a candidate rule by the lemma it gives): a few
// allocations per word, bounded here.
func TestParseDoesNotAllocate(t *testing.T) {
	m := testModel(t)
	sents, err := conllu.ReadFile(testenv.UDFile(t, "en_ewt-ud-dev.conllu"))
	if err != nil {
		t.Fatal(err)
	}
	sents = sents[:100]
	for _, plain := range []bool{false, true} {
		words := make([][]conllu.Word, len(sents))
		pass := func() {
			for k, s := range sents {
				copy(words[k], s.Words)
				if plain {
					for i := range words[k] {
						words[k][i] = conllu.Word{ID: i + 1, Form: s.Words[i].Form}
					}
				}
				if err := m.Parse(words[k]); err != nil {
					t.Fatal(err)
				}
			}
		}
		for k, s := range sents {
			words[k] = make([]conllu.Word, len(s.Words))
		}
		pass() // grows the scratch
		runtime.GC()
		allowed := 0.0
		if plain && m.taggers.Lemmas != nil {
			for _, s := range sents {
				allowed += 4 * float64(len(s.Words))
			}
		}
		if n := testing.AllocsPerRun(3, func() { runtime.GC(); pass() }); n > allowed {
			t.Errorf("plain %v: %v allocations per pass of %d sentences, want at most %v", plain, n, len(sents), allowed)
		}
	}
}

// CheckWords's printable-ASCII shortcut accepts only what the checks one by
// one accept: every value of every field, alone in a word.
func TestCheckWordsShortcut(t *testing.T) {
	values := []string{"a", "\x01", "\x1f", " ", "\x7f", "é", "\xff", "a\tb", "a\nb", "a\rb", "_",
		strings.Repeat("x", MaxTokenBytes), strings.Repeat("x", MaxTokenBytes+1), strings.Repeat("é", MaxTokenBytes/2+1)}
	ok := func(v string) bool {
		return len(v) <= MaxTokenBytes && utf8.ValidString(v) && !strings.ContainsAny(v, "\t\n\r")
	}
	for _, v := range values {
		for field := 0; field < 5; field++ {
			w := conllu.Word{Form: "f", UPOS: "NOUN", XPOS: "NN", Lemma: "l", Feats: "_"}
			*[]*string{&w.Form, &w.UPOS, &w.XPOS, &w.Lemma, &w.Feats}[field] = v
			err := CheckWords([]conllu.Word{w})
			if (err == nil) != ok(v) {
				t.Errorf("field %d = %q: CheckWords gives %v", field, v, err)
			}
		}
	}
}

// TestBeamClassifiersDecodedAtFirstUse: a loaded model decodes its
// classifiers trained for the beam at the first parse that needs them,
// not at load: a greedy parse leaves them undecoded, a beam parse
// decodes them, and Document writes them back as the file holds them. A
// damaged one loads, parses greedily, and fails the beam and accurate
// parses with an error wrapping modelfmt.ErrCorrupt that names it.
func TestBeamClassifiersDecodedAtFirstUse(t *testing.T) {
	read := func() *modelfmt.Model {
		doc, err := modelfmt.ReadFile(testenv.ModelPath())
		if err != nil {
			testenv.SkipOrFail(t, "no model: %v", err)
		}
		return doc
	}
	byName := func(doc *modelfmt.Model, name string) *modelfmt.Classifier {
		for i := range doc.Classifiers {
			if doc.Classifiers[i].Name == name {
				return &doc.Classifiers[i]
			}
		}
		t.Fatalf("no classifier %q", name)
		return nil
	}
	sents, err := conllu.ReadFile(testenv.Fixture(t, "en_ewt-dev-40.conllu"))
	if err != nil {
		t.Fatal(err)
	}
	words := func() []conllu.Word { return slices.Clone(sents[0].Words) }
	doc := read()
	m, err := FromDocument(doc)
	if err != nil {
		t.Fatal(err)
	}
	if m.gold.Beam != nil || m.gold.lazyBeam == nil || m.plain.lazyBeam == nil || !m.HasBeam() {
		t.Fatal("the beam classifiers are decoded at load, or missing")
	}
	if err := m.ParseWithOptions(words(), Options{}, nil); err != nil {
		t.Fatal(err)
	}
	if m.gold.lazyBeam.clf != nil || m.plain.lazyBeam.clf != nil {
		t.Fatal("a greedy parse decoded the beam classifiers")
	}
	// The first beam parses, at once from several goroutines.
	errs := make(chan error, 4)
	for range 4 {
		go func() {
			var r Result
			errs <- m.ParseWithOptions(words(), Options{Beam: 4}, &r)
		}()
	}
	for range 4 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	var r Result
	if m.gold.lazyBeam.clf == nil || m.plain.lazyBeam.clf == nil {
		t.Fatal("a beam parse left the beam classifiers undecoded")
	}
	for _, name := range []string{clfGold + beamSuffix, clfPlain + beamSuffix} {
		if got, want := byName(m.Document(), name), byName(read(), name); !reflect.DeepEqual(got, want) {
			t.Errorf("Document writes %s otherwise than the file holds it", name)
		}
	}

	damaged := read()
	delete(byName(damaged, clfGold+beamSuffix).Blobs, "classes")
	d, err := FromDocument(damaged)
	if err != nil {
		t.Fatalf("a damaged beam classifier fails the load: %v", err)
	}
	if err := d.ParseWithOptions(words(), Options{}, nil); err != nil {
		t.Fatalf("greedy parse: %v", err)
	}
	for _, opt := range []Options{{Beam: 4}, {Accurate: true}} {
		w := words()
		err := d.ParseWithOptions(w, opt, &r)
		if !errors.Is(err, modelfmt.ErrCorrupt) || !strings.Contains(err.Error(), `"parser.gold.beam"`) {
			t.Errorf("%+v: error %v, want ErrCorrupt naming parser.gold.beam", opt, err)
		}
		if !reflect.DeepEqual(w, sents[0].Words) {
			t.Errorf("%+v: the failed parse changed the words", opt)
		}
	}
}
