//go:build race

package tagger

// raceEnabled reports whether the race detector is on (it makes sync.Pool
// drop items at random, so allocation counts are meaningless).
const raceEnabled = true
