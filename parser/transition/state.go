// Package transition implements transition systems for dependency parsing
// and their oracles, behind one small interface (System), in the spirit of
// UDPipe's Parsito and MaltParser's algorithm packages.
//
// A configuration (State) holds a stack, a buffer and the arcs built so far,
// over nodes 0..N where 0 is the artificial root. States expose named
// addresses (stack[i], buffer[i], heads, leftmost and rightmost children)
// so that feature templates are written once for every system.
//
// Systems are found by name in a registry (Lookup, Names). Each system's doc
// comment cites its paper and names the class of trees it derives.
package transition

import "github.com/transparse/transparse/internal/reuse"

// None marks an absent node, head or label.
const None = -1

// State is a parser configuration (σ, β, A) over nodes 0..N.
//
// The stack top is Stack[len(Stack)-1]. The buffer is stored reversed: its
// front is Buffer[len(Buffer)-1], so that systems which put a node back at the
// front of the buffer (arc-standard's RIGHT-ARC, SWAP) push it in O(1).
//
// A State is not safe for concurrent use; parse each sentence with its own
// State (Reset reuses its memory).
type State struct {
	N      int     // number of words; nodes are 0..N
	Stack  []int32 // top at the end
	Buffer []int32 // front at the end

	Head  []int32 // Head[d]: head of node d, or None
	Label []int32 // Label[d]: label of the arc into d, or None

	// Children bookkeeping for features, per node.
	Left1, Left2   []int32  // leftmost and second leftmost dependent, or None
	Right1, Right2 []int32  // rightmost and second rightmost dependent, or None
	NLeft, NRight  []int32  // number of left and right dependents
	LeftSet        []uint64 // set of left dependents' labels (bit label%64)
	RightSet       []uint64 // set of right dependents' labels (bit label%64)

	// Roots counts arcs from node 0; RootWord is the last word attached to 0.
	Roots    int
	RootWord int32
	// Steps counts transitions applied since Reset.
	Steps int
	// Prev is the last move applied (Shift after Reset); systems such as
	// 2-planar, which forbids two SWITCHes in a row, read it.
	Prev Move

	// Structures of the systems beyond one stack and one buffer. Reset
	// empties them; systems that do not use them leave them alone.
	//
	// List2 is Covington's λ2 (its head, the node next to λ1, at the end).
	List2 []int32
	// Stacks are the inactive stacks of the k-planar systems (Stack is the
	// active one); SWITCH rotates them.
	Stacks [][]int32
	// Reg holds the two-registers system's R1 and R2 (None when empty);
	// Last is its "last" bookkeeping vertex (None initially).
	Reg  [2]int32
	Last int32
	// Switches is the length of the current run of SWITCH moves (k-planar
	// systems allow at most k−1 in a row).
	Switches int32

	// comp is a union-find forest over the nodes, joined by every arc, so
	// Connected answers the acyclicity tests of Covington and the planar
	// systems in near-constant time.
	comp []int32
}

// Reset makes s the empty configuration for n words: every slice is resized
// to n+1 nodes, no arcs, empty stack and buffer. Systems fill stack and
// buffer in their Init.
func (s *State) Reset(n int) {
	s.N = n
	m := n + 1
	s.Stack = s.Stack[:0]
	s.Buffer = s.Buffer[:0]
	s.Head = reuse.Fill(s.Head, m, None)
	s.Label = reuse.Fill(s.Label, m, None)
	s.Left1 = reuse.Fill(s.Left1, m, None)
	s.Left2 = reuse.Fill(s.Left2, m, None)
	s.Right1 = reuse.Fill(s.Right1, m, None)
	s.Right2 = reuse.Fill(s.Right2, m, None)
	s.NLeft = reuse.Fill(s.NLeft, m, 0)
	s.NRight = reuse.Fill(s.NRight, m, 0)
	s.LeftSet = reuse.Fill(s.LeftSet, m, 0)
	s.RightSet = reuse.Fill(s.RightSet, m, 0)
	s.Roots = 0
	s.RootWord = None
	s.Steps = 0
	s.Prev = Shift
	s.List2 = s.List2[:0]
	for i := range s.Stacks {
		s.Stacks[i] = s.Stacks[i][:0]
	}
	s.Reg = [2]int32{None, None}
	s.Last = None
	s.Switches = 0
	if cap(s.comp) < m {
		s.comp = make([]int32, m)
	}
	s.comp = s.comp[:m]
	for i := range s.comp {
		s.comp[i] = int32(i)
	}
}

// find returns the representative of x's component (path halving).
func (s *State) find(x int32) int32 {
	for s.comp[x] != x {
		s.comp[x] = s.comp[s.comp[x]]
		x = s.comp[x]
	}
	return x
}

// Connected reports whether x and y are joined by a path of arcs, ignoring
// direction. With single heads, a new arc h → d closes a cycle exactly when
// h and d are already connected (Nivre 2008 §6.1).
func (s *State) Connected(x, y int32) bool { return s.find(x) == s.find(y) }

// S returns stack[i] (0 = top), or None.
func (s *State) S(i int) int32 {
	k := len(s.Stack) - 1 - i
	if k < 0 {
		return None
	}
	return s.Stack[k]
}

// B returns buffer[i] (0 = front), or None.
func (s *State) B(i int) int32 {
	k := len(s.Buffer) - 1 - i
	if k < 0 {
		return None
	}
	return s.Buffer[k]
}

