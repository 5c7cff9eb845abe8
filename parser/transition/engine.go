package transition

import (
	"fmt"

	"github.com/transparse/transparse/parser/tree"
)

// CheckGold reports whether head and label (indexed 1..n, index 0 ignored)
// form a tree over nodes 0..n that oracles can be given: every head in
// 0..n and not the word itself, no cycle, every label in 0..nLabels-1.
// The error names the first offending word.
func CheckGold(head, label []int32, nLabels int) error {
	n := len(head) - 1
	if len(label) != len(head) {
		return fmt.Errorf("transition: %d heads but %d labels", n, len(label)-1)
	}
	for d := 1; d <= n; d++ {
		if h := head[d]; h < 0 || int(h) > n || int(h) == d {
			return fmt.Errorf("transition: word %d has head %d (want 0..%d, not itself)", d, h, n)
		}
		if l := label[d]; l < 0 || int(l) >= nLabels {
			return fmt.Errorf("transition: word %d has deprel index %d (want 0..%d)", d, l, nLabels-1)
		}
	}
	for d := 1; d <= n; d++ {
		x := int32(d)
		for steps := 0; x != 0; steps++ {
			if steps > n {
				return fmt.Errorf("transition: word %d is on a cycle of heads", d)
			}
			x = head[x]
		}
	}
	return nil
}

// OracleClasses returns the static-oracle derivation of g as classes of c
// (Derive, then Classes.Class per transition). A tree outside the system's
// class gives an error naming the system and the first arc outside the
// class (FirstArcOutside), or, for the few trees in the class of the arc
// sets that the oracle still cannot derive (two-registers), the first
// transition the oracle could not take.
func OracleClasses(c *Classes, g *Gold) ([]int32, error) {
	var s State
	seq, err := Derive(c.Sys, &s, g)
	if err != nil {
		if c.Sys.InClass(g) {
			return nil, err
		}
		if d := FirstArcOutside(c.Sys, g.Head); d > 0 {
			h := g.Head[d]
			return nil, fmt.Errorf("transition: tree is outside the class of %s: its first arc outside it, in word order, is %d -> %d (%s)", c.Sys.Name(), h, d, c.Deprels[g.Label[d]])
		}
		return nil, fmt.Errorf("transition: tree is outside the class of %s: %w", c.Sys.Name(), err)
	}
	out := make([]int32, len(seq))
	for i, t := range seq {
		out[i] = int32(c.Class(t))
	}
	return out, nil
}

// FirstArcOutside returns the dependent d of the first arc of the tree head
// (indexed 1..n) outside the class of sys: the arcs are taken in the order
// of their dependents, and head[d] -> d is the arc at which the arcs so far
// stop being a set the system derives. The classes of arc sets are: at
// most one arc from node 0 for every system, and no two arcs crossing
// (node 0 at position 0) for the projective systems and planar, k planes
// for 2-planar and 3-planar, 2-Crossing-Interval for two-registers. They
// are closed under removing arcs, so the first arc is found by bisection
// over the prefixes (O(log n) class tests). It returns 0 if every arc set
// is in the class.
func FirstArcOutside(sys System, head []int32) int32 {
	n := len(head) - 1
	prefix := make([]int32, n+1)
	in := func(k int) bool {
		for d := range prefix {
			prefix[d] = None
			if d <= k {
				prefix[d] = head[d]
			}
		}
		return arcsInClass(sys, prefix)
	}
	if in(n) {
		return 0
	}
	lo, hi := 0, n // in(lo), !in(hi)
	for hi-lo > 1 {
		if mid := (lo + hi) / 2; in(mid) {
			lo = mid
		} else {
			hi = mid
		}
	}
	return int32(hi)
}

// arcsInClass reports whether the arc set head (words with head None have
// no arc) is in the class of sys (see FirstArcOutside).
func arcsInClass(sys System, head []int32) bool {
	roots := 0
	for _, h := range head[1:] {
		if h == 0 {
			roots++
		}
	}
	if roots > 1 {
		return false
	}
	switch s := sys.(type) {
	case ArcStandard, ArcEager, ArcHybrid, CovingtonProjective, Planar:
		return tree.Planar(head)
	case MultiPlanar:
		return tree.KPlanar(head, s.K())
	case TwoRegisters:
		return tree.KCrossingInterval(head, 2)
	}
	return true // Covington non-projective and swap derive every tree with one root word
}
