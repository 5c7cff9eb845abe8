package segment

import "testing"

// TestThresholdMiddleOfTiedCuts checks that where neighbouring thresholds
// make as few dev errors as the best one, the threshold is the middle of
// their range, not its edge.
func TestThresholdMiddleOfTiedCuts(t *testing.T) {
	// Feature k scores w[k]; each example has one feature.
	tab := table{W: []float32{3, 2, 1, 0}, Mask: 3}
	dev := &examples{}
	for _, x := range []struct {
		f uint32
		y bool
	}{{0, true}, {1, true}, {1, false}, {2, true}, {2, false}, {3, false}} {
		dev.add([]uint32{x.f}, x.y)
	}
	// Positive above 2.5: 2 errors (F1 0.5); above 1.5: 2 (F1 0.67);
	// above 0.5: 2 (F1 0.75, the best); above -0.5: 3. The thresholds
	// with 2 errors lie between 0 and 3.
	if got := threshold(tab, dev); got != 1.5 {
		t.Errorf("threshold = %v, want 1.5 (the middle of 0 to 3)", got)
	}
	// Without ties the best cut's own middle: drop the examples at 2.
	dev = &examples{}
	for _, x := range []struct {
		f uint32
		y bool
	}{{0, true}, {1, true}, {3, false}} {
		dev.add([]uint32{x.f}, x.y)
	}
	if got := threshold(tab, dev); got != 1 {
		t.Errorf("threshold without ties = %v, want 1 (between 2 and 0)", got)
	}
}

// TestTiedPassesMiddle checks the pass that fit keeps: the middle of the
// first run of consecutive passes with the fewest dev errors.
func TestTiedPassesMiddle(t *testing.T) {
	for _, c := range []struct {
		errs []int
		want int
	}{
		{[]int{3}, 0},
		{[]int{4, 4, 4, 4, 4}, 2},
		{[]int{5, 3, 3, 3, 4, 3, 3, 3, 3}, 2}, // a later run with as few errors does not count
		{[]int{5, 3, 3, 2, 2, 2, 2}, 4},       // even length: the earlier middle pass
		{[]int{2, 3, 1}, 2},
	} {
		var p tiedPasses
		for i, e := range c.errs {
			p.add(table{W: []float32{float32(i)}}, e)
		}
		if got := int(p.middle().W[0]); got != c.want {
			t.Errorf("errors %v: pass %d, want %d", c.errs, got, c.want)
		}
		kept := 0
		for _, w := range p.run {
			if w.W != nil {
				kept++
			}
		}
		if kept > len(c.errs)/2+1 {
			t.Errorf("errors %v: %d passes held, want at most %d", c.errs, kept, len(c.errs)/2+1)
		}
	}
}
