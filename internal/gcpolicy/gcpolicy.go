// Package gcpolicy is the Go collector's percentage (GOGC) that the C
// library (capi) and the command line (cmd/transparse) run at, and why.
//
// A loaded model is tens of MB of pointer-free tables that a collection
// marks in a few steps, so collecting often costs little. The Go default
// (GOGC=100) lets the heap grow to twice the live data before collecting:
// in a process that holds a model, the model's size again in resident
// memory once parsing makes garbage (a long document streamed through the
// command line, tp_parse_document in a host). Training leaves large garbage
// behind as it goes (a weight arena's old copy each time the arena grows,
// the jackknife folds' taggers once they have tagged their part), and at
// the Go default its heap would grow by the size of its live data before
// a collection freed that. At Percent a long-running process's resident
// memory stays near the size of its models, and a training's peak
// resident memory is about a quarter lower, at no measurable cost in
// speed (docs/decisions.md has the measurements).
//
// A load keeps nearly all it allocates until it ends (the model; the
// decompressed document and decoded blobs are read to the last
// classifier), so a collection during a load finds almost no garbage and
// only takes CPU the load needs: the C library runs at LoadPercent while
// only loads are in flight, which collects about once in a first load.
// Switching the collector off during loads is not an option: it would not
// bound the heap of a host whose loads overlap without end while other
// calls make garbage.
//
// A GOGC set in the environment always wins: then nothing here changes the
// collector.
package gcpolicy

import (
	"os"
	"runtime/debug"
)

const (
	// Percent is the collector's percentage while a model parses or
	// trains.
	Percent = 25
	// LoadPercent is the collector's percentage while only loads of a
	// model are in flight.
	LoadPercent = 800
)

// Managed reports whether the percentage is the policy's to set: GOGC is
// not set in the environment.
func Managed() bool {
	_, set := os.LookupEnv("GOGC")
	return !set
}

// CollectOften sets the collector's percentage to Percent when Managed,
// and reports whether it did.
func CollectOften() bool {
	if !Managed() {
		return false
	}
	debug.SetGCPercent(Percent)
	return true
}
