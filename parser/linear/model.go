package linear

import (
	"cmp"
	"fmt"
	"math"
	"math/bits"
	"slices"
)

// keyMul is an odd multiplier applied to feature hashes before they are
// stored in a Model: multiplication by an odd number is a bijection on
// uint64 whose top bits depend on every input bit, so a model that keeps
// only the top KeyBits bits of the product keeps well-mixed bits even when
// the caller's hash is weak in its high bits.
const keyMul = 0xD6E8FEB86659FD93

// Precision is how a Model stores its weights.
type Precision int

const (
	// Int16 quantizes every weight to a 16-bit integer times one per-model
	// scale (the largest absolute weight / 32767). Weights that round to 0
	// are dropped. This is the default. Measured on the EWT UPOS tagger,
	// Int16 with 40-bit keys tags dev exactly as accurately as Float32 with
	// 64-bit keys (95.64 %), in a classifier 31 % smaller.
	Int16 Precision = iota
	// Float32 keeps the averaged weights as float32.
	Float32
)

// String returns "int16" or "float32".
func (p Precision) String() string {
	switch p {
	case Int16:
		return "int16"
	case Float32:
		return "float32"
	}
	return fmt.Sprintf("Precision(%d)", int(p))
}

// FreezeOptions controls how averaged weights are turned into a Model. The
// zero value keeps every non-zero weight, quantized to Int16, with full
// 64-bit keys.
type FreezeOptions struct {
	// MinUpdates drops features touched by fewer than this many updates
	// (calls of Update or UpdateClass that included the feature).
	MinUpdates int
	// MinAbs drops averaged weights whose absolute value is below MinAbs.
	// Weights that average to exactly zero are always dropped.
	MinAbs float32
	// Precision is the stored weight format (default Int16).
	Precision Precision
	// KeyBits is the number of bits of each (mixed) feature hash the model
	// keeps, in [16, 64]; 0 means 64. Fewer bits make the model file smaller
	// (keys are delta-coded after sorting) at the price of merging features
	// whose kept bits collide and of matching unseen features with
	// probability about NumFeatures / 2^KeyBits per lookup.
	KeyBits int
}

// Freeze returns the averaged weights as an immutable Model. The averaged
// weight of a (feature, class) is the mean, over the Clock() ticks, of the
// weight's value at each tick (with no ticks, the current weights are
// used). Freeze does not change the trainer: training may continue and be
// frozen again. It panics if opt.Precision or opt.KeyBits is invalid.
func (t *Trainer) Freeze(opt FreezeOptions) *Model {
	keyBits := opt.KeyBits
	if keyBits == 0 {
		keyBits = 64
	}
	if keyBits < 16 || keyBits > 64 {
		panic(fmt.Sprintf("linear: Freeze: KeyBits %d, want 0 or 16..64", opt.KeyBits))
	}
	if opt.Precision != Int16 && opt.Precision != Float32 {
		panic(fmt.Sprintf("linear: Freeze: invalid precision %v", opt.Precision))
	}
	kshift := uint(64 - keyBits)

	// Collect the surviving averaged weights, row by row.
	type row struct {
		key uint64
		off int
		n   int
	}
	var rows []row
	var ent []mentry
	for i := range t.slots {
		sl := &t.slots[i]
		if sl.n == 0 || int(sl.upd) < opt.MinUpdates {
			continue
		}
		off := len(ent)
		for j := sl.off; j < sl.off+uint32(sl.n); j++ {
			w := t.average(j)
			if w == 0 || float32(math.Abs(float64(w))) < opt.MinAbs {
				continue
			}
			ent = append(ent, mentry{cls: t.ent[j].cls, w: w})
		}
		if len(ent) > off {
			rows = append(rows, row{key: (sl.key * keyMul) >> kshift, off: off, n: len(ent) - off})
		}
	}
	slices.SortFunc(rows, func(a, b row) int { return cmp.Compare(a.key, b.key) })

	// Merge rows whose kept keys collide, sort each row by class.
	acc := make([]float64, t.numClasses)
	keys := make([]uint64, 0, len(rows))
	counts := make([]uint32, 0, len(rows))
	out := make([]mentry, 0, len(ent))
	for i := 0; i < len(rows); {
		j := i + 1
		for j < len(rows) && rows[j].key == rows[i].key {
			j++
		}
		start := len(out)
		if j == i+1 {
			out = append(out, ent[rows[i].off:rows[i].off+rows[i].n]...)
		} else {
			for _, r := range rows[i:j] {
				for _, e := range ent[r.off : r.off+r.n] {
					acc[e.cls] += float64(e.w)
				}
			}
			for c, w := range acc {
				if w != 0 {
					out = append(out, mentry{cls: uint32(c), w: float32(w)})
					acc[c] = 0
				}
			}
		}
		if len(out) > start { // merged weights may cancel out
			slices.SortFunc(out[start:], func(a, b mentry) int { return cmp.Compare(a.cls, b.cls) })
			keys = append(keys, rows[i].key)
			counts = append(counts, uint32(len(out)-start))
		}
		i = j
	}

	m := &Model{numClasses: t.numClasses, keyBits: keyBits, prec: opt.Precision, scale: 1}
	if opt.Precision == Int16 {
		keys, counts, out, m.scale = quantize(keys, counts, out)
	}
	m.build(keys, counts, out)
	return m
}