// Q returns the i-th node of the system's second structure (0 = the node
// nearest the focus): Covington's λ2 from its head, else the first inactive
// stack of the k-planar systems from its top; None if absent.
func (s *State) Q(i int) int32 {
	l := s.List2
	if len(l) == 0 && len(s.Stacks) > 0 {
		l = s.Stacks[0]
	}
	k := len(l) - 1 - i
	if k < 0 {
		return None
	}
	return l[k]
}

// FillBuffer puts nodes from..N in the buffer, from at the front.
func (s *State) FillBuffer(from int) {
	for i := s.N; i >= from; i-- {
		s.Buffer = append(s.Buffer, int32(i))
	}
}

func (s *State) push(x int32) { s.Stack = append(s.Stack, x) }
func (s *State) pop() int32 {
	x := s.Stack[len(s.Stack)-1]
	s.Stack = s.Stack[:len(s.Stack)-1]
	return x
}
func (s *State) shiftOut() int32 {
	x := s.Buffer[len(s.Buffer)-1]
	s.Buffer = s.Buffer[:len(s.Buffer)-1]
	return x
}

// AddArc adds the arc h → d with label l and updates the children
// bookkeeping. d must not have a head.
func (s *State) AddArc(h, d, l int32) {
	s.Head[d] = h
	s.Label[d] = l
	if a, b := s.find(h), s.find(d); a != b {
		s.comp[b] = a
	}
	bit := uint64(0)
	if l >= 0 {
		bit = 1 << (uint(l) & 63)
	}
	if h == 0 {
		s.Roots++
		s.RootWord = d
	}
	if d < h {
		s.NLeft[h]++
		s.LeftSet[h] |= bit
		if l1 := s.Left1[h]; l1 == None || d < l1 {
			s.Left2[h] = l1
			s.Left1[h] = d
		} else if l2 := s.Left2[h]; l2 == None || d < l2 {
			s.Left2[h] = d
		}
	} else {
		s.NRight[h]++
		s.RightSet[h] |= bit
		if r1 := s.Right1[h]; r1 == None || d > r1 {
			s.Right2[h] = r1
			s.Right1[h] = d
		} else if r2 := s.Right2[h]; r2 == None || d > r2 {
			s.Right2[h] = d
		}
	}
}

// HeadOf returns the head of node x, or None (also for x == None).
func (s *State) HeadOf(x int32) int32 {
	if x < 0 {
		return None
	}
	return s.Head[x]
}

// inStack reports whether x is on the stack (linear scan; oracles only).
func (s *State) inStack(x int32) bool {
	for _, y := range s.Stack {
		if y == x {
			return true
		}
	}
	return false
}

// inBuffer reports whether x is in the buffer (linear scan; oracles only).
func (s *State) inBuffer(x int32) bool {
	for _, y := range s.Buffer {
		if y == x {
			return true
		}
	}
	return false
}

// CopyFrom makes s a copy of o that shares no memory with it, reusing s's
// slices where they are large enough: a beam search (parser/beam) keeps
// several configurations of one sentence and copies a parent before
// applying a transition to the copy. It costs O(N) for N words, with no
// allocation once s has grown to o's size.
func (s *State) CopyFrom(o *State) {
	s.N = o.N
	s.Stack = append(s.Stack[:0], o.Stack...)
	s.Buffer = append(s.Buffer[:0], o.Buffer...)
	s.Head = append(s.Head[:0], o.Head...)
	s.Label = append(s.Label[:0], o.Label...)
	s.Left1 = append(s.Left1[:0], o.Left1...)
	s.Left2 = append(s.Left2[:0], o.Left2...)
	s.Right1 = append(s.Right1[:0], o.Right1...)
	s.Right2 = append(s.Right2[:0], o.Right2...)
	s.NLeft = append(s.NLeft[:0], o.NLeft...)
	s.NRight = append(s.NRight[:0], o.NRight...)
	s.LeftSet = append(s.LeftSet[:0], o.LeftSet...)
	s.RightSet = append(s.RightSet[:0], o.RightSet...)
	s.Roots, s.RootWord, s.Steps, s.Prev = o.Roots, o.RootWord, o.Steps, o.Prev
	s.List2 = append(s.List2[:0], o.List2...)
	if len(s.Stacks) < len(o.Stacks) {
		s.Stacks = append(s.Stacks, make([][]int32, len(o.Stacks)-len(s.Stacks))...)
	}
	s.Stacks = s.Stacks[:len(o.Stacks)]
	for i := range o.Stacks {
		s.Stacks[i] = append(s.Stacks[i][:0], o.Stacks[i]...)
	}
	s.Reg, s.Last, s.Switches = o.Reg, o.Last, o.Switches
	s.comp = append(s.comp[:0], o.comp...)
}

// Repair makes the arcs of s a tree when a derivation stopped before a
// terminal configuration (no legal transition, or the parser's bound on
// transitions): a headless word becomes the root word, with label root,
// if there is none, else a dependent of the root word with label None;
// of several words attached to 0, the first stays the root word and the
// others become its dependents. The systems of this package build no
// cycles, so the result is a tree.
func (s *State) Repair(root int32) {
	for d := int32(1); d <= int32(s.N); d++ {
		if s.Head[d] != None {
			continue
		}
		if s.Roots == 0 {
			s.AddArc(0, d, root)
		} else {
			s.AddArc(s.RootWord, d, None)
		}
	}
	if s.Roots > 1 { // keep the first root word
		var first int32 = -1
		for d := int32(1); d <= int32(s.N); d++ {
			if s.Head[d] == 0 {
				if first < 0 {
					first = d
				} else {
					s.Head[d] = first
				}
			}
		}
	}
}
