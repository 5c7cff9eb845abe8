// Package par runs independent steps of work on all CPUs, largest first.
//
// A model load is a handful of independent steps of very different sizes
// (building each classifier's table, the tag dictionary, decoding the
// entropy-coded blocks). One goroutine per step on two cores time-slices
// them and leaves a core idle wherever one step waits on another; a fixed
// set of GOMAXPROCS workers taking the steps largest first (longest
// processing time first, Graham 1969) finishes within 4/3 of the best
// possible time and keeps as many working sets in the caches as there are
// cores.
package par

import (
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
)

// Step is one independent piece of work. Cost orders the steps (larger
// first); any unit will do as long as it is proportional to the work (the
// loaders use an estimate in nanoseconds). Run must not depend on another
// step of the same Do.
type Step struct {
	Cost int64
	Run  func()
}

// Do runs the steps on up to GOMAXPROCS goroutines, largest Cost first
// (ties in the order given), and returns when all have returned. With one
// worker, or one step, they run on the calling goroutine. steps is
// reordered. A step that panics does not stop the others; Do then panics
// with the first panic's value after they finish.
func Do(steps []Step) {
	slices.SortStableFunc(steps, func(a, b Step) int {
		switch {
		case a.Cost > b.Cost:
			return -1
		case a.Cost < b.Cost:
			return 1
		}
		return 0
	})
	workers := min(runtime.GOMAXPROCS(0), len(steps))
	var next atomic.Int64
	var panicked atomic.Pointer[any]
	work := func() {
		for {
			i := int(next.Add(1) - 1)
			if i >= len(steps) {
				return
			}
			run(steps[i].Run, &panicked)
		}
	}
	var wg sync.WaitGroup
	for range workers - 1 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			work()
		}()
	}
	work()
	wg.Wait()
	if p := panicked.Load(); p != nil {
		panic(*p)
	}
}

// run calls f, keeping the first panic of a Do in panicked (a panic on a
// worker goroutine would otherwise end the process, whatever the caller
// recovers).
func run(f func(), panicked *atomic.Pointer[any]) {
	defer func() {
		if r := recover(); r != nil {
			panicked.CompareAndSwap(nil, &r)
		}
	}()
	f()
}
