package transition

import (
	"fmt"

	"github.com/transparse/transparse/parser/tree"
)

// TwoRegisters is the two-registers system of Pitler & McDonald (2015) §4,
// Table 2 (docs/transition-systems.md): arc-eager extended with two registers
// R1, R2 that hold the two vertices incident to every crossed arc of a
// crossing interval. It derives 2-Crossing-Interval trees (PM15 §3, Def. 3;
// tree.KCrossingInterval with k = 2) in at most MaxTransitions(n) steps.
//
// A configuration is (σ, β, R1, R2, A): State.Stack, State.Buffer (stored
// reversed, front at the end; it is always the contiguous range β1..n),
// State.Reg[0] = R1, State.Reg[1] = R2 (None = null) and State.Last, the
// paper's "last" bookkeeping vertex. Initial ([], [0..n], null, null, ∅):
// node 0 starts in the buffer and the stack is empty. Terminal: the buffer
// is empty and both registers are null; the stack may hold anything.
//
// Transitions (labeled ones take the deprel of the arc they add):
//
//	LEFT-ARC      adds β1 → σ1, pops σ1
//	RIGHT-ARC     adds σ1 → β1, pushes β1
//	SHIFT         pushes β1
//	REDUCE        pops σ1
//	STORE         moves β1 into the first empty register (Store(no-arc))
//	STORE-LEFT    the same into R2, adding β1 → R1 (Store(left))
//	STORE-RIGHT   the same into R2, adding R1 → β1 (Store(right))
//	CLEAR         γ := σ1 if σ1 = β1−1, else R2 if R2 = β1−1, else null
//	              (β1 = n+1 when the buffer is empty; an empty
//	              stack has no σ1);
//	              ψ := ({σ1} ∪ NotCovered(R1) ∪ NotCovered(R2)) − {γ};
//	              pops σ1, pushes ψ in order, puts γ back at the buffer
//	              front, empties the registers; Last := max(γ ∪ ψ), or
//	              max(R1, R2) when both are empty
//	REGISTER-STACK-k-TO-REGISTER  adds σ1 → Rk
//	REGISTER-STACK-k-TO-STACK     adds Rk → σ1, pops σ1 iff σ1 < Rk
//
// Preconditions: every arc h → m needs m ≠ 0, m headless and h, m
// not yet connected (State.Connected; with single heads this is exactly
// "h is not a descendant of m"). REDUCE needs σ1 to have a head. The class
// preconditions are those of PM15 Table 4, read so (a missing σ2
// satisfies "σ2 < x", a comparison with a null register is vacuous, Store
// with an arc needs R1 ≠ null, the initial Last is None = −1). IsCovered is
// kept in O(1) as PM15 fn. 2 says: R1 can only be covered by an arc of R2
// reaching left of R1, and R2 by an arc of R1 reaching right of R2, so
// covered(R1) ⇔ R2's head or leftmost dependent lies left of R1 (and
// symmetrically for R2).
//
// Type-(3) preconditions. With Literal false ("two-registers", the default)
// they are the corrected ones (docs/transition-systems.md, "Two-registers:
// corrected type-(3) preconditions"), which state the paper's intent
// (only registers have children on the far side of their parent) directly:
// REGISTER-STACK-k-TO-REGISTER (σ1 → Rk) is illegal if σ1's head lies
// strictly between σ1 and Rk, and REGISTER-STACK-k-TO-STACK (Rk → σ1) is
// illegal if σ1 has a dependent m with Rk strictly between σ1 and m. With
// Literal true ("two-registers-literal") they are Table 4 as printed:
// (Rclose, σ1) ∉ A and (σ1, Rfar) ∉ A. The literal reading is unsound and
// incomplete (it derives the non-2-CI tree X1 and cannot derive X2);
// it is kept to show the defect. The corrected reading is sound: by
// exhaustive search, every complete tree it derives for n ≤ 7 is 2-CI, and
// its forests satisfy Def. 3 on their crossed arcs (a far-side arc under a
// headless parent is uncrossed, so attaching headless words to 0 may leave
// the class). It misses a few 2-CI trees that no register choice can
// derive: X3 and X4 at n = 6, 44 of 31,454 single-root 2-CI trees at n = 7.
//
// Single root: an arc from node 0 is legal only while no word is attached
// to 0. Dead ends: the paper's rules block some configurations with an
// empty buffer and loaded registers, where σ1 is headless, no register may
// take it and it stops CLEAR (σ2 < R1 or σ1 ∉ (R1, R2) fails); at n = 6
// there are 43,795 such configurations. There, and only there, REDUCE of
// the headless σ1 is legal (σ1 is never 0 there: with σ = [0] or [] CLEAR
// is legal). The word stays headless for good (the parser attaches it
// afterwards) and no arc is added, so the set of complete trees the system
// derives is unchanged. Every non-terminal configuration then has a legal
// move: with a non-empty buffer SHIFT always is.
//
// The static oracle (our reconstruction of PM15 §5.2, which reproduces
// Table 3; docs/transition-systems.md, "Two-registers: static oracle")
// needs a register pair per crossing interval; Oracle tries the pairs in
// order and retries the next pair of the failing interval. InClass is "the tree is 2-CI and
// the oracle derives it", so that training only uses derivable trees.
type TwoRegisters struct {
	// Literal selects the type-(3) preconditions exactly as printed in
	// PM15 Table 4 instead of the corrected ones.
	Literal bool
	// multiRoot drops the single-root rule (node 0 may take any number of
	// dependents, as in the paper); the exhaustive counts of docs/transition-systems.md are
	// over all such trees.
	multiRoot bool
}

