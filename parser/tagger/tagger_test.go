package tagger

import (
	"bytes"
	"fmt"
	"math"
	"math/rand"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/transparse/transparse/internal/testenv"
	"github.com/transparse/transparse/modelfmt"
	"github.com/transparse/transparse/parser/conllu"
	"github.com/transparse/transparse/parser/form"
)

// smallTagger trains a tagger once on the first 2000 sentences of EWT
// train, for the tests that need one.
var small struct {
	once   sync.Once
	tagger *Tagger
	dev    []*conllu.Sentence
	log    string
	err    error
}

func smallTagger(t testing.TB) (*Tagger, []*conllu.Sentence) {
	testenv.UDFile(t, "en_ewt-ud-train.conllu") // skips without the data (fails in CI)
	small.once.Do(func() {
		train := readEWT(t, "train")[:2000]
		small.dev = readEWT(t, "dev")
		var log bytes.Buffer
		var calls, lastDone, lastTotal int64
		var bad error
		progress := func(done, total int64) {
			if done < lastDone || done > total {
				bad = errString("progress went backwards or past its total")
			}
			calls, lastDone, lastTotal = calls+1, done, total
		}
		small.tagger, small.err = Train(train, small.dev, Options{Epochs: 4, Seed: 1, Log: &log, Progress: progress})
		small.log = log.String()
		if small.err == nil && (calls == 0 || lastDone != lastTotal) {
			small.err = errString("progress did not reach its total")
		}
		if small.err == nil {
			small.err = bad
		}
	})
	if small.err != nil {
		t.Fatal(small.err)
	}
	return small.tagger, small.dev
}

type errString string

func (e errString) Error() string { return string(e) }

// TestTrainSmall trains on 2000 sentences (about 30,000 words) and checks
// the accuracy on all of EWT dev. The floor is about one point below what
// this setting measured (92.0 %).
func TestTrainSmall(t *testing.T) {
	tg, dev := smallTagger(t)
	acc, n := tg.Accuracy(dev)
	t.Logf("dev UPOS %.2f%% on %d words after training on 2000 sentences", 100*acc, n)
	if n != 25147 {
		t.Errorf("scored %d dev words, want 25147", n)
	}
	if acc < 0.905 {
		t.Errorf("dev UPOS accuracy %.2f%%, want >= 90.5%%", 100*acc)
	}
	if !strings.Contains(small.log, "epoch 4/4: dev UPOS") || !strings.Contains(small.log, "keeping epoch") {
		t.Errorf("log lacks per-epoch lines:\n%s", small.log)
	}
	if kept := fmt.Sprintf("keeping epoch %d ", tg.Epoch()); !strings.Contains(small.log, kept) {
		t.Errorf("Epoch() = %d, but the log says:\n%s", tg.Epoch(), small.log)
	}
	if got := tg.Tags(); len(got) != 17 || !sortedStrings(got) {
		t.Errorf("Tags() = %v, want the 17 UPOS tags sorted", got)
	}
}

