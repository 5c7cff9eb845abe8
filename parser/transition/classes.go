package transition

import (
	"math"

	"github.com/transparse/transparse/internal/top2"
)

// Classes maps classifier classes to transitions: unlabeled moves take one
// class each, labeled moves one class per deprel.
type Classes struct {
	Sys       System
	Deprels   []string
	RootLabel int32           // the deprel of words attached to node 0
	Move      []Move          // class → move
	Label     []int32         // class → deprel, or None
	base      [NumMoves]int32 // move → first class, -1 if unused
	moves     []Move          // sys.Moves(), computed once (the call allocates)
}

// NewClasses builds the class table of sys for the given deprels; root is
// the index of the root deprel.
func NewClasses(sys System, deprels []string, root int32) *Classes {
	c := &Classes{Sys: sys, Deprels: deprels, RootLabel: root, moves: sys.Moves()}
	for i := range c.base {
		c.base[i] = -1
	}
	for _, m := range c.moves {
		c.base[m] = int32(len(c.Move))
		if m.Labeled() {
			for l := range deprels {
				c.Move = append(c.Move, m)
				c.Label = append(c.Label, int32(l))
			}
		} else {
			c.Move = append(c.Move, m)
			c.Label = append(c.Label, None)
		}
	}
	return c
}

// Moves returns the system's moves (do not modify).
func (c *Classes) Moves() []Move { return c.moves }

// Len is the number of classes.
func (c *Classes) Len() int { return len(c.Move) }

// Names returns a readable name per class ("LEFT-ARC:nsubj").
func (c *Classes) Names() []string {
	out := make([]string, len(c.Move))
	for i, m := range c.Move {
		out[i] = m.String()
		if c.Label[i] >= 0 {
			out[i] += ":" + c.Deprels[c.Label[i]]
		}
	}
	return out
}

// Class returns the class of transition t.
func (c *Classes) Class(t Transition) int {
	b := int(c.base[t.Move])
	if t.Move.Labeled() {
		return b + int(t.Label)
	}
	return b
}

// Transition returns the transition of class k.
func (c *Classes) Transition(k int) Transition {
	return Transition{Move: c.Move[k], Label: c.Label[k]}
}

// Legal fills legal[k] for every class: the move is legal in s and the label
// respects the root rule (the root deprel exactly on arcs from node 0).
func (c *Classes) Legal(s *State, legal []bool) {
	for _, m := range c.moves {
		b := int(c.base[m])
		ok, root := c.moveRule(s, m)
		if !m.Labeled() {
			legal[b] = ok
			continue
		}
		for l := range c.Deprels {
			legal[b+l] = ok && root == (int32(l) == c.RootLabel)
		}
	}
}

// moveRule reports whether move m is legal in s and, for a legal labeled
// move, whether its arc comes from node 0 (the root rule then allows the
// root deprel only; otherwise every deprel but it).
func (c *Classes) moveRule(s *State, m Move) (legal, root bool) {
	if !c.Sys.Legal(s, m) {
		return false, false
	}
	if m.Labeled() {
		h, _ := c.Sys.Arc(s, m)
		root = h == 0
	}
	return true, root
}

// Best returns the legal class with the highest score, or -1.
func Best(scores []float32, legal []bool) int {
	best := -1
	var bs float32
	for k, ok := range legal {
		if ok && (best < 0 || scores[k] > bs) {
			best, bs = k, scores[k]
		}
	}
	return best
}

// BestLegal returns the legal class with the highest score in s, or -1:
// Best(scores, legal) for the legal of Legal(s, legal), the first class
// in class order among equal scores, without filling a legal array (it
// asks the system once per move and scans only the labels the root rule
// allows). scores has Len() entries. It is BestTwoLegal without the
// margin (tracking the runner-up costs ~10 ns per state).
func (c *Classes) BestLegal(s *State, scores []float32) int {
	best, _ := c.BestTwoLegal(s, scores)
	return best
}

// BestTwoLegal is BestLegal that also returns the margin of the best legal
// class over the second best (+Inf when only one class is legal; the best
// is -1 and the margin 0 when none is). A cascade uses the margin to
// decide whether a cheaper classifier's choice can stand.
func (c *Classes) BestTwoLegal(s *State, scores []float32) (int, float32) {
	best := -1
	bs, ss := float32(math.Inf(-1)), float32(math.Inf(-1)) // best and second score
	nl, r := len(c.Deprels), int(c.RootLabel)
	for _, m := range c.moves {
		ok, root := c.moveRule(s, m)
		if !ok {
			continue
		}
		b := int(c.base[m])
		if !m.Labeled() || root {
			k := b
			if root {
				k += r
			}
			switch v := scores[k]; {
			case best < 0 || v > bs:
				best, bs, ss = k, v, bs
			case v > ss:
				ss = v
			}
			continue
		}
		// Every deprel but the root's, in class order: the two runs
		// around it (internal/top2 compares four at a time).
		lo, hi := scores[b:b+nl], scores[:0]
		if r >= 0 && r < nl {
			lo, hi = scores[b:b+r], scores[b+r+1:b+nl]
		}
		a1, a2 := top2.Of(lo)
		h1, h2 := top2.Of(hi)
		m1, m2 := max(a1, h1), max(min(a1, h1), a2, h2)
		if best < 0 || m1 > bs {
			k := top2.Index(lo, m1)
			if k < 0 {
				if k = top2.Index(hi, m1); k < 0 {
					continue // NaN scores: no class of this move
				}
				k += r + 1
			}
			best, bs, ss = b+k, m1, max(bs, m2)
		} else {
			ss = max(ss, m1)
		}
	}
	if best < 0 {
		return -1, 0
	}
	return best, bs - ss
}

// AttachLabel gives the label for an unlabeled move that attaches a node
// (arc-eager's REDUCE of a headless node at the end of the sentence): the
// best-scoring deprel of the labeled arc move in the same direction.
func (c *Classes) AttachLabel(s *State, t Transition, scores []float32) Transition {
	if t.Move.Labeled() {
		return t
	}
	h, d := c.Sys.Arc(s, t.Move)
	if d < 0 || s.Head[d] != None {
		return t
	}
	m := RightArc
	if d < h {
		m = LeftArc
	}
	b := c.base[m]
	if b < 0 {
		b = c.base[RightArc]
	}
	best := int32(-1)
	for l := range c.Deprels {
		if (h == 0) != (int32(l) == c.RootLabel) {
			continue
		}
		if best < 0 || scores[int(b)+l] > scores[int(b)+int(best)] {
			best = int32(l)
		}
	}
	t.Label = best
	return t
}
