package calib

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/transparse/transparse/modelfmt"
)

// synthetic draws n arcs from a known calibrator: label l uniform among
// labels (and some fallback arcs), z uniform in [-10, 25].
func synthetic(truth *Calibrator, labels, n int, seed uint64) []Sample {
	rng := rand.New(rand.NewPCG(seed, 1))
	s := make([]Sample, n)
	for i := range s {
		l := int32(rng.IntN(labels + 1))
		z := -10 + 35*rng.Float64()
		if int(l) == labels {
			l, z = -1, math.Inf(-1)
		}
		// Half the arcs have given tags; the others tag uncertainties
		// spread over the whole range.
		var dep, head float64
		if rng.IntN(2) == 0 {
			dep, head = TagUncertainty(100*rng.Float64()), TagUncertainty(100*rng.Float64())
		}
		s[i] = Sample{Label: l, Z: z, Right: rng.Float64() < truth.Prob(l, z, dep, head), Dep: dep, Head: head}
	}
	return s
}

// TestFitRecovers: arcs drawn from a known calibrator give back its
// probabilities to within a few points, and the fit's likelihood is at
// least the truth's.
func TestFitRecovers(t *testing.T) {
	truth := &Calibrator{A: 1.5, B: []float64{-0.2, -0.3, -0.1, -0.2}, Bias: []float64{2, 0.5, -1, -2}, T: [2]float64{-0.6, -0.3}}
	train := synthetic(truth, 3, 60000, 1)
	c, err := Fit(train, 3)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("fitted A %.3f B %.3f bias %.3f T %.3f", c.A, c.B, c.Bias, c.T)
	for l := int32(-1); l < 3; l++ {
		zs := []float64{-5, 0, 3, 10, 20}
		if l < 0 { // fallback arcs come with no confidence
			zs = []float64{math.Inf(-1)}
		}
		for _, z := range zs {
			for _, u := range [][2]float64{{0, 0}, {TagUncertainty(5), 0}, {TagUncertainty(20), TagUncertainty(1)}} {
				if got, want := c.Prob(l, z, u[0], u[1]), truth.Prob(l, z, u[0], u[1]); math.Abs(got-want) > 0.03 {
					t.Errorf("label %d z %v tags %.2f: P %.3f, truth %.3f", l, z, u, got, want)
				}
			}
		}
	}
	// Given tags only: nothing tells T, which stays 0.
	given := slices.Clone(train)
	for i := range given {
		given[i].Dep, given[i].Head = 0, 0
	}
	if g, err := Fit(given, 3); err != nil || g.T != [2]float64{} {
		t.Errorf("fitted on given tags: T %v, %v", g.T, err)
	}
	ll := func(c *Calibrator) float64 {
		s := 0.0
		for _, x := range train {
			p := c.Prob(x.Label, x.Z, x.Dep, x.Head)
			if x.Right {
				s += math.Log(p)
			} else {
				s += math.Log(1 - p)
			}
		}
		return s
	}
	if a, b := ll(c), ll(truth); a < b {
		t.Errorf("log-likelihood of the fit %.1f below the truth's %.1f", a, b)
	}
}

// TestProbKeepsOrder: within a deprel a higher raw confidence never gets a
// lower probability, whatever the data (here arcs right at random).
func TestProbKeepsOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	var s []Sample
	for range 5000 {
		s = append(s, Sample{Label: int32(rng.IntN(2)), Z: 40*rng.Float64() - 20, Right: rng.IntN(2) == 0})
	}
	c, err := Fit(s, 2)
	if err != nil {
		t.Fatal(err)
	}
	if c.A < 0 || slices.Max(c.B) > 0 {
		t.Fatalf("A %v B %v", c.A, c.B)
	}
	for l := int32(0); l < 2; l++ {
		prev := -1.0
		for z := -50.0; z <= 50; z += 0.5 {
			p := c.Prob(l, z, 0, 0)
			if p < prev || !(p >= 0 && p <= 1) {
				t.Fatalf("label %d: P(%v) = %v after %v", l, z, p, prev)
			}
			prev = p
		}
	}
}

func TestFitNoSamples(t *testing.T) {
	if _, err := Fit(nil, 3); err == nil {
		t.Fatal("no error")
	}
}

