//go:build !linux

package testenv

import "time"

var start = time.Now()

// ThreadCPU falls back to the wall clock where the thread CPU clock is not
// available.
func ThreadCPU() time.Duration { return time.Since(start) }
