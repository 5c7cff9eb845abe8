package linear

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"slices"

	"github.com/transparse/transparse/internal/keytable"
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
	// are dropped. This is the default: it loses no accuracy against
	// Float32 in a classifier about a third smaller (docs/decisions.md).
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
	// Levels, when in [2, MaxLevels] with Int16 precision, rounds the
	// quantized weights to a codebook of at most Levels values fitted to
	// them (least squares, see Requantize), so that the model file stores
	// one byte per weight (LayoutCodebook) instead of two. 0 keeps every
	// int16 value.
	Levels int
	// WeightBits, with Int16 precision, is the number of bits (sign
	// included) of the quantized weights, in [2, 16]; 0 means 16. The
	// largest absolute weight becomes 2^(WeightBits-1) - 1 steps of the
	// scale. The table in memory is the same (int16 weights); the model
	// file, whose weights are Huffman-coded (modelfmt format version 2),
	// shrinks by about one bit per weight per bit dropped. On the EWT
	// models 11 and 12 bits score as 16 on dev (±0.03 LAS, ±0.01 UPOS)
	// and 9 bits loses 0.12 LAS from plain tokens.
	WeightBits int
}

// TrainedWeightBits is the FreezeOptions.WeightBits with which the
// transparse trainers (parser/tagger, parser/train) store their models
// unless told otherwise.
const TrainedWeightBits = 12

// Freeze returns the averaged weights as an immutable Model. The averaged
// weight of a (feature, class) is the mean, over the Clock() ticks, of the
// weight's value at each tick (with no ticks, the current weights are
// used). Freeze does not change the trainer: training may continue and be
// frozen again. It panics if opt.Precision or opt.KeyBits is invalid.
func (t *Trainer) Freeze(opt FreezeOptions) *Model { return FreezeMean([]*Trainer{t}, opt) }

// RunSeed is the seed of trainer k of an ensemble trained from seed (each
// on its own order of the examples, then merged by FreezeMean): trainer 0
// gets seed itself, so that an ensemble of one is the classifier of seed,
// and the others seeds 7919 (a prime) apart.
func RunSeed(seed int64, k int) int64 { return seed + int64(k)*7919 }

// FreezeMean returns the mean of the averaged weights of several trainers
// with the same number of classes (each frozen as by Freeze) as one Model:
// since scores are linear in the weights, the model scores every feature
// vector with the mean of the trainers' scores, an ensemble at the cost of
// one model (for trainers that saw the data in different orders: bagging
// of perceptrons, as in the averaged ensembles of Collins 2002 §4). The
// options apply to the mean: MinAbs drops mean weights below it;
// MinUpdates drops a feature from the trainers that updated it fewer
// times. FreezeMean of one trainer is its Freeze. It panics if ts is empty,
// the class counts differ, or the options are invalid.
func FreezeMean(ts []*Trainer, opt FreezeOptions) *Model {
	keyBits := checkFreeze(ts, opt)
	numClasses := ts[0].numClasses
	rows, ent, meanMin := collectRows(ts, opt, uint(64-keyBits))
	keys, counts, out := mergeRows(rows, ent, numClasses, meanMin)
	m := &Model{numClasses: numClasses, keyBits: keyBits, prec: opt.Precision, scale: 1}
	var q []int16
	if opt.Precision == Int16 {
		bits := opt.WeightBits
		if bits == 0 {
			bits = 16
		}
		keys, counts, out, q, m.scale = quantize(keys, counts, out, int16(1<<(bits-1)-1))
		if opt.Levels > 0 {
			roundTo(q, codebook(q, opt.Levels))
		}
	}
	in := &rowsIn{features: len(keys), entries: len(out)}
	in.classes, in.weights = entryBlobs(numClasses, out, q)
	prev := uint64(0)
	for i, k := range keys {
		in.keys = binary.AppendUvarint(in.keys, k-prev)
		in.counts = binary.AppendUvarint(in.counts, uint64(counts[i]))
		prev = k
	}
	if err := m.build(in); err != nil {
		panic("linear: Freeze: " + err.Error()) // a bug: Freeze's rows are valid
	}
	return m
}

