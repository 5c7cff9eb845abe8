package core

import (
	"slices"
	"testing"

	"github.com/transparse/transparse/internal/testenv"
	"github.com/transparse/transparse/parser/conllu"
)

// TestConfidenceTagUncertainty: the bundled model's plain-token
// calibrator lowers the confidence of arcs whose tags the taggers were
// unsure of (T < 0), its gold-tag calibrator has no tag terms; a word's
// tag uncertainty is 0 exactly when both its tags were given; and on the
// committed EWT dev slice parsed from plain tokens, the quarter of the
// words with the most uncertain tags has the less accurate arcs.
func TestConfidenceTagUncertainty(t *testing.T) {
	m, err := load(testenv.ModelPath())
	if err != nil {
		testenv.SkipOrFail(t, "no bundled model")
	}
	sents, err := conllu.ReadFile(testenv.Fixture(t, "en_ewt-dev-slice.conllu"))
	if err != nil {
		t.Fatal(err)
	}
	if c := m.plain.Conf; c == nil || !(c.T[0] < 0) || c.T[1] > 0 {
		t.Fatalf("plain-token calibrator %+v: want T[0] < 0, T[1] ≤ 0", c)
	}
	if c := m.gold.Conf; c == nil || c.T != [2]float64{} {
		t.Fatalf("gold-tag calibrator %+v: want T = 0", c)
	}
	// blank clears the columns of words not in keep.
	parse := func(keep string) (dep, head []float64, right []bool) {
		var r Result
		for _, s := range sents {
			ws := slices.Clone(s.Words)
			for i := range ws {
				ws[i].Head, ws[i].Deprel = -1, "_"
				w := &ws[i]
				for col, p := range map[byte]*string{'u': &w.UPOS, 'x': &w.XPOS, 'l': &w.Lemma, 'f': &w.Feats} {
					if !slices.Contains([]byte(keep), col) {
						*p = "_"
					}
				}
			}
			if err := m.ParseWithOptions(ws, Options{Confidence: true}, &r); err != nil {
				t.Fatal(err)
			}
			dep, head = append(dep, r.depU...), append(head, r.headU...)
			for i, w := range ws {
				right = append(right, w.Head == s.Words[i].Head && w.Deprel == s.Words[i].Deprel)
			}
		}
		return dep, head, right
	}
	for _, keep := range []string{"uxlf", "ux"} {
		dep, head, _ := parse(keep)
		if slices.Max(dep) != 0 || slices.Max(head) != 0 {
			t.Errorf("given %q: tag uncertainty up to %v (dependents), %v (heads), want 0", keep, slices.Max(dep), slices.Max(head))
		}
	}
	if dep, _, _ := parse("u"); !(slices.Max(dep) > 0) {
		t.Error("given UPOS only: no XPOS uncertainty")
	}
	dep, head, right := parse("")
	if slices.Min(dep) < 0 || slices.Min(head) < 0 || !(slices.Max(dep) > 0) {
		t.Fatalf("plain tokens: tag uncertainty from %v to %v", slices.Min(dep), slices.Max(dep))
	}
	q := slices.Clone(dep)
	slices.Sort(q)
	cut := q[3*len(q)/4]
	var n [2]int
	var ok [2]int
	for i, u := range dep {
		k := 0
		if u > cut {
			k = 1
		}
		n[k]++
		if right[i] {
			ok[k]++
		}
	}
	lo, hi := float64(ok[0])/float64(n[0]), float64(ok[1])/float64(n[1])
	t.Logf("accuracy %.3f of %d words with surer tags, %.3f of %d with the least sure", lo, n[0], hi, n[1])
	if n[1] == 0 || !(hi < lo) {
		t.Errorf("the words with the least sure tags: accuracy %.3f of %d, the others %.3f", hi, n[1], lo)
	}
}
