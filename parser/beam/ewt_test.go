package beam_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/transparse/transparse/parser/internal/core"

	"github.com/transparse/transparse/internal/testenv"
	"github.com/transparse/transparse/parser/beam"
	"github.com/transparse/transparse/parser/conllu"
	"github.com/transparse/transparse/parser/eval"
	"github.com/transparse/transparse/parser/feature"
	"github.com/transparse/transparse/parser/linear"
)

// scored is one parsed word: its confidence and whether its head and
// universal deprel are right.
type scored struct {
	conf  float64
	right bool
}

// parseAll parses copies of sents with m and opt and returns the CoNLL
// 2018 LAS, the words with their confidences, and the words per second.
func parseAll(t testing.TB, m *core.Model, opt core.Options, sents []*conllu.Sentence) (float64, []scored, float64) {
	t.Helper()
	var r core.Result
	pred := make([]*conllu.Sentence, len(sents))
	var words []scored
	n := 0
	start := time.Now()
	for i, s := range sents {
		c := *s
		c.Words = slices.Clone(s.Words)
		if err := m.ParseWithOptions(c.Words, opt, &r); err != nil {
			t.Fatalf("sentence %d: %v", i+1, err)
		}
		pred[i] = &c
		n += len(c.Words)
		for j, w := range c.Words {
			g := s.Words[j]
			conf := 0.0
			if len(r.Confidence) > 0 {
				conf = r.Confidence[j]
			}
			words = append(words, scored{conf, w.Head == g.Head && eval.UniversalDeprel(w.Deprel) == eval.UniversalDeprel(g.Deprel)})
		}
	}
	speed := float64(n) / time.Since(start).Seconds()
	sc, err := eval.Score(sents, pred)
	if err != nil {
		t.Fatal(err)
	}
	return sc.LAS.F1(), words, speed
}

// bins returns the accuracy (percent) of the words in q bins of equal size
// by increasing confidence (ties broken by the words' order).
func bins(words []scored, q int) []float64 {
	conf := make([]float64, len(words))
	right := make([]bool, len(words))
	for i, w := range words {
		conf[i], right[i] = w.conf, w.right
	}
	return eval.AccuracyBins(conf, right, q)
}

func binsString(acc []float64) string {
	var b strings.Builder
	for i, a := range acc {
		if i > 0 {
			b.WriteString(" ")
		}
		fmt.Fprintf(&b, "%.1f", a)
	}
	return b.String()
}

// TestConfidenceRanks: on the EWT slice with the bundled model's gold-tag
// classifier, at K = 1 and K = 8, the most confident fifth of the words is
// far more often right than the least confident fifth, and each half of
// the words more often right than the half below it.
func TestConfidenceRanks(t *testing.T) {
	m := bundled(t)
	sents := fixture(t, "en_ewt-dev-slice.conllu")
	for _, k := range []int{1, 8} {
		_, words, _ := parseAll(t, m, core.Options{Beam: k, Confidence: true, Temperature: 10}, sents)
		q, h := bins(words, 5), bins(words, 2)
		t.Logf("K=%d: accuracy by confidence quintile %s", k, binsString(q))
		if q[4] < q[0]+20 || h[1] <= h[0] {
			t.Fatalf("K=%d: accuracy by confidence quintile %s, by half %s: confidence does not rank arcs", k, binsString(q), binsString(h))
		}
	}
}

// The tests below measure on the full EWT treebanks: experiments, run
// only when built with -tags experiment (testenv.Experiment):
//
//	go test -tags experiment ./parser/beam -run TestEWTBeamGreedyModel -v
//	go test -tags experiment ./parser/beam -run 'TestEWTGlobal$' -v -timeout 3h
//
// TestEWTGlobalEarlyUpdate is the same training with early update.

func ewt(t *testing.T, split string) []*conllu.Sentence {
	sents, err := conllu.ReadFile(testenv.UDFile(t, "en_ewt-ud-"+split+".conllu"))
	if err != nil {
		t.Fatal(err)
	}
	return sents
}

// widths are the beam widths TestEWTBeamGreedyModel decodes at.
var widths = []int{1, 2, 4, 8, 16}

// temperature is the temperature of the measurements' confidences.
const temperature = 10

// withClassifier is a gold-tags-only model of m's class table and
// encoding whose gold-tag classifier is clf over ext.
func withClassifier(m *core.Model, ext *feature.Extractor, clf *linear.Model) *core.Model {
	return core.Assemble(core.Parts{Card: m.Card(), Classes: m.Classes(), PseudoProjective: m.PseudoProjective(),
		Gold: core.Variant{Morph: true, Ext: ext, Clf: clf}})
}

