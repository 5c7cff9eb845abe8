package tree

import (
	"math"
	"math/rand/v2"
	"testing"
)

// bruteMaxSpanning enumerates every head array over n words and returns
// the best score of those that are trees (Check) built from arcs, taking
// the heaviest of parallel arcs; ok is false when none is.
func bruteMaxSpanning(n int, arcs []Arc) (score float64, ok bool) {
	w := make(map[[2]int32]float64)
	for _, a := range arcs {
		k := [2]int32{a.Head, a.Dep}
		if old, seen := w[k]; !seen || a.Weight > old {
			w[k] = a.Weight
		}
	}
	head := make([]int32, n+1)
	head[0] = -1
	var walk func(d int, s float64)
	walk = func(d int, s float64) {
		if d > n {
			if Check(head) == nil && (!ok || s > score) {
				score, ok = s, true
			}
			return
		}
		for h := int32(0); h <= int32(n); h++ {
			if x, seen := w[[2]int32{h, int32(d)}]; seen {
				head[d] = h
				walk(d+1, s+x)
			}
		}
	}
	walk(1, 0)
	return score, ok
}

// TestMaxSpanningBruteForce: on random graphs of 1 to 5 words, sparse or
// dense, with parallel arcs and negative weights, MaxSpanning finds a tree
// (Check) of its arcs whose score is the best that enumerating every head
// array finds, and reports no tree exactly when there is none.
func TestMaxSpanningBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for it := range 2000 {
		n := 1 + rng.IntN(5)
		density := []float64{0.25, 0.5, 1}[it%3]
		var arcs []Arc
		for h := 0; h <= n; h++ {
			for d := 1; d <= n; d++ {
				for h != d && rng.Float64() < density {
					arcs = append(arcs, Arc{int32(h), int32(d), math.Round(rng.NormFloat64()*100) / 10})
					density /= 2 // sometimes a parallel arc
				}
				density = []float64{0.25, 0.5, 1}[it%3]
			}
		}
		want, wantOK := bruteMaxSpanning(n, arcs)
		head, got, ok := MaxSpanning(n, arcs)
		if ok != wantOK {
			t.Fatalf("graph %d (%d words, %v): MaxSpanning ok=%v, brute force %v", it, n, arcs, ok, wantOK)
		}
		if !ok {
			continue
		}
		if err := Check(head); err != nil {
			t.Fatalf("graph %d: %v: %v", it, head, err)
		}
		sum := 0.0
		for d := 1; d <= n; d++ {
			best, seen := math.Inf(-1), false
			for _, a := range arcs {
				if a.Dep == int32(d) && a.Head == head[d] {
					best, seen = max(best, a.Weight), true
				}
			}
			if !seen {
				t.Fatalf("graph %d: word %d attached to %d by no arc", it, d, head[d])
			}
			sum += best
		}
		if math.Abs(got-want) > 1e-9 || math.Abs(sum-got) > 1e-9 {
			t.Fatalf("graph %d (%d words, %v): MaxSpanning %v scores %v (reported %v), brute force %v", it, n, arcs, head, sum, got, want)
		}
	}
}
