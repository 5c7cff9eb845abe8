package transition

import (
	"fmt"
	"strconv"

	"github.com/transparse/transparse/parser/tree"
)

// MultiPlanar is the k-planar transition system of Gómez-Rodríguez & Nivre
// (2013) §5 (docs/transition-systems.md): the planar system S_P run on k
// stacks, one per plane. For k = 2 it is the 2-planar system S_2P of §5.1:
//
//	SHIFT      (σ1, σ2, i|B, A) ⇒ (σ1|i, σ2|i, B, A)   push onto every stack
//	REDUCE     (σ1|i, σ2, B, A) ⇒ (σ1, σ2, B, A)       pop the active stack
//	LEFT-ARC   (σ1|i, σ2, j|B, A) ⇒ (σ1|i, σ2, j|B, A ∪ {j → i})
//	RIGHT-ARC  (σ1|i, σ2, j|B, A) ⇒ (σ1|i, σ2, j|B, A ∪ {i → j})
//	SWITCH     (σ1, σ2, B, A) ⇒ (σ2, σ1, B, A)
//
// The active stack is State.Stack and the inactive ones are State.Stacks
// (k−1 of them, Stacks[0] the next to become active, so State.Q reads the
// inactive stack of the 2-planar system). For k > 2, SWITCH rotates: the
// active stack goes to the back of Stacks and Stacks[0] becomes active
// (§5, prose only).
//
// Preconditions, the forest variant S_2P-ShAc of the paper's experiments:
// LEFT-ARC needs a headless σ1 ≠ 0, RIGHT-ARC a headless β1, and both that
// σ1 and β1 are not yet connected (State.Connected). Termination (§5.1.3):
// no two SWITCHes in a row for k = 2 (State.Prev), and in general no more
// than k−1 consecutive SWITCHes (k in a row would restore the configuration).
// For k > 2 the length of the current run of SWITCHes is kept in
// State.Switches. Node 0 plays GN13's
// ROOT token 1: Init puts 0..n in the buffer; node 0 is never a dependent,
// is never reduced (so it stays at the bottom of every stack), and
// RIGHT-ARC from 0 is legal only while no word is attached to 0.
// NO-COVERED-ROOTS is not imposed: GN13 §5.1.2 shows that it cannot simply
// be added to the 2-planar system.
//
// Class: k-planar trees (tree.KPlanar) with one word on node 0. Length:
// at most n+1 SHIFTs, kn REDUCEs (each word once per stack) and n arcs,
// and every run of at most k−1 SWITCHes is followed by another transition
// (the last one is a SHIFT), so MaxTransitions is k((k+2)n+1): 8n+2 for
// k = 2, below GN13 Prop. 11's 8n'−1 for the n' = n+1 nodes here; 15n+3
// for k = 3.
//
// Oracles: the 2-planar system uses the static oracle of Gómez-Rodríguez &
// Nivre (2010) as implemented in MaltParser (TwoPlanarArcEagerOracle),
// which assigns planes lazily and reproduces GN13 Fig. 6. For k > 2 a plane assignment is computed up front
// (tree.Planes) and the GN13 Lemma 7 construction is generalised to k
// stacks. Both plan the whole derivation in Oracle.
//
// The zero value is the 2-planar system; NewMultiPlanar makes others.
type MultiPlanar struct{ k int }

// NewMultiPlanar returns the k-planar system for k in 2..127.
func NewMultiPlanar(k int) (MultiPlanar, error) {
	if k < 2 || k > 127 {
		return MultiPlanar{}, fmt.Errorf("transition: k-planar system needs k in 2..127, got %d", k)
	}
	return MultiPlanar{k: k}, nil
}

func init() {
	register("2-planar", func() System { return MultiPlanar{k: 2} })
	register("3-planar", func() System { return MultiPlanar{k: 3} })
}

// K returns the number of stacks (planes).
func (m MultiPlanar) K() int {
	if m.k < 2 {
		return 2
	}
	return m.k
}

// Name returns "2-planar", "3-planar", ... ("k-planar" for k stacks).
func (m MultiPlanar) Name() string {
	switch k := m.K(); k {
	case 2:
		return "2-planar"
	case 3:
		return "3-planar"
	default:
		return strconv.Itoa(k) + "-planar"
	}
}

