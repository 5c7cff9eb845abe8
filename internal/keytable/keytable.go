// Package keytable holds the arithmetic of the key-ordered hash tables of
// parser/linear (the scoring table) and parser/tagger (the tag
// dictionary): sorted keys of K bits are laid out in lines of a fixed
// number of slots, each key in its home line (its position in the key
// space scaled to the number of lines) or, when that is full or taken by
// smaller keys, in the next line with room; so keys stay in order along
// the table and a lookup scans forward from the home line.
package keytable

import "math/bits"

// Home returns the home line of key k (of 64-kshift bits) in a table of
// size home lines: floor(k * size / 2^(64-kshift)).
func Home(k uint64, kshift uint, size uint64) uint64 {
	h, _ := bits.Mul64(k<<kshift, size)
	return h
}

// Placer follows the placement of sorted keys: the line G of the last key
// placed and the largest displacement Disp (line - home line) so far.
type Placer struct {
	kshift    uint
	size      uint64
	slots     int
	G, Disp   uint64
	used      int
	placedAny bool
}

// NewPlacer returns a Placer for a table of size home lines of slots
// slots each, keys of 64-kshift bits.
func NewPlacer(kshift uint, size uint64, slots int) Placer {
	return Placer{kshift: kshift, size: size, slots: slots}
}

// Place places the next key, which is larger than the ones before.
func (p *Placer) Place(k uint64) {
	h := Home(k, p.kshift, p.size)
	switch {
	case !p.placedAny || h > p.G:
		p.G, p.used, p.placedAny = h, 0, true
	case p.used == p.slots:
		p.G, p.used = p.G+1, 0
	}
	p.used++
	p.Disp = max(p.Disp, p.G-h)
}

// Boundaries computes B(x) = ceil(x * 2^K / size), the smallest key (of K
// bits) whose home line is x or later, for x = 1, 2, ... in turn, as
// x*q0 + ceil(x*r0/size) with q0, r0 = 2^K divided by size, without
// division. The empty slots of line x hold B(x+1), and B(x) lets a slot
// that keeps only the low 32 bits of its key give the whole key back.
type Boundaries struct {
	q0, r0, size       uint64
	x, bx, frac, carry uint64 // x*q0 = bx, x*r0 = carry*size + frac
}

// NewBoundaries returns the Boundaries of a table of size home lines and
// keys of K bits (1 <= K <= 64).
func NewBoundaries(K uint, size uint64) Boundaries {
	var q0, r0 uint64
	if K == 64 {
		q0, r0 = bits.Div64(1, 0, size)
	} else {
		q0, r0 = (1<<K)/size, (1<<K)%size
	}
	return Boundaries{q0: q0, r0: r0, size: size}
}

// Next returns B(x+1), or ok false if x+1 >= size (B is then 2^K), and
// increments x.
func (b *Boundaries) Next() (key uint64, ok bool) {
	b.x++
	if b.x >= b.size {
		return 0, false
	}
	b.bx += b.q0
	if b.frac += b.r0; b.frac >= b.size {
		b.frac -= b.size
		b.carry++
	}
	key = b.bx + b.carry
	if b.frac > 0 {
		key++
	}
	return key, true
}