func init() {
	register("two-registers", func() System { return TwoRegisters{} })
	register("two-registers-literal", func() System { return TwoRegisters{Literal: true} })
}

// Name returns "two-registers", or "two-registers-literal" for the literal
// Table 4 preconditions.
func (t TwoRegisters) Name() string {
	if t.Literal {
		return "two-registers-literal"
	}
	return "two-registers"
}

// Moves returns the arc-eager moves, the three Stores, CLEAR and the four
// Register-Stack moves.
func (t TwoRegisters) Moves() []Move {
	return []Move{Shift, Reduce, LeftArc, RightArc, Store, StoreLeft, StoreRight, Clear,
		RegToReg1, RegToStack1, RegToReg2, RegToStack2}
}

// Init makes ([], [0..n], null, null, ∅) with Last = None.
func (t TwoRegisters) Init(s *State, n int) {
	s.Reset(n)
	s.FillBuffer(0)
}

// Terminal: the buffer is empty and both registers are null.
func (t TwoRegisters) Terminal(s *State) bool {
	return len(s.Buffer) == 0 && s.Reg[0] == None && s.Reg[1] == None
}

// trBetween reports whether x lies strictly between a and b (either order);
// None never does, and nothing lies between a and None.
func trBetween(x, a, b int32) bool {
	if x == None || a == None || b == None {
		return false
	}
	if a > b {
		a, b = b, a
	}
	return a < x && x < b
}

// arcOK: the standard preconditions for adding h → d (PM15 §4) and the
// single-root rule.
func (t TwoRegisters) arcOK(s *State, h, d int32) bool {
	return h != None && d > 0 && s.Head[d] == None && !s.Connected(h, d) &&
		(h != 0 || s.Roots == 0 || t.multiRoot)
}

// trCovered reports IsCovered(R_{k+1}) in O(1) (PM15 fn. 2): R1 is covered
// iff R2 has its head or a dependent left of R1, R2 iff R1 has its head or
// a dependent right of R2.
func trCovered(s *State, k int) bool {
	r1, r2 := s.Reg[0], s.Reg[1]
	if r1 == None || r2 == None {
		return false
	}
	if k == 0 {
		h, l := s.Head[r2], s.Left1[r2]
		return (h != None && h < r1) || (l != None && l < r1)
	}
	h, r := s.Head[r1], s.Right1[r1]
	return (h != None && h > r2) || (r != None && r > r2)
}