// Moves returns SHIFT, REDUCE, LEFT-ARC, RIGHT-ARC, SWITCH.
func (MultiPlanar) Moves() []Move { return []Move{Shift, Reduce, LeftArc, RightArc, Switch} }

// Init makes the initial configuration: k empty stacks (State.Stack active,
// k−1 in State.Stacks) and the buffer [0..n].
func (m MultiPlanar) Init(s *State, n int) {
	k := m.K()
	for len(s.Stacks) < k-1 {
		s.Stacks = append(s.Stacks, nil)
	}
	s.Stacks = s.Stacks[:k-1]
	s.Reset(n)
	s.FillBuffer(0)
	if k > 2 {
		s.Switches = 0
	}
}

// Terminal: the buffer is empty.
func (MultiPlanar) Terminal(s *State) bool { return len(s.Buffer) == 0 }

// Legal implements System (S_2P-ShAc preconditions, the single-root rule,
// and the bound on consecutive SWITCHes).
func (m MultiPlanar) Legal(s *State, mv Move) bool {
	nb, ns := len(s.Buffer), len(s.Stack)
	switch mv {
	case Shift:
		return nb > 0
	case Reduce:
		return nb > 0 && ns > 0 && s.S(0) != 0
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
	case Switch:
		if nb == 0 {
			return false
		}
		if k := m.K(); k > 2 {
			return s.Prev != Switch || s.Switches < int32(k-1)
		}
		return s.Prev != Switch
	}
	return false
}

// Arc implements System: LEFT-ARC adds β1 → σ1, RIGHT-ARC σ1 → β1 (σ1 the
// top of the active stack).
func (MultiPlanar) Arc(s *State, m Move) (int32, int32) {
	switch m {
	case LeftArc:
		return s.B(0), s.S(0)
	case RightArc:
		return s.S(0), s.B(0)
	}
	return None, None
}

// Apply implements System.
func (m MultiPlanar) Apply(s *State, t Transition) {
	switch t.Move {
	case Shift:
		x := s.shiftOut()
		s.push(x)
		for i := range s.Stacks {
			s.Stacks[i] = append(s.Stacks[i], x)
		}
	case Reduce:
		s.pop()
	case LeftArc:
		s.AddArc(s.B(0), s.S(0), t.Label)
	case RightArc:
		s.AddArc(s.S(0), s.B(0), t.Label)
	case Switch:
		a := s.Stack
		s.Stack = s.Stacks[0]
		copy(s.Stacks, s.Stacks[1:])
		s.Stacks[len(s.Stacks)-1] = a
	}
	if m.K() > 2 {
		if t.Move == Switch && s.Prev == Switch {
			s.Switches++
		} else if t.Move == Switch {
			s.Switches = 1
		} else {
			s.Switches = 0
		}
	}
}

// Oracle plans the static-oracle derivation of g once: for k = 2 the
// MaltParser oracle (lazy planes), for k > 2 the Lemma 7 construction over
// the tree.Planes assignment. Its Next returns the planned transition
// number State.Steps (SHIFT past the end), so it is defined on the states
// of its own derivation. It returns an error if g is not derivable (not
// k-planar, or more than one word on node 0).
func (m MultiPlanar) Oracle(g *Gold) (TreeOracle, error) {
	var scratch State
	seq, err := m.sequence(&scratch, g)
	if err != nil {
		return nil, err
	}
	return planOracle(seq), nil
}

// planOracle replays a planned transition sequence, indexed by State.Steps.
type planOracle []Transition

func (p planOracle) Next(s *State) Transition {
	if s.Steps < len(p) {
		return p[s.Steps]
	}
	return Transition{Shift, None}
}

// sequence is the static-oracle derivation of g (see Oracle), using s as
// scratch space.
func (m MultiPlanar) sequence(s *State, g *Gold) ([]Transition, error) {
	if len(g.Deps[0]) > 1 {
		return nil, fmt.Errorf("transition: %s: %d words attached to node 0, want at most 1", m.Name(), len(g.Deps[0]))
	}
	if m.K() == 2 {
		return m.twoPlanarSequence(s, g, false)
	}
	plane, ok := tree.Planes(g.Head, m.K())
	if !ok {
		return nil, fmt.Errorf("transition: %s: tree is not %d-planar", m.Name(), m.K())
	}
	return m.planeSequence(s, g, plane)
}

