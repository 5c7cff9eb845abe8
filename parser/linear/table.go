package linear

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"sync"

	"github.com/transparse/transparse/internal/hugepage"
	"github.com/transparse/transparse/internal/keytable"
)

// Table parameters.
const (
	// keysPerLine is the mean number of keys per home line (of lineSlots
	// buckets): L = ceil(keys / keysPerLine). Fuller lines send a quarter
	// of the lookups on to the next line, a second cache miss after the
	// prefetched one; with 2 the tables are half as large again, and
	// scoring is faster for a little more load time (docs/decisions.md).
	keysPerLine = 2
	// inlineMax is the longest Int16 row stored inside its bucket.
	inlineMax = 3
	// maxLines bounds the table (line indices are uint32).
	maxLines = 1 << 30
)

// denseMin returns the shortest Int16 row a model with the given dense
// row width stores densely. A dense row costs width/8 vector additions and
// 2*width bytes, a sparse row one scalar addition and 4 bytes per entry;
// on the EWT parser and tagger models width/8 scores fastest of the
// thresholds tried (width/4, width/2).
func denseMin(width int) int { return max(inlineMax+1, width/8) }

// rowsIn is the content of a model in the blob formats of Layout: F keys
// (strictly increasing, < 2^KeyBits) as uvarint deltas, F row lengths (1
// to the number of classes) as uvarints, and E entries: classes as uint8
// (at most 256 classes) or uint16 LE, strictly increasing within a row,
// and weights as int16 LE (Int16: not 0 or -32768) or float32 LE
// (Float32: finite).
type rowsIn struct {
	features, entries int
	keys, counts      []byte
	classes, weights  []byte // sizes already checked against entries
}

// scratch is the decoded keys and row lengths of a classifier, needed
// only while its table is built. Loading the classifiers of a model one
// after the other reuses one scratch through scratchPool instead of
// faulting in fresh memory for each.
type scratch struct {
	keys   []uint64
	counts []uint32
}

var scratchPool sync.Pool // *scratch

// decode checks and decodes the keys and row lengths of in into sc.
func (sc *scratch) decode(in *rowsIn, keyBits uint, numClasses int) error {
	n := in.features
	sc.keys = hugepage.Scratch(sc.keys, n)
	sc.counts = hugepage.Scratch(sc.counts, n)
	at, prev := 0, uint64(0)
	for i := range sc.keys {
		d, next := uvarint(in.keys, at)
		if next <= at {
			return fmt.Errorf(`blob "keys": bad uvarint at key %d`, i)
		}
		at = next
		if i > 0 && d == 0 {
			return fmt.Errorf(`blob "keys": key %d is not greater than key %d`, i, i-1)
		}
		k := prev + d
		if k < prev || (keyBits < 64 && k>>keyBits != 0) {
			return fmt.Errorf(`blob "keys": key %d out of range`, i)
		}
		sc.keys[i], prev = k, k
	}
	if at != len(in.keys) {
		return fmt.Errorf(`blob "keys": %d trailing bytes`, len(in.keys)-at)
	}
	at = 0
	total := 0
	for i := range sc.counts {
		var c uint64
		if at < len(in.counts) && in.counts[at] < 0x80 {
			c = uint64(in.counts[at])
			at++
		} else {
			next := 0
			if c, next = uvarint(in.counts, at); next <= at {
				return fmt.Errorf(`blob "counts": bad uvarint at row %d`, i)
			}
			at = next
		}
		if c < 1 || c > uint64(numClasses) {
			return fmt.Errorf(`blob "counts": row %d has %d entries, want 1..%d`, i, c, numClasses)
		}
		if total += int(c); total > in.entries {
			return fmt.Errorf(`blob "counts": rows hold more than %d entries`, in.entries)
		}
		sc.counts[i] = uint32(c)
	}
	if at != len(in.counts) {
		return fmt.Errorf(`blob "counts": %d trailing bytes`, len(in.counts)-at)
	}
	if total != in.entries {
		return fmt.Errorf(`blob "counts": rows hold %d entries, want %d`, total, in.entries)
	}
	return nil
}

