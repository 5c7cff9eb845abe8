package transition

import "github.com/transparse/transparse/parser/tree"

// Planar is the planar transition system S_P of Gómez-Rodríguez & Nivre
// (2013) §3.3 (docs/transition-systems.md): the divisible system whose
// transitions are the elementary ones except UNSHIFT, used directly.
//
//	SHIFT      (σ, j|β, A) ⇒ (σ|j, β, A)
//	REDUCE     (σ|i, β, A) ⇒ (σ, β, A)
//	LEFT-ARC   (σ|i, j|β, A) ⇒ (σ|i, j|β, A ∪ {j → i})   (no pop)
//	RIGHT-ARC  (σ|i, j|β, A) ⇒ (σ|i, j|β, A ∪ {i → j})   (no push)
//
// with the restrictions of §3.3.2 that make it derive forests:
// SINGLE-HEAD (LEFT-ARC needs a headless σ1, RIGHT-ARC a headless β1) and
// ACYCLICITY (σ1 and β1 not yet connected, State.Connected). GN13 has no
// artificial root; here node 0 plays its ROOT token 1: Init puts 0..n in
// the buffer and the first SHIFT pushes 0. Node 0 is never a dependent, and
// RIGHT-ARC from 0 is legal only while no word is attached to 0.
//
// NO-COVERED-ROOTS (REDUCE only for a σ1 that has a head) is imposed too.
// With node 0 at position 0 the planar trees are exactly the projective
// ones (an arc 0 → r crosses every arc that covers r), so the class is
// unchanged: for a gold tree rooted at 0 the oracle never reduces a headless
// node. What the restriction buys is at parse time: no terminal forest has
// a covered headless word, so attaching the leftover words to node 0 keeps
// the output projective (GN13 Prop. 1), and node 0 is never popped. With all
// three restrictions S_P is the "new projective parser" of GN13 §3.3.2.
//
// Class: planar = projective trees. Length: every transition sequence has
// at most n+1 SHIFTs, n REDUCEs (each word once; node 0 is never reduced)
// and n arcs (single head), so MaxTransitions is 3n+1 (GN13 §3.3 gives
// n + n + (n−1) for n nodes without an artificial root).
type Planar struct{}

func init() { register("planar", func() System { return Planar{} }) }

// Name returns "planar".
func (Planar) Name() string { return "planar" }

// Moves returns SHIFT, REDUCE, LEFT-ARC, RIGHT-ARC.
func (Planar) Moves() []Move { return []Move{Shift, Reduce, LeftArc, RightArc} }

// Init makes the initial configuration ([], [0..n], ∅).
func (Planar) Init(s *State, n int) {
	s.Reset(n)
	s.FillBuffer(0)
}

// Terminal: the buffer is empty.
func (Planar) Terminal(s *State) bool { return len(s.Buffer) == 0 }

// Legal implements System with the SINGLE-HEAD, ACYCLICITY and
// NO-COVERED-ROOTS restrictions and the single-root rule.
func (Planar) Legal(s *State, m Move) bool {
	nb, ns := len(s.Buffer), len(s.Stack)
	switch m {
	case Shift:
		return nb > 0
	case Reduce:
		return nb > 0 && ns > 0 && s.Head[s.S(0)] != None
	case LeftArc:
		if nb == 0 || ns == 0 {
			return false
		}
		i, j := s.S(0), s.B(0)
		return i != 0 && s.Head[i] == None && !s.Connected(i, j)
	case RightArc:
		if nb == 0 || ns == 0 {
			return false
		}
		i, j := s.S(0), s.B(0)
		return j != 0 && s.Head[j] == None && !s.Connected(i, j) && (i != 0 || s.Roots == 0)
	}
	return false
}

// Arc implements System: LEFT-ARC adds β1 → σ1, RIGHT-ARC σ1 → β1.
func (Planar) Arc(s *State, m Move) (int32, int32) {
	switch m {
	case LeftArc:
		return s.B(0), s.S(0)
	case RightArc:
		return s.S(0), s.B(0)
	}
	return None, None
}

// Apply implements System.
func (Planar) Apply(s *State, t Transition) {
	switch t.Move {
	case Shift:
		s.push(s.shiftOut())
	case Reduce:
		s.pop()
	case LeftArc:
		s.AddArc(s.B(0), s.S(0), t.Label)
	case RightArc:
		s.AddArc(s.S(0), s.B(0), t.Label)
	}
}

// Oracle returns the static oracle of g (never an error): the step-by-step
// form of the GN13 Lemma 5 construction: LEFT-ARC if the gold arc β1 → σ1 is
// unbuilt; else RIGHT-ARC if σ1 → β1 is; else REDUCE if β1 has an unbuilt
// gold arc with a node deeper in the stack; else SHIFT. It derives every
// planar (= projective) gold tree; planarity guarantees that a reduced node
// has no arcs left. It does not allocate: the stack is sorted (GN13 Lemma
// 1), so membership is a binary search.
func (Planar) Oracle(g *Gold) (TreeOracle, error) { return planarOracle{g}, nil }

type planarOracle struct{ g *Gold }

func (o planarOracle) Next(s *State) Transition {
	g := o.g
	if len(s.Buffer) == 0 || len(s.Stack) == 0 {
		return Transition{Shift, None}
	}
	i, j := s.S(0), s.B(0)
	if i > 0 && g.Head[i] == j && s.Head[i] != j {
		return Transition{LeftArc, g.Label[i]}
	}
	if g.Head[j] == i && s.Head[j] != i {
		return Transition{RightArc, g.Label[j]}
	}
	if planarPendingBelow(s, g, s.Stack, j, i) {
		return Transition{Reduce, None}
	}
	return Transition{Shift, None}
}

// planarPendingBelow reports whether node j has an unbuilt gold arc with a
// node x < limit that is on stack st (sorted increasingly).
func planarPendingBelow(s *State, g *Gold, st []int32, j, limit int32) bool {
	if h := g.Head[j]; h >= 0 && h < limit && s.Head[j] != h && planarInSorted(st, h) {
		return true
	}
	for _, d := range g.Deps[j] {
		if d >= limit {
			break
		}
		if s.Head[d] != j && planarInSorted(st, d) {
			return true
		}
	}
	return false
}

// planarInSorted reports whether x is in the increasing slice st.
func planarInSorted(st []int32, x int32) bool {
	lo, hi := 0, len(st)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if st[m] < x {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo < len(st) && st[lo] == x
}

// InClass reports whether g is planar with node 0 at position 0 (that is,
// projective; tree.Planar) with at most one word attached to 0.
func (Planar) InClass(g *Gold) bool { return len(g.Deps[0]) <= 1 && tree.Planar(g.Head) }

// MaxTransitions is 3n+1: n+1 SHIFTs, n REDUCEs and n arcs.
func (Planar) MaxTransitions(n int) int { return 3*n + 1 }