// Legal implements System: the preconditions of PM15 §4 (Table 4, with the
// corrected or literal type-(3) rows), the single-root rule, and the
// dead-end REDUCE described on the type.
func (t TwoRegisters) Legal(s *State, m Move) bool {
	if t.legal(s, m) {
		return true
	}
	return m == Reduce && t.stuck(s)
}

// stuck reports whether s is a dead end of the paper's rules with a
// headless σ1 ≠ 0 on top: buffer empty, a register loaded, and neither
// CLEAR nor any Register-Stack move legal.
func (t TwoRegisters) stuck(s *State) bool {
	if len(s.Buffer) > 0 || s.Reg[0] == None || len(s.Stack) == 0 {
		return false
	}
	if x := s.S(0); x == 0 || s.Head[x] != None {
		return false
	}
	for _, m := range [...]Move{Clear, RegToReg1, RegToStack1, RegToReg2, RegToStack2} {
		if t.legal(s, m) {
			return false
		}
	}
	return true
}

func (t TwoRegisters) legal(s *State, m Move) bool {
	ns, nb := len(s.Stack), len(s.Buffer)
	r1, r2 := s.Reg[0], s.Reg[1]
	switch m {
	case Shift:
		return nb > 0
	case Reduce:
		return ns > 0 && s.Head[s.Stack[ns-1]] != None
	case LeftArc, RightArc:
		if nb == 0 || ns == 0 {
			return false
		}
		i, j := s.Stack[ns-1], s.Buffer[nb-1]
		// (2): no register strictly between σ1 and β1.
		if trBetween(r1, i, j) || trBetween(r2, i, j) {
			return false
		}
		if m == LeftArc {
			return t.arcOK(s, j, i)
		}
		return t.arcOK(s, i, j)
	case Store, StoreLeft, StoreRight:
		// (1): a free register and β1 > last.
		if nb == 0 || (r1 != None && r2 != None) || s.Buffer[nb-1] <= s.Last {
			return false
		}
		j := s.Buffer[nb-1]
		switch m {
		case StoreLeft:
			return r1 != None && t.arcOK(s, j, r1)
		case StoreRight:
			return r1 != None && t.arcOK(s, r1, j)
		}
		return true
	case Clear:
		// (1): R1 ≠ null ∧ (R2 ≠ null ∨ β1 = null) ∧ σ2 < R1 ∧ σ1 ∉ (R1, R2).
		if r1 == None || (r2 == None && nb > 0) {
			return false
		}
		if ns >= 2 && s.Stack[ns-2] >= r1 {
			return false
		}
		return ns == 0 || !trBetween(s.Stack[ns-1], r1, r2)
	case RegToReg1, RegToStack1, RegToReg2, RegToStack2:
		k := 0
		if m == RegToReg2 || m == RegToStack2 {
			k = 1
		}
		rk := s.Reg[k]
		if rk == None || ns == 0 {
			return false
		}
		x := s.Stack[ns-1]
		// (1): σ1 > last ∨ (k = 1 ∧ ¬IsCovered(R1)).
		if x <= s.Last && (k != 0 || trCovered(s, 0)) {
			return false
		}
		// (2): σ2 < Rright.
		rright := r1
		if r2 != None {
			rright = r2
		}
		if ns >= 2 && s.Stack[ns-2] >= rright {
			return false
		}
		toReg := m == RegToReg1 || m == RegToReg2
		if toReg {
			if !t.arcOK(s, x, rk) {
				return false
			}
		} else if !t.arcOK(s, rk, x) {
			return false
		}
		// (3)
		if t.Literal {
			close, far := r2, r1
			if x < r1 {
				close, far = r1, r2
			}
			if toReg {
				return close == None || s.Head[x] != close
			}
			return far == None || s.Head[far] != x
		}
		if toReg {
			return !trBetween(s.Head[x], x, rk)
		}
		if rk > x {
			return s.Right1[x] == None || s.Right1[x] < rk
		}
		return s.Left1[x] == None || s.Left1[x] > rk
	}
	return false
}

