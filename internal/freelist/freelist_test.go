package freelist

import (
	"runtime"
	"sync"
	"testing"
)

// Values come back last in, first out, survive garbage collections, and
// the list keeps at most Max of them.
func TestList(t *testing.T) {
	var l List[int]
	l.Max = 2
	if l.Get() != nil {
		t.Fatal("empty list returned a value")
	}
	a, b, c := new(int), new(int), new(int)
	l.Put(a)
	l.Put(b)
	l.Put(c) // dropped: the list is full
	l.Put(nil)
	runtime.GC()
	runtime.GC()
	if x := l.Get(); x != b {
		t.Fatal("Get did not return the last value put")
	}
	if x := l.Get(); x != a {
		t.Fatal("a garbage collection dropped a kept value")
	}
	if l.Get() != nil {
		t.Fatal("the list kept more than Max values")
	}
}

// Get and Put from many goroutines at once neither race nor lose the
// bound, and a warm list serves them without allocating.
func TestListConcurrent(t *testing.T) {
	var l List[[64]byte]
	var wg sync.WaitGroup
	for g := 0; g < 16; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 1000; i++ {
				x := l.Get()
				if x == nil {
					x = new([64]byte)
				}
				x[0]++
				l.Put(x)
			}
		}()
	}
	wg.Wait()
	if n := len(l.free); n > l.Max {
		t.Fatalf("%d values kept, Max %d", n, l.Max)
	}
	l.Put(new([64]byte))
	if allocs := testing.AllocsPerRun(100, func() { l.Put(l.Get()) }); allocs != 0 {
		t.Fatalf("a warm Get/Put allocates %v times", allocs)
	}
}
