package beam

import (
	"math"
	"slices"
	"testing"

	"github.com/transparse/transparse/internal/testenv"
	"github.com/transparse/transparse/parser/conllu"
	"github.com/transparse/transparse/parser/feature"
	"github.com/transparse/transparse/parser/linear"
	"github.com/transparse/transparse/parser/transition"
	"github.com/transparse/transparse/parser/tree"
)

func fixture(t testing.TB, name string) []*conllu.Sentence {
	t.Helper()
	sents, err := conllu.ReadFile(testenv.Fixture(t, name))
	if err != nil {
		t.Fatal(err)
	}
	return sents
}

// noise is a scorer of pseudo-random scores in [0, scale), a function of
// the features (so equal configurations score alike).
type noise struct{ scale float32 }

func (z noise) Scores(feats []uint64, scores []float32) {
	h := uint64(0x9E3779B97F4A7C15)
	for _, f := range feats {
		h = (h ^ f) * 0xff51afd7ed558ccd
	}
	for k := range scores {
		h ^= h >> 29
		h *= 0xbf58476d1ce4e5b9
		scores[k] = z.scale * float32(h>>40) / float32(1<<24)
	}
}

// oracleScorer scores the static oracle's class at the configurations of
// the gold derivations of a set of trees (recognised by their features)
// with bonus, and everything else with noise.
type oracleScorer struct {
	gold  map[uint64]int
	bonus float32
	noise
}

func featKey(feats []uint64) uint64 {
	h := uint64(1)
	for _, f := range feats {
		h = (h ^ f) * 0x9E3779B97F4A7C15
	}
	return h
}

func (o *oracleScorer) Scores(feats []uint64, scores []float32) {
	o.noise.Scores(feats, scores)
	if k, ok := o.gold[featKey(feats)]; ok {
		scores[k] += o.bonus
	}
}

// systemSetup returns the class table and extractor of a system over the
// deprels of sents.
func systemSetup(t *testing.T, name string, sents []*conllu.Sentence) (*transition.Classes, *feature.Extractor) {
	sys, err := transition.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	var deprels []string
	for _, s := range sents {
		for _, w := range s.Words {
			if !slices.Contains(deprels, w.Deprel) {
				deprels = append(deprels, w.Deprel)
			}
		}
	}
	slices.Sort(deprels)
	ext, err := feature.New(feature.ForSystem(name, true))
	if err != nil {
		t.Fatal(err)
	}
	return transition.NewClasses(sys, deprels, int32(slices.Index(deprels, "root"))), ext
}

// examples returns the examples of the sentences whose trees the system of
// c can derive.
func examples(c *transition.Classes, sents []*conllu.Sentence) []*Example {
	var exs []*Example
	for _, s := range sents {
		if ex, err := NewExample(c, s.Words, true); err == nil {
			exs = append(exs, ex)
		}
	}
	return exs
}

// checkResult checks that every tree of r is a tree over n words with the
// root deprel exactly on the root word's arc, that they are distinct and
// best first, that the first is the best tree, and that every confidence
// is in [0, 1].
func checkResult(t *testing.T, c *transition.Classes, r *Result, n int, what string) {
	t.Helper()
	if len(r.Trees) == 0 || !slices.Equal(r.Trees[0].Head, r.Head) || !slices.Equal(r.Trees[0].Label, r.Label) {
		t.Fatalf("%s: Trees[0] is not the best tree", what)
	}
	if len(r.Confidence) != n+1 {
		t.Fatalf("%s: %d confidences for %d words", what, len(r.Confidence), n)
	}
	for d := 1; d <= n; d++ {
		if c := r.Confidence[d]; !(c >= 0 && c <= 1) {
			t.Fatalf("%s: word %d: confidence %v", what, d, c)
		}
	}
	for i, tr := range r.Trees {
		if len(tr.Head) != n+1 {
			t.Fatalf("%s: tree %d has %d nodes for %d words", what, i, len(tr.Head), n)
		}
		if err := tree.Check(tr.Head); err != nil {
			t.Fatalf("%s: tree %d: %v", what, i, err)
		}
		for d := 1; d <= n; d++ {
			if (tr.Head[d] == 0) != (tr.Label[d] == c.RootLabel) {
				t.Fatalf("%s: tree %d word %d: head %d with deprel %d (root deprel %d)", what, i, d, tr.Head[d], tr.Label[d], c.RootLabel)
			}
		}
		if i > 0 && tr.Score > r.Trees[i-1].Score {
			t.Fatalf("%s: tree %d scores %v above tree %d's %v", what, i, tr.Score, i-1, r.Trees[i-1].Score)
		}
		for j := range i {
			if slices.Equal(tr.Head, r.Trees[j].Head) && slices.Equal(tr.Label, r.Trees[j].Label) {
				t.Fatalf("%s: trees %d and %d are the same", what, j, i)
			}
		}
	}
}

