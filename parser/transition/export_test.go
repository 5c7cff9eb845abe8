package transition

// What the external conformance test (package transition_test) needs from
// inside the package.

// WorkedExample is a paper's worked example for one system.
type WorkedExample = workedExample

// WorkedExamples lists the worked examples per registered system name.
func WorkedExamples() map[string][]WorkedExample { return workedExamples() }

// WithoutUnionFind returns a copy of s without its union-find forest,
// whose path halving differs between equal states queried differently
// (tests compare it through Connected).
func WithoutUnionFind(s *State) State {
	c := *s
	c.comp = nil
	return c
}