// checkFreeze panics if ts is empty, the trainers' class counts differ or
// opt is invalid, and returns the key bits opt asks for.
func checkFreeze(ts []*Trainer, opt FreezeOptions) int {
	if len(ts) == 0 {
		panic("linear: FreezeMean of no trainers")
	}
	t := ts[0]
	for _, u := range ts[1:] {
		if u.numClasses != t.numClasses {
			panic(fmt.Sprintf("linear: FreezeMean: %d and %d classes", t.numClasses, u.numClasses))
		}
	}
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
	if opt.WeightBits != 0 && (opt.WeightBits < 2 || opt.WeightBits > 16 || opt.Precision != Int16) {
		panic(fmt.Sprintf("linear: Freeze: WeightBits %d, want 0, or 2..16 with Int16 precision", opt.WeightBits))
	}
	if opt.Levels != 0 && (opt.Levels < 2 || opt.Levels > MaxLevels || opt.Precision != Int16) {
		panic(fmt.Sprintf("linear: Freeze: Levels %d, want 0, or 2..%d with Int16 precision", opt.Levels, MaxLevels))
	}
	return keyBits
}

// frozenRow is the row of one trainer's feature being frozen: its kept key
// (the top bits of the mixed hash) and its entries, ent[off:off+n].
type frozenRow struct {
	key uint64
	off int
	n   int
}

// collectRows collects the surviving averaged weights of the trainers, row
// by row, sorted by key (rows of equal keys, from several trainers or
// colliding kept keys, are merged by mergeRows), keeping the top 64-kshift
// bits of each mixed key. With several trainers the weights are divided by
// their number and MinAbs applies to their means: collectRows returns the
// smallest absolute mean weight that mergeRows keeps.
func collectRows(ts []*Trainer, opt FreezeOptions, kshift uint) (rows []frozenRow, ent []mentry, meanMin float32) {
	// Sized for every weight of every row kept by MinUpdates, so that
	// collecting them does not grow the slices by copying (the trainers of
	// a large treebank hold hundreds of megabytes of weights).
	nRows, nEnt := 0, 0
	for _, t := range ts {
		for i := range t.slots {
			if sl := &t.slots[i]; sl.n != 0 && int(sl.upd) >= opt.MinUpdates {
				nRows++
				nEnt += int(sl.n)
			}
		}
	}
	rows = make([]frozenRow, 0, nRows)
	ent = make([]mentry, 0, nEnt)
	// One trainer: drop small weights now. Several: drop small means later.
	minAbs := opt.MinAbs
	if len(ts) > 1 {
		minAbs, meanMin = 0, opt.MinAbs
	}
	inv := 1 / float32(len(ts))
	for _, t := range ts {
		for i := range t.slots {
			sl := &t.slots[i]
			if sl.n == 0 || int(sl.upd) < opt.MinUpdates {
				continue
			}
			off := len(ent)
			for j := sl.off; j < sl.off+uint32(sl.n); j++ {
				w := t.average(j)
				if w == 0 || float32(math.Abs(float64(w))) < minAbs {
					continue
				}
				if len(ts) > 1 {
					w *= inv
				}
				ent = append(ent, mentry{cls: t.ent[j].cls, w: w})
			}
			if len(ent) > off {
				rows = append(rows, frozenRow{key: (sl.key * keyMul) >> kshift, off: off, n: len(ent) - off})
			}
		}
	}
	slices.SortFunc(rows, func(a, b frozenRow) int { return cmp.Compare(a.key, b.key) })
	return rows, ent, meanMin
}

// mergeRows merges the rows (sorted by key) whose keys are equal, summing
// their weights per class, drops the weights whose absolute value is below
// meanMin and the rows left empty, sorts each row by class, and returns
// the keys, row lengths and entries of the result.
func mergeRows(rows []frozenRow, ent []mentry, numClasses int, meanMin float32) (keys []uint64, counts []uint32, out []mentry) {
	acc := make([]float64, numClasses)
	keys = make([]uint64, 0, len(rows))
	counts = make([]uint32, 0, len(rows))
	out = make([]mentry, 0, len(ent))
	for i := 0; i < len(rows); {
		j := i + 1
		for j < len(rows) && rows[j].key == rows[i].key {
			j++
		}
		start := len(out)
		if j == i+1 {
			for _, e := range ent[rows[i].off : rows[i].off+rows[i].n] {
				if float32(math.Abs(float64(e.w))) >= meanMin {
					out = append(out, e)
				}
			}
		} else {
			for _, r := range rows[i:j] {
				for _, e := range ent[r.off : r.off+r.n] {
					acc[e.cls] += float64(e.w)
				}
			}
			for c, w := range acc {
				if w != 0 && float32(math.Abs(w)) >= meanMin {
					out = append(out, mentry{cls: uint32(c), w: float32(w)})
				}
				acc[c] = 0
			}
		}
		if len(out) > start { // merged weights may cancel out
			slices.SortFunc(out[start:], func(a, b mentry) int { return cmp.Compare(a.cls, b.cls) })
			keys = append(keys, rows[i].key)
			counts = append(counts, uint32(len(out)-start))
		}
		i = j
	}
	return keys, counts, out
}

