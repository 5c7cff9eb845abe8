package transition

import "github.com/transparse/transparse/parser/tree"

// ArcEager is the arc-eager system of Nivre (2008) §4.2, Fig. 5: LEFT-ARC
// (σ|i, j|β) ⇒ (σ, j|β) adding j → i; RIGHT-ARC (σ|i, j|β) ⇒ (σ|i|j, β)
// adding i → j; REDUCE pops a node that has a head; SHIFT. It derives
// projective trees (Nivre 2008, Theorem 4) in at most 2n transitions.
//
// The static oracle is the one of Nivre (2008) §4.2 (it reproduces Fig. 6);
// the dynamic oracle is Goldberg & Nivre (2012). docs/transition-systems.md
// describes both.
//
// Single root: RIGHT-ARC from node 0 is legal only while no word is attached
// to 0, and at the end Terminal waits until every stacked word has a head
// (REDUCE is allowed for a headless node only when the buffer is empty; it
// then attaches the node to the top of the stack below it, see Apply).
type ArcEager struct{}

func init() { register("arc-eager", func() System { return ArcEager{} }) }

// Name returns "arc-eager".
func (ArcEager) Name() string { return "arc-eager" }

// Moves returns SHIFT, REDUCE, LEFT-ARC, RIGHT-ARC.
func (ArcEager) Moves() []Move { return []Move{Shift, Reduce, LeftArc, RightArc} }

// Init pushes 0 and fills the buffer with 1..n.
func (ArcEager) Init(s *State, n int) {
	s.Reset(n)
	s.push(0)
	s.FillBuffer(1)
}

// Terminal: the buffer is empty and every node on the stack but 0 has a
// head.
func (ArcEager) Terminal(s *State) bool {
	if len(s.Buffer) > 0 {
		return false
	}
	for _, x := range s.Stack[1:] {
		if s.Head[x] == None {
			return false
		}
	}
	return true
}

// Legal implements System.
func (ArcEager) Legal(s *State, m Move) bool {
	nb, ns := len(s.Buffer), len(s.Stack)
	switch m {
	case Shift:
		return nb > 0
	case Reduce:
		if ns < 2 {
			return false
		}
		// A headless node may be reduced only when the buffer is empty:
		// it is then attached to the node below it (tree constraint).
		return s.Head[s.S(0)] != None || nb == 0
	case LeftArc:
		return nb > 0 && ns > 0 && s.S(0) != 0 && s.Head[s.S(0)] == None
	case RightArc:
		return nb > 0 && ns > 0 && (s.S(0) != 0 || s.Roots == 0)
	}
	return false
}

// Arc implements System. For REDUCE of a headless node (only when the buffer
// is empty) the arc is stack[1] → stack[0], or root word → stack[0] when
// stack[1] is 0 and a word is already attached to 0.
func (ArcEager) Arc(s *State, m Move) (int32, int32) {
	switch m {
	case LeftArc:
		return s.B(0), s.S(0)
	case RightArc:
		return s.S(0), s.B(0)
	case Reduce:
		h := s.S(1)
		if h == 0 && s.Roots > 0 {
			h = s.RootWord
		}
		return h, s.S(0)
	}
	return None, None
}

// Apply implements System. REDUCE of a headless node attaches it to the node
// below with t.Label (the parser gives it a label as if it were RIGHT-ARC).
func (ArcEager) Apply(s *State, t Transition) {
	switch t.Move {
	case Shift:
		s.push(s.shiftOut())
	case Reduce:
		if x := s.S(0); s.Head[x] == None {
			h, _ := ArcEager{}.Arc(s, Reduce)
			s.AddArc(h, x, t.Label)
		}
		s.pop()
	case LeftArc:
		s.AddArc(s.B(0), s.pop(), t.Label)
	case RightArc:
		j := s.shiftOut()
		s.AddArc(s.S(0), j, t.Label)
		s.push(j)
	}
}

// Oracle returns the static and dynamic oracle of g (never an error).
func (ArcEager) Oracle(g *Gold) (TreeOracle, error) { return arcEagerOracle{g}, nil }

