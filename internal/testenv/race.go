//go:build race

package testenv

// Race reports whether the test binary was built with the race detector
// (go test -race). Everything then runs several times slower, so tests
// that only compute over whole treebanks (no goroutines of their own
// beyond what a load or a parse starts) check a slice or skip: the run
// without -race checks them in full.
const Race = true
