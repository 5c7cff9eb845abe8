package transition_test

import (
	"fmt"
	"math/rand"
	"reflect"
	"testing"

	"github.com/transparse/transparse/parser/transition"
)

// TestCopyFrom checks, for every system along random legal walks over the
// fixture, that a copy made mid-derivation (into a state last used for a
// longer sentence) equals the original and shares no memory with it: the
// same transitions applied to both keep them equal, and transitions applied
// to the copy alone leave the original as it was.
func TestCopyFrom(t *testing.T) {
	fix := loadFixture(t)
	for _, name := range transition.Names() {
		t.Run(name, func(t *testing.T) {
			sys, _ := transition.Lookup(name)
			rng := rand.New(rand.NewSource(7))
			var orig, cp, snap transition.State
			sys.Init(&cp, 120) // stale memory of another size
			for k, sent := range fix.sents[:40] {
				n := len(sent.Words)
				sys.Init(&orig, n)
				at := rng.Intn(n + 1)
				copied := false
				for !sys.Terminal(&orig) && orig.Steps < sys.MaxTransitions(n) {
					if orig.Steps == at {
						cp.CopyFrom(&orig)
						snap.CopyFrom(&orig)
						copied = true
						if !reflect.DeepEqual(exported(&cp), exported(&orig)) {
							t.Fatalf("sentence %d step %d: copy differs from the original", k+1, at)
						}
						// Walk the copy alone: the original must not move.
						walk(sys, &cp, rng, 3)
						if !reflect.DeepEqual(exported(&snap), exported(&orig)) {
							t.Fatalf("sentence %d step %d: changing the copy changed the original", k+1, at)
						}
						cp.CopyFrom(&orig)
					}
					m, ok := randomMove(sys, &orig, rng)
					if !ok {
						break
					}
					tr := transition.Transition{Move: m, Label: transition.None}
					if m.Labeled() {
						tr.Label = int32(rng.Intn(5))
					}
					transition.Step(sys, &orig, tr)
					if copied {
						transition.Step(sys, &cp, tr)
						if !reflect.DeepEqual(exported(&cp), exported(&orig)) {
							t.Fatalf("sentence %d: copy and original part after %v", k+1, tr)
						}
						for d := int32(1); d <= int32(n); d++ {
							if cp.Connected(0, d) != orig.Connected(0, d) {
								t.Fatalf("sentence %d: Connected(0, %d) differs in the copy", k+1, d)
							}
						}
					}
				}
			}
		})
	}
}

func randomMove(sys transition.System, s *transition.State, rng *rand.Rand) (transition.Move, bool) {
	var legal []transition.Move
	for _, m := range sys.Moves() {
		if sys.Legal(s, m) {
			legal = append(legal, m)
		}
	}
	if len(legal) == 0 {
		return 0, false
	}
	return legal[rng.Intn(len(legal))], true
}

func walk(sys transition.System, s *transition.State, rng *rand.Rand, steps int) {
	for i := 0; i < steps && !sys.Terminal(s); i++ {
		m, ok := randomMove(sys, s, rng)
		if !ok {
			return
		}
		transition.Step(sys, s, transition.Transition{Move: m, Label: 1})
	}
}

// (fmt prints nil and empty slices alike: Reset leaves either).
func exported(s *transition.State) string { return fmt.Sprintf("%+v", transition.WithoutUnionFind(s)) }