// build sets up the table of m (whose numClasses, keyBits, prec and scale
// are set) from in, checking everything and returning an error on the
// first invalid key, row length, class or weight.
//
// The keys and row lengths are decoded into scratch memory, and the table
// is built in two sweeps over them (no random access): the first (place)
// finds the line of each key and the largest displacement (line - home
// line), which decides how many key bits a bucket value must drop (see
// Model); the second (fill) fills the lines and rows in order. The model
// does not keep the keys: Classifier recovers them from the table.
func (m *Model) build(in *rowsIn) error {
	n := in.features
	nc := m.numClasses
	m.features = n
	m.lowMask = 1<<(64-uint(m.keyBits)) - 1
	size := max(2, (uint64(n)+keysPerLine-1)/keysPerLine)
	if size >= maxLines {
		return fmt.Errorf("%d features are too many", n)
	}
	m.width = 0
	dmin := math.MaxInt
	if m.prec == Int16 && nc <= accClasses {
		m.width = (nc + 15) &^ 15
		dmin = denseMin(m.width)
	}
	sc, _ := scratchPool.Get().(*scratch)
	if sc == nil {
		sc = new(scratch)
	}
	defer scratchPool.Put(sc)
	if err := sc.decode(in, uint(m.keyBits), nc); err != nil {
		return err
	}
	pl, rs := m.place(sc.keys, sc.counts, size, dmin)
	pl = m.fitValues(sc.keys, size, pl)
	lines := max(m.size, pl.G+1) + 1 // the last line stays empty
	m.allocate(lines, rs)
	return m.fill(in, sc.keys, sc.counts, dmin, lines)
}

// rowSizes is what the row arrays of a table hold: the entries of its
// sparse Int16 rows, its dense Int16 rows, and the entries of its Float32
// rows.
type rowSizes struct {
	sparse, dense, ent int
}

// place is the first sweep of build: it places the keys in a table of size
// home lines and counts the rows of each kind (dmin is the shortest dense
// row).
func (m *Model) place(keys []uint64, counts []uint32, size uint64, dmin int) (keytable.Placer, rowSizes) {
	int16s := m.prec == Int16
	var rs rowSizes
	pl := keytable.NewPlacer(64-uint(m.keyBits), size, lineSlots)
	for j, k := range keys {
		c := int(counts[j])
		switch {
		case !int16s:
			rs.ent += c
		case c >= dmin:
			rs.dense++
		case c > inlineMax:
			rs.sparse += c
		}
		pl.Place(k)
	}
	return pl, rs
}

// fitValues sets the table size of m and the key bits its bucket values
// drop (vshift, wide), given pl, the placement of keys in a table of size
// home lines, and returns the placement in the chosen size.
//
// Bucket values must order the keys a lookup compares: they are less than
// (2*disp+3) shares of the key space of one line apart, each share less
// than 2^(K-len(size)+1). If 32 bits do not cover that distance, a larger
// table (smaller shares, less displacement) may; otherwise values drop
// their low vs bits and matches are checked against full keys (wide).
func (m *Model) fitValues(keys []uint64, size uint64, pl keytable.Placer) keytable.Placer {
	K := uint(m.keyBits)
	kshift := 64 - K
	var vs uint
	for {
		need := K - uint(bits.Len64(size)) + 1 + uint(bits.Len64(2*pl.Disp+3))
		vs = 0
		if need > 30 {
			vs = need - 30
		}
		if vs == 0 || K > 48 || size > uint64(len(keys))+64 {
			break
		}
		size *= 2
		pl = keytable.NewPlacer(kshift, size, lineSlots)
		for _, k := range keys {
			pl.Place(k)
		}
	}
	m.size = size
	m.vshift = kshift + vs
	m.wide = vs > 0
	return pl
}

