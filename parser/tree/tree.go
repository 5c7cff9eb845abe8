// Package tree holds functions over dependency trees given as head arrays:
// tree classes (projective, ...) and the lifting that makes a tree
// projective (Nivre & Nilsson 2005, as described in Nivre 2008 §6.1), and
// the maximum spanning tree over weighted candidate arcs (MaxSpanning).
//
// A tree over n words is a slice head of length n+1: head[d] is the head of
// word d (1..n), 0 for the artificial root; head[0] is ignored.
package tree

import "fmt"

// Check reports whether head is a tree: every word has a head in 0..n, no
// cycles, and exactly one word is attached to 0.
func Check(head []int32) error {
	n := len(head) - 1
	roots := 0
	for d := 1; d <= n; d++ {
		h := head[d]
		if h < 0 || int(h) > n || int(h) == d {
			return fmt.Errorf("tree: word %d has invalid head %d", d, h)
		}
		if h == 0 {
			roots++
		}
	}
	if n > 0 && roots != 1 {
		return fmt.Errorf("tree: %d words attached to the root, want 1", roots)
	}
	if x := cycleAt(head, make([]uint8, n+1)); x >= 0 {
		return fmt.Errorf("tree: cycle through word %d", x)
	}
	return nil
}

// spansCross reports whether the spans (a, b) and (c, f), a < b and c < f,
// cross: one starts strictly inside the other and ends strictly outside it
// (arcs sharing an endpoint never cross).
func spansCross(a, b, c, f int32) bool {
	return (a < c && c < b && b < f) || (c < a && a < f && f < b)
}

// Dominates reports whether h dominates d (h →* d, reflexively).
func Dominates(head []int32, h, d int32) bool {
	for steps := 0; d >= 0 && steps <= len(head); steps++ {
		if d == h {
			return true
		}
		if d == 0 {
			return false
		}
		d = head[d]
	}
	return false
}

// ArcProjective reports whether the arc into word d is projective: its head
// dominates every word strictly between them (Nivre 2008, Def. 3).
func ArcProjective(head []int32, d int32) bool {
	h := head[d]
	lo, hi := h, d
	if lo > hi {
		lo, hi = hi, lo
	}
	for k := lo + 1; k < hi; k++ {
		if !Dominates(head, h, k) {
			return false
		}
	}
	return true
}

// Projective reports whether the tree is projective. With the artificial
// root at position 0 this is the same as: no two arcs cross (Planar).
func Projective(head []int32) bool { return Planar(head) }

func minmax(a, b int32) (int32, int32) {
	if a < b {
		return a, b
	}
	return b, a
}

// Lift returns a projective tree made from head by repeatedly lifting the
// shortest non-projective arc (h, d) to (head[h], d) — Nivre & Nilsson
// 2005, the Baseline encoding (labels unchanged). It also returns the words
// whose head changed. head is not modified.
func Lift(head []int32) (lifted []int32, moved []int32) {
	lifted = append([]int32(nil), head...)
	for {
		d := LiftStep(lifted)
		if d < 0 {
			return lifted, moved
		}
		moved = append(moved, d)
	}
}

// LiftStep lifts the shortest non-projective arc (h, d) of head in place to
// (head[h], d) (the leftmost of equally short ones) and returns d, or -1 if
// head is projective. Repeated, it is Lift; systems whose class lies
// between projective and all trees lift only until the tree enters it.
func LiftStep(head []int32) int32 {
	n := int32(len(head) - 1)
	best, bestLen := int32(-1), int32(1<<30)
	for d := int32(1); d <= n; d++ {
		h := head[d]
		l := h - d
		if l < 0 {
			l = -l
		}
		if l < bestLen && !ArcProjective(head, d) {
			best, bestLen = d, l
		}
	}
	if best >= 0 {
		head[best] = head[head[best]]
	}
	return best
}
