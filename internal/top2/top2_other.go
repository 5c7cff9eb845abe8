//go:build !amd64

package top2

import "math"

// minVector: no vector kernel on this architecture.
const minVector = math.MaxInt

func ofVector(v []float32) (float32, float32) { return ofScalar(v, negInf, negInf) }