// allocate makes the table of m, of lines lines, and its row arrays, sized
// by rs. A load writes these tables once, all fresh memory: in huge pages
// its first touch faults once per 2 MB instead of once per 4 KB
// (docs/decisions.md), so they share one arena, advised whole.
func (m *Model) allocate(lines uint64, rs rowSizes) {
	arena := hugepage.NewArena(hugepage.ArenaBytes[line](int(lines)) +
		hugepage.ArenaBytes[uint32](rs.sparse) + hugepage.ArenaBytes[int16](rs.dense*m.width))
	m.lines = hugepage.Take[line](&arena, int(lines))
	m.sparse = hugepage.Take[uint32](&arena, rs.sparse)[:0]
	m.dense = hugepage.Take[int16](&arena, rs.dense*m.width)
	m.ent = make([]mentry, 0, rs.ent)
	if m.wide {
		m.bkeys = make([]uint64, lines*lineSlots)
	}
}

// fill is the second sweep of build: it fills the lines of m in key order
// and writes the rows of in, checking their classes and weights.
func (m *Model) fill(in *rowsIn, keys []uint64, counts []uint32, dmin int, lines uint64) error {
	K := uint(m.keyBits)
	kshift := 64 - K
	cb := 1
	if m.numClasses > 256 {
		cb = 2
	}
	rows := rowWriter{m: m, classes: in.classes, weights: in.weights, cb: cb, dmin: dmin, n: in.entries}
	// The common case, Int16 weights and byte classes, has a faster row
	// writer, which needs the weights checked beforehand.
	fast := m.prec == Int16 && cb == 1
	if m.prec == Int16 {
		if err := checkInt16(in.weights); err != nil {
			return err
		}
	}
	f := newLineFill(m)
	vs := f.vs
	for j, k := range keys {
		c := int(counts[j])
		if h := keytable.Home(k, kshift, m.size); h > f.g || f.used == lineSlots {
			f.advance(max(h, f.g+1))
		}
		if m.wide {
			m.bkeys[f.g*lineSlots+uint64(f.used)] = k
		}
		var b bucket
		var err error
		if fast {
			b, err = rows.nextU8(uint32(k>>vs), c)
		} else {
			b, err = rows.next(uint32(k>>vs), c)
		}
		if err != nil {
			return fmt.Errorf("row %d: %w", j, err)
		}
		m.lines[f.g].set(f.used, b)
		f.used++
	}
	f.finish(lines)
	m.weights = rows.e
	return nil
}

// lineFill follows the lines of a table as fill writes them in order: the
// current line g, its buckets in use, and the value (and key, wide) of its
// empty buckets, which hold B(g+1) (keytable.Boundaries), the smallest key
// whose home is after g.
type lineFill struct {
	m        *Model
	bounds   keytable.Boundaries
	vs       uint   // the key bits a bucket value drops
	top      uint32 // B(size) = 2^K, >> vs, mod 2^32
	g        uint64
	used     int
	empty    uint32
	emptyKey uint64
}

// newLineFill returns the lineFill of m (whose size and vshift are set) at
// line 0.
func newLineFill(m *Model) lineFill {
	K := uint(m.keyBits)
	f := lineFill{m: m, bounds: keytable.NewBoundaries(K, m.size), vs: m.vshift - (64 - K)}
	if K-f.vs < 32 {
		f.top = uint32(1) << (K - f.vs)
	}
	f.nextEmpty()
	return f
}

// nextEmpty sets the empty value of the next line.
func (f *lineFill) nextEmpty() {
	var ok bool
	if f.emptyKey, ok = f.bounds.Next(); ok {
		f.empty = uint32(f.emptyKey >> f.vs)
	} else {
		f.emptyKey, f.empty = 0, f.top
	}
}