// quantize rounds every weight to a multiple of a common scale (the largest
// absolute weight / top, top <= 32767), drops weights and rows that become empty, and
// returns the compacted arrays (sharing the inputs' memory), the quantized
// weights (q[i] is the multiple of scale of ent[i]) and the scale.
func quantize(keys []uint64, counts []uint32, ent []mentry, top int16) ([]uint64, []uint32, []mentry, []int16, float32) {
	var maxAbs float32
	for _, e := range ent {
		maxAbs = max(maxAbs, float32(math.Abs(float64(e.w))))
	}
	scale := float32(1)
	if maxAbs > 0 {
		scale = maxAbs / float32(top)
	}
	q := make([]int16, 0, len(ent))
	nk, ne := 0, 0
	off := 0
	for i, k := range keys {
		start := ne
		for _, e := range ent[off : off+int(counts[i])] {
			v := quant16(e.w, scale)
			if v == 0 {
				continue
			}
			ent[ne] = e
			q = append(q, v)
			ne++
		}
		off += int(counts[i])
		if ne > start {
			keys[nk] = k
			counts[nk] = uint32(ne - start)
			nk++
		}
	}
	return keys[:nk], counts[:nk], ent[:ne], q, scale
}

// quant16 returns w/scale rounded to the nearest int16 (clamped).
func quant16(w, scale float32) int16 {
	q := math.Round(float64(w) / float64(scale))
	return int16(max(-32767, min(32767, q)))
}

// entryBlobs returns the classes and weights of ent in the byte formats of
// Layout: classes as uint8 (numClasses <= 256) or uint16 LE; the weights q
// as int16 LE when q is not nil, else the weights of ent as float32 LE.
func entryBlobs(numClasses int, ent []mentry, q []int16) (classes, weights []byte) {
	if numClasses <= 256 {
		classes = make([]byte, len(ent))
		for i, e := range ent {
			classes[i] = byte(e.cls)
		}
	} else {
		classes = make([]byte, 2*len(ent))
		for i, e := range ent {
			binary.LittleEndian.PutUint16(classes[2*i:], uint16(e.cls))
		}
	}
	if q != nil {
		weights = make([]byte, 2*len(q))
		for i, v := range q {
			binary.LittleEndian.PutUint16(weights[2*i:], uint16(v))
		}
	} else {
		weights = make([]byte, 4*len(ent))
		for i, e := range ent {
			binary.LittleEndian.PutUint32(weights[4*i:], math.Float32bits(e.w))
		}
	}
	return classes, weights
}

// mentry is one (class, weight) pair of a Float32 row.
type mentry struct {
	cls uint32
	w   float32
}

// bucket is one bucket of a Model's table: the stored value of a key (see
// Model) and its row. The row is one of:
//
//   - a&0xFFFF != 0: an inline Int16 row of up to three entries a, b, c,
//     each class<<16 | uint16(weight/scale), unused ones 0;
//   - a == 0: no row (an empty bucket);
//   - a == kindSparse<<16: the Int16 row Model.sparse[b : b+c], entries as
//     above, in class order;
//   - a == kindDense<<16: the dense Int16 row Model.dense[b : b+width]
//     (weight/scale of every class, 0 where there is none), holding c
//     non-zero weights;
//   - a == kindFloat<<16: the Float32 row Model.ent[b : b+c], in class order.
//
// Inline entries never have a zero low half (stored weights are not 0),
// which tells an inline row from the others.
type bucket struct {
	v       uint32
	a, b, c uint32
}

// Row kinds of a bucket (bucket.a >> 16 when bucket.a&0xFFFF == 0).
const (
	kindSparse = 1
	kindDense  = 2
	kindFloat  = 3
)

