package transition

import "github.com/transparse/transparse/parser/tree"

// The list-based systems of Nivre (2008) §5, after Covington (2001).
//
// A configuration is (λ1, λ2, β, A): λ1 is State.Stack (its head i, the node
// compared with the buffer front, at the end), λ2 is State.List2 (its head,
// the node next to λ1, at the end) and β is State.Buffer (front j). λ1 and λ2
// hold nodes in ascending word order with λ1 < λ2 < β, so λ1 is sorted and
// can be searched. The arc transitions compare i with j; NO-ARC moves i to
// λ2 without an arc; SHIFT^λ (λ1, λ2, j|β) ⇒ (λ1.λ2|j, [], β) starts the
// comparisons of the next buffer node. Initial ([0], [], [1..n], ∅); terminal
// when the buffer is empty. Both systems need at most n(n+3)/2 transitions
// (Nivre 2008, Theorems 8 and 11): at most j non-shift transitions while j is
// the buffer front, then one SHIFT^λ (or RIGHT-ARCᵖ).

func init() {
	register("covington-nonprojective", func() System { return CovingtonNonProjective{} })
	register("covington-projective", func() System { return CovingtonProjective{} })
}

// CovingtonNonProjective is Covington's non-projective list-based system in
// the form of Nivre (2008) §5.1, Fig. 7 (docs/transition-systems.md):
//
//	LEFT-ARCⁿ_l  (λ1|i, λ2, j|β) ⇒ (λ1, i|λ2, j|β) adding j → i:
//	             i ≠ 0, i has no head, i and j not connected
//	RIGHT-ARCⁿ_l (λ1|i, λ2, j|β) ⇒ (λ1, i|λ2, j|β) adding i → j:
//	             j has no head, i and j not connected
//	NO-ARCⁿ      (λ1|i, λ2, β) ⇒ (λ1, i|λ2, β)
//	SHIFT^λ      (λ1, λ2, j|β) ⇒ (λ1.λ2|j, [], β)
//
// It derives every dependency forest (Nivre 2008, Theorem 7); with the
// single-root rule below, every tree with one root word. The acyclicity
// test ("no path between i and j", Nivre 2008 fn. 5) is State.Connected:
// with single heads the dependent is the root of its own tree, so a path in
// either direction exists exactly when i and j are in one component.
//
// Single root: RIGHT-ARC from node 0 is legal only while no word is attached
// to 0. A terminal state may leave words headless (a forest); the parser
// attaches them afterwards.
type CovingtonNonProjective struct {
	// multiRoot drops the single-root rule (node 0 may take any number of
	// dependents, as in the paper); used to reproduce the paper's vectors.
	multiRoot bool
}

// Name returns "covington-nonprojective".
func (CovingtonNonProjective) Name() string { return "covington-nonprojective" }

// Moves returns SHIFT (SHIFT^λ), NO-ARC, LEFT-ARC, RIGHT-ARC.
func (CovingtonNonProjective) Moves() []Move { return []Move{Shift, NoArc, LeftArc, RightArc} }

// Init makes ([0], [], [1..n], ∅).
func (CovingtonNonProjective) Init(s *State, n int) { covInit(s, n) }

// Terminal: the buffer is empty.
func (CovingtonNonProjective) Terminal(s *State) bool { return len(s.Buffer) == 0 }

// Legal implements System (the preconditions of Nivre 2008 Fig. 7 and the
// single-root rule).
func (c CovingtonNonProjective) Legal(s *State, m Move) bool {
	nb, ns := len(s.Buffer), len(s.Stack)
	if nb == 0 {
		return false
	}
	if m == Shift {
		return true
	}
	if ns == 0 {
		return false
	}
	i, j := s.Stack[ns-1], s.Buffer[nb-1]
	switch m {
	case NoArc:
		return true
	case LeftArc:
		return i != 0 && s.Head[i] == None && !s.Connected(i, j)
	case RightArc:
		return s.Head[j] == None && !s.Connected(i, j) && (i != 0 || s.Roots == 0 || c.multiRoot)
	}
	return false
}

// Arc implements System: LEFT-ARC adds j → i, RIGHT-ARC i → j, where i is
// the head of λ1 and j the buffer front.
func (CovingtonNonProjective) Arc(s *State, m Move) (int32, int32) { return covArc(s, m) }

// Apply implements System. Every move but SHIFT^λ moves i from λ1 to λ2.
func (CovingtonNonProjective) Apply(s *State, t Transition) {
	switch t.Move {
	case Shift:
		covShift(s)
	case NoArc:
		s.List2 = append(s.List2, s.pop())
	case LeftArc:
		i := s.pop()
		s.AddArc(s.B(0), i, t.Label)
		s.List2 = append(s.List2, i)
	case RightArc:
		i := s.pop()
		s.AddArc(i, s.B(0), t.Label)
		s.List2 = append(s.List2, i)
	}
}

