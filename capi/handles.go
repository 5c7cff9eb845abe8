package main

/*
#include "internal.h"
*/
import "C"

import (
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/transparse/transparse/parser"
)

// C never sees a Go pointer to a model. A tp_model* is an integer handle
// (a key of the table below) cast to a pointer type by shim.c. Handles
// start at 1 and are never reused, so a freed or made-up handle is never
// found: use after free and double free are reported, not undefined.

// modelEntry is one loaded model and the C strings it owns.
type modelEntry struct {
	// mu: calls hold a read lock for their whole duration; tp_model_free
	// takes the write lock, so it waits for calls in flight and frees the
	// C strings only when nobody can be reading them.
	mu      sync.RWMutex
	freed   bool
	model   *parser.Model
	deprels cStrings
	upos    cStrings
	xpos    cStrings
}

// cStrings is a string table in C memory: a malloc'd array of malloc'd
// NUL-terminated strings, and an index from Go string to C string.
type cStrings struct {
	arr   **C.char
	n     int
	index map[string]*C.char
}

func newCStrings(ss []string) (cStrings, error) {
	t := cStrings{index: make(map[string]*C.char, len(ss))}
	if len(ss) == 0 {
		return t, nil
	}
	arr := (**C.char)(C.tp__alloc(C.size_t(len(ss)) * C.size_t(unsafe.Sizeof((*C.char)(nil)))))
	if arr == nil {
		return t, errNoMem
	}
	t.arr = arr
	elems := unsafe.Slice(arr, len(ss))
	for i := range elems {
		elems[i] = nil
	}
	for i, s := range ss {
		cs := cString(s)
		if cs == nil {
			t.free()
			return cStrings{}, errNoMem
		}
		elems[i] = cs
		t.n = i + 1
		if _, dup := t.index[s]; !dup {
			t.index[s] = cs
		}
	}
	return t, nil
}

func (t *cStrings) free() {
	if t.arr != nil {
		for _, cs := range unsafe.Slice(t.arr, t.n) {
			C.free(ptr(cs))
		}
		C.free(ptr(t.arr))
	}
	*t = cStrings{}
}

var (
	handles    sync.Map       // uintptr -> *modelEntry
	lastHandle atomic.Uintptr // last handle given out
)

// register puts m in the table, allocating its C strings, and returns its
// handle.
func register(m *parser.Model) (uintptr, error) {
	deprels, err := newCStrings(m.Deprels())
	if err != nil {
		return 0, err
	}
	upos, err := newCStrings(m.UPOSTags())
	if err != nil {
		deprels.free()
		return 0, err
	}
	xpos, err := newCStrings(append([]string{"_"}, m.XPOSTags()...))
	if err != nil {
		deprels.free()
		upos.free()
		return 0, err
	}
	h := lastHandle.Add(1)
	handles.Store(h, &modelEntry{model: m, deprels: deprels, upos: upos, xpos: xpos})
	return h, nil
}

// acquire finds the model of handle h and read-locks it; the caller must
// call e.mu.RUnlock() when done.
func acquire(h C.uintptr_t) (*modelEntry, error) {
	if h == 0 {
		return nil, argErr("model is NULL")
	}
	v, ok := handles.Load(uintptr(h))
	if !ok {
		return nil, errFreed
	}
	e := v.(*modelEntry)
	e.mu.RLock()
	if e.freed {
		e.mu.RUnlock()
		return nil, errFreed
	}
	return e, nil
}

// withModel runs f with the model of handle h read-locked (see acquire):
// a freed model's strings stay valid, and tp_model_free waits, until f
// returns.
func withModel(h C.uintptr_t, f func(e *modelEntry) error) error {
	e, err := acquire(h)
	if err != nil {
		return err
	}
	defer e.mu.RUnlock()
	return f(e)
}

// release removes handle h from the table and frees what its model owns,
// after waiting for calls in flight on it.
func release(h C.uintptr_t) error {
	v, ok := handles.LoadAndDelete(uintptr(h))
	if !ok {
		return &apiError{C.TP_ERR_ARGUMENT, "model handle was freed or is invalid (double free?)"}
	}
	e := v.(*modelEntry)
	e.mu.Lock()
	defer e.mu.Unlock()
	e.freed = true
	e.deprels.free()
	e.upos.free()
	e.xpos.free()
	e.model = nil
	return nil
}
