package modelfmt

import (
	"encoding/binary"
	"math"
	"unsafe"
)

// Blobs are raw little-endian arrays: a []float32 of n values is stored as
// 4n bytes, value i in bytes 4i..4i+3, least significant byte first. The
// functions below convert between blobs and Go slices. On little-endian
// machines (amd64, arm64, ...) each conversion is one allocation and one
// memory copy, with no per-element work; on big-endian machines they fall
// back to encoding/binary. Decoding functions always return a new slice that
// shares no memory with the blob, and fail with an *Error wrapping
// ErrCorrupt when the blob's length is not a whole number of elements.

// nativeLE reports whether this machine stores integers little-endian.
var nativeLE = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// Blob returns the blob called name of c, or an *Error wrapping ErrCorrupt
// if c has no such blob.
func (c *Classifier) Blob(name string) ([]byte, error) {
	b, ok := c.Blobs[name]
	if !ok {
		return nil, newError("", -1, "blob", kindCorrupt, "corrupt model (classifier %q has no blob %q)", c.Name, name)
	}
	return b, nil
}

// Float32s decodes a blob of little-endian IEEE 754 float32 values.
func Float32s(b []byte) ([]float32, error) {
	return fromLE(b, 4, "float32", nativeLE, func(p []byte) float32 {
		return math.Float32frombits(binary.LittleEndian.Uint32(p))
	})
}

// Float64s decodes a blob of little-endian IEEE 754 float64 values.
func Float64s(b []byte) ([]float64, error) {
	return fromLE(b, 8, "float64", nativeLE, func(p []byte) float64 {
		return math.Float64frombits(binary.LittleEndian.Uint64(p))
	})
}

// Int8s decodes a blob of int8 values (one byte each, two's complement).
func Int8s(b []byte) ([]int8, error) {
	return fromLE(b, 1, "int8", nativeLE, func(p []byte) int8 { return int8(p[0]) })
}

// Uint16s decodes a blob of little-endian uint16 values.
func Uint16s(b []byte) ([]uint16, error) {
	return fromLE(b, 2, "uint16", nativeLE, binary.LittleEndian.Uint16)
}

// Int32s decodes a blob of little-endian int32 values.
func Int32s(b []byte) ([]int32, error) {
	return fromLE(b, 4, "int32", nativeLE, func(p []byte) int32 { return int32(binary.LittleEndian.Uint32(p)) })
}

// Uint32s decodes a blob of little-endian uint32 values.
func Uint32s(b []byte) ([]uint32, error) {
	return fromLE(b, 4, "uint32", nativeLE, binary.LittleEndian.Uint32)
}

// Uint64s decodes a blob of little-endian uint64 values.
func Uint64s(b []byte) ([]uint64, error) {
	return fromLE(b, 8, "uint64", nativeLE, binary.LittleEndian.Uint64)
}

// Float32Bytes encodes s as a blob of little-endian float32 values.
func Float32Bytes(s []float32) []byte {
	return toLE(s, 4, nativeLE, func(p []byte, v float32) { binary.LittleEndian.PutUint32(p, math.Float32bits(v)) })
}

// Float64Bytes encodes s as a blob of little-endian float64 values.
func Float64Bytes(s []float64) []byte {
	return toLE(s, 8, nativeLE, func(p []byte, v float64) { binary.LittleEndian.PutUint64(p, math.Float64bits(v)) })
}

// Int8Bytes encodes s as a blob of int8 values.
func Int8Bytes(s []int8) []byte {
	return toLE(s, 1, nativeLE, func(p []byte, v int8) { p[0] = byte(v) })
}

// Uint16Bytes encodes s as a blob of little-endian uint16 values.
func Uint16Bytes(s []uint16) []byte {
	return toLE(s, 2, nativeLE, binary.LittleEndian.PutUint16)
}

// Int32Bytes encodes s as a blob of little-endian int32 values.
func Int32Bytes(s []int32) []byte {
	return toLE(s, 4, nativeLE, func(p []byte, v int32) { binary.LittleEndian.PutUint32(p, uint32(v)) })
}

// Uint32Bytes encodes s as a blob of little-endian uint32 values.
func Uint32Bytes(s []uint32) []byte {
	return toLE(s, 4, nativeLE, binary.LittleEndian.PutUint32)
}

// Uint64Bytes encodes s as a blob of little-endian uint64 values.
func Uint64Bytes(s []uint64) []byte {
	return toLE(s, 8, nativeLE, binary.LittleEndian.PutUint64)
}

// fromLE decodes b as little-endian values of size bytes each. With native
// set it copies the bytes straight into the new slice, which Go allocates
// with the alignment T needs; otherwise it decodes value by value with get.
func fromLE[T any](b []byte, size int, name string, native bool, get func([]byte) T) ([]T, error) {
	if len(b)%size != 0 {
		return nil, newError("", -1, "blob", kindCorrupt,
			"corrupt blob (%d bytes is not a whole number of %d-byte %s values)", len(b), size, name)
	}
	out := make([]T, len(b)/size)
	if len(out) == 0 {
		return out, nil
	}
	if native {
		copy(unsafe.Slice((*byte)(unsafe.Pointer(&out[0])), len(b)), b)
		return out, nil
	}
	for i := range out {
		out[i] = get(b[i*size : i*size+size])
	}
	return out, nil
}

// toLE encodes s as little-endian values of size bytes each (see fromLE).
func toLE[T any](s []T, size int, native bool, put func([]byte, T)) []byte {
	out := make([]byte, len(s)*size)
	if len(s) == 0 {
		return out
	}
	if native {
		copy(out, unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), len(out)))
		return out
	}
	for i, v := range s {
		put(out[i*size:i*size+size], v)
	}
	return out
}
