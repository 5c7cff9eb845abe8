package transition

import "github.com/transparse/transparse/parser/tree"

// ArcStandard is the arc-standard system in the form of Nivre (2008) §4.1,
// Fig. 3 (arcs between the stack top and the buffer front): LEFT-ARC
// (σ|i, j|β) ⇒ (σ, j|β) adding j → i; RIGHT-ARC (σ|i, j|β) ⇒ (σ, i|β) adding
// i → j (i replaces j at the front of the buffer); SHIFT. It derives
// projective trees (Nivre 2008, Theorem 1) in exactly 2n transitions.
//
// Single root: RIGHT-ARC from node 0 is legal only when the stack is [0] and
// the buffer holds one word, and the last word of the buffer may be shifted
// only onto an empty stack, so every parse is a tree with one root word.
type ArcStandard struct{}

func init() { register("arc-standard", func() System { return ArcStandard{} }) }

// Name returns "arc-standard".
func (ArcStandard) Name() string { return "arc-standard" }

// Moves returns SHIFT, LEFT-ARC, RIGHT-ARC.
func (ArcStandard) Moves() []Move { return []Move{Shift, LeftArc, RightArc} }

// Init pushes 0 and fills the buffer with 1..n.
func (ArcStandard) Init(s *State, n int) {
	s.Reset(n)
	s.push(0)
	s.FillBuffer(1)
}

// Terminal: the buffer is empty.
func (ArcStandard) Terminal(s *State) bool { return len(s.Buffer) == 0 }

// Legal implements System.
func (ArcStandard) Legal(s *State, m Move) bool {
	nb, ns := len(s.Buffer), len(s.Stack)
	switch m {
	case Shift:
		return nb > 1 || (nb == 1 && ns == 0)
	case LeftArc:
		return nb > 0 && ns > 0 && s.S(0) != 0
	case RightArc:
		return nb > 0 && ns > 0 && (s.S(0) != 0 || (ns == 1 && nb == 1))
	}
	return false
}

// Arc implements System.
func (ArcStandard) Arc(s *State, m Move) (int32, int32) {
	switch m {
	case LeftArc:
		return s.B(0), s.S(0)
	case RightArc:
		return s.S(0), s.B(0)
	}
	return None, None
}

// Apply implements System.
func (ArcStandard) Apply(s *State, t Transition) {
	switch t.Move {
	case Shift:
		s.push(s.shiftOut())
	case LeftArc:
		s.AddArc(s.B(0), s.pop(), t.Label)
	case RightArc:
		j := s.shiftOut()
		i := s.pop()
		s.AddArc(i, j, t.Label)
		s.Buffer = append(s.Buffer, i)
	}
}

// Oracle returns the static oracle of g (never an error).
func (ArcStandard) Oracle(g *Gold) (TreeOracle, error) { return arcStandardOracle{g}, nil }

type arcStandardOracle struct{ g *Gold }

// Next is the static oracle of Nivre (2008) §4.1 (docs/transition-systems.md,
// arc-standard): with i = σ0 and j = β0, LEFT-ARC if h(i) = j; RIGHT-ARC if
// h(j) = i and j has all its dependents; else SHIFT.
func (o arcStandardOracle) Next(s *State) Transition {
	g := o.g
	if len(s.Stack) > 0 && len(s.Buffer) > 0 {
		i, j := s.S(0), s.B(0)
		if i > 0 && g.Head[i] == j {
			return Transition{LeftArc, g.Label[i]}
		}
		if j > 0 && g.Head[j] == i && complete(s, g, j) {
			return Transition{RightArc, g.Label[j]}
		}
	}
	return Transition{Shift, None}
}

// InClass reports whether g is projective.
func (ArcStandard) InClass(g *Gold) bool { return tree.Projective(g.Head) }

// MaxTransitions is 2n: n shifts (or pushes) and n arcs.
func (ArcStandard) MaxTransitions(n int) int { return 2 * n }