// lineSlots is the number of buckets in a line of the table.
const lineSlots = 4

// line is lineSlots buckets, 64 bytes: one cache line.
type line struct {
	v, a, b, c [lineSlots]uint32
}

func (l *line) bucket(s int) bucket { return bucket{l.v[s], l.a[s], l.b[s], l.c[s]} }

func (l *line) set(s int, b bucket) { l.v[s], l.a[s], l.b[s], l.c[s] = b.v, b.a, b.b, b.c }

// Model is an immutable linear classifier: for each known feature, a sparse
// row of (class, weight) pairs; the score of a class is the sum of its
// weights over the features of an instance. A Model is safe for concurrent
// use by any number of goroutines.
//
// In memory a Model is a table of 64-byte lines (one cache line each) of
// four 16-byte buckets (see bucket), filled by ordered linear probing
// (Amble and Knuth 1974, "Ordered hash tables", The Computer Journal
// 17(2)) at the granularity of lines: the stored keys (KeyBits bits, well
// mixed) are sorted, the home line of key k is floor(k*L/2^KeyBits) for L
// lines (about 2 keys per line, keysPerLine), which is monotonic in k
// (so homes need no hashing: the keys are well-mixed bits already), and
// key j goes to the first free bucket of line max(home, line of key j-1),
// or of the next line if that one is full. The table is thus built by one sweep over the
// sorted keys, buckets hold keys in increasing order, and a lookup reads
// its home line, and the next one only when every bucket of the line holds
// a smaller key (which a full line of overflowing keys does). A bucket
// stores 32 bits of its key: the key itself when keys have at most 32
// bits, otherwise its low 32 bits (after dropping low bits if the table
// must, see build); since every key a lookup meets lies within a few
// lines' share of the key space of the key looked up, the signed 32-bit
// difference of two stored values orders their keys exactly. Empty
// buckets hold the value of the smallest key whose home is a later line.
//
// With Int16 weights, rows of up to three entries live inside their
// bucket, so a lookup of a rare feature usually reads one cache line;
// rows with many entries (from width/8 on, see denseMin; frequent
// features) are stored densely, one int16 per class, and summed with AVX2
// instructions where available; the others are sparse rows of 4-byte
// entries. On the bundled EWT models this scores a parser state faster
// than a table of 8-byte slots with all rows sparse, in cache or not
// (docs/decisions.md, BenchmarkScoresEWT).
type Model struct {
	numClasses int
	keyBits    int
	prec       Precision
	scale      float32  // quantization step (Int16) or 1
	features   int      // number of stored keys
	weights    int      // number of stored weights
	lines      []line   // the table; the last line is always empty
	size       uint64   // L: the number of home lines
	lowMask    uint64   // 1<<(64-keyBits) - 1: the bits of a product the key drops
	vshift     uint     // 64-keyBits + the key bits a bucket value drops
	wide       bool     // bucket values drop key bits: check matches against bkeys
	bkeys      []uint64 // wide only: the stored key of each bucket
	sparse     []uint32 // Int16 rows of more than 3 and fewer than dense entries
	dense      []int16  // dense Int16 rows, width each
	width      int      // NumClasses rounded up to a multiple of 16 (dense rows)
	ent        []mentry // Float32 rows
}

// NumClasses returns the number of classes.
func (m *Model) NumClasses() int { return m.numClasses }

// NumFeatures returns the number of features with at least one weight.
func (m *Model) NumFeatures() int { return m.features }

// NumWeights returns the number of stored (feature, class) weights.
func (m *Model) NumWeights() int { return m.weights }

// Precision returns the weight format the model stores.
func (m *Model) Precision() Precision { return m.prec }

// KeyBits returns the number of hash bits kept per feature.
func (m *Model) KeyBits() int { return m.keyBits }

// scoreChunk is the number of features Scores looks up together: enough
// for the feature vector of a parser state in one chunk.
const scoreChunk = 128

// accClasses is the largest class count scored with integer sums.
const accClasses = 512

