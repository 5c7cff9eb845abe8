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
	Shift Move = iota
	Reduce
	LeftArc
	RightArc
	numMoves
)

var moveNames = [...]string{Shift: "SHIFT", Reduce: "REDUCE", LeftArc: "LEFT-ARC", RightArc: "RIGHT-ARC"}

func (m Move) String() string {
	if int(m) < len(moveNames) {
		return moveNames[m]
	}
	return fmt.Sprintf("Move(%d)", m)
}

// Labeled reports whether the move builds an arc and so takes a label.
func (m Move) Labeled() bool { return m == LeftArc || m == RightArc }

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
	// InClass reports whether the system derives the gold tree g (for the
	// systems here: whether g is projective).
	InClass(g *Gold) bool
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
// proposes an illegal move or does not reach a terminal state within a
// bound of 4n+4 steps (the systems here need at most 2n).
func Run(sys System, s *State, g *Gold) ([]Transition, error) {
	n := len(g.Head) - 1
	sys.Init(s, n)
	var seq []Transition
	for !sys.Terminal(s) {
		t := sys.Oracle(s, g)
		if !sys.Legal(s, t.Move) {
			return seq, fmt.Errorf("transition: %s oracle proposed illegal %v at step %d", sys.Name(), t, len(seq))
		}
		sys.Apply(s, t)
		seq = append(seq, t)
		if len(seq) > 4*n+4 {
			return seq, fmt.Errorf("transition: %s oracle did not terminate", sys.Name())
		}
	}
	return seq, nil
}