// Arc implements System.
func (t TwoRegisters) Arc(s *State, m Move) (int32, int32) {
	switch m {
	case LeftArc:
		return s.B(0), s.S(0)
	case RightArc:
		return s.S(0), s.B(0)
	case StoreLeft:
		return s.B(0), s.Reg[0]
	case StoreRight:
		return s.Reg[0], s.B(0)
	case RegToReg1:
		return s.S(0), s.Reg[0]
	case RegToStack1:
		return s.Reg[0], s.S(0)
	case RegToReg2:
		return s.S(0), s.Reg[1]
	case RegToStack2:
		return s.Reg[1], s.S(0)
	}
	return None, None
}

// Apply implements System.
func (t TwoRegisters) Apply(s *State, tr Transition) {
	switch tr.Move {
	case Shift:
		s.push(s.shiftOut())
	case Reduce:
		s.pop()
	case LeftArc:
		s.AddArc(s.B(0), s.pop(), tr.Label)
	case RightArc:
		j := s.shiftOut()
		s.AddArc(s.S(0), j, tr.Label)
		s.push(j)
	case Store, StoreLeft, StoreRight:
		j := s.shiftOut()
		if s.Reg[0] == None {
			s.Reg[0] = j
			break
		}
		s.Reg[1] = j
		switch tr.Move {
		case StoreLeft:
			s.AddArc(j, s.Reg[0], tr.Label)
		case StoreRight:
			s.AddArc(s.Reg[0], j, tr.Label)
		}
	case Clear:
		trClear(s)
	case RegToReg1, RegToReg2:
		k := 0
		if tr.Move == RegToReg2 {
			k = 1
		}
		s.AddArc(s.S(0), s.Reg[k], tr.Label)
	case RegToStack1, RegToStack2:
		k := 0
		if tr.Move == RegToStack2 {
			k = 1
		}
		x := s.S(0)
		s.AddArc(s.Reg[k], x, tr.Label)
		if x < s.Reg[k] {
			s.pop()
		}
	}
}

// trClear performs CLEAR (PM15 Table 2; with the buffer empty, β1 is taken as n+1).
func trClear(s *State) {
	r1, r2 := s.Reg[0], s.Reg[1]
	b1 := int32(s.N + 1)
	if len(s.Buffer) > 0 {
		b1 = s.B(0)
	}
	cov1, cov2 := trCovered(s, 0), trCovered(s, 1)
	x := int32(None)
	if len(s.Stack) > 0 {
		x = s.pop()
	}
	gamma := int32(None)
	if x != None && x == b1-1 {
		gamma = x
	} else if r2 != None && r2 == b1-1 {
		gamma = r2
	}
	// ψ in left-to-right order: at most three vertices.
	var psi [3]int32
	np := 0
	for i, v := range [3]int32{x, r1, r2} {
		if v == None || v == gamma || (i == 1 && cov1) || (i == 2 && cov2) {
			continue
		}
		k := np
		for k > 0 && psi[k-1] > v {
			psi[k] = psi[k-1]
			k--
		}
		psi[k] = v
		np++
	}
	last := gamma
	for _, v := range psi[:np] {
		s.push(v)
		if v > last {
			last = v
		}
	}
	if gamma != None {
		s.Buffer = append(s.Buffer, gamma)
	}
	if last == None {
		last = max(r1, r2)
	}
	s.Last = last
	s.Reg = [2]int32{None, None}
}

// MaxTransitions is the bound of PM15 §6, 5n (2 for the empty sentence,
// where node 0 can be stored and cleared). The paper counts the n words;
// here node 0 also passes through the buffer, so we recount over the n+1
// nodes: at most n arcs; Shift + Right-Arc + Store ≤ n + 1 + G, where G
// counts the CLEARs that put γ back in the buffer; stack pops ≤ pushes,
// and a CLEAR pushes at most its registers that are neither covered nor γ;
// each CLEAR empties registers that were stored, and only one CLEAR can
// have R2 = null (it needs an empty buffer, and afterwards nothing can be
// stored), so #CLEAR ≤ (n+2)/2. Summing, a derivation has at most
// 2(n+1) + #Register-Stack + 2·#CLEAR ≤ 4n + 4 transitions, which is ≤ 5n
// for n ≥ 4; for n ≤ 3 exhaustive search gives the maxima 5, 8 and 12.
// (Exhaustive search gives the maxima 5, 8, 12, 16, 19, 23 for n = 1..6.)
func (t TwoRegisters) MaxTransitions(n int) int { return max(5*n, 2) }