// Scores writes the score of every class for feats into scores[:NumClasses()]:
// the sum over feats of each feature's weight for that class (a feature
// listed twice counts twice; unknown features contribute nothing). It does
// not allocate and may be called concurrently. It panics if len(scores) <
// NumClasses().
//
// When the model is Exact, the sums are exact integer sums of the
// quantized weights, multiplied by the scale at the end, so they do not
// depend on the order of feats, and Scores(feats) equals ScoresFromSums of
// the sums AddSums accumulates over any split of feats.
func (m *Model) Scores(feats []uint64, scores []float32) {
	s := scores[:m.numClasses]
	if !m.Exact() {
		m.scoresGeneric(feats, s)
		return
	}
	// The sums live on the stack, which Go zeroes whole: a small array
	// for the usual class counts (up to 128: every parser and tagger of
	// the bundled models) rather than 2 KB each call.
	if m.width <= smallAcc {
		var acc [smallAcc]int32
		m.scoreSums(feats, acc[:m.width], s)
		return
	}
	var acc [accClasses]int32
	m.scoreSums(feats, acc[:m.width], s)
}

// smallAcc is the size of Scores's usual accumulator.
const smallAcc = 128

// scoreSums sums feats into sums (zero, SumStride long) and writes the
// scores s.
func (m *Model) scoreSums(feats []uint64, sums []int32, s []float32) {
	if m.wide {
		m.addSumsGeneric(feats, len(feats), sums)
	} else {
		m.addSums(feats, len(feats), sums)
	}
	scaleSums(s, sums, m.scale)
}

// Exact reports whether the model sums scores in integers: it has Int16
// weights and at most 512 classes, like every model transparse trains.
// AddSums and ScoresFromSums need an Exact model.
func (m *Model) Exact() bool { return m.prec == Int16 && m.numClasses <= accClasses }

// SumStride returns the number of integer sums AddSums keeps per instance
// (NumClasses rounded up to a multiple of 16), 0 if the model is not Exact.
func (m *Model) SumStride() int { return m.width }

// AddSums adds the quantized weights (weight/scale) of features to integer
// sums, for a batch of instances: instance k is feats[k*width :
// (k+1)*width] (width 0: one instance, all of feats), its sums are
// sums[k*SumStride() : (k+1)*SumStride()], and the sum of class c is at
// offset c. ScoresFromSums turns the sums of an instance into scores.
// Looking up the features of many instances in one call lets their cache
// misses overlap (see Scores); a caller can also keep the sums of
// features shared by several instances and add the others. It does not
// allocate and may be called concurrently. It panics if the model is not
// Exact, if len(feats) is not a multiple of width, or if sums is too short.
func (m *Model) AddSums(feats []uint64, width int, sums []int32) {
	if !m.Exact() {
		panic("linear: AddSums on a model that is not Exact")
	}
	if width == 0 {
		width = len(feats)
	}
	n := 1
	if width > 0 {
		if len(feats)%width != 0 {
			panic(fmt.Sprintf("linear: AddSums: %d features is not a multiple of width %d", len(feats), width))
		}
		n = len(feats) / width
	}
	if len(sums) < n*m.width {
		panic(fmt.Sprintf("linear: AddSums: %d sums for %d instances of %d", len(sums), n, m.width))
	}
	if len(feats) == 0 {
		return
	}
	if m.wide {
		m.addSumsGeneric(feats, width, sums)
	} else {
		m.addSums(feats, width, sums)
	}
}

// ScoresFromSums writes the scores of the sums of one instance (see
// AddSums): scores[c] = float32(sums[c]) * scale for c < NumClasses(). It
// panics if the model is not Exact or a slice is shorter than
// NumClasses().
func (m *Model) ScoresFromSums(sums []int32, scores []float32) {
	if !m.Exact() {
		panic("linear: ScoresFromSums on a model that is not Exact")
	}
	scaleSums(scores[:m.numClasses], sums[:m.numClasses], m.scale)
}

// b2u returns 1 for true, 0 for false (compiled without a branch).
func b2u(b bool) uint32 {
	var x uint32
	if b {
		x = 1
	}
	return x
}

