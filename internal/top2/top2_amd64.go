package top2

// minVector is the shortest slice worth the SSE kernel.
const minVector = 8

// top4 returns the largest and second largest values of p[:n], n a
// positive multiple of 4 (top2_amd64.s).
//
//go:noescape
func top4(p *float32, n int) (m1, m2 float32)

func ofVector(v []float32) (float32, float32) {
	n := len(v) &^ 3
	m1, m2 := top4(&v[0], n)
	return ofScalar(v[n:], m1, m2)
}
