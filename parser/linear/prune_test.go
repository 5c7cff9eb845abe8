package linear

import (
	"math"
	"math/rand"
	"testing"
)

// Pruning keeps exactly the weights of at least minAbs: scored one feature
// at a time, the pruned model gives the original scores with the small ones
// zeroed, features left without weights disappear, and minAbs 0 changes
// nothing.
func TestPrune(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	const classes = 7
	tr := NewTrainer(classes)
	feats := make([]uint64, 400)
	for i := range feats {
		feats[i] = rng.Uint64()
	}
	for step := 0; step < 3000; step++ {
		f := []uint64{feats[rng.Intn(len(feats))], feats[rng.Intn(len(feats))]}
		tr.Update(f, rng.Intn(classes), rng.Intn(classes))
		tr.Tick()
	}
	m := tr.Freeze(FreezeOptions{})
	c := m.Classifier("toy", nil, nil)
	same, err := Prune(&c, 0)
	if err != nil {
		t.Fatal(err)
	}
	if same.Params["entries"] != c.Params["entries"] {
		t.Fatalf("Prune(0) dropped weights: %d of %d left", same.Params["entries"], c.Params["entries"])
	}
	const minAbs = 0.5
	pc, err := Prune(&c, minAbs)
	if err != nil {
		t.Fatal(err)
	}
	p, err := FromClassifier(pc)
	if err != nil {
		t.Fatal(err)
	}
	if p.NumWeights() >= m.NumWeights() || p.NumFeatures() > m.NumFeatures() {
		t.Fatalf("pruning kept %d of %d weights, %d of %d features", p.NumWeights(), m.NumWeights(), p.NumFeatures(), m.NumFeatures())
	}
	a, b := make([]float32, classes), make([]float32, classes)
	for _, f := range feats {
		m.Scores([]uint64{f}, a)
		p.Scores([]uint64{f}, b)
		for k := range a {
			want := a[k]
			if math.Abs(float64(want)) < minAbs {
				want = 0
			}
			if b[k] != want {
				t.Fatalf("feature %x class %d: pruned %v, want %v (unpruned %v)", f, k, b[k], want, a[k])
			}
		}
	}
	t.Logf("kept %d of %d weights, %d of %d features", p.NumWeights(), m.NumWeights(), p.NumFeatures(), m.NumFeatures())
}
