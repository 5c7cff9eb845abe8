package keytable

import (
	"math/big"
	"math/rand"
	"testing"
)

// Next gives ceil(x * 2^K / size) for x = 1 .. size-1, computed here with
// big integers, and the smallest key of each home line has that line as
// its home and the key before it the line before.
func TestBoundaries(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for _, K := range []uint{16, 32, 40, 64} {
		for trial := 0; trial < 20; trial++ {
			size := uint64(2 + rng.Intn(5000))
			b := NewBoundaries(K, size)
			space := new(big.Int).Lsh(big.NewInt(1), K)
			for x := uint64(1); x < size; x++ {
				got, ok := b.Next()
				want := new(big.Int).Mul(space, new(big.Int).SetUint64(x))
				want.Add(want, new(big.Int).SetUint64(size-1))
				want.Div(want, new(big.Int).SetUint64(size))
				if !ok || got != want.Uint64() {
					t.Fatalf("K %d size %d: B(%d) = %d, %v; want %s", K, size, x, got, ok, want)
				}
				if Home(got, 64-K, size) != x || Home(got-1, 64-K, size) != x-1 {
					t.Fatalf("K %d size %d: B(%d) = %d is not the first key of line %d", K, size, x, got, x)
				}
			}
			if _, ok := b.Next(); ok {
				t.Fatalf("K %d size %d: Next after B(size-1) is ok", K, size)
			}
		}
	}
}

// Placer puts sorted keys in their home line or the next with room: with
// one slot per line and keys all homed on line 0, the n-th key lands on
// line n-1, displaced by n-1.
func TestPlacer(t *testing.T) {
	p := NewPlacer(32, 100, 1) // 32-bit keys
	for i := uint64(0); i < 10; i++ {
		p.Place(i) // all home on line 0
		if p.G != i || p.Disp != i {
			t.Fatalf("key %d: line %d, displacement %d", i, p.G, p.Disp)
		}
	}
	p.Place(1 << 31) // home line 50
	if p.G != 50 || p.Disp != 9 {
		t.Fatalf("far key: line %d, displacement %d", p.G, p.Disp)
	}
}
