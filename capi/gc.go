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
// at parseGCPercent instead, unless the host sets GOGC in the environment,
// which keeps a long-running host's resident memory near the size of its
// models at no cost in speed. Training runs at the same percentage, also
// while loads are in flight: it leaves large garbage behind as it goes (a
// weight arena's old copy each time the arena grows, the jackknife folds'
// taggers once they have tagged their part), and at the Go default its heap
// would grow by the size of its live data before a collection freed that;
// collecting sooner lowers its peak resident memory by about a quarter at
// no measurable cost in time, since the live data is mostly pointer-free
// arenas that a collection marks in a few steps. A load keeps nearly all it
// allocates, so while only loads are in flight the collector runs at
// loadGCPercent.
// docs/decisions.md has the measurements behind the settings.
const (
	parseGCPercent = 25
	// loadGCPercent: a load keeps nearly all it allocates until it ends
	// (the model; the decompressed document and decoded blobs are read
	// to the last classifier), so a collection during a load finds almost
	// no garbage and only takes CPU the load needs: at 800 a first load
	// collects about once. Switching the collector off during loads is
	// not an option: it would not bound the heap of a host whose loads
	// overlap without end while other calls make garbage. After the load
	// the model is collected at parseGCPercent and the rest returned to
	// the system (returnMemory).
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
// than it uses.
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

// set applies the percentage for the calls in flight (gc.mu held):
// loadGCPercent while only loads are, parseGCPercent otherwise.
func (g *gcState) set() {
	p := parseGCPercent
	if g.loads > 0 && g.trains == 0 {
		p = loadGCPercent
	}
	if p != g.percent {
		debug.SetGCPercent(p)
		g.percent = p
	}
}