// InClass reports whether g is k-planar (tree.KPlanar) with at most one
// word attached to node 0.
func (m MultiPlanar) InClass(g *Gold) bool {
	return len(g.Deps[0]) <= 1 && tree.KPlanar(g.Head, m.K())
}

// MaxTransitions is k((k+2)n+1): 8n+2 for 2-planar, 15n+3 for 3-planar.
func (m MultiPlanar) MaxTransitions(n int) int {
	k := m.K()
	return k * ((k+2)*n + 1)
}

// mpStep applies t to s after checking it, appending it to seq. lenient
// admits a second arc from node 0 (the single-root rule is the only
// precondition it waives; used for GN13 Fig. 6, whose ROOT has two
// dependents).
func (m MultiPlanar) mpStep(s *State, seq []Transition, t Transition, lenient bool) ([]Transition, error) {
	ok := m.Legal(s, t.Move)
	if !ok && lenient && t.Move == RightArc && len(s.Stack) > 0 && s.S(0) == 0 && len(s.Buffer) > 0 {
		j := s.B(0)
		ok = s.Head[j] == None && !s.Connected(0, j)
	}
	if !ok {
		return seq, fmt.Errorf("transition: %s: oracle transition %d (%v) is illegal (stack %v, buffer front %d); the tree is not %d-planar",
			m.Name(), len(seq), t, s.Stack, s.B(0), m.K())
	}
	if len(seq) >= m.MaxTransitions(s.N) {
		return seq, fmt.Errorf("transition: %s: oracle exceeds %d transitions", m.Name(), m.MaxTransitions(s.N))
	}
	Step(m, s, t)
	return append(seq, t), nil
}

// Plane constraints of the 2-planar oracle, per gold arc (named by its
// dependent): a plane 0/1, or one of these.
const (
	mpAnyPlane int8 = -1 // not yet constrained
	mpNoPlane  int8 = -2 // crosses arcs on both planes (not 2-planar)
)

// twoPlanarSequence is the 2-planar static oracle of Gómez-Rodríguez &
// Nivre (2010), MaltParser's TwoPlanarArcEagerOracle (docs/transition-systems.md,
// k-planar). Each gold arc has a plane constraint, initially any; building
// an arc on plane p fixes it to p and, through the crossings graph, every
// unconstrained arc crossing it to the other plane, recursively. An arc's
// plane decision is its constraint, or the active plane if unconstrained.
// With s the top of the active stack, s′ of the inactive one and b = β1:
//
//  1. LEFT-ARC if s ≠ 0 and h(s) = b, unbuilt (fix to the active plane);
//  2. RIGHT-ARC if h(b) = s, unbuilt (fix to the active plane);
//  3. SWITCH if h(s′) = b (s′ ≠ 0) or h(b) = s′, unbuilt;
//  4. REDUCE if b has an unbuilt gold arc with a node left of s whose plane
//     decision is the active plane;
//  5. SWITCH if b has an unbuilt gold arc with a node left of s′ whose plane
//     decision is the inactive plane;
//  6. SHIFT.
func (m MultiPlanar) twoPlanarSequence(s *State, g *Gold, lenient bool) ([]Transition, error) {
	n := len(g.Head) - 1
	m.Init(s, n)
	cross := mpCrossings(g.Head)
	con := make([]int8, n+1)
	for i := range con {
		con[i] = mpAnyPlane
	}
	var work []int32
	fix := func(d int32, p int8) {
		con[d] = p
		work = append(work[:0], d)
		for len(work) > 0 {
			x := work[len(work)-1]
			work = work[:len(work)-1]
			q := con[x]
			for _, e := range cross[x] {
				switch con[e] {
				case mpAnyPlane:
					con[e] = 1 - q
					work = append(work, e)
				case q:
					con[e] = mpNoPlane
				}
			}
		}
	}
	act := int8(0)
	// pending reports whether b has an unbuilt gold arc with a node x <
	// limit whose plane decision is p.
	pending := func(b, limit int32, p int8) bool {
		decide := func(d int32) int8 {
			if c := con[d]; c != mpAnyPlane {
				return c
			}
			return act
		}
		if h := g.Head[b]; h >= 0 && h < limit && s.Head[b] != h && decide(b) == p {
			return true
		}
		for _, d := range g.Deps[b] {
			if d >= limit {
				break
			}
			if s.Head[d] != b && decide(d) == p {
				return true
			}
		}
		return false
	}
	var seq []Transition
	var err error
	for len(s.Buffer) > 0 {
		b, top, other := s.B(0), s.S(0), s.Q(0)
		var t Transition
		switch {
		case top > 0 && g.Head[top] == b && s.Head[top] != b:
			t = Transition{LeftArc, g.Label[top]}
			fix(top, act)
		case top >= 0 && g.Head[b] == top && s.Head[b] != top:
			t = Transition{RightArc, g.Label[b]}
			fix(b, act)
		case other > 0 && g.Head[other] == b && s.Head[other] != b,
			other >= 0 && g.Head[b] == other && s.Head[b] != other:
			t = Transition{Switch, None}
		case top >= 0 && pending(b, top, act):
			t = Transition{Reduce, None}
		case other >= 0 && pending(b, other, 1-act):
			t = Transition{Switch, None}
		default:
			t = Transition{Shift, None}
		}
		if seq, err = m.mpStep(s, seq, t, lenient); err != nil {
			return nil, err
		}
		if t.Move == Switch {
			act = 1 - act
		}
	}
	return seq, nil
}

