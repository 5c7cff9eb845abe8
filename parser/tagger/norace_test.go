//go:build !race

package tagger

const raceEnabled = false
