package linear

import (
	"math"
	"math/rand"
	"reflect"
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

// RoundWeights gives what freezing with WeightBits gives (up to one step
// where the two roundings differ), keeps a classifier that already fits,
// and refuses bad arguments.
func TestRoundWeights(t *testing.T) {
	tr := trained(17, 20000, 9)
	c16 := tr.Freeze(FreezeOptions{}).Classifier("x", nil, nil)
	same, err := RoundWeights(&c16, 16)
	if err != nil || !reflect.DeepEqual(same.Blobs, c16.Blobs) || !reflect.DeepEqual(same.Params, c16.Params) {
		t.Fatalf("RoundWeights(16) changed a 16-bit classifier (%v)", err)
	}
	for _, bits := range []int{12, 6} {
		rc, err := RoundWeights(&c16, bits)
		if err != nil {
			t.Fatal(err)
		}
		want := tr.Freeze(FreezeOptions{WeightBits: bits}).Classifier("x", nil, nil)
		if rc.Params["scale_bits"] != want.Params["scale_bits"] {
			t.Errorf("%d bits: scale %v, Freeze gives %v", bits,
				math.Float32frombits(uint32(rc.Params["scale_bits"])), math.Float32frombits(uint32(want.Params["scale_bits"])))
		}
		got, err := FromClassifier(rc)
		if err != nil {
			t.Fatal(err)
		}
		ref, err := FromClassifier(&want)
		if err != nil {
			t.Fatal(err)
		}
		// Feature by feature, the weights agree within one step.
		step := float64(ref.scale)
		compareScores(rand.New(rand.NewSource(int64(bits))), got, ref, 17, 3000, 1, 200000, func(k int, x, y float32) {
			if d := math.Abs(float64(x - y)); d > step*1.001 {
				t.Fatalf("%d bits: class %d: RoundWeights %v, Freeze %v (step %v)", bits, k, x, y, step)
			}
		})
		if d := got.NumWeights() - ref.NumWeights(); d < -ref.NumWeights()/100 || d > ref.NumWeights()/100 {
			t.Errorf("%d bits: %d weights, Freeze keeps %d", bits, got.NumWeights(), ref.NumWeights())
		}
		if bits == 6 && rc.Layout != LayoutCodebook {
			t.Errorf("6-bit weights (at most 63 values) not stored with a codebook: %s", rc.Layout)
		}
	}
	for _, bits := range []int{0, 1, 17} {
		if _, err := RoundWeights(&c16, bits); err == nil {
			t.Errorf("RoundWeights(%d) accepted", bits)
		}
	}
	cf := tr.Freeze(FreezeOptions{Precision: Float32}).Classifier("x", nil, nil)
	if _, err := RoundWeights(&cf, 12); err == nil {
		t.Error("RoundWeights of a float32 classifier accepted")
	}
}

// A threshold beyond every weight drops them all, however large (no
// overflow keeps them); NaN, infinities and negative thresholds are
// refused.
func TestPruneHostileThresholds(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	tr := NewTrainer(3)
	for step := 0; step < 500; step++ {
		tr.Update([]uint64{uint64(rng.Intn(50))}, rng.Intn(3), rng.Intn(3))
		tr.Tick()
	}
	c := tr.Freeze(FreezeOptions{}).Classifier("toy", nil, nil)
	if c.Params["entries"] == 0 {
		t.Fatal("no weights to prune")
	}
	for _, minAbs := range []float32{1e16, 1e18, math.MaxFloat32} {
		p, err := Prune(&c, minAbs)
		if err != nil {
			t.Errorf("Prune(%g): %v", minAbs, err)
		} else if p.Params["entries"] != 0 {
			t.Errorf("Prune(%g): %d weights left; want none", minAbs, p.Params["entries"])
		}
	}
	for _, minAbs := range []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), -1} {
		if _, err := Prune(&c, minAbs); err == nil {
			t.Errorf("Prune(%g): no error", minAbs)
		}
	}
}
