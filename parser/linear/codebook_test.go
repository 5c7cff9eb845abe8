package linear

import (
	"math"
	"math/rand"
	"slices"
	"testing"
)

// A codebook keeps every weight to the same relative precision: levels
// are spread evenly in log|w| per sign, so each rounded weight is within
// half a level step (a ratio) of the original, and rounding picks the
// nearest level.
func TestCodebookRelativePrecision(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	q := make([]int16, 200000)
	for i := range q {
		// Log-normal magnitudes like a trained model's (whose smallest
		// quantized weights are about 200 after pruning), mostly positive.
		v := math.Exp(6.5 + 1.2*rng.NormFloat64())
		v = math.Max(64, math.Min(32767, v))
		if rng.Intn(3) == 0 {
			v = -v
		}
		q[i] = int16(v)
	}
	for _, levels := range []int{16, 64, 256} {
		book := codebook(q, levels)
		if len(book) > levels || !slices.IsSorted(book) || slices.Contains(book, 0) {
			t.Fatalf("%d levels: codebook of %d values, sorted %v, has 0 %v", levels, len(book), slices.IsSorted(book), slices.Contains(book, 0))
		}
		r := slices.Clone(q)
		roundTo(r, book)
		// The largest ratio between neighbouring levels of one sign.
		step := 1.0
		for i := 1; i < len(book); i++ {
			if (book[i-1] < 0) == (book[i] < 0) {
				a, b := math.Abs(float64(book[i-1])), math.Abs(float64(book[i]))
				step = math.Max(step, math.Max(a, b)/math.Min(a, b))
			}
		}
		worst := 0.0
		for i, v := range q {
			if !slices.Contains(book, r[i]) {
				t.Fatalf("%d levels: %d rounded to %d, not a level", levels, v, r[i])
			}
			// Nearest level: no level is strictly closer.
			j, _ := slices.BinarySearch(book, v)
			for _, k := range []int{j - 1, j} {
				if k >= 0 && k < len(book) && abs(int(book[k])-int(v)) < abs(int(r[i])-int(v)) {
					t.Fatalf("%d levels: %d rounded to %d, but %d is closer", levels, v, r[i], book[k])
				}
			}
			worst = math.Max(worst, math.Abs(float64(r[i])-float64(v))/math.Abs(float64(v)))
		}
		if bound := (step-1)/2 + 0.5/64; worst > bound { // + int16 rounding of the smallest levels
			t.Errorf("%d levels: worst relative error %.4f, step %.4f allows %.4f", levels, worst, step, bound)
		}
		t.Logf("%d levels: step ratio %.4f, worst relative error %.4f", levels, step, worst)
		if levels == 256 && worst > 0.04 { // 85 levels for the negative third
			t.Errorf("256 levels: worst relative error %.4f, want <= 4%%", worst)
		}
	}
	// Few distinct values are kept exactly.
	small := []int16{-5, 3, 3, 700, -5, 12}
	if book := codebook(small, 256); !slices.Equal(book, []int16{-5, 3, 12, 700}) {
		t.Errorf("codebook of 4 distinct values = %v", book)
	}
}

func abs(x int) int { return max(x, -x) }

// Freeze with Levels and Requantize of the unrounded model give the same
// model; the file stores one byte per weight and decodes to the rounded
// weights exactly; pruning keeps the codebook layout.
func TestRequantize(t *testing.T) {
	tr := trained(23, 20000, 12)
	full := tr.Freeze(FreezeOptions{KeyBits: 32}).Classifier("x", nil, nil)
	if full.Layout != Layout || full.Params["precision"] != 16 {
		t.Fatalf("unrounded model written as %s precision %d", full.Layout, full.Params["precision"])
	}
	const levels = 64
	rq, err := Requantize(&full, levels)
	if err != nil {
		t.Fatal(err)
	}
	frozen := tr.Freeze(FreezeOptions{KeyBits: 32, Levels: levels}).Classifier("x", nil, nil)
	for _, c := range []struct {
		name string
		p    map[string]int64
		b    map[string][]byte
	}{{"Requantize", rq.Params, rq.Blobs}, {"Freeze", frozen.Params, frozen.Blobs}} {
		if c.p["precision"] != 8 || len(c.b["weights"]) != int(c.p["entries"]) || len(c.b["codebook"]) > 2*levels {
			t.Fatalf("%s: precision %d, %d weight bytes for %d entries, %d codebook bytes",
				c.name, c.p["precision"], len(c.b["weights"]), c.p["entries"], len(c.b["codebook"]))
		}
	}
	if rq.Layout != LayoutCodebook || frozen.Layout != LayoutCodebook {
		t.Fatalf("layouts %q, %q", rq.Layout, frozen.Layout)
	}
	for name, b := range frozen.Blobs {
		if !slices.Equal(b, rq.Blobs[name]) {
			t.Errorf("blob %s: Freeze(Levels) and Requantize differ", name)
		}
	}
	a, err := FromClassifier(rq)
	if err != nil {
		t.Fatal(err)
	}
	// Decoding expands the codes to the rounded int16 weights.
	q, err := int16Weights(rq)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := int16Weights(&full)
	roundTo(want, codebook(want, levels))
	if !slices.Equal(q, want) {
		t.Fatal("decoded codes are not the rounded weights")
	}
	again := a.Classifier("x", nil, nil)
	for name, b := range again.Blobs {
		if !slices.Equal(b, rq.Blobs[name]) {
			t.Errorf("blob %s differs after decode and encode", name)
		}
	}
	p, err := Prune(rq, 0.2)
	if err != nil {
		t.Fatal(err)
	}
	if p.Layout != LayoutCodebook || p.Params["entries"] >= rq.Params["entries"] {
		t.Errorf("pruned: layout %s, %d of %d entries", p.Layout, p.Params["entries"], rq.Params["entries"])
	}
	if _, err := Requantize(&full, 1); err == nil {
		t.Error("Requantize with 1 level: no error")
	}
}
