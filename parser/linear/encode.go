package linear

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/bits"

	"github.com/transparse/transparse/modelfmt"
)

// Layout is the modelfmt.Classifier.Layout written by Model.Classifier and
// the only one FromClassifier accepts.
//
// Layout "linear-sparse/v1" stores F features with E weights in total:
//
//	Params["classes"]    number of classes C (1..65535)
//	Params["features"]   F
//	Params["entries"]    E
//	Params["key_bits"]   bits kept per key K (16..64)
//	Params["precision"]  16 (int16 weights) or 32 (float32 weights)
//	Params["scale_bits"] IEEE-754 bits of the float32 int16 scale (precision 16)
//	Blobs["keys"]        F strictly increasing keys < 2^K, as uvarint deltas
//	                     (the first delta is the first key)
//	Blobs["counts"]      F row lengths in [1, C], as uvarints, summing to E
//	Blobs["classes"]     E class ids, uint8 if C <= 256 else uint16 LE,
//	                     strictly increasing within each row
//	Blobs["weights"]     E weights, int16 LE (weight = q * scale, q != 0 and
//	                     q != -32768) or float32 LE (finite)
//
// A stored key is (hash * 0xD6E8FEB86659FD93) >> (64 - K), where hash is
// the caller's feature hash. Rows are in key order. The table used for
// scoring (see Model) is not stored: FromClassifier builds it from the
// keys in two sweeps, so a file cannot corrupt it, and decodes the entries
// without any per-entry floating-point work.
const Layout = "linear-sparse/v1"

// LayoutCodebook is Layout with one byte per Int16 weight: it is written
// instead of Layout when an Int16 model has at most MaxLevels distinct
// quantized weights (FreezeOptions.Levels, Requantize). It differs from
// Layout in two fields:
//
//	Params["precision"]  8
//	Blobs["codebook"]    L (1..256) distinct quantized weights, int16 LE,
//	                     ascending (not 0 or -32768)
//	Blobs["weights"]     E codes, uint8 < L: weight = codebook[code] * scale
//
// Readers that know only Layout reject it by its name.
const LayoutCodebook = "linear-sparse/v2"

// Classifier encodes the model for the model file under the given name,
// feature template descriptions and class names (which the model does not
// interpret; classes should have NumClasses() names). Blobs and Params are
// described at Layout. The result shares no memory with the model.
func (m *Model) Classifier(name string, templates, classes []string) modelfmt.Classifier {
	c := modelfmt.Classifier{
		Name:      name,
		Templates: append([]string(nil), templates...),
		Classes:   append([]string(nil), classes...),
		Layout:    Layout,
		Params: map[string]int64{
			"classes":   int64(m.numClasses),
			"features":  int64(m.features),
			"entries":   int64(m.NumWeights()),
			"key_bits":  int64(m.keyBits),
			"precision": 32,
		},
		Blobs: map[string][]byte{},
	}
	var keys, counts []byte
	nw := m.NumWeights()
	cb := 1
	if m.numClasses > 256 {
		cb = 2
	}
	var q []int16      // Int16 weights: stored by setInt16Weights
	var weights []byte // Float32 weights
	if m.prec == Int16 {
		c.Params["scale_bits"] = int64(math.Float32bits(m.scale))
		q = make([]int16, 0, nw)
	} else {
		weights = make([]byte, 0, 4*nw)
	}
	classBytes := make([]byte, 0, cb*nw)
	entry := func(cls uint32) {
		if cb == 1 {
			classBytes = append(classBytes, byte(cls))
		} else {
			classBytes = binary.LittleEndian.AppendUint16(classBytes, uint16(cls))
		}
	}
	addQ := func(e uint32) {
		entry(e >> 16)
		q = append(q, int16(e))
	}
	prev := uint64(0)
	keyOf := m.keyRecoverer()
	for g := range m.lines {
		for sl := 0; sl < lineSlots; sl++ {
			b := m.lines[g].bucket(sl)
			if b.a == 0 {
				continue
			}
			k := keyOf(g, sl)
			keys = binary.AppendUvarint(keys, k-prev)
			prev = k
			n := b.c
			switch {
			case b.a&0xFFFF != 0:
				n = 0
				for _, e := range [...]uint32{b.a, b.b, b.c} {
					if e != 0 {
						addQ(e)
						n++
					}
				}
			case b.a == kindSparse<<16:
				for _, e := range m.sparse[b.b : b.b+b.c] {
					addQ(e)
				}
			case b.a == kindDense<<16:
				for c, w := range m.dense[b.b : b.b+uint32(m.numClasses)] {
					if w != 0 {
						addQ(uint32(c)<<16 | uint32(uint16(w)))
					}
				}
			case b.a == kindFloat<<16:
				for _, e := range m.ent[b.b : b.b+b.c] {
					entry(e.cls)
					weights = binary.LittleEndian.AppendUint32(weights, math.Float32bits(e.w))
				}
			}
			counts = binary.AppendUvarint(counts, uint64(n))
		}
	}
	c.Blobs["keys"] = keys
	c.Blobs["counts"] = counts
	c.Blobs["classes"] = classBytes
	if m.prec == Int16 {
		setInt16Weights(&c, q) // sets precision, layout and weights
	} else {
		c.Blobs["weights"] = weights
	}
	return c
}

