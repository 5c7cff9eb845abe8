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
// at every 25 % of growth made loading 10-30 % slower: while a call
// trains, the collector runs at the Go default (trainGCPercent); while
// only loads are in flight, at loadGCPercent.
const (
	parseGCPercent = 25
	trainGCPercent = 100
	// loadGCPercent: a load keeps nearly all it allocates until it ends
	// (the model; the decompressed document and decoded blobs are read
	// to the last classifier), so a collection during a load finds almost
	// no garbage and only takes CPU the load needs. At 100 the first
	// load of a process collected four times (at 8, 17, 34 and 65 MB of
	// heap); at 800 it collects once. bench (bindings/c/bench -g -p 1,
	// 4 rounds alternating with the library at 100): load from file
	// 76-95 ms against 84-108 ms, faster in 4 of 4 rounds, from memory
	// 80-104 against 90-103; the first load of a fresh process (a
	// program calling tp_model_load once, 8 alternating rounds) 67-93 ms
	// (median 75) against 72-88 (median 83). Switching the collector
	// off during loads did as well (59-86 ms, median 75) but was not
	// taken: it would not bound the heap of a host whose loads overlap
	// without end while other calls make garbage. After the load the
	// model is collected at parseGCPercent and the rest returned to the
	// system (returnMemory).
	loadGCPercent = 800
)

type gcState struct {
	mu      sync.Mutex
	managed bool // GOGC is not set: the library sets the percentage
	loads   int  // calls loading a model now
	trains  int  // calls training a model now
	percent int  // the percentage set
}

var gc gcState

func init() {
	if _, set := os.LookupEnv("GOGC"); !set {
		gc.managed = true
		gc.percent = parseGCPercent
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

// growing sets the collector's percentage for a call that trains a model
// until the returned function is called; concurrent calls share it.
func growing() (done func()) { return building(&gc.trains) }

// loading sets the collector's percentage for a call that loads a model
// until the returned function is called, unless a training is in flight.
func loading() (done func()) { return building(&gc.loads) }

// building counts a call in *n while it runs and sets the percentage for
// the calls in flight.
func building(n *int) (done func()) {
	if !gc.managed {
		return func() {}
	}
	gc.mu.Lock()
	*n++
	gc.set()
	gc.mu.Unlock()
	return func() {
		gc.mu.Lock()
		*n--
		gc.set()
		if gc.loads == 0 && gc.trains == 0 {
			returnMemory()
		}
		gc.mu.Unlock()
	}
}

// set applies the percentage for the calls in flight (gc.mu held).
func (g *gcState) set() {
	p := parseGCPercent
	switch {
	case g.trains > 0:
		p = trainGCPercent
	case g.loads > 0:
		p = loadGCPercent
	}
	if p != g.percent {
		debug.SetGCPercent(p)
		g.percent = p
	}
}
