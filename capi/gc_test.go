package main

import (
	"runtime/debug"
	"testing"

	"github.com/transparse/transparse/internal/gcpolicy"
)

// gcPercent returns the collector's percentage now.
func gcPercent() int {
	p := debug.SetGCPercent(-1)
	debug.SetGCPercent(p)
	return p
}

// The collector runs at gcpolicy.LoadPercent while only loads are in
// flight and at gcpolicy.Percent otherwise (a training in flight included), however
// the calls overlap.
func TestGCPercentFollowsCalls(t *testing.T) {
	if !gc.managed {
		t.Skip("GOGC is set in the environment: the library leaves the collector alone")
	}
	check := func(when string, want int) {
		t.Helper()
		if got := gcPercent(); got != want {
			t.Errorf("%s: GC percent %d, want %d", when, got, want)
		}
	}
	check("idle", gcpolicy.Percent)
	load1 := loading()
	check("one load", gcpolicy.LoadPercent)
	load2 := loading()
	train := growing()
	check("two loads and a training", gcpolicy.Percent)
	load1()
	check("a load and a training", gcpolicy.Percent)
	train()
	check("a load", gcpolicy.LoadPercent)
	load2()
	check("idle again", gcpolicy.Percent)
	if gc.loads != 0 || gc.trains != 0 {
		t.Errorf("counts left at %d loads, %d trainings", gc.loads, gc.trains)
	}
}