// FromClassifier decodes a model written by Model.Classifier. It checks
// everything (layout name, parameter ranges, blob sizes against the
// parameters before allocating, key order and range, row lengths, class ids,
// finite weights) and returns an error, never panics, on a corrupted or
// hostile classifier. The result shares no memory with c.
func FromClassifier(c *modelfmt.Classifier) (*Model, error) {
	if c == nil {
		return nil, errors.New("linear: nil classifier")
	}
	m, err := fromClassifier(c)
	if err != nil {
		return nil, fmt.Errorf("linear: classifier %q: %w", c.Name, err)
	}
	return m, nil
}

// BuildCost estimates the time FromClassifier takes on c, in nanoseconds
// of one core: about 50 per feature and 8 per entry (the bundled model's
// classifiers, BenchmarkFromClassifier). Loaders order their steps by it
// (internal/par); a classifier without the params costs 0.
func BuildCost(c *modelfmt.Classifier) int64 {
	if c == nil {
		return 0
	}
	f, e := c.Params["features"], c.Params["entries"]
	return 50*min(max(0, f), 1<<40) + 8*min(max(0, e), 1<<40)
}

func fromClassifier(c *modelfmt.Classifier) (*Model, error) {
	nc, kb, precBits, err := tableParams(c)
	if err != nil {
		return nil, err
	}
	in, err := rowBlobs(c, nc, precBits)
	if err != nil {
		return nil, err
	}
	m := &Model{numClasses: int(nc), keyBits: int(kb), scale: 1, prec: Float32}
	if precBits != 32 { // int16 weights, or codes expanded to them
		m.prec = Int16
		if m.scale, err = int16Scale(c); err != nil {
			return nil, err
		}
	}
	if err := m.build(&in); err != nil {
		return nil, err
	}
	return m, nil
}

// tableParams checks the layout of c and returns its params "classes",
// "key_bits" and "precision" (the bits of a stored weight: 8 for
// LayoutCodebook, 16 or 32 for Layout).
func tableParams(c *modelfmt.Classifier) (nc, keyBits, precBits int64, err error) {
	if c.Layout != Layout && c.Layout != LayoutCodebook {
		return 0, 0, 0, fmt.Errorf("layout %q, want %q or %q", c.Layout, Layout, LayoutCodebook)
	}
	if nc, err = param(c, "classes", 1, MaxClasses); err != nil {
		return 0, 0, 0, err
	}
	if len(c.Classes) != 0 && int64(len(c.Classes)) != nc {
		return 0, 0, 0, fmt.Errorf("%d class names for %d classes", len(c.Classes), nc)
	}
	if keyBits, err = param(c, "key_bits", 16, 64); err != nil {
		return 0, 0, 0, err
	}
	if precBits, err = param(c, "precision", 8, 32); err != nil {
		return 0, 0, 0, err
	}
	switch {
	case c.Layout == LayoutCodebook && precBits != 8:
		return 0, 0, 0, fmt.Errorf("param \"precision\" = %d, want 8 in layout %q", precBits, c.Layout)
	case c.Layout == Layout && precBits != 16 && precBits != 32:
		return 0, 0, 0, fmt.Errorf("param \"precision\" = %d, want 16 or 32", precBits)
	}
	return nc, keyBits, precBits, nil
}

