// Package top2 finds the largest and second-largest of a slice of scores:
// the decisions of the parser (the best legal transition and its margin
// over the runner-up) and of the taggers (the best tag and its margin).
// On amd64 it compares four scores at a time with SSE (MAXPS/MINPS,
// baseline on amd64: no CPU check); elsewhere it loops.
//
// The scores must not be NaN (the classifiers' sums of finite weights are
// not); with a NaN the results are some values of v or -Inf, never a
// panic.
package top2

import "math"

// negInf is the value of an empty slice.
var negInf = float32(math.Inf(-1))

// Of returns the largest value of v and the second largest, counting
// repeats (Of([]float32{3, 3, 1}) is 3, 3); -Inf for what v lacks.
func Of(v []float32) (m1, m2 float32) {
	if len(v) < minVector {
		return ofScalar(v, negInf, negInf)
	}
	return ofVector(v)
}

// ofScalar folds v into the largest and second largest values m1 >= m2.
func ofScalar(v []float32, m1, m2 float32) (float32, float32) {
	for _, x := range v {
		switch {
		case x > m1:
			m1, m2 = x, m1
		case x > m2:
			m2 = x
		}
	}
	return m1, m2
}

// Index returns the index of the first value of v equal to x, or -1.
func Index(v []float32, x float32) int {
	for i, y := range v {
		if y == x {
			return i
		}
	}
	return -1
}