// addSums is AddSums (width > 0) for Exact models with exact 32-bit bucket
// values (not wide), the case of every model transparse trains. Lookups
// are processed in chunks, in passes: compute the home lines of the chunk
// and prefetch them; search the lines (without branches, except for
// lookups that go on to the next line); add the inline rows and collect
// the others; prefetch the sparse and dense rows; add the sparse rows; add
// the dense rows. The misses of a pass are all in flight together instead
// of serialized behind data-dependent branches. Prefetch instructions
// (touchLines, touchRows; PREFETCHT0 on amd64) matter here: touching with
// loads lets only the few misses whose loads fit in the reorder buffer
// overlap (docs/decisions.md, "A frozen, cache-line hash table of
// integer weights").
func (m *Model) addSums(feats []uint64, width int, sums []int32) {
	// Each pass is a function of its own (homes, probe, collect,
	// addSparse), used for any number of features: as fast as one loop
	// doing everything (BenchmarkParseGoldTags), with one copy of the
	// probe.
	var c chunk
	var sink uint32 // the touching loads of the portable touchLines, touchRows
	multi := width < len(feats)
	for at := 0; at < len(feats); at += scoreChunk {
		part := feats[at:min(len(feats), at+scoreChunk)]
		n := len(part)
		m.homes(part, &c)
		if multi {
			for j := range part {
				c.base[j] = uint32((at+j)/width) * uint32(m.width)
			}
		}
		sink += touchLines(m.lines, c.bucket[:n])
		m.probe(&c, n)
		ns, nd := m.collect(&c, n, sums)
		sink += touchRows(m.dense, c.dOff[:nd], m.width)
		sink += touchRows(m.sparse, c.sOff[:ns], denseMin(m.width)-1)
		m.addSparse(&c, ns, sums)
		// Dense rows, one call per run of rows of the same instance.
		for j := 0; j < nd; {
			b := c.dBase[j]
			e := j + 1
			for e < nd && c.dBase[e] == b {
				e++
			}
			addDense(sums[b:b+uint32(m.width)], m.dense, c.dOff[j:e])
			j = e
		}
	}
	if sink == 1 {
		// Practically never true; keeps the touching loads from being
		// optimized away.
		sums[0] += 0
	}
}

// chunk is the working memory of addSums for up to scoreChunk lookups.
type chunk struct {
	bucket [scoreChunk]uint32 // home line of each lookup, then its bucket
	val    [scoreChunk]uint32 // the bucket value it looks for
	base   [scoreChunk]uint32 // offset of its instance's sums (0: one instance)
	// The sparse and dense rows found: offset, length (sparse) and sums
	// offset of each.
	sOff, sLen, sBase, dOff, dBase [scoreChunk]uint32
}

// homes sets the home line and bucket value of each feature of feats
// (at most scoreChunk).
func (m *Model) homes(feats []uint64, c *chunk) {
	size, keep, vshift := m.size, ^m.lowMask, m.vshift&63
	home, val := c.bucket[:len(feats)], c.val[:len(feats)]
	for j, f := range feats {
		x := f * keyMul
		h, _ := bits.Mul64(x&keep, size)
		home[j] = uint32(h)
		val[j] = uint32(x >> vshift)
	}
}

// probe replaces the home line of each of the n lookups of c by the index
// of the bucket holding its value, or of an empty bucket if there is none.
func (m *Model) probe(c *chunk, n int) {
	lines := m.lines
	last := uint32(len(lines)*lineSlots - 1) // an empty bucket
	for j := range c.bucket[:n] {
		g, v := c.bucket[j], c.val[j]
		l := &lines[g]
		for int32(l.v[lineSlots-1]-v) < 0 {
			// Every bucket holds a smaller key: the line is full of
			// keys that overflowed from earlier lines.
			g++
			l = &lines[g]
		}
		// Values increase along the line: v can only be in the first
		// bucket whose value is not smaller.
		k := b2u(int32(l.v[0]-v) < 0) + b2u(int32(l.v[1]-v) < 0) + b2u(int32(l.v[2]-v) < 0)
		k %= lineSlots
		i := g*lineSlots + k
		if l.v[k] != v {
			i = last
		}
		c.bucket[j] = i
	}
}

// collect adds the inline rows of the n buckets of c to sums and lists the
// sparse and dense rows (ns and nd of them) in c.
func (m *Model) collect(c *chunk, n int, sums []int32) (ns, nd int) {
	lines := m.lines
	for j, i := range c.bucket[:n] {
		l := &lines[i/lineSlots]
		k := i % lineSlots
		a := l.a[k]
		if a&0xFFFF != 0 {
			acc := sums[c.base[j]:]
			acc[a>>16] += int32(int16(a))
			if b := l.b[k]; b != 0 {
				acc[b>>16] += int32(int16(b))
				if c := l.c[k]; c != 0 {
					acc[c>>16] += int32(int16(c))
				}
			}
		} else if a == kindSparse<<16 {
			c.sOff[ns], c.sLen[ns], c.sBase[ns] = l.b[k], l.c[k], c.base[j]
			ns++
		} else if a == kindDense<<16 {
			c.dOff[nd], c.dBase[nd] = l.b[k], c.base[j]
			nd++
		}
	}
	return ns, nd
}