// mpCrossings returns the crossings graph of a head array (GN13 §4.1):
// cross[d] lists the dependents of the arcs that cross the arc into d.
func mpCrossings(head []int32) [][]int32 {
	n := len(head) - 1
	cross := make([][]int32, n+1)
	for d := 1; d <= n; d++ {
		if head[d] < 0 {
			continue
		}
		for e := d + 1; e <= n; e++ {
			if head[e] >= 0 && tree.Crosses(head[d], int32(d), head[e], int32(e)) {
				cross[d] = append(cross[d], int32(e))
				cross[e] = append(cross[e], int32(d))
			}
		}
	}
	return cross
}

// planeSequence builds the derivation of g for a given plane assignment
// (plane[d] is the plane of the arc into d): the GN13 Lemma 7 construction
// generalised to k stacks (docs/transition-systems.md, k-planar). For each node j
// in turn, the planes that have arcs between j and nodes to its left are
// visited in cyclic order starting from the active one (SWITCHing to each,
// so a run of SWITCHes never reaches k and none needs cancelling); on each,
// the stack is reduced down to the rightmost left endpoint, the arc built,
// and so on leftwards (Lemma 5); then j is shifted.
func (m MultiPlanar) planeSequence(s *State, g *Gold, plane []int8) ([]Transition, error) {
	k := int8(m.K())
	n := len(g.Head) - 1
	m.Init(s, n)
	act := int8(0)
	type end struct {
		x int32 // left endpoint
		p int8  // plane of the arc between x and j
	}
	var ends []end
	var seq []Transition
	var err error
	for j := int32(0); j <= int32(n); j++ {
		// Left endpoints of j's arcs, rightmost first.
		ends = ends[:0]
		h := g.Head[j]
		if h > j {
			h = None
		}
		deps := g.Deps[j]
		for i := len(deps) - 1; i >= 0; i-- {
			d := deps[i]
			if d > j {
				continue
			}
			if h > d {
				ends = append(ends, end{h, plane[j]})
				h = None
			}
			ends = append(ends, end{d, plane[d]})
		}
		if h >= 0 {
			ends = append(ends, end{h, plane[j]})
		}
		start := act
		for off := int8(0); off < k; off++ {
			p := (start + off) % k
			for _, e := range ends {
				if e.p != p {
					continue
				}
				for act != p {
					if seq, err = m.mpStep(s, seq, Transition{Switch, None}, false); err != nil {
						return nil, err
					}
					act = (act + 1) % k
				}
				for len(s.Stack) > 0 && s.S(0) > e.x {
					if seq, err = m.mpStep(s, seq, Transition{Reduce, None}, false); err != nil {
						return nil, err
					}
				}
				t := Transition{RightArc, g.Label[j]}
				if g.Head[e.x] == j {
					t = Transition{LeftArc, g.Label[e.x]}
				}
				if s.S(0) != e.x {
					return nil, fmt.Errorf("transition: %s: node %d is not on the stack of plane %d when %d is at the buffer front", m.Name(), e.x, p, j)
				}
				if seq, err = m.mpStep(s, seq, t, false); err != nil {
					return nil, err
				}
			}
		}
		if seq, err = m.mpStep(s, seq, Transition{Shift, None}, false); err != nil {
			return nil, err
		}
	}
	return seq, nil
}
