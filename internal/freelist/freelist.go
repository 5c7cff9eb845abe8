// Package freelist keeps reusable per-call scratch values.
//
// A List is a bounded stack of values guarded by a mutex. Unlike sync.Pool,
// whose contents every garbage collection may drop, it keeps what it is
// given, so a parse loop in steady state allocates nothing even when
// collections run (the Go API promises 0 allocations per sentence). It
// holds at most Max values (default 4 × GOMAXPROCS at the first Put):
// more concurrent callers than that allocate their scratch and it is
// dropped afterwards. Values are kept with the capacity they grew to, so a
// list's memory is bounded by Max times the largest call's scratch.
package freelist

import (
	"runtime"
	"sync"
)

// List is a free list of *T. The zero value is ready to use and safe for
// concurrent use.
type List[T any] struct {
	mu   sync.Mutex
	free []*T
	// Max bounds the values kept (0: 4 × GOMAXPROCS, read at the first
	// Put). Set it before first use.
	Max int
}

// Get returns a kept value, or nil when there is none.
func (l *List[T]) Get() *T {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := len(l.free)
	if n == 0 {
		return nil
	}
	x := l.free[n-1]
	l.free[n-1] = nil
	l.free = l.free[:n-1]
	return x
}

// Put keeps x for a later Get, or drops it when the list is full. x must
// not be used after Put. A nil x is ignored.
func (l *List[T]) Put(x *T) {
	if x == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.Max == 0 {
		l.Max = 4 * runtime.GOMAXPROCS(0)
	}
	if len(l.free) < l.Max {
		l.free = append(l.free, x)
	}
}
