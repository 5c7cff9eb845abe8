package main

import (
	"os"
	"runtime/debug"
	"sync"
)

// The garbage collector of the library's Go runtime. A loaded model is
// tens of MB of pointer-free tables that a collection marks in a few
// steps, so collecting often costs little; the Go default (GOGC=100) lets
// the heap grow to twice the live data before collecting, which in a host
// process means the models' size again in resident memory once some call
// makes garbage (tp_parse_conllu, loading another model). The library runs
// at parseGCPercent instead, unless the host sets GOGC in the environment:
// `bindings/c/tests/longrun -p 8 -g -c` (tp_parse and tp_parse_conllu over
// EWT test) settles at 74 MB of RSS instead of 147 MB, at the same
// words/s; bench's peak RSS goes from 173-195 MB to 121-122 MB. Loading
// and training allocate their whole result step by step, and collecting
// at every 25 % of growth made loading 10-30 % slower: while a call loads
// or trains, the collector runs at the Go default.
const (
	parseGCPercent = 25
	loadGCPercent  = 100
)

var gc struct {
	mu      sync.Mutex
	managed bool // GOGC is not set: the library sets the percentage
	loads   int  // calls loading or training now
}

func init() {
	if _, set := os.LookupEnv("GOGC"); !set {
		gc.managed = true
		debug.SetGCPercent(parseGCPercent)
	}
}

// returnMemory hands the memory a finished load or a freed model leaves
// unused back to the operating system, in the background: the runtime's
// own scavenger would take minutes, during which the host's resident
// memory counts a model's size (or several, after loads and frees) more
// than it uses. bench's RSS after parsing (seven loads and frees, then
// parsing with one model) went from 156 MB to the long run's level.
func returnMemory() { go debug.FreeOSMemory() }

// growing raises the collector's percentage for a call that builds a model
// (load, train) until the returned function is called; concurrent calls
// share the raise.
func growing() (done func()) {
	if !gc.managed {
		return func() {}
	}
	gc.mu.Lock()
	if gc.loads == 0 {
		debug.SetGCPercent(loadGCPercent)
	}
	gc.loads++
	gc.mu.Unlock()
	return func() {
		gc.mu.Lock()
		if gc.loads--; gc.loads == 0 {
			debug.SetGCPercent(parseGCPercent)
			returnMemory()
		}
		gc.mu.Unlock()
	}
}
