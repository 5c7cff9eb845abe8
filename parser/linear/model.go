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
	// are dropped. This is the default.
	Int16 Precision = iota
	// Float32 keeps the averaged weights as float32.
	Float32
)

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
		for j := range t.ent[sl.off : sl.off+uint32(sl.n)] {
			e := &t.ent[sl.off+uint32(j)]
			w := t.average(e)
			if w == 0 || float32(math.Abs(float64(w))) < opt.MinAbs {
				continue
			}
			ent = append(ent, mentry{cls: uint32(e.cls), w: w})
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
		slices.SortFunc(out[start:], func(a, b mentry) int { return cmp.Compare(a.cls, b.cls) })
		keys = append(keys, rows[i].key)
		counts = append(counts, uint32(len(out)-start))
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

// mslot is one slot of a Model's open-addressing table (16 bytes, so one
// probe touches one cache line). n == 0 marks an empty slot.
type mslot struct {
	key uint64 // (feature * keyMul) >> (64 - keyBits)
	off uint32 // first entry of the row in Model.ent
	n   uint32 // entries in the row
}

// mentry is one (class, weight) pair of a Model row.
type mentry struct {
	cls uint32
	w   float32
}

// Model is an immutable linear classifier: for each known feature, a sparse
// row of (class, weight) pairs; the score of a class is the sum of its
// weights over the features of an instance.
//
// In memory a Model is an open-addressing hash table (power-of-two size,
// load factor at most 1/2, linear probing) of 16-byte slots holding the
// key and the position and length of its row, and one array of 8-byte
// (class, float32 weight) entries; rows are sorted by class. A Model is safe
// for concurrent use by any number of goroutines.
type Model struct {
	numClasses int
	keyBits    int
	prec       Precision
	scale      float32 // quantization step (Int16) or 1
	slots      []mslot
	shift      uint // 64 - log2(len(slots))
	kshift     uint // 64 - keyBits
	keys       []uint64
	counts     []uint32
	ent        []mentry
}

// build sets up the table from sorted keys, row lengths and entries (which
// the model keeps; keys and counts are kept for encoding).
func (m *Model) build(keys []uint64, counts []uint32, ent []mentry) {
	m.keys, m.counts, m.ent = keys, counts, ent
	m.kshift = uint(64 - m.keyBits)
	size := 2
	for size < 2*len(keys) {
		size *= 2
	}
	m.slots = make([]mslot, size)
	m.shift = uint(64 - bits.TrailingZeros(uint(size)))
	mask := size - 1
	off := uint32(0)
	for i, k := range keys {
		j := int((k * fib) >> m.shift)
		for m.slots[j].n != 0 {
			j = (j + 1) & mask
		}
		m.slots[j] = mslot{key: k, off: off, n: counts[i]}
		off += counts[i]
	}
}

// NumClasses returns the number of classes.
func (m *Model) NumClasses() int { return m.numClasses }

// NumFeatures returns the number of features with at least one weight.
func (m *Model) NumFeatures() int { return len(m.keys) }

// NumWeights returns the number of stored (feature, class) weights.
func (m *Model) NumWeights() int { return len(m.ent) }

// Precision returns the weight format the model stores.
func (m *Model) Precision() Precision { return m.prec }

// KeyBits returns the number of hash bits kept per feature.
func (m *Model) KeyBits() int { return m.keyBits }

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
	var keys [scoreChunk]uint64
	slots, ent := m.slots, m.ent
	mask := uint64(len(slots) - 1)
	var sink uint64
	for len(feats) > 0 {
		chunk := feats[:min(len(feats), scoreChunk)]
		feats = feats[len(chunk):]
		for j, f := range chunk {
			k := (f * keyMul) >> m.kshift
			i := (k * fib) >> m.shift
			keys[j] = k
			pos[j] = uint32(i)
			sink += slots[i&mask].key
		}
		n := 0
		for j := range chunk {
			k := keys[j]
			i := uint64(pos[j])
			for {
				sl := &slots[i&mask]
				if sl.n == 0 {
					break
				}
				if sl.key == k {
					pos[n] = uint32(i & mask)
					n++
					sink += uint64(ent[sl.off].cls)
					break
				}
				i++
			}
		}
		for _, i := range pos[:n] {
			sl := &slots[i]
			for _, e := range ent[sl.off : sl.off+sl.n] {
				s[e.cls] += e.w
			}
		}
	}
	if sink == 1 {
		// Never true in practice (the sums are of random keys); keeps the
		// touching loads above from being optimized away.
		s[0] += 0
	}
}

const scoreChunk = 64