// trPlan is the oracle's preprocessing of a gold tree
// (docs/transition-systems.md, "Two-registers: static oracle"): the
// crossing intervals, their valid register pairs in preference order
// (smallest b, then largest a), the chosen pair of each interval, and per
// node the interval whose chosen a it is.
type trPlan struct {
	ivs    []tree.Interval
	pairs  [][][2]int32
	choice []int   // index into pairs[i]; len(pairs[i]) when exhausted
	ofA    []int32 // ofA[x]: interval whose chosen a is x, or None
	in2CI  bool    // every interval has a pair
}

// newTRPlan computes the intervals and pairs of the tree head and chooses
// the first pair of every interval.
func newTRPlan(head []int32) *trPlan {
	p := &trPlan{ivs: tree.CrossingIntervals(head), in2CI: true}
	p.pairs = make([][][2]int32, len(p.ivs))
	p.choice = make([]int, len(p.ivs))
	p.ofA = make([]int32, len(head))
	for i, iv := range p.ivs {
		p.pairs[i] = tree.TwoCrossingPairs(head, iv)
		if len(p.pairs[i]) == 0 {
			p.in2CI = false
		}
	}
	p.index()
	return p
}

// index recomputes ofA from the choices.
func (p *trPlan) index() {
	for i := range p.ofA {
		p.ofA[i] = None
	}
	for i := range p.ivs {
		if c := p.choice[i]; c < len(p.pairs[i]) {
			p.ofA[p.pairs[i][c][0]] = int32(i)
		}
	}
}

// pair returns the chosen (a, b) of interval i, or (None, None).
func (p *trPlan) pair(i int32) (int32, int32) {
	if c := p.choice[i]; c < len(p.pairs[i]) {
		return p.pairs[i][c][0], p.pairs[i][c][1]
	}
	return None, None
}

// Oracle plans the static oracle of g once: the crossing intervals of g
// and a register pair for each, trying the pairs in preference order and
// retrying the next pair of the interval that failed (the one in the
// registers when the rule oracle got stuck, or the one holding the first
// wrong arc). Its Next is the rule oracle (rules A–D) under that plan. It
// returns an error when g is not 2-Crossing-Interval or no tried choice
// derives it.
func (t TwoRegisters) Oracle(g *Gold) (TreeOracle, error) {
	p := newTRPlan(g.Head)
	if !p.in2CI {
		return nil, fmt.Errorf("transition: %s: tree is not 2-Crossing-Interval", t.Name())
	}
	var s State
	for {
		blame, err := t.runPlan(&s, g, p)
		if err == nil {
			return trOracle{t, g, p}, nil
		}
		if blame == None {
			return nil, err
		}
		p.choice[blame]++
		if p.choice[blame] >= len(p.pairs[blame]) {
			return nil, fmt.Errorf("%w (no register pair of interval [%d, %d] works)", err, p.ivs[blame].L, p.ivs[blame].R)
		}
		p.index()
	}
}

// trOracle is the rule oracle of one gold tree under its register plan.
type trOracle struct {
	t TwoRegisters
	g *Gold
	p *trPlan
}

func (o trOracle) Next(s *State) Transition { return o.t.oracle(s, o.g, o.p) }

// trUnbuilt reports whether x still lacks its gold head or a gold dependent.
func trUnbuilt(s *State, g *Gold, x int32) bool {
	if x > 0 && s.Head[x] == None && g.Head[x] >= 0 {
		return true
	}
	for _, d := range g.Deps[x] {
		if s.Head[d] == None {
			return true
		}
	}
	return false
}

