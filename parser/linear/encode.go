package linear

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

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
// the caller's feature hash. Rows are in key order. The hash table used for
// scoring is not stored: FromClassifier rebuilds it from the keys (a power
// of two of slots, at most half full), so a file cannot corrupt it.
const Layout = "linear-sparse/v1"

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
			"features":  int64(len(m.keys)),
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
	wb := 4
	if m.prec == Int16 {
		wb = 2
		c.Params["precision"] = 16
		c.Params["scale_bits"] = int64(math.Float32bits(m.scale))
	}
	classBytes := make([]byte, 0, cb*nw)
	weights := make([]byte, 0, wb*nw)
	prev := uint64(0)
	for _, k := range m.keys {
		keys = binary.AppendUvarint(keys, k-prev)
		prev = k
		a, b, _ := m.row(k)
		counts = binary.AppendUvarint(counts, uint64(b-a))
		for i := a; i < b; i++ {
			var cls uint32
			if m.prec == Int16 {
				cls = m.q[i] >> 16
				weights = binary.LittleEndian.AppendUint16(weights, uint16(m.q[i]))
			} else {
				cls = m.ent[i].cls
				weights = binary.LittleEndian.AppendUint32(weights, math.Float32bits(m.ent[i].w))
			}
			if cb == 1 {
				classBytes = append(classBytes, byte(cls))
			} else {
				classBytes = binary.LittleEndian.AppendUint16(classBytes, uint16(cls))
			}
		}
	}
	c.Blobs["keys"] = keys
	c.Blobs["counts"] = counts
	c.Blobs["classes"] = classBytes
	c.Blobs["weights"] = weights
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

