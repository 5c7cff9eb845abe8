package transition

// What the external conformance test (package transition_test) needs from
// inside the package.

// WorkedExample is a paper's worked example for one system.
type WorkedExample = workedExample

// WorkedExamples lists the worked examples per registered system name.
func WorkedExamples() map[string][]WorkedExample { return workedExamples() }