// KeepLast trains the given epochs, scores dev only after the last, and
// keeps it.
func TestKeepLast(t *testing.T) {
	train := readEWT(t, "train")[:500]
	dev := readEWT(t, "dev")[:300]
	var log bytes.Buffer
	tg, err := Train(train, dev, Options{Epochs: 3, KeepLast: true, Seed: 1, Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	if tg.Epoch() != 3 || strings.Contains(log.String(), "epoch 1/3") || !strings.Contains(log.String(), "epoch 3/3") {
		t.Errorf("Epoch() = %d, log:\n%s", tg.Epoch(), log.String())
	}
	ref, err := Train(train, dev, Options{Epochs: 3, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if ref.Epoch() < 1 || ref.Epoch() > 3 {
		t.Errorf("Epoch() = %d after 3 epochs", ref.Epoch())
	}
}

// TestRuns trains taggers of one and of three runs on the same 2000
// sentences: the mean of three scores better on EWT dev (measured: 92.33 %
// against 92.00 % for one), Runs 0 is one run, the progress covers every
// run, and MinAbs drops weights at a small cost (measured: 92.17 % with
// MinAbs 1 and 16 % of the weights; on so little data the weights are
// small, and pruning costs more than on all of EWT).
func TestRuns(t *testing.T) {
	testenv.UDFile(t, "en_ewt-ud-train.conllu")
	// Under -race the runs train side by side on fewer sentences for one
	// epoch, which checks their concurrency, not what they learn.
	n, epochs := 2000, 4
	if testenv.Race {
		n, epochs = 300, 1
	}
	train, dev := readEWT(t, "train")[:n], readEWT(t, "dev")
	one, err := Train(train, nil, Options{Epochs: epochs, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	zero, err := Train(train, nil, Options{Epochs: epochs, Seed: 1, Runs: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(tagAll(one, dev[:200]), tagAll(zero, dev[:200])) || one.model.NumWeights() != zero.model.NumWeights() {
		t.Error("Runs 1 differs from Runs 0")
	}
	var done, total int64
	three, err := Train(train, nil, Options{Epochs: epochs, Seed: 1, Runs: 3, Progress: func(d, tt int64) { done, total = d, tt }})
	if err != nil {
		t.Fatal(err)
	}
	words := 0
	for _, s := range train {
		words += len(s.Words)
	}
	if want := int64(3 * epochs * words); done != total || total != want {
		t.Errorf("progress ended at %d of %d, want %d of %d", done, total, want, want)
	}
	if testenv.Race {
		return
	}
	pruned, err := Train(train, nil, Options{Epochs: epochs, Seed: 1, Runs: 3, MinAbs: 1})
	if err != nil {
		t.Fatal(err)
	}
	a1, _ := one.Accuracy(dev)
	a3, _ := three.Accuracy(dev)
	ap, _ := pruned.Accuracy(dev)
	w3, wp := three.model.NumWeights(), pruned.model.NumWeights()
	t.Logf("dev UPOS: one run %.2f%%, three %.2f%%, three pruned at 1 %.2f%% (%d of %d weights)", 100*a1, 100*a3, 100*ap, wp, w3)
	if a3 <= a1 {
		t.Errorf("three runs: dev UPOS %.2f%%, not above one run's %.2f%%", 100*a3, 100*a1)
	}
	if wp >= w3 || ap < a3-0.005 {
		t.Errorf("MinAbs 1: %d of %d weights, dev UPOS %.2f%% against %.2f%%", wp, w3, 100*ap, 100*a3)
	}
}

func sortedStrings(s []string) bool {
	for i := 1; i < len(s); i++ {
		if s[i-1] >= s[i] {
			return false
		}
	}
	return true
}

func tagAll(tg *Tagger, sents []*conllu.Sentence) [][]string {
	var out [][]string
	for _, s := range sents {
		ws := append([]conllu.Word(nil), s.Words...)
		for i := range ws {
			ws[i].UPOS = "_" // Tag must not read it
		}
		tg.Tag(ws)
		tags := make([]string, len(ws))
		for i, w := range ws {
			tags[i] = w.UPOS
		}
		out = append(out, tags)
	}
	return out
}

func TestClassifierRoundTrip(t *testing.T) {
	tg, dev := smallTagger(t)
	c := tg.Classifier()
	if c.Name != Name || !reflect.DeepEqual(c.Classes, tg.Tags()) || len(c.Templates) == 0 {
		t.Fatalf("classifier header: name %q, %d classes, %d templates", c.Name, len(c.Classes), len(c.Templates))
	}
	// The tagger has a fast model, which Classifiers encodes after it and
	// FromDocument decodes with it.
	if tg.fast == nil {
		t.Fatal("the tagger trained with dev data has no fast model")
	}
	cs := Classifiers(tg, nil)
	if len(cs) != 2 || cs[1].Name != Name+FastSuffix {
		t.Fatalf("Classifiers gives %d classifiers", len(cs))
	}
	tg2, err := FromDocument(cs, UPOS)
	if err != nil {
		t.Fatal(err)
	}
	if tg2.fast == nil || tg2.fastMargin != tg.fastMargin {
		t.Fatal("the decoded tagger lost its fast model")
	}
	if !reflect.DeepEqual(tagAll(tg, dev), tagAll(tg2, dev)) {
		t.Fatal("the decoded tagger tags differently")
	}
	if cs2 := Classifiers(tg2, nil); !reflect.DeepEqual(cs, cs2) {
		t.Fatal("re-encoding the decoded tagger gives different classifiers")
	}
	// From its classifier alone, a tagger has no fast model: it tags with
	// its model, as the trained tagger without its fast model does.
	tg3, err := FromClassifier(&c)
	if err != nil {
		t.Fatal(err)
	}
	slow := &Tagger{column: tg.column, tags: tg.tags, model: tg.model, dict: tg.dict, margin: tg.margin, guess: tg.guess}
	if tg3.fast != nil || !reflect.DeepEqual(tagAll(slow, dev), tagAll(tg3, dev)) {
		t.Fatal("the tagger decoded from its classifier alone tags differently")
	}
	if c3 := tg3.Classifier(); !reflect.DeepEqual(c, c3) {
		t.Fatal("re-encoding the decoded tagger gives a different classifier")
	}
}

func cloneClassifier(c modelfmt.Classifier) modelfmt.Classifier {
	d := c
	d.Classes = append([]string(nil), c.Classes...)
	d.Params = map[string]int64{}
	for k, v := range c.Params {
		d.Params[k] = v
	}
	d.Blobs = map[string][]byte{}
	for k, v := range c.Blobs {
		d.Blobs[k] = append([]byte(nil), v...)
	}
	return d
}

func TestFromClassifierRejectsCorruption(t *testing.T) {
	tg, _ := smallTagger(t)
	good := tg.Classifier()
	cases := []struct {
		name string
		mut  func(c *modelfmt.Classifier)
	}{
		{"feature version", func(c *modelfmt.Classifier) { c.Params["tagger.feature_version"]++ }},
		{"passes", func(c *modelfmt.Classifier) { c.Params["tagger.passes"] = 3 }},
		{"no margin", func(c *modelfmt.Classifier) { delete(c.Params, "tagger.pass2_margin_bits") }},
		{"repeated tag", func(c *modelfmt.Classifier) { c.Classes[1] = c.Classes[0] }},
		{"empty tag", func(c *modelfmt.Classifier) { c.Classes[3] = "" }},
		{"no tags", func(c *modelfmt.Classifier) { c.Classes = nil }},
		{"dict entries", func(c *modelfmt.Classifier) { c.Params["tagger.dict_entries"]++ }},
		{"dict entries huge", func(c *modelfmt.Classifier) { c.Params["tagger.dict_entries"] = 1 << 50 }},
		{"dict masks truncated", func(c *modelfmt.Classifier) {
			c.Blobs["tagger.dict.masks"] = c.Blobs["tagger.dict.masks"][:10]
		}},
		{"dict keys missing", func(c *modelfmt.Classifier) { delete(c.Blobs, "tagger.dict.keys") }},
		{"linear layout", func(c *modelfmt.Classifier) { c.Layout = "x" }},
		{"unknown name", func(c *modelfmt.Classifier) { c.Name = "tagger.feats" }},
		{"linear weights", func(c *modelfmt.Classifier) { c.Blobs["weights"] = c.Blobs["weights"][1:] }},
		{"guess rules missing", func(c *modelfmt.Classifier) { delete(c.Blobs, guessRulesBlob) }},
		{"guess masks truncated", func(c *modelfmt.Classifier) {
			c.Blobs[guessMasksBlob] = c.Blobs[guessMasksBlob][:len(c.Blobs[guessMasksBlob])-1]
		}},
		{"guess rules unsorted", func(c *modelfmt.Classifier) {
			c.Blobs[guessRulesBlob] = append([]byte("zz\tz\n"), c.Blobs[guessRulesBlob]...)
		}},
		{"guess rule without tab", func(c *modelfmt.Classifier) {
			c.Blobs[guessRulesBlob] = append([]byte("\n"), c.Blobs[guessRulesBlob]...)
		}},
		{"guesser in version 2", func(c *modelfmt.Classifier) { c.Params["tagger.feature_version"] = featureVersionNoGuess }},
	}
	for _, tc := range cases {
		c := cloneClassifier(good)
		tc.mut(&c)
		if _, err := FromClassifier(&c); err == nil {
			t.Errorf("%s: no error", tc.name)
		} else if !strings.HasPrefix(err.Error(), "tagger: ") {
			t.Errorf("%s: error %q lacks the package prefix", tc.name, err)
		}
	}
	if _, err := FromClassifier(nil); err == nil {
		t.Error("nil classifier: no error")
	}

	// Random damage never panics; a tagger that still decodes still tags.
	rng := rand.New(rand.NewSource(1))
	words := []conllu.Word{{ID: 1, Form: "Hello"}, {ID: 2, Form: "world"}, {ID: 3, Form: "!"}}
	var names []string
	for k := range good.Blobs {
		names = append(names, k)
	}
	for i := 0; i < 100; i++ {
		c := cloneClassifier(good)
		b := c.Blobs[names[rng.Intn(len(names))]]
		if len(b) > 0 {
			if rng.Intn(3) == 0 {
				c.Blobs[names[rng.Intn(len(names))]] = b[:rng.Intn(len(b))]
			} else {
				b[rng.Intn(len(b))] ^= byte(1 << rng.Intn(8))
			}
		}
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Fatalf("FromClassifier panicked: %v", r)
				}
			}()
			if tg2, err := FromClassifier(&c); err == nil {
				tg2.Tag(append([]conllu.Word(nil), words...))
			}
		}()
	}
}

func TestTagEdgeCases(t *testing.T) {
	tg, _ := smallTagger(t)
	tg.Tag(nil) // no-op
	words := []conllu.Word{
		{ID: 1, Form: ""}, {ID: 2, Form: "Ünïcödé"}, {ID: 3, Form: "日本語"}, {ID: 4, Form: "\xff\xfe"},
		{ID: 5, Form: strings.Repeat("x", 1000)}, {ID: 6, Form: "e-mail@example.com"}, {ID: 7, Form: "1,234.5"},
	}
	tg.Tag(words)
	tags := map[string]bool{}
	for _, tag := range tg.Tags() {
		tags[tag] = true
	}
	for _, w := range words {
		if !tags[w.UPOS] {
			t.Errorf("form %q got tag %q, not in the tag set", w.Form, w.UPOS)
		}
	}
	one := []conllu.Word{{ID: 1, Form: "Run", UPOS: "X"}}
	tg.Tag(one)
	if one[0].UPOS == "" {
		t.Error("one-word sentence not tagged")
	}
}

func TestTagConcurrent(t *testing.T) {
	tg, dev := smallTagger(t)
	dev = dev[:300]
	want := tagAll(tg, dev)
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if !reflect.DeepEqual(tagAll(tg, dev), want) {
				errs <- "concurrent tagging gave different tags"
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Fatal(e)
	}
}

func TestTagDoesNotAllocate(t *testing.T) {
	tg, dev := smallTagger(t)
	ws := append([]conllu.Word(nil), dev[7].Words...)
	tg.Tag(ws)
	if n := testing.AllocsPerRun(50, func() { tg.Tag(ws) }); n != 0 {
		t.Errorf("Tag allocates %v times per sentence", n)
	}
}

func TestTrainErrors(t *testing.T) {
	untagged := []*conllu.Sentence{{Words: []conllu.Word{{ID: 1, Form: "a", UPOS: "_"}}}}
	if _, err := Train(untagged, nil, Options{}); err == nil {
		t.Error("no tagged words: no error")
	}
	var many []conllu.Word
	for i := 0; i < MaxTags+1; i++ {
		many = append(many, conllu.Word{ID: i + 1, Form: "w", UPOS: strings.Repeat("T", i+1)})
	}
	if _, err := Train([]*conllu.Sentence{{Words: many}}, nil, Options{}); err == nil {
		t.Error("too many tags: no error")
	}
	if _, err := Train(untagged, nil, Options{Epochs: -1}); err == nil {
		t.Error("negative epochs: no error")
	}
	tagged := []*conllu.Sentence{{Words: []conllu.Word{{ID: 1, Form: "a", UPOS: "DET"}}}}
	if _, err := Train(tagged, nil, Options{Epochs: 1}); err != nil {
		t.Fatal(err)
	}
	if _, err := Train(tagged, nil, Options{Runs: -1}); err == nil {
		t.Error("negative runs: no error")
	}
	for _, v := range []float32{-1, float32(math.NaN())} {
		if _, err := Train(tagged, nil, Options{MinAbs: v}); err == nil {
			t.Errorf("MinAbs %g: no error", v)
		}
	}
}

// TestXPOS trains an XPOS tagger on 2000 sentences and checks that it
// predicts XPOS (measured: 90.9 % on dev), leaves UPOS alone and survives
// the classifier round trip under its own name.
func TestXPOS(t *testing.T) {
	if testenv.Race {
		t.Skip("computes only (one training run): checked without -race")
	}
	train, dev := readEWT(t, "train")[:2000], readEWT(t, "dev")
	tg, err := Train(train, nil, Options{Column: XPOS, Epochs: 4, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if tg.Column() != XPOS || len(tg.Tags()) < 40 {
		t.Fatalf("column %s, %d tags", tg.Column(), len(tg.Tags()))
	}
	acc, n := tg.Accuracy(dev)
	t.Logf("dev XPOS %.2f%% on %d words", 100*acc, n)
	if acc < 0.895 {
		t.Errorf("dev XPOS accuracy %.2f%%, want >= 89.5%%", 100*acc)
	}
	ws := []conllu.Word{{ID: 1, Form: "Dogs", UPOS: "keep"}, {ID: 2, Form: "bark", UPOS: "keep"}}
	tg.Tag(ws)
	if ws[0].UPOS != "keep" || ws[0].XPOS == "" || ws[1].XPOS == "" {
		t.Errorf("XPOS tagger set %+v", ws)
	}
	c := tg.Classifier()
	if c.Name != ClassifierName(XPOS) {
		t.Errorf("classifier name %q", c.Name)
	}
	tg2, err := FromClassifier(&c)
	if err != nil {
		t.Fatal(err)
	}
	if tg2.Column() != XPOS || !reflect.DeepEqual(tagAllColumn(tg, dev[:200], XPOS), tagAllColumn(tg2, dev[:200], XPOS)) {
		t.Error("decoded XPOS tagger differs")
	}
	if _, err := Train(train, nil, Options{Column: "FEATS"}); err == nil {
		t.Error("unknown column: no error")
	}
}

func tagAllColumn(tg *Tagger, sents []*conllu.Sentence, column string) [][]string {
	var out [][]string
	for _, s := range sents {
		ws := append([]conllu.Word(nil), s.Words...)
		tg.Tag(ws)
		var tags []string
		for i := range ws {
			tags = append(tags, *columnOf(&ws[i], column))
		}
		out = append(out, tags)
	}
	return out
}

// uposSentence is a sentence of the given forms and UPOS tags, in turn.
func uposSentence(pairs ...string) *conllu.Sentence {
	s := &conllu.Sentence{}
	for i := 0; i < len(pairs); i += 2 {
		s.Words = append(s.Words, conllu.Word{ID: i/2 + 1, Form: pairs[i], UPOS: pairs[i+1]})
	}
	return s
}

// TestTrainTiny trains without dev data on a toy corpus and checks that the
// training data is learned and that words without UPOS are skipped.
func TestTrainTiny(t *testing.T) {
	// Each sentence twice, so that every word is in the tag dictionary.
	var train []*conllu.Sentence
	for i := 0; i < 2; i++ {
		train = append(train,
			uposSentence("the", "DET", "dog", "NOUN", "runs", "VERB"),
			uposSentence("a", "DET", "cat", "NOUN", "sleeps", "VERB", ".", "PUNCT"),
			uposSentence("dogs", "NOUN", "run", "VERB", "fast", "_"),
			&conllu.Sentence{},
		)
	}
	tg, err := Train(train, nil, Options{Epochs: 5})
	if err != nil {
		t.Fatal(err)
	}
	if got := tg.Tags(); !reflect.DeepEqual(got, []string{"DET", "NOUN", "PUNCT", "VERB"}) {
		t.Fatalf("Tags() = %v", got)
	}
	if acc, n := tg.Accuracy(train); n != 18 || acc < 0.99 {
		t.Errorf("training accuracy %.2f on %d words, want 1 on 18", acc, n)
	}
	if train[2].Words[2].UPOS != "_" {
		t.Error("Train or Accuracy modified the sentences")
	}
}

// BenchmarkTag tags EWT dev with the small tagger; words/s is per goroutine.
func BenchmarkTag(b *testing.B) {
	tg, dev := smallTagger(b)
	var bufs [][]conllu.Word
	words := 0
	for _, s := range dev {
		bufs = append(bufs, append([]conllu.Word(nil), s.Words...))
		words += len(s.Words)
	}
	b.ReportAllocs()
	b.ResetTimer()
	n := 0
	for i := 0; i < b.N; i++ {
		ws := bufs[i%len(bufs)]
		tg.Tag(ws)
		n += len(ws)
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "words/s")
}

// TestTemplates checks that every template has a name and that the static
// features of a word are as many as their templates.
func TestTemplates(t *testing.T) {
	for id, name := range templateNames[1:] {
		if name == "" {
			t.Errorf("template %d has no name", id+1)
		}
	}
	ws := []wordInfo{bos, bos, analyze("Word"), eos, eos}
	if n := len(extractStatic(nil, ws, 0, 0)); n != staticPerWord {
		t.Errorf("%d static features, want %d", n, staticPerWord)
	}
	left := make([]uint64, len(ws))
	if n := len(extractDynamic(nil, ws, left, left, 0)); n != numTemplates-numStatic {
		t.Errorf("%d dynamic features, want %d", n, numTemplates-numStatic)
	}
	for id, name := range guessTemplateNames {
		if name == "" {
			t.Errorf("guesser template %d has no name", id+numTemplates)
		}
	}
	if n := len(extractGuess(nil, ws, 0, 0)); n != len(guessTemplateNames) {
		t.Errorf("%d guesser features, want %d", n, len(guessTemplateNames))
	}
}

// prepare gives each word the hashes form.Of gives its form.
func TestPrepareHashes(t *testing.T) {
	var words []conllu.Word
	for _, s := range []string{"Dogs", "ÄRGER", "Straße", "a", "ab", "n't", "日本語です", "3.14", "--"} {
		words = append(words, conllu.Word{Form: s})
	}
	var ws []wordInfo
	var keys []uint64
	fw := make([]form.Word, len(words))
	prepare(&ws, &keys, fw, words)
	for i, w := range words {
		if fw[i].Hashes != form.Of(w.Form) {
			t.Errorf("%q: hashes %#x, form.Of %#x", w.Form, fw[i].Hashes, form.Of(w.Form))
		}
	}
}
