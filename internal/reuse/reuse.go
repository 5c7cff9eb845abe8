// Package reuse fills slices in place of allocating them: the per-call
// scratch of parsing keeps its arrays and only grows them.
package reuse

// Fill returns b resized to n elements, each v, reusing b's array when its
// capacity allows (a new array otherwise).
func Fill[T any](b []T, n int, v T) []T {
	if cap(b) < n {
		b = make([]T, n)
	}
	b = b[:n]
	for i := range b {
		b[i] = v
	}
	return b
}
