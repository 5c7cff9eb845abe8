//go:build exhaustive

package transition

import (
	"testing"

	"github.com/transparse/transparse/parser/tree"
)

// The exhaustive search at n = 7 with one root word (6.6 M configurations,
// too heavy for every test run) shows that the corrected system derives no
// tree outside 2-CI, that the 44 2-CI trees the oracle misses
// (TestTwoRegistersAllTrees) are exactly those no derivation reaches, and
// that the longest derivation has 27 transitions. It is built only with
// the exhaustive tag: go test -tags exhaustive -run N7 ./parser/transition
func TestTwoRegistersExhaustiveN7(t *testing.T) {
	sys := trSys(false)
	x, longest := trExplore(sys, 7, false)
	if x.err != nil {
		t.Fatal(x.err)
	}
	for k := range x.complete {
		if !tree.KCrossingInterval(trKeyHeads(k), 2) {
			t.Errorf("derived %v, not 2-CI", trKeyHeads(k)[1:])
		}
	}
	unreachable := 0
	tree.Each(7, true, func(h []int32) {
		if !tree.KCrossingInterval(h, 2) {
			return
		}
		reach := x.complete[trHeadsKey(h)]
		if !reach {
			unreachable++
		}
		if in := sys.InClass(NewGold(h, trLabels(h))); in != reach {
			t.Errorf("%v: reachable %v, InClass %v", h[1:], reach, in)
		}
	})
	bad := 0
	for k := range x.forests {
		if !trForestInClass(trKeyHeads(k)) {
			bad++
		}
	}
	t.Logf("n=7: %d configurations, %d complete trees, %d 2-CI trees unreachable, %d forests (%d not 2-CI on crossed arcs), longest %d",
		len(x.memo), len(x.complete), unreachable, len(x.forests), bad, longest)
	if unreachable != 44 || longest != 27 || bad != 0 {
		t.Errorf("n=7: %d unreachable, longest %d, %d bad forests; want 44, 27, 0", unreachable, longest, bad)
	}
}