func fromClassifier(c *modelfmt.Classifier) (*Model, error) {
	if c.Layout != Layout {
		return nil, fmt.Errorf("layout %q, want %q", c.Layout, Layout)
	}
	param := func(name string, lo, hi int64) (int64, error) {
		v, ok := c.Params[name]
		if !ok {
			return 0, fmt.Errorf("missing param %q", name)
		}
		if v < lo || v > hi {
			return 0, fmt.Errorf("param %q = %d, want %d..%d", name, v, lo, hi)
		}
		return v, nil
	}
	blob := func(name string) ([]byte, error) {
		b, ok := c.Blobs[name]
		if !ok {
			return nil, fmt.Errorf("missing blob %q", name)
		}
		return b, nil
	}
	nc, err := param("classes", 1, MaxClasses)
	if err != nil {
		return nil, err
	}
	if len(c.Classes) != 0 && int64(len(c.Classes)) != nc {
		return nil, fmt.Errorf("%d class names for %d classes", len(c.Classes), nc)
	}
	kb, err := param("key_bits", 16, 64)
	if err != nil {
		return nil, err
	}
	precBits, err := param("precision", 16, 32)
	if err != nil {
		return nil, err
	}
	if precBits != 16 && precBits != 32 {
		return nil, fmt.Errorf("param \"precision\" = %d, want 16 or 32", precBits)
	}
	keyBlob, err := blob("keys")
	if err != nil {
		return nil, err
	}
	countBlob, err := blob("counts")
	if err != nil {
		return nil, err
	}
	classBlob, err := blob("classes")
	if err != nil {
		return nil, err
	}
	weightBlob, err := blob("weights")
	if err != nil {
		return nil, err
	}
	// Every feature takes at least one byte of keys and of counts, so these
	// bounds keep allocations proportional to the input.
	nf, err := param("features", 0, int64(min(len(keyBlob), len(countBlob))))
	if err != nil {
		return nil, err
	}
	ne, err := param("entries", nf, min(nf*nc, math.MaxUint32))
	if err != nil {
		return nil, err
	}
	cb := int64(1)
	if nc > 256 {
		cb = 2
	}
	if int64(len(classBlob)) != ne*cb {
		return nil, fmt.Errorf("blob \"classes\" has %d bytes, want %d", len(classBlob), ne*cb)
	}
	wb := precBits / 8
	if int64(len(weightBlob)) != ne*wb {
		return nil, fmt.Errorf("blob \"weights\" has %d bytes, want %d", len(weightBlob), ne*wb)
	}
	m := &Model{numClasses: int(nc), keyBits: int(kb), scale: 1, prec: Float32}
	if precBits == 16 {
		m.prec = Int16
		sb, err := param("scale_bits", 0, math.MaxUint32)
		if err != nil {
			return nil, err
		}
		m.scale = math.Float32frombits(uint32(sb))
		if !(m.scale > 0) || float64(m.scale)*32767 > math.MaxFloat32 {
			return nil, fmt.Errorf("int16 scale %v is not in (0, MaxFloat32/32767]", m.scale)
		}
	}

	keys := make([]uint64, nf)
	var prev uint64
	for i := range keys {
		d, n := binary.Uvarint(keyBlob)
		if n <= 0 {
			return nil, fmt.Errorf("blob \"keys\": bad uvarint at key %d", i)
		}
		keyBlob = keyBlob[n:]
		if i > 0 && d == 0 {
			return nil, fmt.Errorf("blob \"keys\": key %d is not greater than key %d", i, i-1)
		}
		k := prev + d
		if k < prev || (kb < 64 && k>>uint(kb) != 0) {
			return nil, fmt.Errorf("blob \"keys\": key %d out of range", i)
		}
		keys[i], prev = k, k
	}
	if len(keyBlob) != 0 {
		return nil, fmt.Errorf("blob \"keys\": %d trailing bytes", len(keyBlob))
	}
	counts := make([]uint32, nf)
	total := int64(0)
	for i := range counts {
		v, n := binary.Uvarint(countBlob)
		if n <= 0 {
			return nil, fmt.Errorf("blob \"counts\": bad uvarint at row %d", i)
		}
		countBlob = countBlob[n:]
		if v < 1 || v > uint64(nc) {
			return nil, fmt.Errorf("blob \"counts\": row %d has %d entries, want 1..%d", i, v, nc)
		}
		total += int64(v)
		if total > ne {
			return nil, fmt.Errorf("blob \"counts\": rows hold more than %d entries", ne)
		}
		counts[i] = uint32(v)
	}
	if len(countBlob) != 0 {
		return nil, fmt.Errorf("blob \"counts\": %d trailing bytes", len(countBlob))
	}
	if total != ne {
		return nil, fmt.Errorf("blob \"counts\": rows hold %d entries, want %d", total, ne)
	}
	ent := make([]mentry, ne)
	off := 0
	for r, n := range counts {
		for j := 0; j < int(n); j++ {
			i := off + j
			var cls uint32
			if cb == 1 {
				cls = uint32(classBlob[i])
			} else {
				cls = uint32(binary.LittleEndian.Uint16(classBlob[2*i:]))
			}
			if int64(cls) >= nc {
				return nil, fmt.Errorf("blob \"classes\": row %d: class %d out of range [0, %d)", r, cls, nc)
			}
			if j > 0 && cls <= ent[i-1].cls {
				return nil, fmt.Errorf("blob \"classes\": row %d: classes not strictly increasing", r)
			}
			var w float32
			if precBits == 16 {
				q := int16(binary.LittleEndian.Uint16(weightBlob[2*i:]))
				if q == 0 || q == math.MinInt16 {
					return nil, fmt.Errorf("blob \"weights\": entry %d: invalid quantized weight %d", i, q)
				}
				w = float32(q) * m.scale
			} else {
				w = math.Float32frombits(binary.LittleEndian.Uint32(weightBlob[4*i:]))
				if math.IsNaN(float64(w)) || math.IsInf(float64(w), 0) {
					return nil, fmt.Errorf("blob \"weights\": entry %d is not finite", i)
				}
			}
			ent[i] = mentry{cls: cls, w: w}
		}
		off += int(n)
	}
	m.build(keys, counts, ent)
	return m, nil
}