// addSparse adds the ns sparse rows listed in c to sums.
func (m *Model) addSparse(c *chunk, ns int, sums []int32) {
	sparse := m.sparse
	for j := range c.sOff[:ns] {
		acc := sums[c.sBase[j]:]
		for _, e := range sparse[c.sOff[j] : c.sOff[j]+c.sLen[j]] {
			acc[e>>16] += int32(int16(e))
		}
	}
}

// addSumsGeneric is AddSums (width > 0) for every Exact model, one lookup
// at a time.
func (m *Model) addSumsGeneric(feats []uint64, width int, sums []int32) {
	for j, f := range feats {
		acc := sums[j/width*m.width:]
		b, ok := m.find((f * keyMul) >> (64 - m.keyBits))
		if !ok {
			continue
		}
		switch a := b.a; {
		case a&0xFFFF != 0:
			for _, e := range [...]uint32{a, b.b, b.c} {
				acc[e>>16] += int32(int16(e))
			}
		case a == kindSparse<<16:
			for _, e := range m.sparse[b.b : b.b+b.c] {
				acc[e>>16] += int32(int16(e))
			}
		case a == kindDense<<16:
			for c, w := range m.dense[b.b : b.b+uint32(m.width)] {
				acc[c] += int32(w)
			}
		}
	}
}

// scoresGeneric is Scores for models that are not Exact: float sums in
// the order of feats, one lookup at a time.
func (m *Model) scoresGeneric(feats []uint64, s []float32) {
	clear(s)
	for _, f := range feats {
		b, ok := m.find((f * keyMul) >> (64 - m.keyBits))
		if !ok {
			continue
		}
		switch a := b.a; {
		case a&0xFFFF != 0:
			for _, e := range [...]uint32{a, b.b, b.c} {
				if e != 0 {
					s[e>>16] += float32(int16(e)) * m.scale
				}
			}
		case a == kindSparse<<16:
			for _, e := range m.sparse[b.b : b.b+b.c] {
				s[e>>16] += float32(int16(e)) * m.scale
			}
		case a == kindFloat<<16:
			for _, e := range m.ent[b.b : b.b+b.c] {
				s[e.cls] += e.w
			}
		}
	}
}

// keyRecoverer returns a function that gives the stored key of the
// occupied bucket s of line g, for lines visited in increasing order. Wide
// models keep their keys; otherwise a bucket holds the low 32 bits of its
// key, and the key lies less than 2^31 from B(g), the smallest key whose
// home is line g (see build), which pins it down.
func (m *Model) keyRecoverer() func(g, s int) uint64 {
	if m.wide {
		return func(g, s int) uint64 { return m.bkeys[g*lineSlots+s] }
	}
	bounds := keytable.NewBoundaries(uint(m.keyBits), m.size)
	bg, x := uint64(0), 0           // B(x) for line x
	top := uint64(1)<<m.keyBits - 1 // (keys past the last home line: near 2^K)
	return func(g, s int) uint64 {
		for x < g {
			x++
			if b, ok := bounds.Next(); ok {
				bg = b
			} else {
				bg = top
			}
		}
		v := m.lines[g].v[s]
		return bg + uint64(int64(int32(v-uint32(bg))))
	}
}

// find returns the bucket of stored key k, ok false if k has none.
func (m *Model) find(k uint64) (b bucket, ok bool) {
	x := k << (64 - m.keyBits)
	g, _ := bits.Mul64(x, m.size)
	v := uint32(x >> m.vshift)
	for i := g * lineSlots; i < uint64(len(m.lines))*lineSlots; i++ {
		l := &m.lines[i/lineSlots]
		d := int32(l.v[i%lineSlots] - v)
		if d < 0 {
			continue
		}
		if d > 0 {
			return bucket{}, false
		}
		if l.a[i%lineSlots] != 0 && (!m.wide || m.bkeys[i] == k) {
			return l.bucket(int(i % lineSlots)), true
		}
	}
	return bucket{}, false
}
