package train

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/transparse/transparse/parser/conllu"
)

// The committed slices of UD English EWT (testdata/ud/README.md).
const (
	fixTrain = "../../testdata/ud/en_ewt-train-150.conllu"
	fixDev   = "../../testdata/ud/en_ewt-dev-40.conllu"
)

// small returns quick options on the fixtures.
func small() Options {
	o := DefaultOptions()
	o.TrainPath, o.DevPath = fixTrain, fixDev
	o.Gold.Epochs, o.Plain.Epochs, o.Taggers.Epochs, o.JackknifeFolds, o.Plain.Runs = 1, 1, 1, 2, 1
	return o
}

// readFix reads a fixture's sentences.
func readFix(t *testing.T, path string) []*conllu.Sentence {
	t.Helper()
	s, err := conllu.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// writeSents writes sents (edited by edit, if not nil) to a file in dir.
func writeSents(t *testing.T, dir, name string, sents []*conllu.Sentence, edit func(w *conllu.Word)) string {
	t.Helper()
	var buf bytes.Buffer
	for _, s := range sents {
		c := cloneSentence(s)
		if edit != nil {
			for i := range c.Words {
				edit(&c.Words[i])
			}
		}
		if err := conllu.Write(&buf, c); err != nil {
			t.Fatal(err)
		}
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// Bad treebanks and bad output paths are found before any training: the
// progress callback never hears of a parser epoch, and nothing is saved.
func TestChecksBeforeTraining(t *testing.T) {
	dir := t.TempDir()
	trainS, devS := readFix(t, fixTrain), readFix(t, fixDev)
	malformed := filepath.Join(dir, "malformed.conllu")
	if err := os.WriteFile(malformed, []byte("1\tthe\tthe\tDET\tDT\t_\t2\tdet\t_\t_\n2\tdog\n\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	empty := filepath.Join(dir, "empty.conllu")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	noHeads := writeSents(t, dir, "noheads.conllu", trainS[:20], func(w *conllu.Word) { w.Head = -1 })
	noDeprels := writeSents(t, dir, "nodeprels.conllu", trainS[:20], func(w *conllu.Word) { w.Deprel = "_" })
	devNoHeads := writeSents(t, dir, "devnoheads.conllu", devS, func(w *conllu.Word) { w.Head = -1 })
	noUPOS := writeSents(t, dir, "noupos.conllu", trainS, func(w *conllu.Word) { w.UPOS = "_" })
	out := filepath.Join(dir, "m.tpm")
	cases := []struct {
		name string
		edit func(*Options)
		want string
	}{
		{"malformed test", func(o *Options) { o.TestPath = malformed }, "malformed.conllu:2"},
		{"missing test", func(o *Options) { o.TestPath = filepath.Join(dir, "nope.conllu") }, "nope.conllu"},
		{"malformed dev", func(o *Options) { o.DevPath = malformed }, "malformed.conllu:2"},
		{"empty train", func(o *Options) { o.TrainPath = empty }, "train: train treebank " + empty + " has no sentences"},
		{"train without HEADs", func(o *Options) { o.TrainPath = noHeads }, "has no annotated sentence"},
		{"train without DEPRELs", func(o *Options) { o.TrainPath = noDeprels }, "has no annotated sentence"},
		{"gold-only train without DEPRELs", func(o *Options) { o.TrainPath, o.GoldOnly = noDeprels, true }, "has no annotated sentence"},
		{"empty dev", func(o *Options) { o.DevPath = empty }, "train: dev treebank " + empty + " has no sentences"},
		{"unannotated dev", func(o *Options) { o.DevPath = devNoHeads }, "train: dev treebank " + devNoHeads + " has no annotated sentence"},
		{"unannotated test", func(o *Options) { o.TestPath = devNoHeads }, "train: test treebank"},
		{"train without UPOS", func(o *Options) { o.TrainPath = noUPOS }, "train: " + noUPOS + ": no training word has a UPOS tag"},
		{"output is a directory", func(o *Options) { o.Output = dir }, "train: output: " + dir + " is a directory"},
		{"output in a missing directory", func(o *Options) { o.Output = filepath.Join(dir, "x", "m.tpm") }, "train: output: the directory"},
		{"empty training set after max_sentences", func(o *Options) {
			mixed := append(append([]*conllu.Sentence{}, readFix(t, noHeads)...), trainS[:5]...)
			o.TrainPath, o.MaxSentences = writeSents(t, dir, "mixed.conllu", mixed, nil), 10
		}, "no training tree for arc-eager"},
	}
	for _, c := range cases {
		o := small()
		o.Output = out
		c.edit(&o)
		epochs := 0
		o.Progress = func(p Progress) error {
			if strings.HasPrefix(p.Phase, "parser") || strings.HasPrefix(p.Phase, "tagger") {
				epochs++
			}
			return nil
		}
		_, err := trainCore(o)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: Train() = %v, want an error with %q", c.name, err, c.want)
		}
		if epochs > 0 {
			t.Errorf("%s: the error came after training had started", c.name)
		}
		if _, err := os.Stat(out); err == nil {
			t.Fatalf("%s: a model was saved", c.name)
		}
	}
}

// More folds than training sentences are reduced to one per sentence, and
// the card says so; a single training sentence cannot be jackknifed.
func TestFoldsCapped(t *testing.T) {
	dir := t.TempDir()
	trainS := readFix(t, fixTrain)
	o := small()
	o.TrainPath, o.JackknifeFolds = writeSents(t, dir, "three.conllu", trainS[:3], nil), 10
	var log bytes.Buffer
	o.Log = &log
	m, err := trainCore(o)
	if err != nil {
		t.Fatal(err)
	}
	if got, req := m.Card().Options["jackknife_folds"], m.Card().Options["folds_requested"]; got != "3" || req != "10" {
		t.Errorf("card folds %q, folds_requested %q; want 3 and 10", got, req)
	}
	if !strings.Contains(log.String(), "folds: 10 reduced to the 3 training sentences") {
		t.Errorf("log lacks the note:\n%s", log.String())
	}
	o.TrainPath = writeSents(t, dir, "one.conllu", trainS[:1], nil)
	if _, err := trainCore(o); err == nil || !strings.Contains(err.Error(), "jackknifing the taggers needs at least 2") {
		t.Errorf("one sentence: %v", err)
	}
}

// Training sentences longer than MaxTrainingWords are skipped on a
// quadratic system (Covington's non-projective one), with a note in the
// log and the card; the others are trained on.
func TestLongTrainingSentencesSkipped(t *testing.T) {
	dir := t.TempDir()
	trainS := readFix(t, fixTrain)
	long := &conllu.Sentence{}
	for len(long.Words) <= MaxTrainingWords {
		for _, w := range trainS[len(long.Words)%len(trainS)].Words {
			w.ID = len(long.Words) + 1
			w.Head = len(long.Words) // a chain: every word depends on the one before
			w.Deprel = "dep"
			long.Words = append(long.Words, w)
		}
	}
	o := small()
	o.System, o.GoldOnly = "covington-nonprojective", true
	o.TrainPath = writeSents(t, dir, "long.conllu", append([]*conllu.Sentence{long}, trainS[:40]...), nil)
	var log bytes.Buffer
	o.Log = &log
	m, err := trainCore(o)
	if err != nil {
		t.Fatal(err)
	}
	note := m.Card().Options["skipped_long"]
	if !strings.HasPrefix(note, "1 sentences of more than") {
		t.Errorf("card skipped_long = %q", note)
	}
	if !strings.Contains(log.String(), "covington-nonprojective: 40 training trees") || !strings.Contains(log.String(), "1 training sentences of more than") {
		t.Errorf("log:\n%s", log.String())
	}
}

// Progress reports every phase, from 0 to its total, with the dev scores
// at the end of each parser epoch; the same options give the same model
// with or without a callback, and (with SOURCE_DATE_EPOCH) the same bytes.
func TestProgress(t *testing.T) {
	t.Setenv("SOURCE_DATE_EPOCH", "1700000000")
	o := small()
	o.Gold.Epochs, o.Plain.Epochs = 2, 2
	var mu sync.Mutex
	var events []Progress
	o.Progress = func(p Progress) error {
		mu.Lock()
		defer mu.Unlock()
		events = append(events, p)
		return nil
	}
	m, err := trainCore(o)
	if err != nil {
		t.Fatal(err)
	}
	done := map[string]bool{}
	ends := 0
	for _, p := range events {
		if p.Done > p.Total || p.Total <= 0 {
			t.Fatalf("event %+v", p)
		}
		if p.Done == p.Total {
			done[p.Phase] = true
		}
		if p.EpochEnd {
			ends++
			if p.DevLAS <= 0 || p.DevUAS < p.DevLAS || p.Epochs != 2 {
				t.Errorf("epoch end %+v", p)
			}
		}
	}
	for _, ph := range []string{"tagger UPOS", "tagger XPOS", "lemmatizer", "FEATS tagger", "jackknife", "parser (gold tags)", "parser (plain tokens)"} {
		if !done[ph] {
			t.Errorf("phase %q never reached its total", ph)
		}
	}
	if ends != 4 {
		t.Errorf("%d epoch ends, want 4 (two parsers, two epochs)", ends)
	}
	o.Progress = nil
	m2, err := trainCore(o)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := marshal(m)
	b, _ := marshal(m2)
	if !bytes.Equal(a, b) {
		t.Error("the same options gave different model files")
	}
}

// A callback that returns an error or panics stops the training with an
// error wrapping ErrCanceled (and the callback's error).
func TestProgressCancels(t *testing.T) {
	stop := errors.New("enough")
	for _, c := range []struct {
		name string
		fn   func(Progress) error
		want string
	}{
		{"error", func(p Progress) error {
			if p.EpochEnd {
				return stop
			}
			return nil
		}, "enough"},
		{"panic", func(p Progress) error {
			if strings.HasPrefix(p.Phase, "parser") {
				panic("boom")
			}
			return nil
		}, "the progress callback panicked: boom"},
	} {
		o := small()
		o.Gold.Epochs, o.Plain.Epochs = 3, 3
		calls := 0
		fn := c.fn
		o.Progress = func(p Progress) error { calls++; return fn(p) }
		_, err := trainCore(o)
		if err == nil || !errors.Is(err, ErrCanceled) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: Train() = %v", c.name, err)
		}
		if c.name == "error" && !errors.Is(err, stop) {
			t.Errorf("%s: %v does not wrap the callback's error", c.name, err)
		}
	}
}
