package transition

import (
	"math/rand"
	"strings"
	"testing"
)

// The Covington dynamic oracle is exact: from the initial state and after
// any random prefix of legal transitions, some transition always has cost
// 0, and following zero-cost transitions the costs add up to the number of
// words whose head or label is wrong (or missing) at the end — so ℓ is
// both a lower bound and reachable, on every dev tree of the three
// treebanks, non-projective ones included.
func TestCovingtonDynamicOracleExact(t *testing.T) {
	sys := CovingtonNonProjective{}
	rng := rand.New(rand.NewSource(7))
	for _, file := range treebankFiles(t) {
		if !strings.Contains(file, "-dev") {
			continue
		}
		var s State
		checked := 0
		for k, gs := range loadGold(t, file) {
			g := gs.g
			n := len(g.Head) - 1
			if n > 60 {
				continue
			}
			sys.Init(&s, n)
			if c := covLoss(&s, g, 0, 1, None, None); c != 0 {
				t.Fatalf("%s sentence %d: initial loss %d", file, k, c)
			}
			prefix := rng.Intn(n*(n+3)/2 + 1)
			total := 0
			for step := 0; !sys.Terminal(&s); step++ {
				var opts []Transition
				for _, m := range sys.Moves() {
					if !sys.Legal(&s, m) {
						continue
					}
					if m.Labeled() {
						_, d := sys.Arc(&s, m)
						opts = append(opts, Transition{m, g.Label[d]}, Transition{m, rng.Int31n(40)})
					} else {
						opts = append(opts, Transition{m, None})
					}
				}
				var tr Transition
				if step < prefix {
					tr = opts[rng.Intn(len(opts))]
				} else {
					found := false
					for _, o := range opts {
						if sys.Cost(&s, o, g) == 0 {
							tr, found = o, true
							break
						}
					}
					if !found {
						t.Fatalf("%s sentence %d step %d: no zero-cost transition", file, k, step)
					}
				}
				c := sys.Cost(&s, tr, g)
				if c < 0 {
					t.Fatalf("%s sentence %d step %d: negative cost %d for %v", file, k, step, c, tr)
				}
				total += c
				sys.Apply(&s, tr)
			}
			loss := 0
			for d := 1; d <= n; d++ {
				if s.Head[d] != g.Head[d] || s.Label[d] != g.Label[d] {
					loss++
				}
			}
			if loss != total {
				t.Fatalf("%s sentence %d (n=%d, prefix %d): costs add up to %d, final arcs have %d errors", file, k, n, prefix, total, loss)
			}
			checked++
		}
		t.Logf("%s: %d derivations checked", file, checked)
	}
}
