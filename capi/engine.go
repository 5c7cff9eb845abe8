package main

/*
#include "internal.h"
*/
import "C"

import (
	"strings"
	"sync"
	"unsafe"

	"github.com/transparse/transparse/parser/pseudoproj"
	"github.com/transparse/transparse/parser/transition"
)

// The engine's handles (tp_system*, tp_state*) share the model handles'
// counter, so a handle of one kind is never found in the other's table.

// systemEntry is a transition system with its class table. It is
// read-only after tp_system_new, so calls on it need no lock.
type systemEntry struct {
	name    string // as given to tp_system_new, with its encoding suffix
	classes *transition.Classes
	// With a pseudo-projective encoding (pp), the class table's deprels
	// are the caller's base ones, then pseudoproj.Labels; gold trees are
	// given over the base ones and projectivized when outside the class.
	pp    bool
	enc   pseudoproj.Encoding
	base  int
	index map[string]int32 // deprel -> index in classes.Deprels
}

// stateEntry is a configuration of a system; mu serializes calls on it.
type stateEntry struct {
	mu    sync.Mutex
	sys   *systemEntry
	state transition.State
	legal []bool
}

var engineHandles sync.Map // uintptr -> *systemEntry or *stateEntry

func newEngineHandle(v any) C.uintptr_t {
	h := lastHandle.Add(1)
	engineHandles.Store(h, v)
	return C.uintptr_t(h)
}

func systemOf(h C.uintptr_t) (*systemEntry, error) {
	v, ok := engineHandles.Load(uintptr(h))
	if s, isSys := v.(*systemEntry); ok && isSys {
		return s, nil
	}
	if h == 0 {
		return nil, argErr("system is NULL")
	}
	return nil, argErr("system handle was freed or is invalid")
}