// closeLine fills the unused buckets of line g with empty values.
func (f *lineFill) closeLine() {
	m := f.m
	l := &m.lines[f.g]
	for s := f.used; s < lineSlots; s++ {
		l.v[s] = f.empty
		if m.wide {
			m.bkeys[f.g*lineSlots+uint64(s)] = f.emptyKey
		}
	}
}

// advance closes line g and the empty lines after it up to line next (>
// g), which becomes the current line.
func (f *lineFill) advance(next uint64) {
	f.closeLine()
	for f.g++; ; f.g++ {
		f.nextEmpty()
		if f.g == next {
			break
		}
		f.used = 0
		f.closeLine()
	}
	f.used = 0
}

// finish closes line g and the empty lines after it up to the table's
// last line (of lines).
func (f *lineFill) finish(lines uint64) {
	f.closeLine()
	for f.g++; f.g < lines; f.g++ {
		f.nextEmpty()
		f.used = 0
		f.closeLine()
	}
}

// rowWriter checks rows of entries in the blob formats of Layout and
// stores them in a bucket and the row arrays of its model.
type rowWriter struct {
	m                *Model
	classes, weights []byte
	cb               int // bytes per class
	dmin             int // shortest dense row
	n                int // entries in the blobs
	e                int // entries written
	dense            int // dense rows written
}

// classError is the error for a row whose classes stop increasing after
// class last, or whose last class is last.
func (w *rowWriter) classError(last int) error {
	if last >= w.m.numClasses {
		return fmt.Errorf(`blob "classes": class %d out of range [0, %d)`, last, w.m.numClasses)
	}
	return errors.New(`blob "classes": classes not strictly increasing`)
}

// next checks the next row, of c entries, and returns the bucket holding
// it with value v.
func (w *rowWriter) next(v uint32, c int) (bucket, error) {
	m := w.m
	nc := m.numClasses
	b := bucket{v: v}
	e := w.e
	if e+c > w.n || c < 1 {
		return b, errors.New("internal error: row past the blobs")
	}
	w.e += c
	// Classes: in range and strictly increasing.
	var last int
	if w.cb == 1 {
		cls := w.classes[e : e+c]
		last = int(cls[0])
		for _, x := range cls[1:] {
			if int(x) <= last {
				return b, w.classError(last)
			}
			last = int(x)
		}
	} else {
		cls := w.classes[2*e : 2*(e+c)]
		last = int(binary.LittleEndian.Uint16(cls))
		for i := 2; i < len(cls); i += 2 {
			x := int(binary.LittleEndian.Uint16(cls[i:]))
			if x <= last {
				return b, w.classError(last)
			}
			last = x
		}
	}
	if last >= nc {
		return b, fmt.Errorf(`blob "classes": class %d out of range [0, %d)`, last, nc)
	}
	class := func(i int) uint32 {
		if w.cb == 1 {
			return uint32(w.classes[e+i])
		}
		return uint32(binary.LittleEndian.Uint16(w.classes[2*(e+i):]))
	}
	if m.prec == Float32 {
		b.a, b.b, b.c = kindFloat<<16, uint32(len(m.ent)), uint32(c)
		ws := w.weights[4*e : 4*(e+c)]
		for i := 0; i < c; i++ {
			x := math.Float32frombits(binary.LittleEndian.Uint32(ws[4*i:]))
			if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
				return b, fmt.Errorf(`blob "weights": entry %d is not finite`, e+i)
			}
			m.ent = append(m.ent, mentry{cls: class(i), w: x})
		}
		return b, nil
	}
	ws := w.weights[2*e : 2*(e+c)] // checked by checkInt16
	q := func(i int) uint32 { return uint32(binary.LittleEndian.Uint16(ws[2*i:])) }
	switch {
	case c >= w.dmin:
		off := w.dense * m.width
		w.dense++
		b.a, b.b, b.c = kindDense<<16, uint32(off), uint32(c)
		row := m.dense[off : off+m.width]
		if w.cb == 1 {
			for i, x := range w.classes[e : e+c] {
				row[x] = int16(q(i))
			}
		} else {
			for i := 0; i < c; i++ {
				row[class(i)] = int16(q(i))
			}
		}
	case c > inlineMax:
		off := len(m.sparse)
		b.a, b.b, b.c = kindSparse<<16, uint32(off), uint32(c)
		m.sparse = m.sparse[:off+c]
		row := m.sparse[off : off+c]
		if w.cb == 1 {
			for i, x := range w.classes[e : e+c] {
				row[i] = uint32(x)<<16 | q(i)
			}
		} else {
			for i := range row {
				row[i] = class(i)<<16 | q(i)
			}
		}
	default:
		var in [inlineMax]uint32
		for i := 0; i < c; i++ {
			in[i] = class(i)<<16 | q(i)
		}
		b.a, b.b, b.c = in[0], in[1], in[2]
	}
	return b, nil
}