// quantize rounds every weight to a multiple of a common scale (the largest
// absolute weight / 32767), drops weights and rows that become empty, and
// returns the compacted arrays (sharing the inputs' memory) and the scale.
func quantize(keys []uint64, counts []uint32, ent []mentry) ([]uint64, []uint32, []mentry, float32) {
	var maxAbs float32
	for _, e := range ent {
		maxAbs = max(maxAbs, float32(math.Abs(float64(e.w))))
	}
	scale := float32(1)
	if maxAbs > 0 {
		scale = maxAbs / 32767
	}
	nk, ne := 0, 0
	off := 0
	for i, k := range keys {
		start := ne
		for _, e := range ent[off : off+int(counts[i])] {
			q := quant16(e.w, scale)
			if q == 0 {
				continue
			}
			ent[ne] = mentry{cls: e.cls, w: float32(q) * scale}
			ne++
		}
		off += int(counts[i])
		if ne > start {
			keys[nk] = k
			counts[nk] = uint32(ne - start)
			nk++
		}
	}
	return keys[:nk], counts[:nk], ent[:ne], scale
}

// quant16 returns w/scale rounded to the nearest int16 (clamped).
func quant16(w, scale float32) int16 {
	q := math.Round(float64(w) / float64(scale))
	return int16(max(-32767, min(32767, q)))
}

// mslot is one slot of a Model's open-addressing table. The rows of the
// table are stored in slot order, so that a slot's row runs from its off to
// the next slot's off; an empty slot has an empty row. The table has one
// extra sentinel slot at the end holding the total number of entries.
type mslot struct {
	fp  uint32 // fingerprint: the low 32 bits of the stored key
	off uint32 // first entry of the row
}

// mentry is one (class, weight) pair of a row.
type mentry struct {
	cls uint32
	w   float32
}

// Model is an immutable linear classifier: for each known feature, a sparse
// row of (class, weight) pairs; the score of a class is the sum of its
// weights over the features of an instance.
//
// In memory a Model is an open-addressing hash table (power-of-two size,
// load factor at most 1/2, linear probing) of 8-byte slots holding a 32-bit
// fingerprint of the key and the start of its row, and one array of rows.
// With Int16 precision a row entry is 4 bytes (class in the high 16 bits,
// quantized weight in the low 16), with Float32 precision 8 bytes. Two
// different features whose stored keys share the home slot's probe run
// and the fingerprint would share a row; with 32-bit fingerprints this is
// as unlikely as a collision of the stored keys themselves. A Model is safe
// for concurrent use by any number of goroutines.
type Model struct {
	numClasses int
	keyBits    int
	prec       Precision
	scale      float32  // quantization step (Int16) or 1
	slots      []mslot  // table, plus one sentinel slot
	shift      uint     // 64 - log2(table size)
	kshift     uint     // 64 - keyBits
	keys       []uint64 // stored keys, sorted (for encoding)
	q          []uint32 // Int16 rows: class<<16 | uint16(weight/scale)
	ent        []mentry // Float32 rows
}

// build sets up the table from sorted, distinct keys, row lengths (>= 1)
// and the rows' entries in key order (which build may reuse). With Int16
// precision every weight must be a multiple of m.scale.
func (m *Model) build(keys []uint64, counts []uint32, ent []mentry) {
	m.keys = keys
	m.kshift = uint(64 - m.keyBits)
	size := 2
	for size < 2*len(keys) {
		size *= 2
	}
	m.shift = uint(64 - bits.TrailingZeros(uint(size)))
	mask := size - 1
	// Place the keys, remembering which key sits in which slot.
	at := make([]int32, size)
	for i := range at {
		at[i] = -1
	}
	for i, k := range keys {
		j := int((k * fib) >> m.shift)
		for at[j] >= 0 {
			j = (j + 1) & mask
		}
		at[j] = int32(i)
	}
	starts := make([]uint32, len(keys))
	off := uint32(0)
	for i, n := range counts {
		starts[i] = off
		off += n
	}
	// Lay the rows out in slot order.
	m.slots = make([]mslot, size+1)
	if m.prec == Int16 {
		m.q = make([]uint32, 0, len(ent))
	} else {
		m.ent = make([]mentry, 0, len(ent))
	}
	pos := uint32(0)
	for j, i := range at {
		m.slots[j].off = pos
		if i < 0 {
			continue
		}
		m.slots[j].fp = uint32(keys[i])
		row := ent[starts[i] : starts[i]+counts[i]]
		if m.prec == Int16 {
			for _, e := range row {
				m.q = append(m.q, e.cls<<16|uint32(uint16(quant16(e.w, m.scale))))
			}
		} else {
			m.ent = append(m.ent, row...)
		}
		pos += counts[i]
	}
	m.slots[size].off = pos
}