// Oracle returns the static oracle of g (never an error), that of Nivre
// (2008) §5.1 (it reproduces Fig. 8): SHIFT^λ if λ1 is empty; else
// LEFT-ARC if i ≠ 0 and h(i) = j; else RIGHT-ARC if h(j) = i; else NO-ARC if
// some k in λ1 below i has h(k) = j or h(j) = k; else SHIFT^λ. Next takes
// O(d log n) for d dependents of j and does not allocate.
func (CovingtonNonProjective) Oracle(g *Gold) (TreeOracle, error) { return covNPOracle{g}, nil }

// CostOracle returns the oracle of g as a CostOracle (the dynamic oracle is
// in covington_dynamic.go).
func (CovingtonNonProjective) CostOracle(g *Gold) CostOracle { return covNPOracle{g} }

type covNPOracle struct{ g *Gold }

func (o covNPOracle) Next(s *State) Transition { return covOracle(s, o.g, false) }

// InClass reports whether g is a tree with one word attached to 0: the
// system derives every such tree.
func (c CovingtonNonProjective) InClass(g *Gold) bool { return npRootedTree(g.Head, c.multiRoot) }

// MaxTransitions is n(n+3)/2 (Nivre 2008, Theorem 8).
func (CovingtonNonProjective) MaxTransitions(n int) int { return n * (n + 3) / 2 }

// CovingtonProjective is Covington's projective list-based system in the
// form of Nivre (2008) §5.2, Fig. 9 (docs/transition-systems.md):
//
//	LEFT-ARCᵖ_l  (λ1|i, λ2, j|β) ⇒ (λ1, [], j|β) adding j → i:
//	             i ≠ 0, i has no head (i is deleted, λ2 emptied)
//	RIGHT-ARCᵖ_l (λ1|i, λ2, j|β) ⇒ (λ1|i|j, [], β) adding i → j:
//	             j has no head (j moves onto λ1, λ2 emptied)
//	NO-ARCᵖ      (λ1|i, λ2, β) ⇒ (λ1, i|λ2, β): i has a head
//	SHIFT^λ      (λ1, λ2, j|β) ⇒ (λ1.λ2|j, [], β)
//
// It derives the projective forests (Nivre 2008, Theorem 10); with the
// single-root rule, the projective trees with one root word. No acyclicity
// test is needed (Nivre 2008, proof of Theorem 10), and no headless node is
// ever covered by an arc (NO-ARCᵖ needs a head), so attaching the headless
// words of a terminal state to 0 keeps the tree projective.
//
// Single root: RIGHT-ARC from node 0 is legal only while no word is attached
// to 0.
type CovingtonProjective struct {
	// multiRoot drops the single-root rule, as in CovingtonNonProjective.
	multiRoot bool
}

// Name returns "covington-projective".
func (CovingtonProjective) Name() string { return "covington-projective" }

// Moves returns SHIFT (SHIFT^λ), NO-ARC, LEFT-ARC, RIGHT-ARC.
func (CovingtonProjective) Moves() []Move { return []Move{Shift, NoArc, LeftArc, RightArc} }

// Init makes ([0], [], [1..n], ∅).
func (CovingtonProjective) Init(s *State, n int) { covInit(s, n) }

// Terminal: the buffer is empty.
func (CovingtonProjective) Terminal(s *State) bool { return len(s.Buffer) == 0 }

// Legal implements System (the preconditions of Nivre 2008 Fig. 9 and the
// single-root rule).
func (c CovingtonProjective) Legal(s *State, m Move) bool {
	nb, ns := len(s.Buffer), len(s.Stack)
	if nb == 0 {
		return false
	}
	if m == Shift {
		return true
	}
	if ns == 0 {
		return false
	}
	i, j := s.Stack[ns-1], s.Buffer[nb-1]
	switch m {
	case NoArc:
		return s.Head[i] != None
	case LeftArc:
		return i != 0 && s.Head[i] == None
	case RightArc:
		return s.Head[j] == None && (i != 0 || s.Roots == 0 || c.multiRoot)
	}
	return false
}

// Arc implements System: LEFT-ARC adds j → i, RIGHT-ARC i → j, where i is
// the head of λ1 and j the buffer front.
func (CovingtonProjective) Arc(s *State, m Move) (int32, int32) { return covArc(s, m) }

