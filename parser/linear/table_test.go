package linear

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/transparse/transparse/internal/testenv"
)

// refModel is a model written out as a map from stored key to its row,
// built from the same blobs as a Model, to check lookups against.
type refModel struct {
	numClasses int
	keyBits    int
	scale      float32
	prec       Precision
	rows       map[uint64][]mentry // Int16: w holds the quantized weight
}

// randomModel returns a model and its reference with n random features of
// random row lengths (some long enough to be dense), keys of keyBits bits
// drawn so that some lines overflow: a share of the keys come in runs of
// close values.
func randomModel(t *testing.T, rng *rand.Rand, n, numClasses, keyBits int, prec Precision) (*Model, *refModel) {
	return randomModelClusters(t, rng, n, numClasses, keyBits, prec, true)
}

func randomModelClusters(t *testing.T, rng *rand.Rand, n, numClasses, keyBits int, prec Precision, clusters bool) (*Model, *refModel) {
	t.Helper()
	ref := &refModel{numClasses: numClasses, keyBits: keyBits, scale: 0.001, prec: prec, rows: map[uint64][]mentry{}}
	maxKey := uint64(math.MaxUint64)
	if keyBits < 64 {
		maxKey = 1<<keyBits - 1
	}
	var keys []uint64
	for len(ref.rows) < n {
		k := rng.Uint64() & maxKey
		run := 1
		if clusters && rng.Intn(10) == 0 {
			run = 2 + rng.Intn(12) // a cluster of nearby keys
		}
		for r := 0; r < run && len(ref.rows) < n; r++ {
			kk := k + uint64(r)*uint64(1+rng.Intn(3))
			if kk > maxKey || ref.rows[kk] != nil {
				continue
			}
			length := 1 + rng.Intn(4)
			switch rng.Intn(6) {
			case 0:
				length = 1 + rng.Intn(numClasses)
			case 1:
				length = 4 + rng.Intn(16)
			}
			length = min(length, numClasses)
			cls := rng.Perm(numClasses)[:length]
			slices.Sort(cls)
			row := make([]mentry, length)
			for i, c := range cls {
				var w float32
				if prec == Int16 {
					q := int16(rng.Intn(65535) - 32767)
					if q == 0 {
						q = 1
					}
					w = float32(q)
				} else {
					w = float32(rng.NormFloat64())
				}
				row[i] = mentry{cls: uint32(c), w: w}
			}
			ref.rows[kk] = row
			keys = append(keys, kk)
		}
	}
	slices.Sort(keys)
	in := &rowsIn{features: len(keys)}
	var ent []mentry
	var q []int16
	prev := uint64(0)
	for _, k := range keys {
		in.keys = binary.AppendUvarint(in.keys, k-prev)
		in.counts = binary.AppendUvarint(in.counts, uint64(len(ref.rows[k])))
		prev = k
		for _, e := range ref.rows[k] {
			ent = append(ent, e)
			if prec == Int16 {
				q = append(q, int16(e.w))
			}
		}
	}
	in.entries = len(ent)
	in.classes, in.weights = entryBlobs(numClasses, ent, q)
	m := &Model{numClasses: numClasses, keyBits: keyBits, prec: prec, scale: ref.scale}
	if prec == Float32 {
		m.scale = 1
	}
	if err := m.build(in); err != nil {
		t.Fatalf("build: %v", err)
	}
	return m, ref
}

// feature returns a feature hash whose stored key is k.
func (r *refModel) feature(k uint64) uint64 {
	// The inverse of keyMul modulo 2^64, by Newton's iteration.
	inv := uint64(keyMul)
	for i := 0; i < 6; i++ {
		inv *= 2 - keyMul*inv
	}
	return (k << (64 - r.keyBits)) * inv
}

// scores returns the reference scores of feats as Scores computes them.
func (r *refModel) scores(feats []uint64) []float32 {
	s := make([]float32, r.numClasses)
	if r.prec == Int16 && r.numClasses <= accClasses {
		acc := make([]int32, r.numClasses)
		for _, f := range feats {
			for _, e := range r.rows[(f*keyMul)>>(64-r.keyBits)] {
				acc[e.cls] += int32(e.w)
			}
		}
		for c, v := range acc {
			s[c] = float32(v) * r.scale
		}
		return s
	}
	for _, f := range feats {
		for _, e := range r.rows[(f*keyMul)>>(64-r.keyBits)] {
			if r.prec == Int16 {
				s[e.cls] += e.w * r.scale
			} else {
				s[e.cls] += e.w
			}
		}
	}
	return s
}

