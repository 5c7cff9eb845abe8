// Package linear is the learning core of transparse: a multi-class averaged
// perceptron (Collins 2002, "Discriminative training methods for hidden
// Markov models: theory and experiments with perceptron algorithms", EMNLP)
// over sparse binary features, and the compact read-only model it is frozen
// into.
//
// Features are uint64 hashes computed by the caller, one per instantiated
// feature template (the caller mixes the template id into the hash). A
// feature's weights form a sparse vector over the classes 0..NumClasses()-1.
//
// Training uses a Trainer: call Scores to predict, Update (or UpdateClass)
// when the prediction is wrong, and Tick once per training instance. Freeze
// averages the weights over all ticks, prunes them and returns a Model, which
// is immutable, safe for concurrent use, scores without allocating, and is
// stored in a model file through Classifier and FromClassifier.
//
// Speed: the benchmarks BenchmarkScoresEWT (scoring one parser state of the
// bundled model), BenchmarkFromClassifier (decoding a classifier) and
// BenchmarkUpdate (a Trainer step) measure the hot paths; their figures are
// in docs/bench-results.md.
package linear

import (
	"fmt"
	"math/bits"
)

// MaxClasses is the largest number of classes a Trainer or Model supports.
const MaxClasses = 65535

// fib is 2^64 divided by the golden ratio, for Fibonacci hashing of keys
// into table slots.
const fib = 0x9E3779B97F4A7C15

// tslot is one slot of the trainer's open-addressing feature table. A slot
// with n == 0 is empty: a feature is only inserted together with its first
// weight, so occupied slots always have n >= 1.
type tslot struct {
	key uint64
	off uint32 // first entry of the row in Trainer.ent
	n   uint16 // entries in the row
	upd uint16 // number of updates that touched the feature (saturating)
}

// tentry is one class weight of a feature: the class and its current
// weight. Its averaging accumulator is kept apart, in Trainer.u at the same
// index, so that scoring reads 8 bytes per weight: u is the sum of
// clock*delta over all updates of the weight, so that the sum of the weight
// over all ticks is clock*w - u (the averaging trick of Daumé III, 2006,
// equivalent to keeping a per-weight timestamp and running total).
type tentry struct {
	cls uint32
	w   float32
}

// Trainer is a multi-class averaged perceptron under training (Collins
// 2002), with lazy averaging: each weight keeps its current value and the
// clock-weighted sum of its updates, so an update costs O(1) per touched
// weight and averaging happens once, in Freeze.
//
// Weights are stored sparsely: an open-addressing hash table maps a feature
// hash to a row of (class, weight) entries holding only the classes that
// feature was ever updated for. Rows live in one arena with power-of-two
// block sizes and free lists, so the Go heap holds a handful of large
// pointer-free arrays no matter how many features there are (16 bytes per
// table slot, at most 3/4 full, and 16 bytes per weight, plus slack).
//
// A Trainer is not safe for concurrent use.
type Trainer struct {
	numClasses int
	clock      int64
	slots      []tslot
	shift      uint // 64 - log2(len(slots))
	used       int  // occupied slots
	ent        []tentry
	u          []float64  // averaging accumulators, parallel to ent
	sizes      []int      // block sizes by size class
	free       [][]uint32 // free blocks by size class
}

// NewTrainer returns an empty trainer for numClasses classes. It panics if
// numClasses is not in [1, MaxClasses] (a programming error).
func NewTrainer(numClasses int) *Trainer {
	if numClasses < 1 || numClasses > MaxClasses {
		panic(fmt.Sprintf("linear: NewTrainer: %d classes, want 1..%d", numClasses, MaxClasses))
	}
	t := &Trainer{numClasses: numClasses}
	for s := 1; s < numClasses; s *= 2 {
		t.sizes = append(t.sizes, s)
	}
	t.sizes = append(t.sizes, numClasses)
	t.free = make([][]uint32, len(t.sizes))
	t.resize(1 << 16)
	return t
}

// NumClasses returns the number of classes.
func (t *Trainer) NumClasses() int { return t.numClasses }

// NumFeatures returns the number of distinct features that have a weight.
func (t *Trainer) NumFeatures() int { return t.used }

// Clock returns the number of Tick calls so far.
func (t *Trainer) Clock() int64 { return t.clock }

// Scores writes the current (non-averaged) score of every class for the
// feature set feats into scores[:NumClasses()]: the sum over feats of each
// feature's weight for that class (a feature listed twice counts twice).
// Unknown features contribute nothing. It panics if len(scores) <
// NumClasses().
func (t *Trainer) Scores(feats []uint64, scores []float32) {
	s := scores[:t.numClasses]
	clear(s)
	// As in Model.Scores: touch all slots of a chunk first so that their
	// cache misses overlap, then probe and add.
	var pos [scoreChunk]uint32
	slots, ent := t.slots, t.ent
	mask := uint64(len(slots) - 1)
	var sink uint64
	for len(feats) > 0 {
		chunk := feats[:min(len(feats), scoreChunk)]
		feats = feats[len(chunk):]
		for j, f := range chunk {
			i := (f * fib) >> t.shift
			pos[j] = uint32(i)
			sink += slots[i&mask].key
		}
		for j, f := range chunk {
			i := uint64(pos[j])
			for {
				sl := &slots[i&mask]
				if sl.n == 0 {
					break
				}
				if sl.key == f {
					for _, e := range ent[sl.off : sl.off+uint32(sl.n)] {
						s[e.cls] += e.w
					}
					break
				}
				i++
			}
		}
	}
	if sink == 1 {
		s[0] += 0 // keeps the touching loads
	}
}