// TestEWTBeamGreedyModel decodes EWT dev with the bundled model's locally
// trained gold-tag classifier at several widths: beam search over a
// classifier trained greedily. The best width must not lose to K = 1 by
// more than a point.
func TestEWTBeamGreedyModel(t *testing.T) {
	testenv.Experiment(t)
	m := bundled(t)
	dev := ewt(t, "dev")
	var las1, best float64
	for _, k := range widths {
		opt := core.Options{Beam: k, Confidence: true, Temperature: temperature}
		las, words, speed := parseAll(t, m, opt, dev)
		t.Logf("K=%2d: dev LAS %.2f, %.0f words/s; accuracy by confidence decile %s", k, las, speed, binsString(bins(words, 10)))
		if k == 1 {
			las1 = las
		}
		best = max(best, las)
	}
	if best < las1-1 {
		t.Fatalf("the best width gives dev LAS %.2f, K=1 %.2f", best, las1)
	}
}

// TestEWTGlobal trains a gold-tag classifier for a beam of width 8 on EWT
// train with max-violation updates; see ewtGlobal.
func TestEWTGlobal(t *testing.T) {
	testenv.Experiment(t)
	ewtGlobal(t, 8, beam.MaxViolation)
}

// TestEWTGlobalEarlyUpdate is TestEWTGlobal with early update.
func TestEWTGlobalEarlyUpdate(t *testing.T) {
	testenv.Experiment(t)
	ewtGlobal(t, 8, beam.EarlyUpdate)
}

// ewtGlobal trains a gold-tag classifier for a beam of width k on EWT
// train, 12 epochs with update upd, with the bundled model's templates
// and class table, selects the epoch on dev, and logs every epoch's dev
// LAS, its confidence deciles, and its dev and test LAS and speed at
// widths 1, k/2, k and 2k. Global training must beat its first epoch on dev.
func ewtGlobal(t *testing.T, k int, upd beam.Update) {
	m := bundled(t)
	c, ext := m.Classes(), m.Variant(core.Gold).Ext
	train, dev := ewt(t, "train"), ewt(t, "dev")
	start := time.Now()
	var exs []*beam.Example
	for _, s := range train {
		if len(s.Words) > 400 {
			continue
		}
		if ex, err := beam.NewExample(c, s.Words, true); err == nil {
			exs = append(exs, ex)
		}
	}
	t.Logf("K=%d %v: %d training examples of %d sentences", k, upd, len(exs), len(train))
	var first float64
	var bestWords []scored
	opt := beam.TrainOptions{K: k, Epochs: 12, Update: upd, Seed: 1,
		Freeze: linear.FreezeOptions{MinUpdates: 1, KeyBits: 32, WeightBits: linear.TrainedWeightBits}}
	opt.Dev = func(clf *linear.Model) float64 {
		popt := core.Options{Beam: k, Confidence: true, Temperature: temperature}
		las, words, speed := parseAll(t, withClassifier(m, ext, clf), popt, dev)
		t.Logf("  dev LAS %.2f at %.0f words/s, %d weights", las, speed, clf.NumWeights())
		if first == 0 {
			first = las
		}
		bestWords = words
		return las
	}
	var bestLAS float64
	var words []scored
	opt.Epoch = func(epoch int, reached, las float64, best bool) {
		mark := ""
		if best {
			mark, bestLAS, words = " *", las, bestWords
		}
		t.Logf("epoch %2d: gold reached %.1f%%, dev LAS %.2f%s [%.0f s]", epoch, 100*reached, las, mark, time.Since(start).Seconds())
	}
	clf, _ := beam.Train(c, ext, exs, opt)
	t.Logf("best dev LAS %.2f, trained in %.0f s; accuracy by confidence decile %s", bestLAS, time.Since(start).Seconds(), binsString(bins(words, 10)))
	for _, kk := range slices.Compact([]int{1, k / 2, k, 2 * k}) {
		if kk < 1 {
			continue
		}
		p := withClassifier(m, ext, clf)
		popt := core.Options{Beam: kk, Temperature: temperature}
		las, _, speed := parseAll(t, p, popt, dev)
		tl, _, _ := parseAll(t, p, popt, ewt(t, "test"))
		t.Logf("trained K=%d, decoded K=%d: dev LAS %.2f, test LAS %.2f, %.0f words/s", k, kk, las, tl, speed)
	}
	if bestLAS <= first && opt.Epochs > 1 {
		t.Fatalf("best dev LAS %.2f, first epoch %.2f", bestLAS, first)
	}

}
