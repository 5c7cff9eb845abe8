//go:build !linux

package tagger

import "time"

var start = time.Now()

// threadCPU falls back to the wall clock where the thread CPU clock is not
// available.
func threadCPU() time.Duration { return time.Since(start) }