// CostOracle returns the oracle of g as a CostOracle.
func (ArcEager) CostOracle(g *Gold) CostOracle { return arcEagerOracle{g} }

type arcEagerOracle struct{ g *Gold }

// Next is the static oracle of Nivre (2008) §4.2 (docs/transition-systems.md,
// arc-eager): REDUCE on an empty buffer; LEFT-ARC if h(σ0) = β0; RIGHT-ARC
// if h(β0) = σ0; REDUCE if σ0 has a head and β0 has a gold arc with a node
// below σ0; else SHIFT.
func (o arcEagerOracle) Next(s *State) Transition {
	g := o.g
	if len(s.Buffer) == 0 {
		return Transition{Reduce, labelOf(g, s.S(0))}
	}
	i, j := s.S(0), s.B(0)
	if i > 0 && g.Head[i] == j {
		return Transition{LeftArc, g.Label[i]}
	}
	if g.Head[j] == i {
		return Transition{RightArc, g.Label[j]}
	}
	if s.Head[i] != None {
		for k := len(s.Stack) - 2; k >= 0; k-- {
			x := s.Stack[k]
			if g.Head[x] == j || g.Head[j] == x {
				return Transition{Reduce, None}
			}
		}
	}
	return Transition{Shift, None}
}

func labelOf(g *Gold, x int32) int32 {
	if x <= 0 {
		return None
	}
	return g.Label[x]
}

// InClass reports whether g is projective.
func (ArcEager) InClass(g *Gold) bool { return tree.Projective(g.Head) }

// Cost is the dynamic oracle of Goldberg & Nivre (2012): the number of gold
// arcs (counting a right head with a wrong label) that t makes unreachable.
// Two additions for the single-root tree constraint: an arc from node 0 to
// another word loses the gold root word's arc, and the end-of-sentence
// REDUCE of a headless node costs nothing (its gold head was counted as lost
// when the node was shifted; such arcs may still come out right, so along
// a derivation the costs bound the loss from above).
func (o arcEagerOracle) Cost(s *State, t Transition) int {
	g, c := o.g, 0
	switch t.Move {
	case LeftArc:
		i, j := s.S(0), s.B(0)
		// i loses heads in β \ {j} and dependents in β.
		if h := g.Head[i]; h == j {
			if g.Label[i] != t.Label {
				c++
			}
		} else if s.inBuffer(h) {
			c++
		}
		c += pendingIn(s, g, i, s.inBuffer)
	case RightArc:
		i, j := s.S(0), s.B(0)
		// j loses heads in σ \ {i} and β, and dependents in σ.
		if h := g.Head[j]; h == i {
			if g.Label[j] != t.Label {
				c++
			}
		} else if s.inBuffer(h) || (s.inStack(h) && reachableRoot(s, h)) {
			c++
		}
		c += pendingIn(s, g, j, s.inStack)
		if i == 0 {
			c += rootLost(s, g, j)
		}
	case Reduce:
		c += pendingIn(s, g, s.S(0), s.inBuffer)
	case Shift:
		j := s.B(0)
		// j loses heads and dependents in σ.
		if h := g.Head[j]; s.inStack(h) && reachableRoot(s, h) {
			c++
		}
		c += pendingIn(s, g, j, s.inStack)
	}
	return c
}

// rootLost is 1 if attaching d to node 0 makes the gold root word's arc
// unreachable: it is another word, still headless, in the buffer.
func rootLost(s *State, g *Gold, d int32) int {
	if s.Roots > 0 {
		return 0
	}
	for _, r := range g.Deps[0] {
		if r != d && s.Head[r] == None && s.inBuffer(r) {
			return 1
		}
	}
	return 0
}

// reachableRoot: an arc from stack node h is still buildable unless h is 0
// and a word is already attached to 0.
func reachableRoot(s *State, h int32) bool { return h != 0 || s.Roots == 0 }

// MaxTransitions is 2n: n shifts (or pushes) and n arcs.
func (ArcEager) MaxTransitions(n int) int { return 2 * n }