// trBelowTop reports whether y is on the stack below σ1. The stack is
// always in increasing word order (PM15 Lemma 1), so it is a binary search.
func trBelowTop(s *State, y int32) bool {
	lo, hi := 0, len(s.Stack)-1 // search Stack[0:len-1]
	for lo < hi {
		mid := (lo + hi) / 2
		switch v := s.Stack[mid]; {
		case v == y:
			return true
		case v < y:
			lo = mid + 1
		default:
			hi = mid
		}
	}
	return false
}

// ae is the arc-eager step of the oracle: LEFT-ARC or RIGHT-ARC for a gold arc,
// REDUCE when σ1 is done or β1 needs a node deeper in the stack, else SHIFT.
func (t TwoRegisters) ae(s *State, g *Gold) Transition {
	i, j := s.S(0), s.B(0)
	if j == None {
		return Transition{Reduce, None}
	}
	if i != None {
		if g.Head[i] == j && t.Legal(s, LeftArc) {
			return Transition{LeftArc, g.Label[i]}
		}
		if g.Head[j] == i && t.Legal(s, RightArc) {
			return Transition{RightArc, g.Label[j]}
		}
		if t.legal(s, Reduce) {
			if !trUnbuilt(s, g, i) {
				return Transition{Reduce, None}
			}
			if h := g.Head[j]; h >= 0 && s.Head[j] == None && trBelowTop(s, h) {
				return Transition{Reduce, None}
			}
			for _, d := range g.Deps[j] {
				if s.Head[d] == None && trBelowTop(s, d) {
					return Transition{Reduce, None}
				}
			}
		}
	}
	return Transition{Shift, None}
}

// oracle is the rule-based oracle (rules A–D of docs/transition-systems.md)
// under plan p.
func (t TwoRegisters) oracle(s *State, g *Gold, p *trPlan) Transition {
	r1, r2 := s.Reg[0], s.Reg[1]
	s1, b1 := s.S(0), s.B(0)
	// [A] registers empty: store the chosen a of an interval, else arc-eager.
	if r1 == None {
		if b1 != None && p.ofA[b1] != None && t.legal(s, Store) {
			return Transition{Store, None}
		}
		return t.ae(s, g)
	}
	l, r, a, b := r1, r1, r1, r2
	if iv := p.ofA[r1]; iv != None {
		l, r = p.ivs[iv].L, p.ivs[iv].R
		a, b = p.pair(iv)
	}
	if r2 == None && b1 != None && b != None {
		if b1 < b {
			// [B] building M: arcs between a and M tokens as early as
			// possible.
			if s1 != None && s1 > a {
				if g.Head[a] == s1 && s.Head[a] == None && t.legal(s, RegToReg1) {
					return Transition{RegToReg1, g.Label[a]}
				}
				if g.Head[s1] == a && s.Head[s1] == None && t.legal(s, RegToStack1) {
					return Transition{RegToStack1, g.Label[s1]}
				}
			}
			return t.ae(s, g)
		}
		if b1 == b {
			// [C] store b, with the a–b arc if it is gold.
			switch {
			case g.Head[a] == b:
				return Transition{StoreLeft, g.Label[a]}
			case g.Head[b] == a:
				return Transition{StoreRight, g.Label[b]}
			}
			return Transition{Store, None}
		}
	}
	// [D] registers in use.
	if s1 != None {
		// D1: to-register before to-stack (to-stack may pop σ1); R2 first.
		for k := 1; k >= 0; k-- {
			if rk := s.Reg[k]; rk != None && g.Head[rk] == s1 && s.Head[rk] == None {
				if m := trRegToReg(k); t.legal(s, m) {
					return Transition{m, g.Label[rk]}
				}
			}
		}
		for k := 1; k >= 0; k-- {
			if rk := s.Reg[k]; rk != None && g.Head[s1] == rk && s.Head[s1] == None {
				if m := trRegToStack(k); t.legal(s, m) {
					return Transition{m, g.Label[s1]}
				}
			}
		}
	}
	// D2: nothing pending and the interval is behind us: CLEAR.
	if !t.pending(s, g, l, r, a) && (b1 == None || b1 > r) {
		if t.legal(s, Clear) {
			return Transition{Clear, None}
		}
		if t.legal(s, Reduce) {
			return Transition{Reduce, None}
		}
	}
	// D3
	if s1 != None && t.legal(s, Reduce) && !trUnbuilt(s, g, s1) {
		return Transition{Reduce, None}
	}
	// D4: β1 needs a register: clear the stack right of the registers,
	// then shift it.
	if b1 != None && b1 <= r && trRegArc(s, g, b1) {
		if mx := max(r1, r2); s1 != None && s1 > mx {
			if g.Head[s1] == b1 && t.legal(s, LeftArc) {
				return Transition{LeftArc, g.Label[s1]}
			}
			if t.legal(s, Reduce) {
				return Transition{Reduce, None}
			}
		}
		return Transition{Shift, None}
	}
	// D5
	return t.ae(s, g)
}

