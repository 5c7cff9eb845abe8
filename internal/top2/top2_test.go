package top2

import (
	"math"
	"math/rand"
	"slices"
	"testing"
)

// reference sorts a copy of v.
func reference(v []float32) (float32, float32) {
	s := append([]float32{negInf, negInf}, v...)
	slices.Sort(s)
	return s[len(s)-1], s[len(s)-2]
}

func TestOfMatchesSorting(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for n := 0; n <= 70; n++ {
		for trial := 0; trial < 200; trial++ {
			v := make([]float32, n)
			for i := range v {
				// Few distinct values, so that ties are common.
				v[i] = float32(rng.Intn(9)-4) * 1.5
				if trial%3 == 0 {
					v[i] = float32(rng.NormFloat64() * 100)
				}
			}
			m1, m2 := Of(v)
			r1, r2 := reference(v)
			if m1 != r1 || m2 != r2 {
				t.Fatalf("Of(%v) = %v, %v; want %v, %v", v, m1, m2, r1, r2)
			}
			if n > 0 {
				if i := Index(v, m1); i < 0 || v[i] != m1 || slices.Index(v, m1) != i {
					t.Fatalf("Index(%v, %v) = %d", v, m1, i)
				}
			}
		}
	}
}

func TestOfInfinities(t *testing.T) {
	inf := float32(math.Inf(1))
	v := []float32{1, negInf, inf, 2, 3, negInf, 4, 5, 6, inf}
	if m1, m2 := Of(v); m1 != inf || m2 != inf {
		t.Fatalf("Of(%v) = %v, %v", v, m1, m2)
	}
	if m1, m2 := Of(v[:1]); m1 != 1 || m2 != negInf {
		t.Fatalf("Of(%v) = %v, %v", v[:1], m1, m2)
	}
	if i := Index(v, 7); i != -1 {
		t.Fatalf("Index of a missing value = %d", i)
	}
}

func TestOfNaNDoesNotPanic(t *testing.T) {
	nan := float32(math.NaN())
	for n := 0; n < 20; n++ {
		v := make([]float32, n)
		for i := range v {
			v[i] = float32(i)
			if i%3 == 1 {
				v[i] = nan
			}
		}
		m1, _ := Of(v)
		Index(v, m1)
	}
}

// scores51 is a decision over 51 labels (the deprels of UD).
func scores51() []float32 {
	rng := rand.New(rand.NewSource(1))
	v := make([]float32, 51)
	for i := range v {
		v[i] = float32(rng.NormFloat64() * 100)
	}
	return v
}

func BenchmarkOf51(b *testing.B) {
	v := scores51()
	for b.Loop() {
		Of(v)
	}
}

// BenchmarkOfScalar51 is the loop of other architectures, for comparison.
func BenchmarkOfScalar51(b *testing.B) {
	v := scores51()
	for b.Loop() {
		ofScalar(v, negInf, negInf)
	}
}