// Apply implements System.
func (CovingtonProjective) Apply(s *State, t Transition) {
	switch t.Move {
	case Shift:
		covShift(s)
	case NoArc:
		s.List2 = append(s.List2, s.pop())
	case LeftArc:
		i := s.pop()
		s.AddArc(s.B(0), i, t.Label)
		s.List2 = s.List2[:0]
	case RightArc:
		j := s.shiftOut()
		s.AddArc(s.S(0), j, t.Label)
		s.push(j)
		s.List2 = s.List2[:0]
	}
}

// Oracle returns the static oracle of g (never an error), that of Nivre
// (2008) §5.2 (it reproduces Fig. 10): SHIFT^λ if λ1 is empty; else
// LEFT-ARC if i ≠ 0 and h(i) = j; else RIGHT-ARC if h(j) = i; else NO-ARC
// if i has a head and some k in λ1 below i has h(k) = j or h(j) = k; else
// SHIFT^λ. It derives g iff g is projective.
func (CovingtonProjective) Oracle(g *Gold) (TreeOracle, error) { return covPOracle{g}, nil }

type covPOracle struct{ g *Gold }

func (o covPOracle) Next(s *State) Transition { return covOracle(s, o.g, true) }

// InClass reports whether g is a projective tree with one word attached to 0.
func (c CovingtonProjective) InClass(g *Gold) bool {
	return npRootedTree(g.Head, c.multiRoot) && tree.Projective(g.Head)
}

// MaxTransitions is n(n+3)/2 (Nivre 2008, Theorem 11 and the proof of
// Theorem 8).
func (CovingtonProjective) MaxTransitions(n int) int { return n * (n + 3) / 2 }

func covInit(s *State, n int) {
	s.Reset(n)
	s.push(0)
	s.FillBuffer(1)
}

// covShift is SHIFT^λ: λ1 := λ1.λ2|j, λ2 := []. List2 has its head (the
// smallest node) at the end, so it is appended in reverse.
func covShift(s *State) {
	for k := len(s.List2) - 1; k >= 0; k-- {
		s.Stack = append(s.Stack, s.List2[k])
	}
	s.List2 = s.List2[:0]
	s.push(s.shiftOut())
}

func covArc(s *State, m Move) (int32, int32) {
	switch m {
	case LeftArc:
		return s.B(0), s.S(0)
	case RightArc:
		return s.S(0), s.B(0)
	}
	return None, None
}

func covOracle(s *State, g *Gold, projective bool) Transition {
	if len(s.Stack) == 0 || len(s.Buffer) == 0 {
		return Transition{Shift, None}
	}
	i, j := s.S(0), s.B(0)
	if i != 0 && g.Head[i] == j {
		return Transition{LeftArc, g.Label[i]}
	}
	if g.Head[j] == i {
		return Transition{RightArc, g.Label[j]}
	}
	if (!projective || s.Head[i] != None) && covPending(s, g, i, j) {
		return Transition{NoArc, None}
	}
	return Transition{Shift, None}
}

// covPending reports whether some node k in λ1 below its head i has
// h(k) = j or h(j) = k in g. λ1 is sorted, so membership is a binary
// search and only the dependents of j left of i are tried.
func covPending(s *State, g *Gold, i, j int32) bool {
	below := s.Stack[:len(s.Stack)-1]
	if h := g.Head[j]; h >= 0 && h < i && covSortedHas(below, h) {
		return true
	}
	for _, d := range g.Deps[j] {
		if d >= i {
			break
		}
		if covSortedHas(below, d) {
			return true
		}
	}
	return false
}

// covSortedHas reports whether the ascending slice a holds x.
func covSortedHas(a []int32, x int32) bool {
	lo, hi := 0, len(a)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if a[m] < x {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo < len(a) && a[lo] == x
}

// npRootedTree reports whether head is a tree rooted at 0: every head in
// 0..n, no cycle, and exactly one word attached to 0 (at least one when
// multiRoot is set).
func npRootedTree(head []int32, multiRoot bool) bool {
	if !multiRoot {
		return tree.Check(head) == nil
	}
	n := len(head) - 1
	roots := 0
	for d := 1; d <= n; d++ {
		if h := head[d]; h < 0 || int(h) > n || int(h) == d {
			return false
		} else if h == 0 {
			roots++
		}
	}
	if n > 0 && roots == 0 {
		return false
	}
	return tree.Check(npRerootCopy(head)) == nil
}

// npRerootCopy returns a copy of head in which every word attached to 0 but
// the first hangs from the first, so that tree.Check tests acyclicity only.
func npRerootCopy(head []int32) []int32 {
	c := append([]int32(nil), head...)
	first := int32(None)
	for d := 1; d < len(c); d++ {
		if c[d] == 0 {
			if first == None {
				first = int32(d)
			} else {
				c[d] = first
			}
		}
	}
	return c
}