// TestWellFormed decodes the EWT slice with every system, random scores
// and several widths: every tree of every result is a well-formed tree.
func TestWellFormed(t *testing.T) {
	sents := fixture(t, "en_ewt-dev-40.conllu")
	for _, name := range transition.Names() {
		t.Run(name, func(t *testing.T) {
			c, ext := systemSetup(t, name, sents)
			var words feature.Words
			var r Result
			for _, k := range []int{1, 3, 8} {
				dec := NewDecoder(c, ext, k)
				dec.Confidence = true
				for i, s := range sents {
					feature.FillWords(&words, s.Words, true)
					dec.Decode(&words, len(s.Words), noise{scale: 3}, &r)
					checkResult(t, c, &r, len(s.Words), name)
					if k == 1 && len(r.Trees) != 1 || len(r.Trees) > k {
						t.Fatalf("sentence %d: %d trees with K=%d", i+1, len(r.Trees), k)
					}
				}
			}
		})
	}
}

// TestRecoversOracle: when the scorer favours the static oracle's class in
// the configurations of the gold derivation, the beam's best tree is the
// gold tree (lifted to the system's class), for every system, and every
// word's confidence is near 1.
func TestRecoversOracle(t *testing.T) {
	sents := fixture(t, "en_ewt-dev-40.conllu")
	for _, name := range transition.Names() {
		t.Run(name, func(t *testing.T) {
			c, ext := systemSetup(t, name, sents)
			var fsc feature.Scratch
			var s transition.State
			tested, skipped := 0, 0
			for i, sent := range sents {
				ex, err := NewExample(c, sent.Words, true)
				if err != nil {
					continue // a tree the system cannot derive
				}
				o := &oracleScorer{gold: map[uint64]int{}, bonus: 100, noise: noise{scale: 3}}
				c.Sys.Init(&s, ex.N)
				ambiguous := false
				for _, tr := range ex.Seq {
					key := featKey(ext.Extract(&s, &ex.Words, &fsc))
					if k, dup := o.gold[key]; dup && k != c.Class(tr) {
						ambiguous = true // the features do not tell two configurations apart
					}
					o.gold[key] = c.Class(tr)
					transition.Step(c.Sys, &s, tr)
				}
				if ambiguous {
					skipped++
					continue
				}
				tested++
				for _, k := range []int{1, 4} {
					var r Result
					dec := NewDecoder(c, ext, k)
					dec.Confidence = true
					dec.Decode(&ex.Words, ex.N, o, &r)
					checkResult(t, c, &r, ex.N, name)
					for d := 1; d <= ex.N; d++ {
						if r.Head[d] != s.Head[d] || r.Label[d] != s.Label[d] {
							t.Fatalf("sentence %d K=%d word %d: head %d label %d, oracle %d %d", i+1, k, d, r.Head[d], r.Label[d], s.Head[d], s.Label[d])
						}
						if r.Confidence[d] < 0.99 {
							t.Fatalf("sentence %d K=%d word %d: confidence %v in an arc scored far above the rest", i+1, k, d, r.Confidence[d])
						}
					}
				}
			}
			if tested < 3*skipped || tested < 20 {
				t.Fatalf("%d sentences tested, %d skipped: a feature-keyed oracle cannot tell configurations apart", tested, skipped)
			}
		})
	}
}

// TestMaxViolationUpdate trains on one two-word sentence from zero weights
// with a beam of one: every score ties, so the beam takes SHIFT (the first
// class) where the gold sequence takes LEFT-ARC at step 2. The update is
// there: +1 for LEFT-ARC and −1 for SHIFT on the features of that
// configuration, and none on those of the first step, where both
// sequences agree.
func TestMaxViolationUpdate(t *testing.T) {
	words := []conllu.Word{
		{ID: 1, Form: "dogs", UPOS: "NOUN", XPOS: "NNS", Head: 2, Deprel: "nsubj"},
		{ID: 2, Form: "bark", UPOS: "VERB", XPOS: "VBP", Head: 0, Deprel: "root"},
	}
	sys, _ := transition.Lookup("arc-eager")
	deprels := []string{"nsubj", "obj", "root"}
	c := transition.NewClasses(sys, deprels, 2)
	ext, err := feature.New(feature.ForSystem("arc-eager", true))
	if err != nil {
		t.Fatal(err)
	}
	ex, err := NewExample(c, words, true)
	if err != nil {
		t.Fatal(err)
	}
	la := c.Class(transition.Transition{Move: transition.LeftArc, Label: 0})
	shift := c.Class(transition.Transition{Move: transition.Shift, Label: transition.None})
	if c.Class(ex.Seq[0]) != shift || c.Class(ex.Seq[1]) != la {
		t.Fatalf("gold sequence %v, want SHIFT, LEFT-ARC:nsubj, ...", ex.Seq)
	}
	for _, u := range []Update{MaxViolation, EarlyUpdate} {
		tr := NewTrainer(c, ext, 1, u)
		if tr.Sentence(ex) {
			t.Fatalf("%v: zero weights reached the gold tree", u)
		}
		// The weights are +1 (LEFT-ARC:nsubj) and −1 (SHIFT) on the
		// features F2 of the second configuration: a configuration X scores
		// ±|F_X ∩ F2| for them (features with null values recur) and 0 for
		// every other class.
		var s transition.State
		var fsc feature.Scratch
		scores := make([]float32, c.Len())
		sys.Init(&s, 2)
		f1 := slices.Clone(ext.Extract(&s, &ex.Words, &fsc))
		transition.Step(sys, &s, ex.Seq[0])
		f2 := slices.Clone(ext.Extract(&s, &ex.Words, &fsc))
		shared := 0
		for _, f := range f1 {
			if slices.Contains(f2, f) {
				shared++
			}
		}
		if shared >= len(f2)/2 {
			t.Fatalf("the two configurations share %d of %d features", shared, len(f2))
		}
		for i, fs := range [][]uint64{f1, f2} {
			want := float32(len(f2))
			if i == 0 {
				want = float32(shared)
			}
			tr.Weights.Scores(fs, scores)
			for k, v := range scores {
				w := float32(0)
				switch k {
				case la:
					w = want
				case shift:
					w = -want
				}
				if v != w {
					t.Fatalf("%v: class %d scores %v at configuration %d, want %v", u, k, v, i+1, w)
				}
			}
		}
		// The perceptron then separates this one example.
		ok := false
		for range 5 {
			ok = tr.Sentence(ex)
		}
		if !ok {
			t.Fatalf("%v: five more passes do not reach the gold tree", u)
		}
	}
}

