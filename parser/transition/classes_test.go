package transition

import (
	"math"
	"math/rand"
	"testing"
)

// BestLegal (and BestTwoLegal) pick what Best picks over the classes Legal
// allows, ties to the first class included, in the states of random legal
// paths of every system over the EWT fixture, three times (with few
// distinct scores, so ties are common, and the root rule and every move's precondition are exercised; the root
// deprel first, last and between, so that the runs of labels around it
// take internal/top2's vector and scalar paths).
func TestBestLegalIsBestOfLegal(t *testing.T) {
	sents := loadFixture(t)
	sents = append(append(sents, sents...), sents...)
	deprels := make([]string, 64) // more than the labels loadGold numbers
	rng := rand.New(rand.NewSource(1))
	roots := []int32{3, 0, 63, 37}
	for si, name := range Names() {
		sys, _ := Lookup(name)
		c := NewClasses(sys, deprels, roots[si%len(roots)])
		scores := make([]float32, c.Len())
		legal := make([]bool, c.Len())
		var s State
		states, none := 0, 0
		for k := range sents {
			n := len(sents[k].g.Head) - 1
			sys.Init(&s, n)
			for !sys.Terminal(&s) && s.Steps < sys.MaxTransitions(n) {
				for i := range scores {
					scores[i] = float32(rng.Intn(4))
				}
				c.Legal(&s, legal)
				want := Best(scores, legal)
				if got := c.BestLegal(&s, scores); got != want {
					t.Fatalf("%s sentence %d step %d: BestLegal = %d, Best of Legal = %d", name, k, s.Steps, got, want)
				}
				// BestTwoLegal: the same class, and its margin over the
				// best other legal class (0 on a tie, +Inf alone).
				wantMargin := float32(math.Inf(1))
				if want >= 0 {
					for i, ok := range legal {
						if ok && i != want {
							wantMargin = min(wantMargin, scores[want]-scores[i])
						}
					}
				} else {
					wantMargin = 0
				}
				if got, margin := c.BestTwoLegal(&s, scores); got != want || margin != wantMargin {
					t.Fatalf("%s sentence %d step %d: BestTwoLegal = %d, %v; want %d, %v", name, k, s.Steps, got, margin, want, wantMargin)
				}
				states++
				// Walk on with a random legal class.
				for i := range scores {
					scores[i] = rng.Float32()
				}
				next := Best(scores, legal)
				if next < 0 {
					none++
					break
				}
				Step(sys, &s, c.Transition(next))
			}
		}
		t.Logf("%s: %d states, %d without a legal class", name, states, none)
		if states < 10000 {
			t.Fatalf("%s: only %d states checked", name, states)
		}
	}
}
