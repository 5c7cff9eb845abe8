package modelfmt

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// checkBlob checks one element type: the native (copy) and portable
// (per-element) paths agree with each other and with encoding/binary, in
// both directions.
func checkBlob[T any](t *testing.T, name string, size int, vals []T,
	dec func([]byte) ([]T, error), enc func([]T) []byte,
	get func([]byte) T, put func([]byte, T)) {
	t.Helper()
	want := make([]byte, len(vals)*size)
	for i, v := range vals {
		put(want[i*size:], v)
	}
	if got := enc(vals); !bytes.Equal(got, want) {
		t.Errorf("%sBytes: got % x, want % x", name, got, want)
	}
	if got := toLE(vals, size, false, put); !bytes.Equal(got, want) {
		t.Errorf("%s portable encode differs", name)
	}
	got, err := dec(want)
	if err != nil {
		t.Fatalf("%ss: %v", name, err)
	}
	portable, err := fromLE(want, size, name, false, get)
	if err != nil {
		t.Fatal(err)
	}
	// Compare as bytes so that NaN payloads count as equal.
	if !bytes.Equal(enc(got), want) || !bytes.Equal(enc(portable), want) {
		t.Errorf("%ss: round trip differs", name)
	}
	// The result must not share memory with the blob.
	if len(want) > 0 {
		want[0] ^= 0xff
		if bytes.Equal(enc(got), want) {
			t.Errorf("%ss shares memory with its input", name)
		}
	}
	if size > 1 {
		_, err = dec(make([]byte, size+1))
		checkErr(t, err, ErrCorrupt)
		if !strings.Contains(err.Error(), "not a whole number of") {
			t.Errorf("%v", err)
		}
	}
	if e, err := dec(nil); err != nil || e == nil || len(e) != 0 {
		t.Errorf("%ss(nil) = %v, %v", name, e, err)
	}
	if b := enc(nil); b == nil || len(b) != 0 {
		t.Errorf("%sBytes(nil) = %v", name, b)
	}
}

func TestBlobs(t *testing.T) {
	defer func(v bool) { nativeLE = v }(nativeLE)
	for _, native := range []bool{true, false} {
		nativeLE = native
		testBlobs(t)
	}
}

func testBlobs(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	n := 1001
	f32 := []float32{0, float32(math.Copysign(0, -1)), 1, -1.5, math.MaxFloat32, math.SmallestNonzeroFloat32,
		float32(math.Inf(1)), float32(math.Inf(-1)), math.Float32frombits(0x7fc00001)}
	f64 := []float64{0, -2.5, math.MaxFloat64, math.Inf(-1), math.Float64frombits(0x7ff8000000000001)}
	var (
		i8  []int8
		u16 []uint16
		i32 []int32
		u32 []uint32
		u64 []uint64
	)
	for range n {
		f32 = append(f32, float32(rng.NormFloat64()))
		f64 = append(f64, rng.NormFloat64())
		i8 = append(i8, int8(rng.Uint32()))
		u16 = append(u16, uint16(rng.Uint32()))
		i32 = append(i32, int32(rng.Uint32()))
		u32 = append(u32, rng.Uint32())
		u64 = append(u64, rng.Uint64())
	}
	le := binary.LittleEndian
	checkBlob(t, "Float32", 4, f32, Float32s, Float32Bytes,
		func(p []byte) float32 { return math.Float32frombits(le.Uint32(p)) },
		func(p []byte, v float32) { le.PutUint32(p, math.Float32bits(v)) })
	checkBlob(t, "Float64", 8, f64, Float64s, Float64Bytes,
		func(p []byte) float64 { return math.Float64frombits(le.Uint64(p)) },
		func(p []byte, v float64) { le.PutUint64(p, math.Float64bits(v)) })
	checkBlob(t, "Int8", 1, i8, Int8s, Int8Bytes,
		func(p []byte) int8 { return int8(p[0]) }, func(p []byte, v int8) { p[0] = byte(v) })
	checkBlob(t, "Uint16", 2, u16, Uint16s, Uint16Bytes, le.Uint16, le.PutUint16)
	checkBlob(t, "Int32", 4, i32, Int32s, Int32Bytes,
		func(p []byte) int32 { return int32(le.Uint32(p)) }, func(p []byte, v int32) { le.PutUint32(p, uint32(v)) })
	checkBlob(t, "Uint32", 4, u32, Uint32s, Uint32Bytes, le.Uint32, le.PutUint32)
	checkBlob(t, "Uint64", 8, u64, Uint64s, Uint64Bytes, le.Uint64, le.PutUint64)

	// Known bytes.
	if b := Float32Bytes([]float32{1}); !bytes.Equal(b, []byte{0, 0, 0x80, 0x3f}) {
		t.Errorf("Float32Bytes(1) = % x", b)
	}
	if v, _ := Uint32s([]byte{1, 2, 3, 4}); v[0] != 0x04030201 {
		t.Errorf("Uint32s = %x", v)
	}
	// A blob at an odd offset of a decoded document still converts.
	m := fullModel()
	m.Classifiers[0].Blobs = map[string][]byte{"a": {1}, "w": Float64Bytes([]float64{1, 2, 3})}
	got, err := Decode(mustMarshal(t, m))
	if err != nil {
		t.Fatal(err)
	}
	if w, err := Float64s(got.Classifiers[0].Blobs["w"]); err != nil || !reflect.DeepEqual(w, []float64{1, 2, 3}) {
		t.Errorf("Float64s of a decoded blob: %v, %v", w, err)
	}
	if !nativeLE {
		t.Log("big-endian host: blobs use the portable path")
	}
}

func TestClassifierBlob(t *testing.T) {
	c := &fullModel().Classifiers[0]
	if b, err := c.Blob("keys"); err != nil || len(b) != 24 {
		t.Errorf("Blob(keys) = %d bytes, %v", len(b), err)
	}
	_, err := c.Blob("missing")
	e := checkErr(t, err, ErrCorrupt)
	if err.Error() != `modelfmt: corrupt model (classifier "parser" has no blob "missing")` || e.Section != "blob" {
		t.Errorf("got %q", err)
	}
	if errors.Is(err, ErrNotModel) {
		t.Error("wrong kind")
	}
}
