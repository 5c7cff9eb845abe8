package transition

import "github.com/transparse/transparse/parser/tree"

// ArcHybrid is the arc-hybrid system of Kuhlmann, Gómez-Rodríguez & Satta
// (2011), written as a divisible system in Gómez-Rodríguez & Nivre (2013)
// Ex. 6: SHIFT; LEFT-ARC (σ|i, j|β) ⇒ (σ, j|β) adding j → i; RIGHT-ARC
// (σ|h|i, β) ⇒ (σ|h, β) adding h → i. It derives projective trees in exactly
// 2n transitions. The dynamic oracle is Goldberg & Nivre (2013).
//
// Single root: RIGHT-ARC from node 0 is legal only as the last transition
// (buffer empty, stack [0, i]), so every parse is a tree with one root word.
type ArcHybrid struct{}

func init() { register("arc-hybrid", func() System { return ArcHybrid{} }) }

// Name returns "arc-hybrid".
func (ArcHybrid) Name() string { return "arc-hybrid" }

// Moves returns SHIFT, LEFT-ARC, RIGHT-ARC.
func (ArcHybrid) Moves() []Move { return []Move{Shift, LeftArc, RightArc} }

// Init pushes 0 and fills the buffer with 1..n.
func (ArcHybrid) Init(s *State, n int) {
	s.Reset(n)
	s.push(0)
	s.FillBuffer(1)
}

// Terminal: empty buffer and only node 0 on the stack.
func (ArcHybrid) Terminal(s *State) bool { return len(s.Buffer) == 0 && len(s.Stack) <= 1 }

// Legal implements System.
func (ArcHybrid) Legal(s *State, m Move) bool {
	nb, ns := len(s.Buffer), len(s.Stack)
	switch m {
	case Shift:
		return nb > 0
	case LeftArc:
		return nb > 0 && ns > 0 && s.S(0) != 0
	case RightArc:
		return ns >= 2 && (s.S(1) != 0 || (nb == 0 && ns == 2))
	}
	return false
}

// Arc implements System.
func (ArcHybrid) Arc(s *State, m Move) (int32, int32) {
	switch m {
	case LeftArc:
		return s.B(0), s.S(0)
	case RightArc:
		return s.S(1), s.S(0)
	}
	return None, None
}

// Apply implements System.
func (ArcHybrid) Apply(s *State, t Transition) {
	switch t.Move {
	case Shift:
		s.push(s.shiftOut())
	case LeftArc:
		s.AddArc(s.B(0), s.pop(), t.Label)
	case RightArc:
		d := s.pop()
		s.AddArc(s.S(0), d, t.Label)
	}
}

// Oracle returns the static and dynamic oracle of g (never an error).
func (ArcHybrid) Oracle(g *Gold) (TreeOracle, error) { return arcHybridOracle{g}, nil }

// CostOracle returns the oracle of g as a CostOracle.
func (ArcHybrid) CostOracle(g *Gold) CostOracle { return arcHybridOracle{g} }

type arcHybridOracle struct{ g *Gold }

// Next is the static oracle: LEFT-ARC if h(σ0) = β0; RIGHT-ARC if
// h(σ0) = σ1 and σ0 has all its dependents; else SHIFT.
func (o arcHybridOracle) Next(s *State) Transition {
	g := o.g
	i := s.S(0)
	if len(s.Buffer) > 0 && i > 0 && g.Head[i] == s.B(0) {
		return Transition{LeftArc, g.Label[i]}
	}
	if len(s.Stack) >= 2 && g.Head[i] == s.S(1) && complete(s, g, i) {
		return Transition{RightArc, g.Label[i]}
	}
	return Transition{Shift, None}
}

// complete reports whether every gold dependent of x has its head.
func complete(s *State, g *Gold, x int32) bool {
	for _, d := range g.Deps[x] {
		if s.Head[d] == None {
			return false
		}
	}
	return true
}

// InClass reports whether g is projective.
func (ArcHybrid) InClass(g *Gold) bool { return tree.Projective(g.Head) }

// Cost is the dynamic oracle of Goldberg & Nivre (2013) for arc-hybrid.
func (o arcHybridOracle) Cost(s *State, t Transition) int {
	g, c := o.g, 0
	switch t.Move {
	case LeftArc:
		i, j := s.S(0), s.B(0)
		if h := g.Head[i]; h == j {
			if g.Label[i] != t.Label {
				c++
			}
		} else if h == s.S(1) || s.inBuffer(h) {
			c++
		}
		c += pendingIn(s, g, i, s.inBuffer)
	case RightArc:
		i := s.S(0)
		if h := g.Head[i]; h == s.S(1) {
			if g.Label[i] != t.Label {
				c++
			}
		} else if s.inBuffer(h) {
			c++
		}
		c += pendingIn(s, g, i, s.inBuffer)
	case Shift:
		j := s.B(0)
		if h := g.Head[j]; h != s.S(0) && s.inStack(h) {
			c++
		}
		c += pendingIn(s, g, j, s.inStack)
	}
	return c
}

// pendingIn counts the gold dependents of x without a head that satisfy in.
func pendingIn(s *State, g *Gold, x int32, in func(int32) bool) int {
	c := 0
	for _, d := range g.Deps[x] {
		if s.Head[d] == None && in(d) {
			c++
		}
	}
	return c
}

// MaxTransitions is 2n: n shifts (or pushes) and n arcs.
func (ArcHybrid) MaxTransitions(n int) int { return 2 * n }
