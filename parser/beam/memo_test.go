package beam

import (
	"reflect"
	"testing"

	"github.com/transparse/transparse/parser/conllu"
	"github.com/transparse/transparse/parser/feature"
	"github.com/transparse/transparse/parser/linear"
	"github.com/transparse/transparse/parser/transition"
)

// counter counts the feature vectors a scorer is asked to score.
type counter struct {
	Scorer
	calls int
}

func (c *counter) Scores(feats []uint64, scores []float32) {
	c.calls++
	c.Scorer.Scores(feats, scores)
}

// TestMemoChangesNothing decodes the EWT slice with every system at K = 2
// and 8, with and without the memo of scored feature vectors: the results
// (best tree, score, confidences, every tree of the final beam) are the
// same, and at K = 8 the memo spares the scorer some vectors. It also trains
// an arc-eager classifier both ways: the same weights.
func TestMemoChangesNothing(t *testing.T) {
	defer func() { useMemo = true }()
	sents := fixture(t, "en_ewt-dev-40.conllu")
	for _, name := range transition.Names() {
		t.Run(name, func(t *testing.T) {
			c, ext := systemSetup(t, name, sents)
			var words feature.Words
			for _, k := range []int{2, 8} {
				calls := [2]int{}
				for i, s := range sents {
					var r [2]Result
					for m, on := range []bool{false, true} {
						useMemo = on
						dec := NewDecoder(c, ext, k)
						dec.Confidence = true
						sc := &counter{Scorer: noise{scale: 3}}
						feature.FillWords(&words, s.Words, true)
						dec.Decode(&words, len(s.Words), sc, &r[m])
						calls[m] += sc.calls
					}
					if !reflect.DeepEqual(r[0], r[1]) {
						t.Fatalf("K=%d sentence %d: the memo changes the result:\n%+v\n%+v", k, i+1, r[0], r[1])
					}
				}
				if k == 8 && calls[1] >= calls[0] {
					t.Errorf("K=%d: %d vectors scored with the memo, %d without", k, calls[1], calls[0])
				}
				t.Logf("K=%d: %d vectors scored with the memo, %d without", k, calls[1], calls[0])
			}
		})
	}

	train := fixture(t, "en_ewt-train-150.conllu")[:60]
	c, ext := systemSetup(t, "arc-eager", train)
	exs := examples(c, train)
	var models [2]*linear.Model
	for m, on := range []bool{false, true} {
		useMemo = on
		models[m], _ = Train(c, ext, exs, TrainOptions{K: 4, Epochs: 2, Runs: 1, Seed: 3,
			Freeze: linear.FreezeOptions{Precision: linear.Float32}})
	}
	var st transition.State
	var fsc feature.Scratch
	s0, s1 := make([]float32, c.Len()), make([]float32, c.Len())
	for _, ex := range exs {
		c.Sys.Init(&st, ex.N)
		for _, tr := range ex.Seq {
			feats := ext.Extract(&st, &ex.Words, &fsc)
			models[0].Scores(feats, s0)
			models[1].Scores(feats, s1)
			if !reflect.DeepEqual(s0, s1) {
				t.Fatalf("trained with the memo, a configuration scores %v; without, %v", s1, s0)
			}
			transition.Step(c.Sys, &st, tr)
		}
	}
}

// TestMemoBounded decodes a sentence of 3,000 words at K = 16: the memo
// fills and starts afresh several times, never holding more than its
// bound, and the result is still a well-formed tree, the same as without
// the memo.
func TestMemoBounded(t *testing.T) {
	defer func() { useMemo = true }()
	sents := fixture(t, "en_ewt-dev-40.conllu")
	c, ext := systemSetup(t, "arc-eager", sents)
	var long []conllu.Word
	for len(long) < 3000 {
		for _, s := range sents {
			for _, w := range s.Words {
				w.ID, w.Head = len(long)+1, 0
				long = append(long, w)
			}
		}
	}
	long = long[:3000]
	var words feature.Words
	feature.FillWords(&words, long, true)
	var r [2]Result
	var dec *Decoder
	for m, on := range []bool{false, true} {
		useMemo = on
		dec = NewDecoder(c, ext, 16)
		dec.Confidence = true
		sc := &counter{Scorer: noise{scale: 3}}
		dec.Decode(&words, len(long), sc, &r[m])
		if on && sc.calls <= 2*dec.memo.max {
			t.Fatalf("%d vectors scored, the memo holds %d: it never filled twice", sc.calls, dec.memo.max)
		}
	}
	checkResult(t, c, &r[1], len(long), "3000 words")
	if !reflect.DeepEqual(r[0], r[1]) {
		t.Fatal("the memo changes the result of a long sentence")
	}
	mm := &dec.memo
	if mm.n > mm.max || len(mm.hashes) > mm.max || len(mm.feats) > mm.max*mm.nf {
		t.Fatalf("the memo holds %d entries, %d hashes, %d features; its bound is %d entries", mm.n, len(mm.hashes), len(mm.feats), mm.max)
	}
	if bytes := mm.max * (8*mm.nf + 4*mm.nc + 8); bytes > memoBytes {
		t.Fatalf("the memo's bound is %d bytes, more than %d", bytes, memoBytes)
	}
}
