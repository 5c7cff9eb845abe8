package transition

import "fmt"

func init() {
	register("swap-eager", func() System { return SwapSystem{} })
	register("swap-lazy", func() System { return SwapSystem{Lazy: true} })
}

// SwapSystem is the swap system S_u of Nivre (2009) §3
// (docs/transition-systems.md): arc-standard with arcs between the two
// topmost stack nodes (Nivre 2009 Fig. 2) plus SWAP, which puts the second stack node back at the
// front of the buffer:
//
//	LEFT-ARC_l  ([σ|i, j], B) ⇒ ([σ|j], B) adding j → i: i ≠ 0
//	RIGHT-ARC_l ([σ|i, j], B) ⇒ ([σ|i], B) adding i → j
//	SHIFT       (σ, [i|β]) ⇒ ([σ|i], β)
//	SWAP        ([σ|i, j], β) ⇒ ([σ|j], [i|β]): 0 < i < j
//
// Initial ([0], [1..n], ∅); terminal ([0], [], A) only. It derives every
// tree (Nivre 2009 §3.2) with exactly 2n + 2k transitions for k SWAPs;
// each pair of nodes is swapped at most once (i < j), so k ≤ n(n−1)/2 and
// the length is at most n² + n. SWAP never moves node 0.
//
// Single root: RIGHT-ARC from node 0 is legal only as the last transition
// (stack [0, j], empty buffer), when j is the only word left, so every
// terminal state holds a tree with exactly one root word.
//
// The two registered names differ only in the static oracle that trains the
// model (both parse identically): "swap-eager" uses the oracle of Nivre
// (2009) Fig. 4, which sorts the words into the projective order <_G as
// early as possible; "swap-lazy" uses the lazy oracle of Nivre, Kuhlmann &
// Hall (2009), which postpones SWAP while the top of the stack and the
// front of the buffer lie in one maximal projective component, and so needs
// fewer swaps. Oracle computes the projective order (and the components)
// once per tree.
type SwapSystem struct {
	// Lazy selects the lazy oracle of Nivre, Kuhlmann & Hall (2009).
	Lazy bool
	// multiRoot drops the single-root rule (RIGHT-ARC from 0 at any time,
	// as in the paper); used to reproduce the paper's vectors.
	multiRoot bool
}

// Name returns "swap-lazy" or "swap-eager".
func (sw SwapSystem) Name() string {
	if sw.Lazy {
		return "swap-lazy"
	}
	return "swap-eager"
}

// Moves returns SHIFT, LEFT-ARC, RIGHT-ARC, SWAP.
func (SwapSystem) Moves() []Move { return []Move{Shift, LeftArc, RightArc, Swap} }

// Init pushes 0 and fills the buffer with 1..n.
func (SwapSystem) Init(s *State, n int) {
	s.Reset(n)
	s.push(0)
	s.FillBuffer(1)
}

// Terminal: the buffer is empty and the stack is [0].
func (SwapSystem) Terminal(s *State) bool { return len(s.Buffer) == 0 && len(s.Stack) <= 1 }

// Legal implements System (Nivre 2009 Fig. 2 and the single-root rule).
func (sw SwapSystem) Legal(s *State, m Move) bool {
	nb, ns := len(s.Buffer), len(s.Stack)
	switch m {
	case Shift:
		return nb > 0
	case LeftArc:
		return ns >= 2 && s.Stack[ns-2] != 0
	case RightArc:
		return ns >= 2 && (s.Stack[ns-2] != 0 || sw.multiRoot || (ns == 2 && nb == 0))
	case Swap:
		return ns >= 2 && 0 < s.Stack[ns-2] && s.Stack[ns-2] < s.Stack[ns-1]
	}
	return false
}

// Arc implements System: LEFT-ARC adds stack[0] → stack[1], RIGHT-ARC
// stack[1] → stack[0].
func (SwapSystem) Arc(s *State, m Move) (int32, int32) {
	switch m {
	case LeftArc:
		return s.S(0), s.S(1)
	case RightArc:
		return s.S(1), s.S(0)
	}
	return None, None
}

// Apply implements System.
func (SwapSystem) Apply(s *State, t Transition) {
	switch t.Move {
	case Shift:
		s.push(s.shiftOut())
	case LeftArc:
		j := s.pop()
		i := s.pop()
		s.AddArc(j, i, t.Label)
		s.push(j)
	case RightArc:
		j := s.pop()
		s.AddArc(s.S(0), j, t.Label)
	case Swap:
		j := s.pop()
		i := s.pop()
		s.push(j)
		s.Buffer = append(s.Buffer, i)
	}
}

// Oracle returns the static oracle of g: the eager oracle of Nivre (2009)
// Fig. 4, or the lazy oracle of Nivre, Kuhlmann & Hall (2009) (see rule).
// It computes the projective order of g and, for the lazy oracle, its
// maximal projective components once; Next is then O(1) per state plus the
// completeness tests of the arcs. It returns an error if g is not a tree
// rooted at 0.
func (sw SwapSystem) Oracle(g *Gold) (TreeOracle, error) {
	pos, err := swProjOrder(g)
	if err != nil {
		return nil, fmt.Errorf("transition: %s: %w", sw.Name(), err)
	}
	o := &swapOracle{sw: sw, g: g, pos: pos}
	if sw.Lazy {
		o.mpc = sw.projectiveComponents(new(State), g)
	}
	return o, nil
}