// Update adds +1 to the weights of class gold and -1 to the weights of
// class pred for every feature in feats (the perceptron update). Update
// with gold == pred is a no-op. It panics if gold or pred is not in
// [0, NumClasses()).
func (t *Trainer) Update(feats []uint64, gold, pred int) {
	if gold == pred {
		return
	}
	t.checkClass(gold)
	t.checkClass(pred)
	for _, f := range feats {
		sl := t.slot(f)
		t.add(sl, gold, 1)
		t.add(sl, pred, -1)
		if sl.upd != ^uint16(0) {
			sl.upd++
		}
	}
}

// UpdateClass adds delta to the weight of class for every feature in feats.
// It allows cost-weighted or one-sided updates (for example +c to the gold
// class and -c to each of several wrong classes). A zero delta is a no-op.
// It panics if class is not in [0, NumClasses()).
func (t *Trainer) UpdateClass(feats []uint64, class int, delta float32) {
	if delta == 0 {
		return
	}
	t.checkClass(class)
	for _, f := range feats {
		sl := t.slot(f)
		t.add(sl, class, delta)
		if sl.upd != ^uint16(0) {
			sl.upd++
		}
	}
}

// Tick tells the trainer one training instance was processed: it advances
// the clock of the averaging. The averaged weight is the mean, over all
// ticks, of the weight's value at the moment of the tick.
func (t *Trainer) Tick() { t.clock++ }

func (t *Trainer) checkClass(c int) {
	if c < 0 || c >= t.numClasses {
		panic(fmt.Sprintf("linear: class %d out of range [0, %d)", c, t.numClasses))
	}
}

// slot returns the slot of feature f, inserting an empty row if needed. The
// pointer is valid until the next insertion.
func (t *Trainer) slot(f uint64) *tslot {
	if 4*(t.used+1) > 3*len(t.slots) {
		t.resize(2 * len(t.slots))
	}
	mask := len(t.slots) - 1
	i := int((f * fib) >> t.shift)
	for {
		sl := &t.slots[i]
		if sl.n == 0 {
			// Insert with a one-entry block; the caller adds the entry.
			sl.key = f
			sl.off = t.alloc(0)
			sl.upd = 0
			t.used++
			return sl
		}
		if sl.key == f {
			return sl
		}
		i = (i + 1) & mask
	}
}

// resize rehashes the table into size slots (a power of two).
func (t *Trainer) resize(size int) {
	old := t.slots
	t.slots = make([]tslot, size)
	t.shift = uint(64 - bits.TrailingZeros(uint(size)))
	mask := size - 1
	for _, sl := range old {
		if sl.n == 0 {
			continue
		}
		i := int((sl.key * fib) >> t.shift)
		for t.slots[i].n != 0 {
			i = (i + 1) & mask
		}
		t.slots[i] = sl
	}
}

// sizeClass returns the size class of a row of n >= 1 entries.
func (t *Trainer) sizeClass(n int) int {
	return min(bits.Len(uint(n-1)), len(t.sizes)-1)
}

// alloc returns the offset of a free block of size class sc.
func (t *Trainer) alloc(sc int) uint32 {
	if l := t.free[sc]; len(l) > 0 {
		off := l[len(l)-1]
		t.free[sc] = l[:len(l)-1]
		return off
	}
	off := len(t.ent)
	size := t.sizes[sc]
	if uint64(off)+uint64(size) > 1<<32-1 {
		panic("linear: trainer weight arena exceeds 2^32 entries")
	}
	if off+size > cap(t.ent) {
		// Grow by half: the arena is the trainer's largest allocation, so
		// this trades a little more copying for less slack than doubling.
		c := max(off+size, 1024, cap(t.ent)+cap(t.ent)/2)
		grown := make([]tentry, off, c)
		copy(grown, t.ent)
		t.ent = grown
		grownU := make([]float64, off, c)
		copy(grownU, t.u)
		t.u = grownU
	}
	t.ent = t.ent[:off+size]
	t.u = t.u[:off+size]
	return uint32(off)
}

// add adds d to the weight of class c in the row of sl. A new row (n == 0)
// already owns a block of size class 0.
func (t *Trainer) add(sl *tslot, c int, d float32) {
	cls := uint32(c)
	n := int(sl.n)
	row := t.ent[sl.off : sl.off+uint32(n)]
	for i := range row {
		if row[i].cls == cls {
			row[i].w += d
			t.u[sl.off+uint32(i)] += float64(t.clock) * float64(d)
			return
		}
	}
	if n > 0 && t.sizeClass(n+1) != t.sizeClass(n) {
		// The block is full: move the row to a block twice as large.
		sc := t.sizeClass(n)
		off := t.alloc(sc + 1)
		copy(t.ent[off:off+uint32(n)], t.ent[sl.off:sl.off+uint32(n)])
		copy(t.u[off:off+uint32(n)], t.u[sl.off:sl.off+uint32(n)])
		t.free[sc] = append(t.free[sc], sl.off)
		sl.off = off
	}
	t.ent[sl.off+uint32(n)] = tentry{cls: cls, w: d}
	t.u[sl.off+uint32(n)] = float64(t.clock) * float64(d)
	sl.n++
}

// average returns the averaged value of the weight at index i of the arena.
func (t *Trainer) average(i uint32) float32 {
	w := t.ent[i].w
	if t.clock == 0 {
		return w
	}
	c := float64(t.clock)
	return float32((c*float64(w) - t.u[i]) / c)
}
