package main

import (
	"runtime/debug"
	"sync"

	"github.com/transparse/transparse/internal/gcpolicy"
)

// The collector of the library's Go runtime runs at the percentages of
// internal/gcpolicy, which says why, unless the host sets GOGC in the
// environment: gcpolicy.LoadPercent while only loads are in flight,
// gcpolicy.Percent otherwise (a training included). After the last load
// or training in flight the memory it left unused goes back to the system
// (returnMemory).

// gcState is the library's calls in flight that set the percentage.
type gcState struct {
	mu      sync.Mutex
	managed bool // GOGC is not set: the library sets the percentage
	loads   int  // calls loading a model now
	trains  int  // calls training a model now
	percent int  // the percentage set
}

var gc gcState

func init() {
	gc.managed = gcpolicy.CollectOften()
	gc.percent = gcpolicy.Percent
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
// gcpolicy.LoadPercent while only loads are, gcpolicy.Percent otherwise.
func (g *gcState) set() {
	p := gcpolicy.Percent
	if g.loads > 0 && g.trains == 0 {
		p = gcpolicy.LoadPercent
	}
	if p != g.percent {
		debug.SetGCPercent(p)
		g.percent = p
	}
}
