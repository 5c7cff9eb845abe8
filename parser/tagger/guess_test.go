package tagger

import (
	"reflect"
	"slices"
	"testing"

	"github.com/transparse/transparse/internal/testenv"
	"github.com/transparse/transparse/parser/conllu"
)

// guessOf returns the tags (by name) the guesser of tg gives form as the
// only word of a sentence, and the hash of the suffix it records.
func guessOf(tg *Tagger, form string) ([]string, uint64) {
	words := []conllu.Word{{ID: 1, Form: form}}
	var a Analysis
	a.Analyze(words, tg, nil)
	w := a.ws[0][2]
	var tags []string
	for i, tag := range tg.tags {
		if w.guess&(1<<i) != 0 {
			tags = append(tags, tag)
		}
	}
	return tags, w.gsuf
}

// sentence makes a sentence of "form/lemma/UPOS" words.
func sentence(words ...[3]string) *conllu.Sentence {
	s := &conllu.Sentence{}
	for i, w := range words {
		s.Words = append(s.Words, conllu.Word{ID: i + 1, Form: w[0], Lemma: w[1], UPOS: w[2], XPOS: "_", Head: -1})
	}
	return s
}

// An unknown word gets the tags whose rules strip a suffix of it and give
// a lemma seen with the tag: "yaramadı" is the verb "yara" with the verb
// ending of "kaçmadı" (strip "madı"), not the noun "yara", whose rules
// ("yarası": strip "sı"; "evde": strip "de") do not fit it. A known word,
// and a word whose stems are no lemma of a tag with its ending, get none.
func TestGuesser(t *testing.T) {
	train := []*conllu.Sentence{
		sentence([3]string{"Güldü", "gül", "VERB"}, [3]string{"yarası", "yara", "NOUN"}, [3]string{".", ".", "PUNCT"}),
		sentence([3]string{"yaradı", "yara", "VERB"}, [3]string{"kaçmadı", "kaç", "VERB"}, [3]string{"evi", "ev", "NOUN"}),
		sentence([3]string{"Yara", "yara", "NOUN"}, [3]string{"evde", "ev", "NOUN"}),
	}
	tg, err := Train(train, nil, Options{Epochs: 1})
	if err != nil {
		t.Fatal(err)
	}
	if tg.guess == nil {
		t.Fatal("no guesser from lemmatized training data")
	}
	for _, c := range []struct {
		form string
		want []string
	}{
		{"yaramadı", []string{"VERB"}}, // yara + madı (kaçmadı)
		{"Kaçtı", nil},                 // "tı" is no rule's suffix
		{"yarasında", nil},             // no rule strips "nda", "ında", ...
		{"yarade", []string{"NOUN"}},   // yara + de (evde)
		{"Yaradü", []string{"VERB"}},   // yara + dü (Güldü)
		{"evdü", nil},                  // a verb ending after a noun
		{"yarası", nil},                // known
	} {
		got, _ := guessOf(tg, c.form)
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: guess %v, want %v", c.form, got, c.want)
		}
	}
	// The suffix recorded is the longest that gives a tag.
	_, suf := guessOf(tg, "yaramadı")
	if want := revHash([]rune("madı")); suf != want {
		t.Errorf("yaramadı: suffix hash %#x, want that of \"madı\" %#x", suf, want)
	}

	// Encoded and decoded, the guesser guesses the same.
	c := tg.Classifier()
	if c.Params["tagger.feature_version"] != featureVersionGuess {
		t.Errorf("feature version %d, want %d", c.Params["tagger.feature_version"], featureVersionGuess)
	}
	tg2, err := FromClassifier(&c)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"yaramadı", "yarade", "Yaradü", "evdü", "yaradım"} {
		g1, s1 := guessOf(tg, f)
		g2, s2 := guessOf(tg2, f)
		if !reflect.DeepEqual(g1, g2) || s1 != s2 {
			t.Errorf("%s: decoded guesser gives %v, not %v", f, g2, g1)
		}
	}

	// Without lemmas there is no guesser, and the tagger keeps feature
	// version 2.
	for _, s := range train {
		for i := range s.Words {
			s.Words[i].Lemma = "_"
		}
	}
	tg3, err := Train(train, nil, Options{Epochs: 1})
	if err != nil {
		t.Fatal(err)
	}
	if c := tg3.Classifier(); tg3.guess != nil || c.Params["tagger.feature_version"] != featureVersionNoGuess || c.Blobs[guessRulesBlob] != nil {
		t.Error("a tagger trained without lemmas has a guesser")
	}
}

