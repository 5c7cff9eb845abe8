package transition

import (
	"fmt"
	"sort"
	"strings"
)

// Move is a kind of transition; arc moves take a label argument.
type Move uint8

// The moves of the systems in this package. Each system uses a subset.
const (
	Shift       Move = iota
	Reduce           // pop the stack (arc-eager, planar, two-registers)
	LeftArc          // labeled
	RightArc         // labeled
	NoArc            // Covington: move λ1's head to λ2
	Swap             // Nivre 2009: move stack[1] back to the buffer front
	Switch           // 2-planar / k-planar: make the next stack active
	Store            // two-registers Store(no-arc)
	StoreLeft        // two-registers Store(left), labeled: β1 → R1
	StoreRight       // two-registers Store(right), labeled: R1 → β1
	Clear            // two-registers Clear
	RegToReg1        // two-registers Register-Stack(1, to-register), labeled: σ1 → R1
	RegToStack1      // two-registers Register-Stack(1, to-stack), labeled: R1 → σ1
	RegToReg2        // two-registers Register-Stack(2, to-register), labeled: σ1 → R2
	RegToStack2      // two-registers Register-Stack(2, to-stack), labeled: R2 → σ1
	NumMoves         // number of moves; not a move
)

var moveNames = [...]string{Shift: "SHIFT", Reduce: "REDUCE", LeftArc: "LEFT-ARC", RightArc: "RIGHT-ARC",
	NoArc: "NO-ARC", Swap: "SWAP", Switch: "SWITCH", Store: "STORE", StoreLeft: "STORE-LEFT", StoreRight: "STORE-RIGHT",
	Clear: "CLEAR", RegToReg1: "REGISTER-STACK-1-TO-REGISTER", RegToStack1: "REGISTER-STACK-1-TO-STACK",
	RegToReg2: "REGISTER-STACK-2-TO-REGISTER", RegToStack2: "REGISTER-STACK-2-TO-STACK"}

func (m Move) String() string {
	if int(m) < len(moveNames) {
		return moveNames[m]
	}
	return fmt.Sprintf("Move(%d)", m)
}

// Labeled reports whether the move builds an arc and so takes a label.
func (m Move) Labeled() bool {
	switch m {
	case LeftArc, RightArc, StoreLeft, StoreRight, RegToReg1, RegToStack1, RegToReg2, RegToStack2:
		return true
	}
	return false
}

// Transition is a move with its label (None for unlabeled moves).
type Transition struct {
	Move  Move
	Label int32
}

func (t Transition) String() string {
	if t.Move.Labeled() {
		return fmt.Sprintf("%v:%d", t.Move, t.Label)
	}
	return t.Move.String()
}

// Gold is a gold-standard tree over nodes 0..N given to oracles.
type Gold struct {
	Head  []int32 // Head[d] for d in 1..N; Head[0] = None
	Label []int32 // Label[d]
	// Deps[h] lists the dependents of h in increasing order.
	Deps [][]int32
}

// NewGold builds a Gold from heads and labels indexed 1..n (index 0 ignored).
func NewGold(head, label []int32) *Gold {
	n := len(head) - 1
	g := &Gold{Head: head, Label: label, Deps: make([][]int32, n+1)}
	for d := 1; d <= n; d++ {
		if h := head[d]; h >= 0 {
			g.Deps[h] = append(g.Deps[h], int32(d))
		}
	}
	return g
}

// System is a transition system: an initial state for n words, the legal
// moves of a state, applying a transition, the terminal test, and a static
// oracle that turns a gold tree into a transition sequence.
//
// Legal is label-independent; the arc a labeled move would build is given by
// Arc, so callers can restrict labels (for example, only the root label on
// arcs from node 0).
type System interface {
	// Name is the system's name in the literature, e.g. "arc-eager".
	Name() string
	// Moves lists the moves the system uses, in a fixed order.
	Moves() []Move
	// Init makes s the initial configuration for n words.
	Init(s *State, n int)
	// Terminal reports whether s is a terminal configuration.
	Terminal(s *State) bool
	// Legal reports whether move m can be applied to s. Systems in this
	// package restrict arcs from node 0 so that every terminal
	// configuration holds a tree with exactly one word attached to 0.
	Legal(s *State, m Move) bool
	// Arc returns the head and dependent of the arc that the labeled move m
	// would add in s.
	Arc(s *State, m Move) (head, dep int32)
	// Apply performs t on s; t must be legal.
	Apply(s *State, t Transition)
	// Oracle returns the static-oracle transition for s and gold tree g.
	Oracle(s *State, g *Gold) Transition
	// InClass reports whether the system derives the gold tree g (for
	// arc-standard, arc-eager and arc-hybrid: whether g is projective).
	InClass(g *Gold) bool
	// MaxTransitions is the paper's bound on the length of any transition
	// sequence for n words (2n for the linear stack systems, n(n+3)/2 for
	// Covington, ...). Parsers stop a derivation that reaches it.
	MaxTransitions(n int) int
}

