//go:build race

package linear

// raceEnabled reports whether the race detector is on: tests that only
// compute (no concurrency) then check fewer cases, since everything runs
// ten times slower.
const raceEnabled = true
