package modelfmt

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/golang/snappy"
	"github.com/vmihailenco/msgpack/v5"
)

// codableBlobs returns blobs of the shapes a model holds, sized to cross
// block boundaries: small int16 weights (coded with stride 2), a skewed
// byte stream (stride 1), uint32 values with empty high bytes (stride 4),
// random bytes and one repeated byte (left to snappy), and a short blob.
func codableBlobs() map[string][]byte {
	rng := rand.New(rand.NewPCG(7, 8))
	n := 2*codedBlockElems + 1234
	w := make([]int16, n)
	for i := range w {
		// Spread as the bundled model's weights: the low bytes code to
		// ~95 % of their size.
		w[i] = int16(rng.NormFloat64() * 60)
	}
	skew := make([]byte, 3*codedBlockElems+5)
	for i := range skew {
		skew[i] = byte(rng.ExpFloat64() * 6)
	}
	u32 := make([]uint32, codedBlockElems+3)
	for i := range u32 {
		u32[i] = uint32(rng.IntN(5000))
	}
	random := make([]byte, 70000)
	for i := range random {
		random[i] = byte(rng.Uint32())
	}
	wb := make([]byte, 2*n)
	for i, v := range w {
		binary.LittleEndian.PutUint16(wb[2*i:], uint16(v))
	}
	return map[string][]byte{
		"weights": wb,
		"classes": skew,
		"offsets": Uint32Bytes(u32),
		"random":  random,
		"zeros":   make([]byte, 50000),
		"short":   []byte{1, 2, 3},
	}
}

func codedModel() *Model {
	return &Model{System: "arc-eager", Classifiers: []Classifier{
		{Name: "a", Layout: "test/v1", Blobs: codableBlobs()},
		{Name: "b", Layout: "test/v1", Blobs: map[string][]byte{"keys": codableBlobs()["classes"][:9000], "empty": {}}},
	}}
}

func TestCodedBlobsRoundTrip(t *testing.T) {
	m := codedModel()
	doc := rawDoc(t, m)
	// Which blobs the writer coded, and with which stride.
	var raw struct {
		Classifiers []struct {
			Blobs map[string][]byte `msgpack:"blobs"`
			Coded map[string][]byte `msgpack:"coded_blobs"`
		} `msgpack:"classifiers"`
	}
	if err := msgpack.Unmarshal(doc, &raw); err != nil {
		t.Fatal(err)
	}
	strides := map[string]byte{}
	for k, c := range raw.Classifiers[0].Coded {
		strides[k] = c[1]
	}
	want := map[string]byte{"weights": 2, "classes": 1, "offsets": 4}
	if strides["weights"] == 4 {
		// Two weights per element code as well: low, high, low, high.
		want["weights"] = 4
	}
	for k, s := range want {
		if strides[k] != s {
			t.Errorf("blob %q: coded with stride %d, want %d (coded: %v)", k, strides[k], s, strides)
		}
	}
	for _, k := range []string{"random", "zeros", "short"} {
		if _, ok := raw.Classifiers[0].Blobs[k]; !ok {
			t.Errorf("blob %q was coded; snappy does at least as well", k)
		}
	}
	// The low bytes of the weights, nearly uniform, are stored; their high
	// bytes, nearly constant, coded.
	for blk, modes := range planeModes(t, raw.Classifiers[0].Coded["weights"]) {
		for p, mode := range modes {
			if int(mode) != p%2 {
				t.Errorf("weights block %d: plane modes %v, want 0 (stored) for the low bytes, 1 for the high", blk, modes)
				break
			}
		}
	}
	// Coding beats snappy on the blobs it codes.
	for k, c := range raw.Classifiers[0].Coded {
		if z, zc := len(snappy.Encode(nil, m.Classifiers[0].Blobs[k])), len(snappy.Encode(nil, c)); zc >= z {
			t.Errorf("blob %q: coded %d bytes, snappy %d", k, zc, z)
		}
	}

	got, err := Decode(mustMarshal(t, m))
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range m.Classifiers {
		g := got.Classifiers[i]
		if len(g.Blobs) != len(c.Blobs) {
			t.Fatalf("classifier %s: %d blobs, want %d", c.Name, len(g.Blobs), len(c.Blobs))
		}
		for k, b := range c.Blobs {
			if !bytes.Equal(g.Blobs[k], b) {
				t.Errorf("classifier %s blob %q differs after the round trip", c.Name, k)
			}
			if cap(g.Blobs[k]) != len(g.Blobs[k]) {
				t.Errorf("blob %q: capacity %d, length %d", k, cap(g.Blobs[k]), len(g.Blobs[k]))
			}
		}
	}
}

// planeModes returns the mode byte of each plane of each block of the
// coded blob c.
func planeModes(t *testing.T, c []byte) [][]byte {
	t.Helper()
	s, n, at, err := codedHeader(c)
	if err != nil {
		t.Fatal(err)
	}
	var out [][]byte
	for left := int(n) / s; left > 0; left -= codedBlockElems {
		e := min(left, codedBlockElems)
		var modes []byte
		for range s {
			mode := c[at]
			modes = append(modes, mode)
			at++
			if mode == 0 {
				at += e
				continue
			}
			l, k := binary.Uvarint(c[at:])
			at += k + int(l)
		}
		out = append(out, modes)
	}
	if at != len(c) {
		t.Fatalf("coded blob: %d bytes after the last block", len(c)-at)
	}
	return out
}