func trRegToReg(k int) Move {
	if k == 0 {
		return RegToReg1
	}
	return RegToReg2
}

func trRegToStack(k int) Move {
	if k == 0 {
		return RegToStack1
	}
	return RegToStack2
}

// pending reports whether a register has an unbuilt gold arc whose other end
// y is in [l, r], or y < l for the register a (rule D2).
func (t TwoRegisters) pending(s *State, g *Gold, l, r, a int32) bool {
	for _, rk := range s.Reg {
		if rk == None {
			continue
		}
		near := func(y int32) bool { return (l <= y && y <= r) || (y < l && rk == a) }
		if h := g.Head[rk]; h >= 0 && s.Head[rk] == None && near(h) {
			return true
		}
		for _, d := range g.Deps[rk] {
			if s.Head[d] == None && near(d) {
				return true
			}
		}
	}
	return false
}

// trRegArc reports whether x has an unbuilt gold arc with a register.
func trRegArc(s *State, g *Gold, x int32) bool {
	for _, rk := range s.Reg {
		if rk == None {
			continue
		}
		if (g.Head[x] == rk && s.Head[x] == None) || (g.Head[rk] == x && s.Head[rk] == None) {
			return true
		}
	}
	return false
}

// runPlan runs the oracle under p from the initial state. On failure it
// returns the interval to blame (None if unknown).
func (t TwoRegisters) runPlan(s *State, g *Gold, p *trPlan) (int32, error) {
	n := len(g.Head) - 1
	t.Init(s, n)
	bound := t.MaxTransitions(n)
	for !t.Terminal(s) {
		tr := t.oracle(s, g, p)
		if !t.Legal(s, tr.Move) || s.Steps >= bound {
			blame := int32(None)
			if r1 := s.Reg[0]; r1 != None {
				blame = p.ofA[r1]
			}
			return blame, fmt.Errorf("transition: %s: oracle stuck at step %d (%v)", t.Name(), s.Steps, tr)
		}
		Step(t, s, tr)
	}
	for d := 1; d <= n; d++ {
		if s.Head[d] == g.Head[d] && s.Label[d] == g.Label[d] {
			continue
		}
		blame := int32(None)
		h := g.Head[d]
		for i, iv := range p.ivs {
			if (iv.L <= h && h <= iv.R) || (iv.L <= int32(d) && int32(d) <= iv.R) {
				blame = int32(i)
				break
			}
		}
		return blame, fmt.Errorf("transition: %s: derivation misses the arc %d → %d", t.Name(), h, d)
	}
	return None, nil
}

// InClass reports whether the system derives g: g is 2-Crossing-Interval
// (PM15 Def. 3) and the oracle with register-pair retry (Oracle) builds
// it. This is stricter than 2-CI: a few 2-CI trees (X3, X4 of docs/transition-systems.md) are
// derivable by no register choice, and under the literal preconditions
// more fail. Training on InClass trees only uses derivable trees.
func (t TwoRegisters) InClass(g *Gold) bool {
	if !tree.KCrossingInterval(g.Head, 2) {
		return false
	}
	_, err := t.Oracle(g)
	return err == nil
}