// rowBlobs returns the rows of c, a classifier of nc classes whose weights
// take precBits bits, with their sizes checked against its params
// "features" and "entries" and its codes (precBits 8) expanded to int16
// weights.
func rowBlobs(c *modelfmt.Classifier, nc, precBits int64) (rowsIn, error) {
	var b [4][]byte
	for i, name := range [...]string{"keys", "counts", "classes", "weights"} {
		var ok bool
		if b[i], ok = c.Blobs[name]; !ok {
			return rowsIn{}, fmt.Errorf("missing blob %q", name)
		}
	}
	keyBlob, countBlob, classBlob, weightBlob := b[0], b[1], b[2], b[3]
	// Every feature takes at least one byte of keys and of counts, so these
	// bounds keep allocations proportional to the input.
	nf, err := param(c, "features", 0, int64(min(len(keyBlob), len(countBlob))))
	if err != nil {
		return rowsIn{}, err
	}
	ne, err := param(c, "entries", nf, min(nf*nc, math.MaxUint32))
	if err != nil {
		return rowsIn{}, err
	}
	cb := int64(1)
	if nc > 256 {
		cb = 2
	}
	if int64(len(classBlob)) != ne*cb {
		return rowsIn{}, fmt.Errorf("blob \"classes\" has %d bytes, want %d", len(classBlob), ne*cb)
	}
	wb := precBits / 8
	if int64(len(weightBlob)) != ne*wb {
		return rowsIn{}, fmt.Errorf("blob \"weights\" has %d bytes, want %d", len(weightBlob), ne*wb)
	}
	if precBits == 8 {
		// Expand the codes to int16 weights: the rest is Layout's.
		if weightBlob, err = decodeCodes(weightBlob, c.Blobs["codebook"]); err != nil {
			return rowsIn{}, err
		}
	}
	return rowsIn{features: int(nf), entries: int(ne), keys: keyBlob, counts: countBlob, classes: classBlob, weights: weightBlob}, nil
}

// int16Scale returns the weight scale of an Int16 classifier, its param
// "scale_bits" (the bits of a float32), checked to be in (0,
// MaxFloat32/32767].
func int16Scale(c *modelfmt.Classifier) (float32, error) {
	sb, err := param(c, "scale_bits", 0, math.MaxUint32)
	if err != nil {
		return 0, err
	}
	scale := math.Float32frombits(uint32(sb))
	if !(scale > 0) || float64(scale)*32767 > math.MaxFloat32 {
		return 0, fmt.Errorf("int16 scale %v is not in (0, MaxFloat32/32767]", scale)
	}
	return scale, nil
}

// param returns the param name of c, checked to be in lo..hi.
func param(c *modelfmt.Classifier, name string, lo, hi int64) (int64, error) {
	v, ok := c.Params[name]
	if !ok {
		return 0, fmt.Errorf("missing param %q", name)
	}
	if v < lo || v > hi {
		return 0, fmt.Errorf("param %q = %d, want %d..%d", name, v, lo, hi)
	}
	return v, nil
}

// Uvarint decodes the unsigned varint (encoding/binary's format) at b[at:]
// and returns it and the offset after it; the offset is at most at if the
// bytes are not a valid varint (truncated, or over 64 bits). It is the fast
// decoder of the model blobs, shared with the tagger's dictionary.
func Uvarint(b []byte, at int) (uint64, int) { return uvarint(b, at) }

func uvarint(b []byte, at int) (uint64, int) {
	if at >= 0 && at+8 <= len(b) {
		// Varints of up to 8 bytes without a loop: find the first byte
		// without the continuation bit, keep the bytes up to it and
		// gather their low 7 bits.
		x := binary.LittleEndian.Uint64(b[at:])
		if stop := ^x & 0x8080808080808080; stop != 0 {
			n := bits.TrailingZeros64(stop)/8 + 1
			x &= 1<<(8*uint(n)) - 1 // 1<<64 is 0: all ones for n == 8
			v := x&0x7f | x>>1&(0x7f<<7) | x>>2&(0x7f<<14) | x>>3&(0x7f<<21) |
				x>>4&(0x7f<<28) | x>>5&(0x7f<<35) | x>>6&(0x7f<<42) | x>>7&(0x7f<<49)
			return v, at + n
		}
	}
	if at < 0 || at > len(b) {
		return 0, at
	}
	v, n := binary.Uvarint(b[at:])
	if n <= 0 {
		return 0, at
	}
	return v, at + n
}