// row returns the bounds of the row of stored key k in the entry arrays,
// ok false if k has no row.
func (m *Model) row(k uint64) (start, end uint32, ok bool) {
	mask := uint64(len(m.slots) - 2)
	i := (k * fib) >> m.shift
	fp := uint32(k)
	for {
		a, b := m.slots[i].off, m.slots[i+1].off
		if a == b {
			return 0, 0, false
		}
		if m.slots[i].fp == fp {
			return a, b, true
		}
		i = (i + 1) & mask
	}
}

// NumClasses returns the number of classes.
func (m *Model) NumClasses() int { return m.numClasses }

// NumFeatures returns the number of features with at least one weight.
func (m *Model) NumFeatures() int { return len(m.keys) }

// NumWeights returns the number of stored (feature, class) weights.
func (m *Model) NumWeights() int { return len(m.q) + len(m.ent) }

// Precision returns the weight format the model stores.
func (m *Model) Precision() Precision { return m.prec }

// KeyBits returns the number of hash bits kept per feature.
func (m *Model) KeyBits() int { return m.keyBits }

// scoreChunk is the number of features Scores looks up together.
const scoreChunk = 64

// accClasses is the largest class count scored with integer sums.
const accClasses = 512

// Scores writes the score of every class for feats into scores[:NumClasses()]:
// the sum over feats of each feature's weight for that class (a feature
// listed twice counts twice; unknown features contribute nothing). It does
// not allocate and may be called concurrently. It panics if len(scores) <
// NumClasses().
func (m *Model) Scores(feats []uint64, scores []float32) {
	s := scores[:m.numClasses]
	clear(s)
	// Lookups are processed in chunks, in three passes: compute every slot
	// and touch it, then probe and touch every row, then add the rows. The
	// loads of a pass do not depend on each other, so their cache misses
	// overlap instead of being serialized behind data-dependent branches.
	var pos [scoreChunk]uint32
	var fps [scoreChunk]uint32
	slots := m.slots
	mask := uint64(len(slots) - 2)
	var sink uint32
	// With Int16 weights and at most accClasses classes, sum in integers.
	var accBuf [accClasses]int32
	var acc []int32
	if m.q != nil && m.numClasses <= accClasses {
		acc = accBuf[:m.numClasses]
	}
	for len(feats) > 0 {
		chunk := feats[:min(len(feats), scoreChunk)]
		feats = feats[len(chunk):]
		for j, f := range chunk {
			k := (f * keyMul) >> m.kshift
			i := (k * fib) >> m.shift
			fps[j] = uint32(k)
			pos[j] = uint32(i)
			sink += slots[i].fp
		}
		n := 0
		for j := range chunk {
			i := uint64(pos[j])
			for {
				a, b := slots[i].off, slots[i+1].off
				if a == b {
					break
				}
				if slots[i].fp == fps[j] {
					pos[n], fps[n] = a, b
					n++
					break
				}
				i = (i + 1) & mask
			}
		}
		if m.q != nil && len(acc) > 0 {
			q := m.q
			for j := 0; j < n; j++ {
				sink += q[pos[j]]
			}
			// Integer sums: quantized weights add exactly, and an int32
			// add is cheaper than a convert, multiply and float add.
			for j := 0; j < n; j++ {
				for _, e := range q[pos[j]:fps[j]] {
					acc[e>>16] += int32(int16(e))
				}
			}
		} else if m.q != nil {
			q, scale := m.q, m.scale
			for j := 0; j < n; j++ {
				sink += q[pos[j]]
			}
			for j := 0; j < n; j++ {
				for _, e := range q[pos[j]:fps[j]] {
					s[e>>16] += float32(int16(e)) * scale
				}
			}
		} else {
			ent := m.ent
			for j := 0; j < n; j++ {
				for _, e := range ent[pos[j]:fps[j]] {
					s[e.cls] += e.w
				}
			}
		}
	}
	if acc != nil {
		for c, v := range acc {
			s[c] = float32(v) * m.scale
		}
	}
	if sink == 1 {
		// Practically never true; keeps the touching loads above from being
		// optimized away.
		s[0] += 0
	}
}