// While training, a word's own rule and lemma are left out of its guess:
// a rule or a lemma seen once, with the word itself, gives it nothing.
func TestGuesserLeavesOneOut(t *testing.T) {
	train := []*conllu.Sentence{
		sentence([3]string{"yaramadı", "yara", "VERB"}, [3]string{"yarası", "yara", "NOUN"}),
	}
	tagID := map[string]int{"NOUN": 0, "VERB": 1}
	g := trainGuesser(train, UPOS, tagID)
	_, counts := buildDict(train, UPOS, tagID)
	ws := make([]wordInfo, 5)
	words := train[0].Words[:1]
	ws[2] = analyze(words[0].Form)
	ts := &trainState{counts: counts, gold: []int{1}}
	ts.own = owns(nil, words, ts.gold)
	g.set(ws, words, nil, ts, nil)
	if ws[2].guess != 0 {
		t.Errorf("leave-one-out guess %#b, want none", ws[2].guess)
	}
	// A second occurrence of the rule and lemma is seen.
	train = append(train, sentence([3]string{"yaramadı", "yara", "VERB"}))
	g = trainGuesser(train, UPOS, tagID)
	_, ts.counts = buildDict(train, UPOS, tagID)
	g.set(ws, words, nil, ts, nil)
	if ws[2].guess != 1<<1 {
		t.Errorf("guess %#b, want VERB", ws[2].guess)
	}
}

// BenchmarkGuess tags and analyzes Turkish IMST dev (many words are not
// in the dictionary) with a tagger trained for one epoch on its training
// set, with its guesser and without (the weights of the guesser's
// features unused): the difference in cpu-ns/word of the thread is the
// guesser's cost per word.
func BenchmarkGuess(b *testing.B) {
	read := func(split string) []*conllu.Sentence {
		s, err := conllu.ReadFile(testenv.UDFile(b, "tr_imst-ud-"+split+".conllu"))
		if err != nil {
			b.Fatal(err)
		}
		return s
	}
	tg, err := Train(read("train"), nil, Options{Epochs: 1, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	var sents [][]conllu.Word
	for _, s := range read("dev") {
		ws := make([]conllu.Word, len(s.Words))
		for i, w := range s.Words {
			ws[i] = conllu.Word{ID: w.ID, Form: w.Form}
		}
		sents = append(sents, ws)
	}
	none := &Tagger{column: tg.column, tags: tg.tags, model: tg.model, dict: tg.dict, margin: tg.margin}
	var a Analysis
	for _, c := range []struct {
		name string
		run  func(ws []conllu.Word)
	}{
		{"tag/guesser", tg.Tag}, {"tag/none", none.Tag},
		{"analyze/guesser", func(ws []conllu.Word) { a.Analyze(ws, tg, nil) }},
		{"analyze/none", func(ws []conllu.Word) { a.Analyze(ws, none, nil) }},
	} {
		b.Run(c.name, func(b *testing.B) { benchWords(b, sents, c.run) })
	}
}

// At tagging time the guesser gathers a sentence's lemma lookups, drops
// those the dictionary's Bloom filter rules out and reads the rest in one
// batch, the UPOS and XPOS guessers sharing what they read: every word of
// EWT dev (the committed slice without the treebank) gets the guess and
// suffix of the sequential lookups training makes, with the bundled
// taggers (both columns of one table).
func TestGuessBatchedAsSequential(t *testing.T) {
	u, x, errU, errX := PairFromDocument(testenv.BundledDoc(t).Classifiers)
	if errU != nil || errX != nil {
		t.Fatal(errU, errX)
	}
	if u.guess == nil || x.guess == nil || !u.sharesDict(x) {
		t.Fatal("no guessers sharing a table")
	}
	guessed := 0
	for _, f := range testenv.UDFilesOrFixture(t, "en_ewt-ud-dev.conllu") {
		sents, err := conllu.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var a Analysis
		for si, s := range sents {
			a.Analyze(s.Words, u, x)
			for k, tg := range []*Tagger{u, x} {
				batched := slices.Clone(a.ws[k])
				seq := slices.Clone(a.ws[k])
				tg.guess.set(seq, s.Words, &tg.dict, nil, nil)
				for i := range s.Words {
					b, q := batched[i+2], seq[i+2]
					if b.guess != q.guess || b.gsuf != q.gsuf {
						t.Fatalf("%s sentence %d word %d (%s): batched guess %#x/%#x, sequential %#x/%#x",
							tg.Column(), si+1, i+1, s.Words[i].Form, b.guess, b.gsuf, q.guess, q.gsuf)
					}
					if b.guess != 0 {
						guessed++
					}
				}
			}
		}
	}
	if guessed == 0 {
		t.Fatal("no word got a guess")
	}
	t.Logf("%d guesses", guessed)
}
