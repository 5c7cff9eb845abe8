package morph

import (
	"slices"
	"strings"
	"testing"

	"github.com/transparse/transparse/internal/testenv"
	"github.com/transparse/transparse/parser/conllu"
)

// refined returns copies of sents (gold tags and trees) with FEATS
// predicted by f, then chosen again from the tree with Refine when refine
// is set.
func refined(f *FeatsTagger, sents []*conllu.Sentence, refine bool) []*conllu.Sentence {
	out := make([]*conllu.Sentence, len(sents))
	var feats []string
	for i, s := range sents {
		c := *s
		c.Words = slices.Clone(s.Words)
		feats = f.Feats(c.Words, feats)
		for j := range c.Words {
			c.Words[j].Feats = feats[j]
		}
		if refine {
			f.Refine(c.Words)
		}
		out[i] = &c
	}
	return out
}

// ufeatsOf is the share (%) of the words of pred whose universal features
// are those of gold.
func ufeatsOf(gold, pred []*conllu.Sentence) float64 {
	n, ok := 0, 0
	for i, s := range gold {
		for j, w := range s.Words {
			n++
			if ufeats(w.Feats) == ufeats(pred[i].Words[j].Feats) {
				ok++
			}
		}
	}
	return 100 * float64(ok) / float64(n)
}

// passiveShare is the share (%) of the VBN words with an aux:pass
// dependent in sents whose FEATS say Voice=Pass.
func passiveShare(sents []*conllu.Sentence) float64 {
	n, ok := 0, 0
	for _, s := range sents {
		for _, w := range s.Words {
			if w.Deprel != "aux:pass" || w.Head < 1 {
				continue
			}
			h := &s.Words[w.Head-1]
			if h.XPOS != "VBN" {
				continue
			}
			n++
			if strings.Contains(h.Feats, "Voice=Pass") {
				ok++
			}
		}
	}
	if n == 0 {
		return 0
	}
	return 100 * float64(ok) / float64(n)
}

// TestRefineFromTree trains a FEATS tagger and its choice from the tree on
// EWT train (gold tags and trees) and tags EWT dev with gold tags and
// trees: choosing again from the tree raises UFeats and makes the FEATS
// of passive participles agree with their aux:pass more often. On the
// committed slice (no treebanks, or -short), where there is too little
// data to learn from, it checks that a refined tagger survives Data and
// refines alike.
func TestRefineFromTree(t *testing.T) {
	full := !testing.Short() && strings.HasSuffix(testenv.UDFilesOrFixture(t, "en_ewt-ud-dev.conllu")[0], "en_ewt-ud-dev.conllu")
	var train, dev []*conllu.Sentence
	if full {
		train, dev = readUD(t, "en_ewt-ud-train.conllu"), readUD(t, "en_ewt-ud-dev.conllu")
	} else {
		train, dev = readFixture(t, "en_ewt-train-150.conllu"), readFixture(t, "en_ewt-dev-40.conllu")
	}
	f, err := TrainFeatsTagger(train, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if f.HasSyntax() {
		t.Fatal("a FEATS tagger has a choice from the tree before one is set")
	}
	unrefined := refined(f, dev, true) // Refine without a syntax model: no change
	f.SetSyntax(f.TrainSyntax(train, train, Options{}))
	if !f.HasSyntax() {
		t.Fatal("SetSyntax did not set it")
	}
	after := refined(f, dev, true)
	g, err := FeatsTaggerFromData(f.Data())
	if err != nil {
		t.Fatal(err)
	}
	if !g.HasSyntax() {
		t.Fatal("the choice from the tree is lost in Data")
	}
	again := refined(g, dev, true)
	for i := range after {
		for j := range after[i].Words {
			if a, b := after[i].Words[j].Feats, again[i].Words[j].Feats; a != b {
				t.Fatalf("sentence %d word %d: %q refined, %q after Data", i+1, j+1, a, b)
			}
		}
	}
	before := refined(f, dev, false)
	for i := range before {
		if !slices.EqualFunc(before[i].Words, unrefined[i].Words, func(a, b conllu.Word) bool { return a.Feats == b.Feats }) {
			t.Fatalf("sentence %d: Refine without a choice from the tree changed FEATS", i+1)
		}
	}
	ub, ua := ufeatsOf(dev, before), ufeatsOf(dev, after)
	pb, pa := passiveShare(before), passiveShare(after)
	t.Logf("dev UFeats %.2f → %.2f; passive participles with Voice=Pass %.1f%% → %.1f%%", ub, ua, pb, pa)
	if full && (ua < ub+0.2 || pa <= pb) {
		t.Errorf("from the tree: UFeats %.2f → %.2f (want +0.2), Voice=Pass %.1f%% → %.1f%%", ub, ua, pb, pa)
	}
}

// TestSyntaxDataErrors: syntactic weights in a lemmatizer, or with the
// wrong number of classes, are corrupt data.
func TestSyntaxDataErrors(t *testing.T) {
	train := readFixture(t, "en_ewt-train-150.conllu")
	l, f := trainBoth(t, train)
	syn := f.TrainSyntax(train, train, Options{})
	f.SetSyntax(syn)
	d := f.Data()
	ld := l.Data()
	ld.SyntaxWeights = d.SyntaxWeights
	if _, err := LemmatizerFromData(ld); err == nil {
		t.Error("a lemmatizer with syntactic FEATS weights decoded")
	}
	d.Classes = append(d.Classes, "Extra=Yes")
	if _, err := FeatsTaggerFromData(d); err == nil {
		t.Error("syntactic weights of the wrong number of classes decoded")
	}
}
