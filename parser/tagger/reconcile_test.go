package tagger

import (
	"reflect"
	"testing"

	"github.com/transparse/transparse/internal/testenv"
	"github.com/transparse/transparse/parser/conllu"
)

// TestReconcileChoosesBestSeenPair checks Reconcile's choice on hand-set
// scores: a word with an unseen pair gets the seen pair of the highest
// score sum, a word with a seen pair or not free keeps its tags.
func TestReconcileChoosesBestSeenPair(t *testing.T) {
	u := &Tagger{column: UPOS, tags: []string{"ADJ", "NOUN", "VERB"}}
	x := &Tagger{column: XPOS, tags: []string{"JJ", "NN", "VB", "VBG"},
		// JJ: ADJ; NN: NOUN; VB: VERB; VBG: NOUN or VERB.
		pairs: []uint64{1 << 0, 1 << 1, 1 << 2, 1<<1 | 1<<2}, pairUPOS: []string{"ADJ", "NOUN", "VERB"}}
	set := func() (*Analysis, []conllu.Word) {
		a := &Analysis{taggers: [2]*Tagger{u, x}}
		a.scores[0] = []float32{
			0, 5, 4, // NOUN best; with VB: VERB/VB (4+3) beats NOUN/NN (5+1)
			3, 0, 0, // ADJ best; with NN: ADJ/JJ (3+0) beats NOUN/NN (0+2)
			0, 5, 4, // NOUN/NN: seen
			0, 5, 4, // as the first word, but not free
		}
		a.scores[1] = []float32{
			0, 1, 3, 0,
			0, 2, 0, 0,
			0, 3, 1, 0,
			0, 1, 3, 0,
		}
		a.classes[0] = []int32{1, 0, 1, 1}
		a.classes[1] = []int32{2, 1, 1, 2}
		words := []conllu.Word{
			{Form: "a", UPOS: "NOUN", XPOS: "VB"}, {Form: "b", UPOS: "ADJ", XPOS: "NN"},
			{Form: "c", UPOS: "NOUN", XPOS: "NN"}, {Form: "d", UPOS: "NOUN", XPOS: "VB"},
		}
		return a, words
	}
	a, words := set()
	if n := a.Reconcile(words, []bool{true, true, true, false}); n != 2 {
		t.Errorf("Reconcile changed %d words, want 2", n)
	}
	want := [][2]string{{"VERB", "VB"}, {"ADJ", "JJ"}, {"NOUN", "NN"}, {"NOUN", "VB"}}
	for i, w := range words {
		if got := [2]string{w.UPOS, w.XPOS}; got != want[i] {
			t.Errorf("word %d: %v, want %v", i, got, want[i])
		}
	}
	if !reflect.DeepEqual(a.classes, [2][]int32{{2, 0, 1, 1}, {2, 0, 1, 2}}) {
		t.Errorf("classes after Reconcile: %v", a.classes)
	}

	// Pairs for another UPOS tag set, or no free word: nothing changes.
	x.pairUPOS = []string{"ADJ", "NOUN", "X"}
	a, words = set()
	if n := a.Reconcile(words, nil); n != 0 || words[0].UPOS != "NOUN" {
		t.Errorf("pairs for another tag set: %d words changed", n)
	}
	x.pairUPOS = u.tags
	a, words = set()
	if n := a.Reconcile(words, make([]bool, 4)); n != 0 {
		t.Errorf("no free word: %d words changed", n)
	}
	if n := a.Reconcile(words, nil); n != 3 {
		t.Errorf("all words free: %d words changed, want 3", n)
	}
}