// checkInt16 checks that no int16 LE weight of the blob is 0 or -32768.
// It tests four weights at a time: with the sign bits cleared, a weight is
// 0 exactly when it was 0 or -32768, and a 16-bit lane y is 0 exactly when
// (y - 1) &^ y has its top bit set (borrows between lanes only follow a
// zero lane, which is then reported by the scalar loop).
func checkInt16(weights []byte) error {
	const ones, tops = 0x0001_0001_0001_0001, 0x8000_8000_8000_8000
	i := 0
	for ; i+8 <= len(weights); i += 8 {
		y := binary.LittleEndian.Uint64(weights[i:]) &^ tops
		if (y-ones)&^y&tops != 0 {
			break
		}
	}
	for ; i+1 < len(weights); i += 2 {
		if q := binary.LittleEndian.Uint16(weights[i:]); q == 0 || q == 0x8000 {
			return fmt.Errorf(`blob "weights": entry %d: invalid quantized weight %d`, i/2, int16(q))
		}
	}
	return nil
}

// nextU8 is next for Int16 weights (checked by checkInt16) and byte
// classes.
func (w *rowWriter) nextU8(v uint32, c int) (bucket, error) {
	b := bucket{v: v}
	e := w.e
	if c < 1 || e+c > w.n {
		return b, errors.New("internal error: row past the blobs")
	}
	w.e = e + c
	cls := w.classes[e : e+c]
	ws := w.weights[2*e : 2*(e+c)]
	last := int(cls[0])
	for _, x := range cls[1:] {
		if int(x) <= last {
			return b, w.classError(last)
		}
		last = int(x)
	}
	if last >= w.m.numClasses {
		return b, w.classError(last)
	}
	switch {
	case c <= inlineMax:
		b.a = uint32(cls[0])<<16 | uint32(binary.LittleEndian.Uint16(ws))
		if c > 1 {
			b.b = uint32(cls[1])<<16 | uint32(binary.LittleEndian.Uint16(ws[2:]))
			if c > 2 {
				b.c = uint32(cls[2])<<16 | uint32(binary.LittleEndian.Uint16(ws[4:]))
			}
		}
	case c >= w.dmin:
		m := w.m
		off := w.dense * m.width
		w.dense++
		b.a, b.b, b.c = kindDense<<16, uint32(off), uint32(c)
		row := m.dense[off : off+m.width]
		for i, x := range cls {
			row[x] = int16(binary.LittleEndian.Uint16(ws[2*i:]))
		}
	default:
		m := w.m
		off := len(m.sparse)
		b.a, b.b, b.c = kindSparse<<16, uint32(off), uint32(c)
		m.sparse = m.sparse[:off+c]
		row := m.sparse[off : off+c]
		for i, x := range cls {
			row[i] = uint32(x)<<16 | uint32(binary.LittleEndian.Uint16(ws[2*i:]))
		}
	}
	return b, nil
}
