package par

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
)

// Every step runs exactly once, whatever the number of steps and workers.
func TestDoRunsEveryStepOnce(t *testing.T) {
	for _, procs := range []int{1, 2, 4} {
		old := runtime.GOMAXPROCS(procs)
		for _, n := range []int{0, 1, 2, 3, 17, 100} {
			counts := make([]atomic.Int32, n)
			steps := make([]Step, n)
			for i := range steps {
				steps[i] = Step{Cost: int64(i % 5), Run: func() { counts[i].Add(1) }}
			}
			Do(steps)
			for i := range counts {
				if c := counts[i].Load(); c != 1 {
					t.Fatalf("GOMAXPROCS %d, %d steps: step %d ran %d times", procs, n, i, c)
				}
			}
		}
		runtime.GOMAXPROCS(old)
	}
}

// With one worker the steps run in order of decreasing cost, ties in the
// order given; with more, each worker takes the largest step left.
func TestDoLargestFirst(t *testing.T) {
	old := runtime.GOMAXPROCS(1)
	defer runtime.GOMAXPROCS(old)
	var mu sync.Mutex
	var order []int
	costs := []int64{3, 9, 1, 9, 5}
	steps := make([]Step, len(costs))
	for i, c := range costs {
		steps[i] = Step{Cost: c, Run: func() { mu.Lock(); order = append(order, i); mu.Unlock() }}
	}
	Do(steps)
	want := []int{1, 3, 4, 0, 2}
	for i := range want {
		if order[i] != want[i] {
			t.Fatalf("order %v, want %v", order, want)
		}
	}
}

// A panicking step lets the others finish, and Do panics with its value
// on the calling goroutine.
func TestDoPanicReachesCaller(t *testing.T) {
	var ran atomic.Int32
	steps := []Step{
		{Cost: 1, Run: func() { ran.Add(1) }},
		{Cost: 2, Run: func() { panic("boom") }},
		{Cost: 0, Run: func() { ran.Add(1) }},
	}
	defer func() {
		if r := recover(); r != "boom" {
			t.Errorf("recovered %v, want boom", r)
		}
		if ran.Load() != 2 {
			t.Errorf("%d other steps ran, want 2", ran.Load())
		}
	}()
	Do(steps)
	t.Fatal("Do returned after a panic")
}