type swapOracle struct {
	sw       SwapSystem
	g        *Gold
	pos, mpc []int32
}

func (o *swapOracle) Next(s *State) Transition { return o.sw.rule(s, o.g, o.pos, o.mpc) }

// rule is the static oracle. With i = stack[1], j = stack[0]:
//
//	LEFT-ARC  if h(i) = j and i has all its dependents
//	RIGHT-ARC if h(j) = i and j has all its dependents
//	SWAP      if j <_G i                       (eager, Nivre 2009 Fig. 4)
//	          and (B = [] or MPC(j) ≠ MPC(B[0]))  (lazy, NKH 2009)
//	SHIFT     otherwise
//
// pos gives each node's place in <_G and mpc (lazy oracle only) its
// maximal projective component.
func (sw SwapSystem) rule(s *State, g *Gold, pos, mpc []int32) Transition {
	if len(s.Stack) >= 2 {
		i, j := s.S(1), s.S(0)
		if i != 0 && g.Head[i] == j && complete(s, g, i) {
			return Transition{LeftArc, g.Label[i]}
		}
		if g.Head[j] == i && complete(s, g, j) {
			return Transition{RightArc, g.Label[j]}
		}
		if pos[j] < pos[i] {
			if !sw.Lazy || len(s.Buffer) == 0 {
				return Transition{Swap, None}
			}
			if mpc[j] != mpc[s.B(0)] {
				return Transition{Swap, None}
			}
		}
	}
	return Transition{Shift, None}
}

// InClass reports whether g is a tree with one word attached to 0: the
// swap system derives every such tree.
func (sw SwapSystem) InClass(g *Gold) bool { return npRootedTree(g.Head, sw.multiRoot) }

// MaxTransitions is n² + n: 2n + 2k with k ≤ n(n−1)/2 (Nivre 2009 §3.2).
func (SwapSystem) MaxTransitions(n int) int { return n*n + n }

// swProjOrder returns pos, each node's place in the projective order <_G
// of Nivre (2009) §3.3: the in-order traversal from node 0 that visits, at
// every node h, the subtrees of h's left dependents in word order, then h,
// then the subtrees of its right dependents in word order. g is projective
// with respect to <_G. It fails when some word is not reached from 0.
func swProjOrder(g *Gold) ([]int32, error) {
	n := len(g.Head) - 1
	pos := make([]int32, n+1)
	for i := range pos {
		pos[i] = None
	}
	// Iterative in-order walk: stack of (node, next dependent index).
	type frame struct{ h, k int32 }
	st := make([]frame, 0, 16)
	st = append(st, frame{0, 0})
	next := int32(0)
	for len(st) > 0 {
		f := &st[len(st)-1]
		deps := g.Deps[f.h]
		if int(f.k) < len(deps) && deps[f.k] < f.h {
			d := deps[f.k]
			f.k++
			st = append(st, frame{d, 0})
			continue
		}
		if pos[f.h] == None {
			pos[f.h] = next
			next++
		}
		if int(f.k) < len(deps) {
			d := deps[f.k]
			f.k++
			st = append(st, frame{d, 0})
			continue
		}
		st = st[:len(st)-1]
	}
	if int(next) != n+1 {
		return nil, fmt.Errorf("gold graph is not a tree rooted at 0 (%d of %d nodes reached)", next, n+1)
	}
	return pos, nil
}

// projectiveComponents returns, for every node, an id of its maximal
// projective component (Nivre, Kuhlmann & Hall 2009): the connected
// components of the arcs that the swap-free oracle (Nivre 2009 Fig. 4
// without SWAP: LEFT-ARC or RIGHT-ARC of a complete dependent, else SHIFT)
// builds from the initial state until the buffer is empty and no arc applies.
// Arcs built after the last SHIFT count: stopping at the last SHIFT would
// split components such as {3, 4} in 2 → 1 → 3 → 4 (2 the root word), whose
// arc 3 → 4 is only built once 4 is shifted, and cost the lazy oracle a
// swap (2 instead of 1 there). tmp is scratch state (reset here).
func (sw SwapSystem) projectiveComponents(tmp *State, g *Gold) []int32 {
	n := len(g.Head) - 1
	sys := SwapSystem{multiRoot: sw.multiRoot}
	sys.Init(tmp, n)
	for {
		if ns := len(tmp.Stack); ns >= 2 {
			i, j := tmp.Stack[ns-2], tmp.Stack[ns-1]
			if i != 0 && g.Head[i] == j && complete(tmp, g, i) {
				Step(sys, tmp, Transition{LeftArc, g.Label[i]})
				continue
			}
			if g.Head[j] == i && complete(tmp, g, j) && sys.Legal(tmp, RightArc) {
				Step(sys, tmp, Transition{RightArc, g.Label[j]})
				continue
			}
		}
		if len(tmp.Buffer) == 0 {
			break
		}
		Step(sys, tmp, Transition{Shift, None})
	}
	mpc := make([]int32, n+1)
	for x := range mpc {
		mpc[x] = tmp.find(int32(x))
	}
	return mpc
}