// docWithCoded returns a version 2 file whose one classifier has the
// given blobs and coded blobs, written as is.
func docWithCoded(t *testing.T, blobs, coded map[string][]byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := msgpack.NewEncoder(&buf)
	enc.SetSortMapKeys(true)
	doc := map[string]any{
		"system": "x",
		"classifiers": []any{map[string]any{
			"name": "c", "layout": "l/v1", "blobs": blobs, "coded_blobs": coded,
		}},
	}
	if err := enc.Encode(doc); err != nil {
		t.Fatal(err)
	}
	return wrap(t, buf.Bytes())
}

func TestCodedBlobErrors(t *testing.T) {
	good := codePlanes(codableBlobs()["classes"], 1)
	huffAt := func() int { // offset of the first plane's Huffman payload
		_, _, at, _ := codedHeader(good)
		if good[at] != 1 {
			t.Fatal("first plane is not Huffman-coded")
		}
		_, k := binary.Uvarint(good[at+1:])
		return at + 1 + k
	}()
	garbled := bytes.Clone(good)
	for i := huffAt + 40; i < huffAt+400; i++ {
		garbled[i] ^= 0x5a
	}
	stored := append([]byte{1, 1, 10}, 0)
	stored = append(stored, make([]byte, 10)...)
	cases := []struct {
		name, blob string
		data       []byte
		msg        string
	}{
		{"header", "w", []byte{1, 2}, "coded blob shorter than its header"},
		{"coding", "w", []byte{9, 2, 4, 0}, "unknown blob coding 9"},
		{"stride 0", "w", []byte{1, 0, 4, 0}, "stride 0, want 1..8"},
		{"stride 9", "w", []byte{1, 9, 4, 0}, "stride 9, want 1..8"},
		{"length", "w", []byte{1, 2, 0xff}, "bad decoded length"},
		{"odd length", "w", []byte{1, 2, 3, 0, 0, 0, 0, 0, 0}, "decoded length 3 is not a multiple of the stride 2"},
		{"bomb", "w", []byte{1, 1, 0x80, 0x80, 0x80, 0x01, 1, 2}, "decoded length 2097152 is more than 8 times the 8 coded bytes"},
		{"truncated stored", "w", stored[:len(stored)-1], "block 0 plane 0: coded blob ends inside 10 stored bytes"},
		{"trailing", "w", append(bytes.Clone(stored), 7), "1 bytes after the last block"},
		{"mode", "w", []byte{1, 1, 2, 5, 0, 0}, "block 0 plane 0: unknown mode 5"},
		{"Huffman length", "w", []byte{1, 1, 8, 1, 0xff}, "block 0 plane 0: bad Huffman-coded length"},
		{"missing plane", "w", []byte{1, 2, 4, 0, 1, 2}, "block 0 plane 1: coded blob ends before it"},
		{"huffman", "w", garbled, "block 0 plane 0: Huffman"},
		{"not Huffman", "w", []byte{1, 1, 8, 1, 8, 0, 1, 2, 3, 4, 5, 6, 7}, "block 0 plane 0: Huffman"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Decode(docWithCoded(t, nil, map[string][]byte{c.blob: c.data}))
			e := checkErr(t, err, ErrCorrupt)
			if !strings.Contains(err.Error(), c.msg) || !strings.Contains(err.Error(), `classifiers[0].coded_blobs["w"]`) {
				t.Errorf("got %q, want it to name the blob and say %q", err, c.msg)
			}
			if e.Section != `classifiers[0].coded_blobs["w"]` {
				t.Errorf("section %q", e.Section)
			}
		})
	}
	// A blob may not be both plain and coded.
	_, err := Decode(docWithCoded(t, map[string][]byte{"w": {1}}, map[string][]byte{"w": good}))
	checkErr(t, err, ErrInvalid)
	if !strings.Contains(err.Error(), `coded_blobs["w"]: also in blobs`) {
		t.Errorf("got %q", err)
	}
	// The good blob decodes.
	m, err := Decode(docWithCoded(t, nil, map[string][]byte{"w": good}))
	if err != nil || !bytes.Equal(m.Classifiers[0].Blobs["w"], codableBlobs()["classes"]) {
		t.Fatalf("good coded blob: %v", err)
	}
}

// A version 1 file knows no coded blobs: a reader skips the key like any
// unknown one, as a version 1 reader did.
func TestVersion1IgnoresCodedBlobs(t *testing.T) {
	data := docWithCoded(t, map[string][]byte{"a": {1}}, map[string][]byte{"w": codePlanes(make([]byte, 5000), 1)})
	binary.LittleEndian.PutUint32(data[8:], 1)
	m, err := Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := m.Classifiers[0].Blobs["w"]; ok || len(m.Classifiers[0].Blobs) != 1 {
		t.Fatalf("version 1 decoded coded blobs: %v", m.Classifiers[0].Blobs)
	}
}

// interleave puts byte p of element i at i*s+p for every stride and
// length (the word-at-a-time path and its tail included).
func TestInterleave(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, s := range []int{1, 2, 3, 4, 8} {
		for _, e := range []int{0, 1, 3, 4, 5, 7, 8, 9, 1000, 1003} {
			want := make([]byte, e*s)
			for i := range want {
				want[i] = byte(rng.Uint32())
			}
			planes := make([]byte, e*s)
			for p := range s {
				for i := range e {
					planes[p*e+i] = want[i*s+p]
				}
			}
			got := make([]byte, e*s)
			if s == 1 {
				copy(got, want) // stride 1 decodes in place
			}
			interleave(got, planes, s)
			if !bytes.Equal(got, want) {
				t.Fatalf("stride %d, %d elements: wrong bytes", s, e)
			}
		}
	}
}