// TestTrainingFits: ten epochs of global training with a beam of 4 fit
// the EWT training slice: most sentences are decoded to their gold
// sequence, twice as many as in the first epoch.
func TestTrainingFits(t *testing.T) {
	sents := fixture(t, "en_ewt-train-150.conllu")
	c, ext := systemSetup(t, "arc-eager", sents)
	exs := examples(c, sents)
	tr := NewTrainer(c, ext, 4, MaxViolation)
	var first, last int
	for epoch := range 10 {
		right := 0
		for _, ex := range exs {
			if tr.Sentence(ex) {
				right++
			}
		}
		if epoch == 0 {
			first = right
		}
		last = right
	}
	if last < len(exs)/2 || last < 2*first {
		t.Fatalf("gold sequences reached: %d of %d in the first epoch, %d in the last", first, len(exs), last)
	}
}

// TestTrainRuns: Runs 0 and 1 train the same classifier; two runs train
// the mean of the single runs of Seed and linear.RunSeed(Seed, 1) (the scores of every
// training configuration are the two runs' mean); the progress callback
// sees the first run's sentences; and a stop ends all runs.
func TestTrainRuns(t *testing.T) {
	sents := fixture(t, "en_ewt-train-150.conllu")[:60]
	c, ext := systemSetup(t, "arc-eager", sents)
	exs := examples(c, sents)
	train := func(runs int, seed int64, sentence func(epoch, done int) bool) *linear.Model {
		m, _ := Train(c, ext, exs, TrainOptions{K: 4, Epochs: 2, Runs: runs, Seed: seed,
			Freeze: linear.FreezeOptions{Precision: linear.Float32}, Sentence: sentence})
		return m
	}
	calls := 0
	two := train(2, 5, func(epoch, done int) bool { calls++; return true })
	if calls != 2*len(exs) {
		t.Errorf("progress: %d calls, want %d (the first run's sentences of two epochs)", calls, 2*len(exs))
	}
	zero, one, other := train(0, 5, nil), train(1, 5, nil), train(1, linear.RunSeed(5, 1), nil)
	// The features of every gold configuration of the examples.
	var st transition.State
	var sc feature.Scratch
	var s0, s1, s2, so []float32
	n := c.Len()
	s0, s1, s2, so = make([]float32, n), make([]float32, n), make([]float32, n), make([]float32, n)
	differ, checked := false, 0
	for _, ex := range exs {
		c.Sys.Init(&st, ex.N)
		for _, tr := range ex.Seq {
			feats := ext.Extract(&st, &ex.Words, &sc)
			zero.Scores(feats, s0)
			one.Scores(feats, s1)
			other.Scores(feats, so)
			two.Scores(feats, s2)
			for k := range n {
				if s0[k] != s1[k] {
					t.Fatalf("Runs 0 and 1 score class %d %g and %g", k, s0[k], s1[k])
				}
				if mean := (s1[k] + so[k]) / 2; math.Abs(float64(s2[k]-mean)) > 1e-3*(1+math.Abs(float64(mean))) {
					t.Fatalf("two runs score class %d %g, the single runs %g and %g", k, s2[k], s1[k], so[k])
				}
				differ = differ || s1[k] != so[k]
			}
			checked++
			transition.Step(c.Sys, &st, tr)
		}
	}
	if !differ || checked == 0 {
		t.Fatalf("the runs of seeds 5 and %d score alike on %d configurations", linear.RunSeed(5, 1), checked)
	}
	// Stopping in the first epoch returns no classifier, with every run
	// stopped.
	if m := train(3, 5, func(epoch, done int) bool { return done < 10 }); m != nil {
		t.Error("a stop in the first epoch returned a classifier")
	}
}
