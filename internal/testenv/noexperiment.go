//go:build !experiment

package testenv

// experiment: the test binary was built without -tags experiment, and the
// tests that call Experiment skip.
const experiment = false