// TestReconcileEWT trains UPOS and XPOS taggers on 2000 sentences of EWT
// train and checks on dev that the taggers alone give some words a pair
// never seen in training, that Reconcile leaves none and does not lower
// the share of words with both tags right, and that the pairs survive
// the model file.
func TestReconcileEWT(t *testing.T) {
	if testenv.Race {
		t.Skip("computes only (one training run): checked without -race")
	}
	u, dev := smallTagger(t)
	train := readEWT(t, "train")[:2000]
	x, err := Train(train, nil, Options{Column: XPOS, Epochs: 4, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[[2]string]bool{}
	for _, s := range train {
		for _, w := range s.Words {
			seen[[2]string{w.UPOS, w.XPOS}] = true
		}
	}
	type count struct{ unseen, both, changed int }
	tagDev := func(u, x *Tagger, reconcile bool) (c count, out [][]conllu.Word) {
		var a Analysis
		for _, s := range dev[:1000] {
			ws := make([]conllu.Word, len(s.Words))
			for i, w := range s.Words {
				ws[i] = conllu.Word{ID: w.ID, Form: w.Form}
			}
			a.Analyze(ws, u, x)
			u.TagAnalyzed(&a, ws)
			x.TagAnalyzed(&a, ws)
			if reconcile {
				c.changed += a.Reconcile(ws, nil)
			}
			for i, w := range ws {
				if !seen[[2]string{w.UPOS, w.XPOS}] {
					c.unseen++
				}
				if w.UPOS == s.Words[i].UPOS && w.XPOS == s.Words[i].XPOS {
					c.both++
				}
			}
			out = append(out, ws)
		}
		return c, out
	}
	before, _ := tagDev(u, x, false)
	after, tagged := tagDev(u, x, true)
	t.Logf("without Reconcile: %+v; with: %+v", before, after)
	if before.unseen == 0 || after.unseen != 0 || after.changed != before.unseen {
		t.Errorf("unseen pairs: %d without Reconcile, %d with, %d words changed", before.unseen, after.unseen, after.changed)
	}
	if after.both < before.both {
		t.Errorf("words with both tags right: %d with Reconcile, %d without", after.both, before.both)
	}

	// Through the model file: the same pairs, the same tags.
	u2, x2, errU, errX := PairFromDocument(Classifiers(u, x))
	if errU != nil || errX != nil {
		t.Fatal(errU, errX)
	}
	if !reflect.DeepEqual(x2.pairs, x.pairs) || !reflect.DeepEqual(x2.pairUPOS, x.pairUPOS) || u2.pairs != nil {
		t.Fatal("the decoded taggers' pairs differ")
	}
	if _, tagged2 := tagDev(u2, x2, true); !reflect.DeepEqual(tagged, tagged2) {
		t.Error("the decoded taggers tag differently")
	}

	good := x.Classifier()
	for name, mut := range map[string]func(c map[string][]byte){
		"pairs truncated":     func(b map[string][]byte) { b[pairsBlob] = b[pairsBlob][:len(b[pairsBlob])-1] },
		"pairs trailing":      func(b map[string][]byte) { b[pairsBlob] = append(b[pairsBlob], 1) },
		"pair tag out of set": func(b map[string][]byte) { b[pairUPOSBlob] = []byte("ADJ\nNOUN") },
		"pair tags unsorted":  func(b map[string][]byte) { b[pairUPOSBlob] = append([]byte("~\n"), b[pairUPOSBlob]...) },
		"pair tags missing":   func(b map[string][]byte) { delete(b, pairUPOSBlob) },
	} {
		c := cloneClassifier(good)
		mut(c.Blobs)
		if _, err := FromClassifier(&c); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	c := cloneClassifier(u.Classifier())
	c.Blobs[pairsBlob], c.Blobs[pairUPOSBlob] = good.Blobs[pairsBlob], good.Blobs[pairUPOSBlob]
	if _, err := FromClassifier(&c); err == nil {
		t.Error("pairs in a UPOS tagger: no error")
	}
}

// TestSetRoots checks the stem class of words not in the dictionary: the
// lowercased-form class of the longest known prefix of rootMinRunes
// letters or more, and the ending after it.
func TestSetRoots(t *testing.T) {
	train := []*conllu.Sentence{uposSentence("we", "PRON", "walk", "VERB", "home", "NOUN", "ev", "NOUN", "a", "DET")}
	tagID := map[string]int{"NOUN": 0, "PRON": 1, "VERB": 2, "DET": 3}
	d, _ := buildDict(train, UPOS, tagID)
	words := []conllu.Word{{Form: "Walkers"}, {Form: "walk"}, {Form: "homely"}, {Form: "evler"}, {Form: "xyzzy"}, {Form: "123"}, {Form: "abc"}}
	var ws []wordInfo
	var keys []uint64
	prepare(&ws, &keys, nil, words)
	masks := make([]uint64, len(keys))
	d.lookupAll(keys, masks)
	setAmbs(ws, masks, len(words))
	setRoots(ws, words, &d)
	want := []struct {
		root   uint64
		ending string // the word whose suffix is the ending
	}{
		{1 << 2, "ers"}, // walk+ers
		{0, ""},         // known
		{1 << 0, "ly"},  // home+ly
		{1 << 0, "ler"}, // ev+ler
		{0, ""},
		{0, ""},
		{0, ""}, // "a" is shorter than rootMinRunes
	}
	for i, w := range want {
		got := ws[i+2]
		var ending uint64
		if w.ending != "" {
			e := analyze(w.ending)
			ending = e.suf[len(w.ending)-1]
		}
		if got.root != w.root || got.ending != ending {
			t.Errorf("%s: root %b ending %x, want %b %x", words[i].Form, got.root, got.ending, w.root, ending)
		}
	}
}
