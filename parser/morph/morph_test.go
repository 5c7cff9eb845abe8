package morph

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/transparse/transparse/parser/conllu"
)

// readFixture reads a slice of UD English EWT committed with the tests of
// parser/train (see its testdata/README.md).
func readFixture(t testing.TB, name string) []*conllu.Sentence {
	t.Helper()
	s, err := conllu.ReadFile(filepath.Join("..", "train", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// universal is the set of universal features the CoNLL 2018 evaluation
// script (conll18_ud_eval.py) compares for UFeats.
var universal = map[string]bool{
	"PronType": true, "NumType": true, "Poss": true, "Reflex": true, "Foreign": true,
	"Abbr": true, "Gender": true, "Animacy": true, "Number": true, "Case": true,
	"Definite": true, "Degree": true, "VerbForm": true, "Mood": true, "Tense": true,
	"Aspect": true, "Voice": true, "Evident": true, "Polarity": true, "Person": true,
	"Polite": true,
}

// ufeats is the UFeats value of a FEATS string as conll18_ud_eval.py
// computes it: the universal features, sorted.
func ufeats(feats string) string {
	var keep []string
	for _, f := range strings.Split(feats, "|") {
		name, _, _ := strings.Cut(f, "=")
		if universal[name] {
			keep = append(keep, f)
		}
	}
	slices.Sort(keep)
	return strings.Join(keep, "|")
}

// scores are the CoNLL 2018 Lemmas and UFeats accuracies (percent) of a
// lemmatizer and a FEATS tagger on gold-tagged sentences, and the
// accuracy on full FEATS strings.
type scores struct {
	words                 int
	lemmas, ufeats, feats float64
}

func (s scores) String() string {
	return fmt.Sprintf("%d words: Lemmas %.2f, UFeats %.2f, FEATS %.2f", s.words, s.lemmas, s.ufeats, s.feats)
}

func evaluate(l *Lemmatizer, f *FeatsTagger, sents []*conllu.Sentence) scores {
	var n, lem, uf, fe int
	var lemmas, feats []string
	for _, s := range sents {
		lemmas = l.Lemmas(s.Words, lemmas)
		feats = f.Feats(s.Words, feats)
		for i, w := range s.Words {
			n++
			// conll18_ud_eval.py counts a gold lemma "_" as matched.
			if w.Lemma == "_" || lemmas[i] == w.Lemma {
				lem++
			}
			if ufeats(feats[i]) == ufeats(w.Feats) {
				uf++
			}
			if feats[i] == w.Feats {
				fe++
			}
		}
	}
	pc := func(k int) float64 { return 100 * float64(k) / float64(n) }
	return scores{n, pc(lem), pc(uf), pc(fe)}
}

func trainBoth(t testing.TB, train []*conllu.Sentence) (*Lemmatizer, *FeatsTagger) {
	t.Helper()
	l, err := TrainLemmatizer(train, Options{})
	if err != nil {
		t.Fatal(err)
	}
	f, err := TrainFeatsTagger(train, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return l, f
}