// Sequencer is implemented by systems whose static oracle plans the whole
// derivation from the tree at once (a plane assignment, a choice of register
// pairs with retry) rather than one state at a time. Sequence returns the
// gold transitions for g from the initial state, or an error when the tree
// cannot be derived. Derive uses it in preference to Oracle.
type Sequencer interface {
	Sequence(s *State, g *Gold) ([]Transition, error)
}

// DynamicOracle is implemented by systems with an arc-decomposable dynamic
// oracle (Goldberg & Nivre 2012, 2013): the number of gold arcs that a
// transition makes unreachable, counting a correct arc with a wrong label as
// lost.
type DynamicOracle interface {
	Cost(s *State, t Transition, g *Gold) int
}

var registry = map[string]func() System{}

func register(name string, f func() System) { registry[name] = f }

// Lookup returns the system with the given name. An unknown name gives an
// error that lists the known ones.
func Lookup(name string) (System, error) {
	f, ok := registry[name]
	if !ok {
		return nil, fmt.Errorf("transition: unknown transition system %q (known: %s)", name, strings.Join(Names(), ", "))
	}
	return f(), nil
}

// Names returns the names of all registered systems, sorted.
func Names() []string {
	var ns []string
	for n := range registry {
		ns = append(ns, n)
	}
	sort.Strings(ns)
	return ns
}

// Run drives sys from the initial state for gold's sentence with the static
// oracle and returns the transitions. It returns an error if the oracle
// proposes an illegal move or does not reach a terminal state within
// sys.MaxTransitions(n) steps. s is left in the terminal state.
func Run(sys System, s *State, g *Gold) ([]Transition, error) {
	n := len(g.Head) - 1
	sys.Init(s, n)
	var seq []Transition
	bound := sys.MaxTransitions(n)
	for !sys.Terminal(s) {
		t := sys.Oracle(s, g)
		if !sys.Legal(s, t.Move) {
			return seq, fmt.Errorf("transition: %s oracle proposed illegal %v at step %d", sys.Name(), t, len(seq))
		}
		sys.Apply(s, t)
		seq = append(seq, t)
		if len(seq) > bound {
			return seq, fmt.Errorf("transition: %s oracle did not terminate within %d transitions", sys.Name(), bound)
		}
	}
	return seq, nil
}

// Derive returns the static-oracle transition sequence for g: the system's
// Sequencer if it has one, else Run. It checks the sequence by replaying it
// from the initial state: every transition legal, a terminal state within
// MaxTransitions, and every arc of g built with its label. s is left in the
// terminal state.
func Derive(sys System, s *State, g *Gold) ([]Transition, error) {
	n := len(g.Head) - 1
	var seq []Transition
	if sq, ok := sys.(Sequencer); ok {
		var err error
		if seq, err = sq.Sequence(s, g); err != nil {
			return nil, err
		}
		sys.Init(s, n)
		for i, t := range seq {
			if sys.Terminal(s) || !sys.Legal(s, t.Move) {
				return nil, fmt.Errorf("transition: %s: planned transition %d (%v) is illegal", sys.Name(), i, t)
			}
			sys.Apply(s, t)
		}
		if !sys.Terminal(s) || len(seq) > sys.MaxTransitions(n) {
			return nil, fmt.Errorf("transition: %s: planned sequence of %d transitions does not end in a terminal state within the bound", sys.Name(), len(seq))
		}
	} else {
		var err error
		if seq, err = Run(sys, s, g); err != nil {
			return nil, err
		}
	}
	for d := 1; d <= n; d++ {
		if s.Head[d] != g.Head[d] || s.Label[d] != g.Label[d] {
			return nil, fmt.Errorf("transition: %s: derivation gives word %d head %d label %d, gold has %d label %d",
				sys.Name(), d, s.Head[d], s.Label[d], g.Head[d], g.Label[d])
		}
	}
	return seq, nil
}
