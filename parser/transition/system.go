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
// oracle per gold tree.
//
// Legal is label-independent; the arc a labeled move would build is given by
// Arc, so callers can restrict labels (for example, only the root label on
// arcs from node 0).
//
// docs/transition-systems.md describes every system of this package and
// docs/adding-a-system.md what a new one must provide; TestConformance
// checks it for every registered system.
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
	// Apply performs the move of t on s; t must be legal. It changes the
	// stacks, buffer and arcs only: drive a system with Step, which also
	// counts the step in State.Steps and State.Prev.
	Apply(s *State, t Transition)
	// Oracle returns the static oracle for the gold tree g, computed once
	// per tree (the tree oracle of UDPipe's Parsito). Systems whose oracle
	// plans the derivation from the whole tree (a plane assignment,
	// register pairs, the projective order) do it here and return an error
	// when the plan fails: g is then not derivable. Others never fail
	// here; on a tree outside the class their Next proposes some
	// transition, and Run reports the first illegal one.
	Oracle(g *Gold) (TreeOracle, error)
	// InClass reports whether the system derives the gold tree g (for
	// arc-standard, arc-eager and arc-hybrid: whether g is projective).
	InClass(g *Gold) bool
	// MaxTransitions is the paper's bound on the length of any transition
	// sequence for n words (2n for the linear stack systems, n(n+3)/2 for
	// Covington, ...). Parsers stop a derivation that reaches it.
	MaxTransitions(n int) int
}

// TreeOracle is the static oracle of one gold tree (System.Oracle). It is
// read-only after construction, so one TreeOracle may serve several
// goroutines, each with its own State.
type TreeOracle interface {
	// Next returns the static-oracle transition in s. It is defined on the
	// states of the oracle's own derivation from Init, driven by Step (the
	// oracles that replay a planned sequence index it by State.Steps); the
	// step-wise oracles of arc-standard, arc-eager, arc-hybrid, Covington,
	// planar, swap and two-registers read only the state.
	Next(s *State) Transition
}

// CostOracle is a tree oracle that is also a dynamic oracle: Cost is the
// number of gold arcs that t makes unreachable from s, counting a correct
// head with a wrong label as lost (arc-decomposable systems: Goldberg &
// Nivre 2012, 2013; Covington non-projective: Gómez-Rodríguez &
// Fernández-González 2015). Next is a zero-cost transition on the oracle's
// own derivation. t must be legal in s.
type CostOracle interface {
	TreeOracle
	Cost(s *State, t Transition) int
}

// DynamicSystem is implemented by the systems with a dynamic oracle
// (arc-eager, arc-hybrid, covington-nonprojective). CostOracle returns the
// tree oracle of g as a CostOracle; it is what Oracle returns.
type DynamicSystem interface {
	System
	CostOracle(g *Gold) CostOracle
}

// Step applies t to s and counts it: State.Steps grows by one and
// State.Prev becomes t.Move. It is the one driver of every derivation:
// parsing, training and the oracle tools all apply transitions through it.
// t must be legal in s.
func Step(sys System, s *State, t Transition) {
	sys.Apply(s, t)
	s.Steps++
	s.Prev = t.Move
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

// Run drives sys from the initial state for gold's sentence with its
// static oracle (System.Oracle) and returns the transitions. It returns an
// error if the oracle cannot plan g, proposes an illegal move, or does not
// reach a terminal state within sys.MaxTransitions(n) steps. s is left in
// the last state reached.
func Run(sys System, s *State, g *Gold) ([]Transition, error) {
	n := len(g.Head) - 1
	o, err := sys.Oracle(g)
	if err != nil {
		sys.Init(s, n)
		return nil, err
	}
	return RunOracle(sys, s, o, n)
}

// RunOracle drives sys from the initial state for n words with the tree
// oracle o, as Run does.
func RunOracle(sys System, s *State, o TreeOracle, n int) ([]Transition, error) {
	sys.Init(s, n)
	var seq []Transition
	bound := sys.MaxTransitions(n)
	for !sys.Terminal(s) {
		t := o.Next(s)
		if !sys.Legal(s, t.Move) {
			return seq, fmt.Errorf("transition: %s oracle proposed illegal %v at step %d", sys.Name(), t, len(seq))
		}
		if len(seq) >= bound {
			return seq, fmt.Errorf("transition: %s oracle did not terminate within %d transitions", sys.Name(), bound)
		}
		Step(sys, s, t)
		seq = append(seq, t)
	}
	return seq, nil
}

// Derive returns the static-oracle transition sequence for g (Run) and
// checks that it builds g exactly: every transition legal, a terminal state
// within MaxTransitions, and every arc of g with its label. s is left in
// the terminal state.
func Derive(sys System, s *State, g *Gold) ([]Transition, error) {
	seq, err := Run(sys, s, g)
	if err != nil {
		return nil, err
	}
	n := len(g.Head) - 1
	for d := 1; d <= n; d++ {
		if s.Head[d] != g.Head[d] || s.Label[d] != g.Label[d] {
			return nil, fmt.Errorf("transition: %s: derivation gives word %d head %d label %d, gold has %d label %d",
				sys.Name(), d, s.Head[d], s.Label[d], g.Head[d], g.Label[d])
		}
	}
	return seq, nil
}
