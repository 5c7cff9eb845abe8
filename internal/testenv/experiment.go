//go:build experiment

package testenv

// experiment: the test binary was built with -tags experiment, and the
// tests that call Experiment run.
const experiment = true
