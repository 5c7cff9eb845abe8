package segment

import (
	"reflect"
	"strings"
	"testing"

	"github.com/transparse/transparse/parser/conllu"
)

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

// TestOrthStats checks the case statistics of the sentence decision
// (SentFeatures 2): only tokens that do not start a sentence count, and
// with jackknife each sentence sees those of the other half only.
func TestOrthStats(t *testing.T) {
	const src = "# text = Chez nous, il dort.\n" +
		"1\tChez\t_\t_\t_\t_\t_\t_\t_\t_\n2\tnous\t_\t_\t_\t_\t_\t_\t_\tSpaceAfter=No\n3\t,\t_\t_\t_\t_\t_\t_\t_\t_\n" +
		"4\til\t_\t_\t_\t_\t_\t_\t_\t_\n5\tdort\t_\t_\t_\t_\t_\t_\t_\tSpaceAfter=No\n6\t.\t_\t_\t_\t_\t_\t_\t_\t_\n\n" +
		"# text = Il va chez Paul.\n" +
		"1\tIl\t_\t_\t_\t_\t_\t_\t_\t_\n2\tva\t_\t_\t_\t_\t_\t_\t_\t_\n3\tchez\t_\t_\t_\t_\t_\t_\t_\t_\n" +
		"4\tPaul\t_\t_\t_\t_\t_\t_\t_\tSpaceAfter=No\n5\t.\t_\t_\t_\t_\t_\t_\t_\t_\n\n" +
		"# text = Paul dort.\n" +
		"1\tPaul\t_\t_\t_\t_\t_\t_\t_\t_\n2\tdort\t_\t_\t_\t_\t_\t_\t_\tSpaceAfter=No\n3\t.\t_\t_\t_\t_\t_\t_\t_\t_\n\n"
	sents, err := conllu.ReadAll(strings.NewReader(src), "orth")
	if err != nil {
		t.Fatal(err)
	}
	pars := paragraphs(sents)
	toks := goldToks(pars)
	key := func(form string) uint32 { return orthKey(tmpl(90).lower([]byte(form))) }
	all := orthStats(pars, toks, func(int) bool { return true })
	for form, want := range map[string]uint8{"chez": orthLower, "paul": orthUpper, "il": orthLower, "dort": orthLower, "va": orthLower} {
		if got := all[key(form)]; got != want {
			t.Errorf("%q: flags %d, want %d", form, got, want)
		}
	}
	// Sentences 0 and 2 see sentence 1; sentence 1 sees 0 and 2, where
	// "Chez" and "Paul" start sentences and so do not count.
	setOrth(pars, toks, jackknifed(pars, toks))
	want := [][]uint8{
		{orthLower, 0, 0, 0, 0, 0}, // Chez nous , il dort .
		{orthLower, 0, 0, 0, 0},    // Il va chez Paul .
		{orthUpper, 0, 0},          // Paul dort .
	}
	var got [][]uint8
	i := 0
	for _, n := range []int{6, 5, 3} {
		var s []uint8
		for _, tk := range toks[0][i : i+n] {
			s = append(s, tk.orth)
		}
		got = append(got, s)
		i += n
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("jackknifed flags %v, want %v", got, want)
	}
}
