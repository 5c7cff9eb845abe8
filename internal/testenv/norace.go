//go:build !race

package testenv

// Race reports whether the test binary was built with the race detector.
const Race = false