// withState runs f with the state of handle h locked.
func withState(h C.uintptr_t, f func(st *stateEntry) error) error {
	v, ok := engineHandles.Load(uintptr(h))
	st, isState := v.(*stateEntry)
	if !ok || !isState {
		if h == 0 {
			return argErr("state is NULL")
		}
		return argErr("state handle was freed or is invalid")
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	return f(st)
}

func freeEngineHandle(h C.uintptr_t, what string) error {
	v, ok := engineHandles.Load(uintptr(h))
	if ok {
		_, isSys := v.(*systemEntry)
		if isSys == (what == "system") {
			engineHandles.Delete(uintptr(h))
			return nil
		}
	}
	return argErr("%s handle was freed or is invalid (double free?)", what)
}

// goStrings copies n C strings.
func goStrings(arr **C.char, n C.size_t, what string) ([]string, error) {
	if n > 0 && arr == nil {
		return nil, argErr("%s is NULL", what)
	}
	out := make([]string, int(n))
	for i, p := range unsafe.Slice(arr, int(n)) {
		if p == nil {
			return nil, argErr("%s[%d] is NULL", what, i)
		}
		out[i] = C.GoString(p)
	}
	return out, nil
}

//export tpgo_system_new
func tpgo_system_new(name *C.char, deprels **C.char, n C.size_t, out *C.uintptr_t, msg **C.char) C.int {
	return call("tp_system_new", msg, C.TP_ERR_INTERNAL, func() error {
		if name == nil || out == nil {
			return argErr("name or system is NULL")
		}
		ls, err := goStrings(deprels, n, "deprels")
		if err != nil {
			return err
		}
		e, err := newSystemEntry(C.GoString(name), ls)
		if err != nil {
			return err
		}
		*out = newEngineHandle(e)
		return nil
	})
}

// newSystemEntry makes the system name over the deprels ls. name is
// "SYSTEM" or "SYSTEM/ENCODING", ENCODING a pseudo-projective encoding
// (pseudoproj.Parse).
func newSystemEntry(name string, ls []string) (*systemEntry, error) {
	e := &systemEntry{name: name, base: len(ls)}
	sysName, encName, pp := strings.Cut(name, "/")
	if pp {
		enc, err := pseudoproj.Parse(encName)
		if err != nil {
			return nil, argErr("system %q: %v", name, err)
		}
		e.pp, e.enc = true, enc
		encoded, err := pseudoproj.Labels(ls, "root", e.enc)
		if err != nil {
			return nil, argErr("%v", err)
		}
		ls = append(ls[:len(ls):len(ls)], encoded...)
	}
	e.index = make(map[string]int32, len(ls))
	for i, l := range ls {
		if _, dup := e.index[l]; dup {
			return nil, argErr("deprel %q appears twice", l)
		}
		e.index[l] = int32(i)
	}
	root, ok := e.index["root"]
	if !ok {
		return nil, argErr("deprels has no \"root\" (the deprel of arcs from node 0)")
	}
	sys, err := transition.Lookup(sysName)
	if err != nil {
		return nil, argErr("%v", err)
	}
	e.classes = transition.NewClasses(sys, ls, root)
	return e, nil
}

//export tpgo_system_free
func tpgo_system_free(h C.uintptr_t, msg **C.char) C.int {
	return call("tp_system_free", msg, C.TP_ERR_INTERNAL, func() error {
		return freeEngineHandle(h, "system")
	})
}

//export tpgo_system_classes
func tpgo_system_classes(h C.uintptr_t, out **C.char, msg **C.char) C.int {
	return call("tp_system_classes", msg, C.TP_ERR_INTERNAL, func() error {
		if out == nil {
			return argErr("names is NULL")
		}
		e, err := systemOf(h)
		if err != nil {
			return err
		}
		text := ""
		for _, name := range e.classes.Names() {
			text += name + "\n"
		}
		if *out = cString(text); *out == nil {
			return errNoMem
		}
		return nil
	})
}

//export tpgo_system_max_transitions
func tpgo_system_max_transitions(h C.uintptr_t, n C.size_t, out *C.size_t, msg **C.char) C.int {
	return call("tp_system_max_transitions", msg, C.TP_ERR_INTERNAL, func() error {
		e, err := systemOf(h)
		if err != nil {
			return err
		}
		if out == nil {
			return argErr("max is NULL")
		}
		if err := checkWords(n); err != nil {
			return err
		}
		*out = C.size_t(e.classes.Sys.MaxTransitions(int(n)))
		return nil
	})
}

// maxEngineWords bounds sentence lengths as the parse functions do.
const maxEngineWords = C.TP_MAX_WORDS

func checkWords(n C.size_t) error {
	if n > maxEngineWords {
		return inputErr("%d words; at most %d", n, maxEngineWords)
	}
	return nil
}

// gold converts a caller's tree (heads[i], deprels[i] for word i+1) into a
// checked Gold (goldTree).
func gold(e *systemEntry, heads, deprels *C.int32_t, n C.size_t) (*transition.Gold, error) {
	if err := checkWords(n); err != nil {
		return nil, err
	}
	if n > 0 && (heads == nil || deprels == nil) {
		return nil, argErr("heads or deprels is NULL")
	}
	h, l := cTree(heads, deprels, n)
	g, err := e.goldTree(h, l)
	if err != nil {
		return nil, inputErr("%v", err)
	}
	return g, nil
}

// cTree copies a caller's tree of n words into head and label arrays
// indexed 1..n (index 0 None).
func cTree(heads, deprels *C.int32_t, n C.size_t) (h, l []int32) {
	h = make([]int32, int(n)+1)
	l = make([]int32, int(n)+1)
	h[0], l[0] = transition.None, transition.None
	for i := 0; i < int(n); i++ {
		h[i+1] = int32(unsafe.Slice(heads, int(n))[i])
		l[i+1] = int32(unsafe.Slice(deprels, int(n))[i])
	}
	return h, l
}

// goldTree checks the tree (h, l) over the system's deprels (the base ones
// with a pseudo-projective encoding) and returns its Gold; with an
// encoding, a tree outside the system's class is projectivized first, as
// the trainer does (pseudoproj.Projectivize).
func (e *systemEntry) goldTree(h, l []int32) (*transition.Gold, error) {
	if err := transition.CheckGold(h, l, e.base); err != nil {
		return nil, err
	}
	g := transition.NewGold(h, l)
	if !e.pp || e.classes.Sys.InClass(g) {
		return g, nil
	}
	deprel := make([]string, len(l))
	for d := 1; d < len(l); d++ {
		deprel[d] = e.classes.Deprels[l[d]]
	}
	ph, pl, _ := pseudoproj.Projectivize(h, deprel, e.enc)
	el := make([]int32, len(l))
	el[0] = transition.None
	for d := 1; d < len(l); d++ {
		el[d] = e.index[pl[d]]
	}
	return transition.NewGold(ph, el), nil
}

//export tpgo_system_decode
func tpgo_system_decode(h C.uintptr_t, heads, deprels *C.int32_t, n C.size_t, outHeads, outDeprels *C.int32_t, msg **C.char) C.int {
	return call("tp_system_decode", msg, C.TP_ERR_INTERNAL, func() error {
		e, err := systemOf(h)
		if err != nil {
			return err
		}
		if !e.pp {
			return argErr("the system has no pseudo-projective encoding")
		}
		if err := checkWords(n); err != nil {
			return err
		}
		if n > 0 && (heads == nil || deprels == nil || outHeads == nil || outDeprels == nil) {
			return argErr("heads, deprels or an out array is NULL")
		}
		hs, ls := cTree(heads, deprels, n)
		if err := transition.CheckGold(hs, ls, len(e.classes.Deprels)); err != nil {
			return inputErr("%v", err)
		}
		deprel := make([]string, len(ls))
		for d := 1; d < len(ls); d++ {
			deprel[d] = e.classes.Deprels[ls[d]]
		}
		dh, dl := pseudoproj.Deprojectivize(hs, deprel, e.enc)
		oh, ol := unsafe.Slice(outHeads, int(n)), unsafe.Slice(outDeprels, int(n))
		for i := range oh {
			oh[i], ol[i] = C.int32_t(dh[i+1]), C.int32_t(e.index[dl[i+1]])
		}
		return nil
	})
}

//export tpgo_system_oracle
func tpgo_system_oracle(h C.uintptr_t, heads, deprels *C.int32_t, n C.size_t, classes *C.int32_t, capacity C.size_t, length *C.size_t, msg **C.char) C.int {
	return call("tp_system_oracle", msg, C.TP_ERR_INTERNAL, func() error {
		e, err := systemOf(h)
		if err != nil {
			return err
		}
		if length == nil || (capacity > 0 && classes == nil) {
			return argErr("classes or len is NULL")
		}
		g, err := gold(e, heads, deprels, n)
		if err != nil {
			return err
		}
		seq, err := transition.OracleClasses(e.classes, g)
		if err != nil {
			return inputErr("%v", err)
		}
		*length = C.size_t(len(seq))
		if len(seq) > int(capacity) {
			return argErr("the derivation has %d transitions; capacity is %d", len(seq), capacity)
		}
		out := unsafe.Slice(classes, len(seq))
		for i, k := range seq {
			out[i] = C.int32_t(k)
		}
		return nil
	})
}

//export tpgo_state_new
func tpgo_state_new(h C.uintptr_t, n C.size_t, out *C.uintptr_t, msg **C.char) C.int {
	return call("tp_state_new", msg, C.TP_ERR_INTERNAL, func() error {
		e, err := systemOf(h)
		if err != nil {
			return err
		}
		if out == nil {
			return argErr("state is NULL")
		}
		if err := checkWords(n); err != nil {
			return err
		}
		st := &stateEntry{sys: e, legal: make([]bool, e.classes.Len())}
		e.classes.Sys.Init(&st.state, int(n))
		*out = newEngineHandle(st)
		return nil
	})
}

//export tpgo_state_copy
func tpgo_state_copy(h C.uintptr_t, out *C.uintptr_t, msg **C.char) C.int {
	return call("tp_state_copy", msg, C.TP_ERR_INTERNAL, func() error {
		if out == nil {
			return argErr("copy is NULL")
		}
		return withState(h, func(st *stateEntry) error {
			c := &stateEntry{sys: st.sys, legal: make([]bool, len(st.legal))}
			c.state.CopyFrom(&st.state)
			*out = newEngineHandle(c)
			return nil
		})
	})
}

//export tpgo_state_free
func tpgo_state_free(h C.uintptr_t, msg **C.char) C.int {
	return call("tp_state_free", msg, C.TP_ERR_INTERNAL, func() error {
		return freeEngineHandle(h, "state")
	})
}

//export tpgo_state_legal
func tpgo_state_legal(h C.uintptr_t, mask *C.uint8_t, n C.size_t, msg **C.char) C.int {
	return call("tp_state_legal", msg, C.TP_ERR_INTERNAL, func() error {
		return withState(h, func(st *stateEntry) error {
			if int(n) != len(st.legal) || mask == nil {
				return argErr("mask must hold the system's %d classes (got %d)", len(st.legal), n)
			}
			st.sys.classes.Legal(&st.state, st.legal)
			out := unsafe.Slice(mask, len(st.legal))
			for i, ok := range st.legal {
				out[i] = 0
				if ok {
					out[i] = 1
				}
			}
			return nil
		})
	})
}

//export tpgo_state_apply
func tpgo_state_apply(h C.uintptr_t, k C.size_t, msg **C.char) C.int {
	return call("tp_state_apply", msg, C.TP_ERR_INTERNAL, func() error {
		return withState(h, func(st *stateEntry) error { return st.apply(k, transition.None) })
	})
}

//export tpgo_state_apply_deprel
func tpgo_state_apply_deprel(h C.uintptr_t, k C.size_t, deprel C.int32_t, msg **C.char) C.int {
	return call("tp_state_apply_deprel", msg, C.TP_ERR_INTERNAL, func() error {
		return withState(h, func(st *stateEntry) error { return st.apply(k, int32(deprel)) })
	})
}

// apply applies class k; deprel, unless None, is the deprel of the arc an
// unlabeled move adds (arc-eager's REDUCE of a headless node).
func (st *stateEntry) apply(k C.size_t, deprel int32) error {
	c := st.sys.classes
	if int(k) >= c.Len() {
		return argErr("class %d out of range (the system has %d)", k, c.Len())
	}
	if c.Sys.Terminal(&st.state) {
		return inputErr("class %d (%s): the state is terminal", k, c.Names()[k])
	}
	c.Legal(&st.state, st.legal)
	if !st.legal[k] {
		return inputErr("class %d (%s) is not legal in this state", k, c.Names()[k])
	}
	t := c.Transition(int(k))
	if deprel != transition.None {
		hd, d := c.Sys.Arc(&st.state, t.Move)
		switch {
		case int(deprel) < 0 || int(deprel) >= len(c.Deprels):
			return argErr("deprel %d out of range (the system has %d)", deprel, len(c.Deprels))
		case t.Move.Labeled() || d < 0 || st.state.Head[d] != transition.None:
			return argErr("class %d (%s) adds no arc without a deprel", k, c.Names()[k])
		case (hd == 0) != (deprel == c.RootLabel):
			return inputErr("deprel %q on the arc %d -> %d breaks the root rule", c.Deprels[deprel], hd, d)
		}
		t.Label = deprel
	}
	transition.Step(c.Sys, &st.state, t)
	return nil
}

//export tpgo_state_is_terminal
func tpgo_state_is_terminal(h C.uintptr_t, out *C.int, msg **C.char) C.int {
	return call("tp_state_is_terminal", msg, C.TP_ERR_INTERNAL, func() error {
		if out == nil {
			return argErr("terminal is NULL")
		}
		return withState(h, func(st *stateEntry) error {
			*out = 0
			if st.sys.classes.Sys.Terminal(&st.state) {
				*out = 1
			}
			return nil
		})
	})
}

// copyNodes writes xs (in the order given) to out, up to capacity, and
// their number to length.
func copyNodes(xs []int32, out *C.int32_t, capacity C.size_t, length *C.size_t) error {
	if length == nil || (capacity > 0 && out == nil) {
		return argErr("out or len is NULL")
	}
	*length = C.size_t(len(xs))
	if len(xs) > int(capacity) {
		return argErr("%d nodes; capacity is %d", len(xs), capacity)
	}
	dst := unsafe.Slice(out, len(xs))
	for i, x := range xs {
		dst[i] = C.int32_t(x)
	}
	return nil
}

//export tpgo_state_view
func tpgo_state_view(h C.uintptr_t, which C.int, out *C.int32_t, capacity C.size_t, length *C.size_t, msg **C.char) C.int {
	return call("tp_state_view", msg, C.TP_ERR_INTERNAL, func() error {
		return withState(h, func(st *stateEntry) error {
			s := &st.state
			switch which {
			case C.TP_VIEW_STACK:
				return copyNodes(s.Stack, out, capacity, length)
			case C.TP_VIEW_BUFFER:
				b := make([]int32, len(s.Buffer))
				for i, x := range s.Buffer {
					b[len(b)-1-i] = x
				}
				return copyNodes(b, out, capacity, length)
			case C.TP_VIEW_HEADS:
				return copyNodes(s.Head[1:], out, capacity, length)
			case C.TP_VIEW_DEPRELS:
				return copyNodes(s.Label[1:], out, capacity, length)
			}
			return argErr("unknown view %d", which)
		})
	})
}

//export tpgo_state_cost
func tpgo_state_cost(h C.uintptr_t, heads, deprels *C.int32_t, n C.size_t, k C.size_t, cost *C.int, msg **C.char) C.int {
	return call("tp_state_cost", msg, C.TP_ERR_INTERNAL, func() error {
		if cost == nil {
			return argErr("cost is NULL")
		}
		return withState(h, func(st *stateEntry) error {
			c := st.sys.classes
			dyn, ok := c.Sys.(transition.DynamicSystem)
			if !ok {
				return argErr("%s has no dynamic oracle (arc-eager, arc-hybrid and covington-nonprojective have one)", st.sys.name)
			}
			if int(n) != st.state.N {
				return argErr("the tree has %d words, the state %d", n, st.state.N)
			}
			if int(k) >= c.Len() {
				return argErr("class %d out of range (the system has %d)", k, c.Len())
			}
			c.Legal(&st.state, st.legal)
			if !st.legal[k] {
				return inputErr("class %d (%s) is not legal in this state", k, c.Names()[k])
			}
			g, err := gold(st.sys, heads, deprels, n)
			if err != nil {
				return err
			}
			*cost = C.int(dyn.CostOracle(g).Cost(&st.state, c.Transition(int(k))))
			return nil
		})
	})
}
