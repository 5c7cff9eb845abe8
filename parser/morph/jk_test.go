package morph

import (
	"slices"
	"testing"

	"github.com/transparse/transparse/parser/conllu"
)

func TestJackknifeExperiment(t *testing.T) {
	for _, tb := range []string{"tr_imst", "hu_szeged"} {
		train := readUD(t, tb+"-ud-train.conllu")
		dev := readUD(t, tb+"-ud-dev.conllu")
		const k = 5
		var jk []*conllu.Sentence
		for fold := 0; fold < k; fold++ {
			var tr, held []*conllu.Sentence
			for i, s := range train {
				if i%k == fold {
					held = append(held, s)
				} else {
					tr = append(tr, s)
				}
			}
			p, _ := tagged(t, tr, held)
			jk = append(jk, p...)
		}
		// keep gold lemma/feats; tags predicted
		for _, s := range jk {
			s.Words = slices.Clone(s.Words)
		}
		pred, upos := tagged(t, train, dev)
		lg, fg := trainBoth(t, train)
		lj, fj := trainBoth(t, jk)
		t.Logf("%s UPOS %.2f gold-trained: %v", tb, upos, evaluatePredicted(lg, fg, pred, dev))
		t.Logf("%s jackknife-trained: %v", tb, evaluatePredicted(lj, fj, pred, dev))
		t.Logf("%s jackknife-trained, gold dev tags: %v", tb, evaluate(lj, fj, dev))
	}
}
