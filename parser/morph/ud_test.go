package morph

import (
	"slices"
	"testing"

	"github.com/golang/snappy"
	"github.com/vmihailenco/msgpack/v5"

	"github.com/transparse/transparse/internal/testenv"
	"github.com/transparse/transparse/parser/conllu"
	"github.com/transparse/transparse/parser/tagger"
)

func readUD(t testing.TB, name string) []*conllu.Sentence {
	t.Helper()
	s, err := conllu.ReadFile(testenv.UDFile(t, name))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// encodedSize returns the msgpack size of d and its size compressed with
// snappy, in bytes.
func encodedSize(t testing.TB, d *Data) (int, int) {
	t.Helper()
	b, err := msgpack.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	return len(b), len(snappy.Encode(nil, b))
}

// floor is a treebank and the Lemmas and UFeats its development set must
// reach: UDPipe 1's published test figures from its own predicted tags.
type floor struct {
	name           string
	lemmas, ufeats float64
}

var udpipe = []floor{
	{"en_ewt", 96.8, 95.4},
	{"tr_imst", 91.4, 89.8},
	{"hu_szeged", 88.7, 88.2},
}

// onTreebanks trains a lemmatizer and a FEATS tagger on the training set
// of each treebank and checks the scores run gives on its development set
// against the floor.
func onTreebanks(t *testing.T, floors []floor, run func(t *testing.T, tb string, l *Lemmatizer, f *FeatsTagger, train, dev []*conllu.Sentence) scores) {
	if testing.Short() {
		t.Skip("trains on full treebanks")
	}
	for _, tb := range floors {
		t.Run(tb.name, func(t *testing.T) {
			train := readUD(t, tb.name+"-ud-train.conllu")
			dev := readUD(t, tb.name+"-ud-dev.conllu")
			l, f := trainBoth(t, train)
			s := run(t, tb.name, l, f, train, dev)
			if s.lemmas < tb.lemmas || s.ufeats < tb.ufeats {
				t.Errorf("Lemmas %.2f, UFeats %.2f: below %.1f, %.1f", s.lemmas, s.ufeats, tb.lemmas, tb.ufeats)
			}
		})
	}
}

// TestUDDev trains on each full training set and scores its development
// set from gold UPOS and XPOS (CoNLL 2018 Lemmas and UFeats). A lemmatizer
// or FEATS tagger given gold tags that falls below UDPipe 1's figures from
// predicted tags has lost its way.
func TestUDDev(t *testing.T) {
	onTreebanks(t, udpipe, func(t *testing.T, tb string, l *Lemmatizer, f *FeatsTagger, _, dev []*conllu.Sentence) scores {
		s := evaluate(l, f, dev)
		lm, lz := encodedSize(t, l.Data())
		fm, fz := encodedSize(t, f.Data())
		t.Logf("%s dev: %v; %v (%d bytes, %d with snappy); %v (%d bytes, %d with snappy)", tb, s, l, lm, lz, f, fm, fz)
		return s
	})
}

// tagged returns copies of sents with UPOS (and XPOS, where train has it)
// predicted by taggers trained on train, and the tagger's UPOS accuracy.
func tagged(t *testing.T, train, sents []*conllu.Sentence) ([]*conllu.Sentence, float64) {
	t.Helper()
	cols := []string{tagger.UPOS}
	if !conllu.Absent(train[0].Words[0].XPOS) {
		cols = append(cols, tagger.XPOS)
	}
	out := make([]*conllu.Sentence, len(sents))
	for i, s := range sents {
		c := *s
		c.Words = slices.Clone(s.Words)
		out[i] = &c
	}
	for _, col := range cols {
		tg, err := tagger.Train(train, nil, tagger.Options{Column: col})
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range out {
			tg.Tag(s.Words)
		}
	}
	var n, ok int
	for i, s := range out {
		for j, w := range s.Words {
			n++
			if w.UPOS == sents[i].Words[j].UPOS {
				ok++
			}
		}
	}
	return out, 100 * float64(ok) / float64(n)
}

// TestUDDevPredictedTags scores the development sets as TestUDDev does, but
// from the tags of taggers trained on the same training set (the lemmatizer
// and FEATS tagger themselves trained on gold tags): the figures a plain-
// token user would see before jackknifed training. Turkish has no floor
// here: its figures follow the UPOS tagger's accuracy, which the test logs.
func TestUDDevPredictedTags(t *testing.T) {
	onTreebanks(t, []floor{{"tr_imst", 0, 0}, udpipe[2]}, func(t *testing.T, tb string, l *Lemmatizer, f *FeatsTagger, train, dev []*conllu.Sentence) scores {
		pred, upos := tagged(t, train, dev)
		s := evaluatePredicted(l, f, pred, dev)
		t.Logf("%s dev from predicted tags (UPOS %.2f): %v", tb, upos, s)
		return s
	})
}