// TestModelMatchesReference checks lookups and sums of built tables
// against a map, for every key width class (exact 32-bit values, values of
// keys up to 48 bits after a larger table, wide tables of 64-bit keys),
// byte and 16-bit classes, Int16 with and without integer sums, Float32,
// both dense-row kernels, and the encoding round trip.
func TestModelMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewSource(20))
	type cfg struct {
		n, classes, keyBits int
		prec                Precision
		clusters            bool // some keys in runs of nearby values
	}
	cfgs := []cfg{
		{3000, 17, 16, Int16, true}, {20000, 104, 32, Int16, true}, {20000, 49, 40, Int16, true},
		{20000, 49, 40, Int16, false}, {5000, 30, 48, Int16, true}, {5000, 104, 64, Int16, true},
		{3000, 300, 32, Int16, true}, {2000, 600, 40, Int16, true}, {3000, 12, 32, Float32, true},
		{3000, 300, 64, Float32, false}, {1, 5, 32, Int16, false}, {0, 5, 64, Int16, false},
	}
	for _, c := range cfgs {
		if testenv.Race {
			c.n /= 8 // fewer cases: the race detector makes them 10 times slower
		}
		m, ref := randomModelClusters(t, rng, c.n, c.classes, c.keyBits, c.prec, c.clusters)
		if m.NumFeatures() != len(ref.rows) {
			t.Fatalf("%+v: %d features, want %d", c, m.NumFeatures(), len(ref.rows))
		}
		if c.keyBits == 64 && !m.wide {
			t.Errorf("%+v: 64-bit keys in a table that is not wide", c)
		}
		if (c.keyBits <= 32 || !c.clusters && c.keyBits <= 40) && c.n >= 10000 && m.wide {
			t.Errorf("%+v: %d-bit keys in a wide table", c, c.keyBits)
		}
		var keys []uint64
		for k := range ref.rows {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		got := make([]float32, c.classes)
		for _, avx := range []bool{false, true} {
			if avx && !hasAVX2() {
				continue
			}
			saved := useAVX2
			useAVX2 = avx
			// Every stored key alone, its neighbours (mostly unknown), and
			// random vectors of known and unknown features.
			for _, k := range keys {
				for _, kk := range []uint64{k, k - 1, k + 1} {
					f := []uint64{ref.feature(kk)}
					m.Scores(f, got)
					if want := ref.scores(f); !slices.Equal(got, want) {
						t.Fatalf("%+v, avx %v: key %#x: scores %v, want %v", c, avx, kk, got, want)
					}
				}
			}
			for i := 0; i < 300 && len(keys) > 0; i++ {
				f := make([]uint64, rng.Intn(300))
				for j := range f {
					if rng.Intn(4) == 0 {
						f[j] = rng.Uint64()
					} else {
						f[j] = ref.feature(keys[rng.Intn(len(keys))])
					}
				}
				m.Scores(f, got)
				want := ref.scores(f)
				for k := range got {
					if got[k] != want[k] && (c.prec == Int16 && c.classes <= accClasses || math.Abs(float64(got[k]-want[k])) > 1e-3) {
						t.Fatalf("%+v, avx %v: vector %d: class %d scores %v, want %v", c, avx, i, k, got[k], want[k])
					}
				}
			}
			useAVX2 = saved
		}
		// Encoding recovers the keys and rows exactly.
		cl := m.Classifier("x", nil, nil)
		m2, err := FromClassifier(&cl)
		if err != nil {
			t.Fatalf("%+v: %v", c, err)
		}
		if m2.NumFeatures() != m.NumFeatures() || m2.NumWeights() != m.NumWeights() {
			t.Fatalf("%+v: round trip changed the size", c)
		}
		for _, k := range keys {
			f := []uint64{ref.feature(k)}
			m2.Scores(f, got)
			if want := ref.scores(f); !slices.Equal(got, want) {
				t.Fatalf("%+v: after a round trip, key %#x: scores %v, want %v", c, k, got, want)
			}
		}
	}
}