// TestClassifierRoundTrip: a calibrator survives its model-file encoding,
// and damaged encodings give ErrCorrupt naming the classifier.
func TestClassifierRoundTrip(t *testing.T) {
	c := &Calibrator{A: 0.7, B: []float64{-0.1, -0.2, 0}, Bias: []float64{1, 2, -3}, T: [2]float64{-0.5, -0.25}}
	mc := c.Classifier("parser.gold.confidence", []string{"nsubj", "obj"})
	back, err := FromClassifier(&mc, 2)
	if err != nil {
		t.Fatal(err)
	}
	for l := int32(-1); l < 2; l++ {
		if a, b := c.Prob(l, 3, 0.5, 1), back.Prob(l, 3, 0.5, 1); math.Abs(a-b) > 1e-6 {
			t.Fatalf("label %d: %v after the round trip, %v before", l, b, a)
		}
	}
	// A file written before the tag terms reads as T = 0.
	old := c.Classifier("parser.gold.confidence", []string{"nsubj", "obj"})
	delete(old.Blobs, "tags")
	if o, err := FromClassifier(&old, 2); err != nil || o.T != [2]float64{} {
		t.Errorf("without the tags blob: T %v, %v", o.T, err)
	}
	damage := []func(m *modelfmt.Classifier){
		func(m *modelfmt.Classifier) { m.Layout = "sparse-rows/v1" },
		func(m *modelfmt.Classifier) { delete(m.Blobs, "bias") },
		func(m *modelfmt.Classifier) { m.Blobs["bias"] = m.Blobs["bias"][:4] },
		func(m *modelfmt.Classifier) { m.Blobs["slope"] = modelfmt.Float32Bytes([]float32{-1}) },
		func(m *modelfmt.Classifier) { m.Blobs["rest"] = modelfmt.Float32Bytes([]float32{0, 0.5, 0}) },
		func(m *modelfmt.Classifier) {
			m.Blobs["bias"] = modelfmt.Float32Bytes([]float32{1, float32(math.NaN()), 0})
		},
		func(m *modelfmt.Classifier) { m.Blobs["tags"] = modelfmt.Float32Bytes([]float32{-1}) },
		func(m *modelfmt.Classifier) { m.Blobs["tags"] = modelfmt.Float32Bytes([]float32{-1, 0.5}) },
		func(m *modelfmt.Classifier) {
			m.Blobs["tags"] = modelfmt.Float32Bytes([]float32{float32(math.Inf(-1)), 0})
		},
		func(m *modelfmt.Classifier) { m.Blobs["tags"] = []byte{1, 2, 3} },
	}
	for i, d := range damage {
		m := c.Classifier("parser.gold.confidence", []string{"nsubj", "obj"})
		d(&m)
		_, err := FromClassifier(&m, 2)
		if !errors.Is(err, modelfmt.ErrCorrupt) {
			t.Errorf("damage %d: %v, want ErrCorrupt", i, err)
		}
	}
	if _, err := FromClassifier(&mc, 3); !errors.Is(err, modelfmt.ErrCorrupt) {
		t.Errorf("wrong label count: %v", err)
	}
}

// TestTagUncertainty: 0 from MarginCap on, largest at a margin of 0 (and
// for a margin that is no number), and falling in between.
func TestTagUncertainty(t *testing.T) {
	top := math.Log1p(MarginCap)
	for _, c := range []struct{ m, want float64 }{
		{MarginCap, 0}, {math.Inf(1), 0}, {1000, 0}, {0, top}, {-3, top}, {math.NaN(), top},
	} {
		if got := TagUncertainty(c.m); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("TagUncertainty(%v) = %v, want %v", c.m, got, c.want)
		}
	}
	prev := math.Inf(1)
	for m := 0.0; m <= MarginCap; m += 0.5 {
		u := TagUncertainty(m)
		if !(u < prev) {
			t.Fatalf("TagUncertainty(%v) = %v, not below %v", m, u, prev)
		}
		prev = u
	}
}

// Arcs all right or all wrong are refused with their counts: the fit
// would make every confidence 1 or 0.
func TestFitDegenerate(t *testing.T) {
	truth := &Calibrator{A: 1, B: []float64{-1, -1, -1}, Bias: []float64{0, 0, 0}}
	samples := synthetic(truth, 3, 2000, 7)
	var right, wrong []Sample
	for _, s := range samples {
		if s.Right {
			right = append(right, s)
		} else {
			wrong = append(wrong, s)
		}
	}
	for _, c := range []struct {
		name    string
		samples []Sample
		msg     string
	}{
		{"all right", right, fmt.Sprintf("%d right and 0 wrong arcs; fitting confidences needs at least 1 of each", len(right))},
		{"all wrong", wrong, fmt.Sprintf("0 right and %d wrong arcs", len(wrong))},
	} {
		if _, err := Fit(c.samples, 3); err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: %v; want %q", c.name, err, c.msg)
		}
	}
	if _, err := Fit(append(right[:len(right):len(right)], wrong[:1]...), 3); err != nil {
		t.Errorf("one wrong: %v", err)
	}
}