// TestAddSums checks that sums of a batch of instances, of one instance
// split in parts and of Scores agree, and the panics on misuse.
func TestAddSums(t *testing.T) {
	rng := rand.New(rand.NewSource(21))
	for _, keyBits := range []int{32, 64} {
		m, ref := randomModel(t, rng, 5000, 40, keyBits, Int16)
		var keys []uint64
		for k := range ref.rows {
			keys = append(keys, k)
		}
		const width, instances = 37, 9
		feats := make([]uint64, width*instances)
		for j := range feats {
			feats[j] = ref.feature(keys[rng.Intn(len(keys))])
			if rng.Intn(5) == 0 {
				feats[j] = rng.Uint64()
			}
		}
		stride := m.SumStride()
		if stride != 48 {
			t.Fatalf("SumStride() = %d, want 48", stride)
		}
		sums := make([]int32, instances*stride)
		m.AddSums(feats, width, sums)
		got := make([]float32, 40)
		for k := 0; k < instances; k++ {
			inst := feats[k*width : (k+1)*width]
			m.ScoresFromSums(sums[k*stride:], got)
			if want := ref.scores(inst); !slices.Equal(got, want) {
				t.Fatalf("keys %d: instance %d: %v, want %v", keyBits, k, got, want)
			}
			part := make([]int32, stride)
			m.AddSums(inst[:5], 0, part) // fewer features than a chunk
			m.AddSums(inst[5:], 0, part)
			if !slices.Equal(part, sums[k*stride:(k+1)*stride]) {
				t.Fatalf("keys %d: instance %d: sums in two parts differ", keyBits, k)
			}
		}
	}
	m, _ := randomModel(t, rng, 100, 10, 32, Int16)
	mf, _ := randomModel(t, rng, 100, 10, 32, Float32)
	for name, f := range map[string]func(){
		"not a multiple": func() { m.AddSums(make([]uint64, 5), 2, make([]int32, 64)) },
		"short sums":     func() { m.AddSums(make([]uint64, 4), 2, make([]int32, 31)) },
		"float model":    func() { mf.AddSums(nil, 0, nil) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
	if mf.Exact() || !m.Exact() || mf.SumStride() != 0 {
		t.Error("Exact or SumStride wrong")
	}
}

func TestAddSumsDoesNotAllocate(t *testing.T) {
	m, _ := randomModel(t, rand.New(rand.NewSource(22)), 1000, 20, 32, Int16)
	f := make([]uint64, 200)
	for i := range f {
		f[i] = uint64(i) * 0x9E3779B97F4A7C15
	}
	sums := make([]int32, 4*m.SumStride())
	if n := testing.AllocsPerRun(100, func() { m.AddSums(f, 50, sums) }); n != 0 {
		t.Errorf("AddSums allocates %v times", n)
	}
}

// TestUvarint checks the fast varint decoder against encoding/binary on
// valid, truncated and corrupted varints.
func TestUvarint(t *testing.T) {
	rng := rand.New(rand.NewSource(23))
	for it := 0; it < 100000; it++ {
		var b []byte
		for k := 0; k < rng.Intn(5); k++ {
			b = binary.AppendUvarint(b, rng.Uint64()>>uint(rng.Intn(64)))
		}
		if rng.Intn(4) == 0 && len(b) > 0 {
			b = b[:rng.Intn(len(b))]
		}
		if rng.Intn(4) == 0 && len(b) > 0 {
			b[rng.Intn(len(b))] |= 0x80
		}
		for at := 0; at < len(b); {
			v1, n1 := binary.Uvarint(b[at:])
			v2, n2 := uvarint(b, at)
			if n1 <= 0 {
				if n2 > at {
					t.Fatalf("%x at %d: got %d, %d; want an error", b, at, v2, n2)
				}
				break
			}
			if v1 != v2 || at+n1 != n2 {
				t.Fatalf("%x at %d: got %d, %d; want %d, %d", b, at, v2, n2, v1, at+n1)
			}
			at = n2
		}
	}
}

// TestDenseKernels checks the AVX2 kernel against the portable one on
// every width and row count the tables use.
func TestDenseKernels(t *testing.T) {
	if !hasAVX2() {
		t.Skip("no AVX2")
	}
	rng := rand.New(rand.NewSource(24))
	for _, width := range []int{16, 32, 48, 64, 112, 512} {
		rows := make([]int16, 50*width)
		for i := range rows {
			rows[i] = int16(rng.Intn(65535) - 32767)
		}
		for n := 0; n <= 50; n += 7 {
			offs := make([]uint32, n)
			for i := range offs {
				offs[i] = uint32(rng.Intn(50) * width)
			}
			a, b := make([]int32, width), make([]int32, width)
			for i := range a {
				a[i] = int32(rng.Intn(1000))
				b[i] = a[i]
			}
			addDenseGo(a, rows, offs)
			addDense(b, rows, offs)
			if !slices.Equal(a, b) {
				t.Fatalf("width %d, %d rows: kernels differ", width, n)
			}
		}
	}
}

// TestBundledModelRoundTrip decodes every classifier of the bundled model
// (../../models/en_ewt.tpm; skipped without it, failing with $CI), checks
// that none needs wide bucket values (the fast path), and that encoding
// gives back the stored blobs byte for byte: the table loses nothing.
func TestBundledModelRoundTrip(t *testing.T) {
	doc := testenv.BundledDoc(t)
	for i := range doc.Classifiers {
		c := &doc.Classifiers[i]
		if !strings.HasPrefix(c.Layout, "linear-") {
			continue // another part's table (the lemmatizer's, the FEATS tagger's)
		}
		m, err := FromClassifier(c)
		if err != nil {
			t.Fatal(err)
		}
		// The lemmatizer's and FEATS tagger's weights are not quantized
		// like the parsers' and taggers' (their tables are small): only
		// the round trip applies to them.
		if !strings.HasPrefix(c.Name, "morph.") && (m.wide || !m.Exact()) {
			t.Errorf("%s: wide %v, exact %v", c.Name, m.wide, m.Exact())
		}
		e := m.Classifier(c.Name, nil, nil)
		for name, v := range e.Params {
			if c.Params[name] != v {
				t.Errorf("%s: param %s = %d after a round trip, %d before", c.Name, name, v, c.Params[name])
			}
		}
		for name, b := range e.Blobs {
			if !bytes.Equal(b, c.Blobs[name]) {
				t.Errorf("%s: blob %s differs after a round trip", c.Name, name)
			}
		}
		t.Logf("%s: %d features, %d weights, %d lines, %d dense rows", c.Name, m.NumFeatures(), m.NumWeights(), len(m.lines), len(m.dense)/max(1, m.width))
	}
}

// checkInt16 finds the first invalid weight (0 or -32768) wherever it is,
// like a check of one weight at a time.
func TestCheckInt16(t *testing.T) {
	ref := func(b []byte) int {
		for i := 0; i+1 < len(b); i += 2 {
			if q := binary.LittleEndian.Uint16(b[i:]); q == 0 || q == 0x8000 {
				return i / 2
			}
		}
		return -1
	}
	rng := rand.New(rand.NewSource(31))
	for trial := 0; trial < 20000; trial++ {
		n := rng.Intn(40)
		b := make([]byte, 2*n+rng.Intn(2)) // maybe an odd trailing byte
		for i := 0; i+1 < len(b); i += 2 {
			q := uint16(rng.Intn(0xffff) + 1)
			if q == 0x8000 {
				q = 0x8001
			}
			binary.LittleEndian.PutUint16(b[i:], q)
		}
		if n > 0 && rng.Intn(2) == 0 {
			binary.LittleEndian.PutUint16(b[2*rng.Intn(n):], []uint16{0, 0x8000}[rng.Intn(2)])
		}
		want := ref(b)
		err := checkInt16(b)
		if (err != nil) != (want >= 0) || (err != nil && !strings.Contains(err.Error(), fmt.Sprintf("entry %d:", want))) {
			t.Fatalf("%x: error %v, want entry %d", b, err, want)
		}
	}
}
