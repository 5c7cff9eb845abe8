// Package hugepage asks the operating system to back large, freshly
// allocated memory with huge pages (transparent huge pages on Linux), so
// that its first touch costs one page fault per 2 MB instead of one per
// 4 KB.
package hugepage

import "unsafe"

// Size is the huge page size advised for: only the whole 2 MB blocks of a
// slice's memory are advised.
const Size = 2 << 20

// Advise advises huge pages for the memory of s[:cap(s)] (its whole 2 MB
// blocks), best effort: errors are ignored, and nothing happens where the
// system has no such advice or s spans no whole block. Call it before the
// memory is first written. Memory already touched is not changed.
func Advise[T any](s []T) {
	if cap(s) == 0 {
		return
	}
	var zero T
	n := uintptr(cap(s)) * unsafe.Sizeof(zero)
	base := unsafe.Pointer(unsafe.SliceData(s))
	start := uintptr(base)
	lo := (start + Size - 1) &^ (Size - 1)
	hi := (start + n) &^ (Size - 1)
	if hi <= lo {
		return
	}
	advise(unsafe.Add(base, lo-start), hi-lo)
}

// Arena is memory for the pointer-free arrays a load writes once (tables of
// integers and floats), taken in order from one allocation, each aligned
// to a 64-byte cache line. An arena of at least one block starts on a
// 2 MB boundary, so that all its whole blocks are advised, not only the
// whole blocks inside each array (it reserves up to 2 MB more of address
// space to align its start: untouched in fresh memory, zeroed by the
// allocator in reused memory). Its last, partial block is not advised: a
// huge page there would be zeroed whole by the kernel and held in memory
// whole for a part of it.
//
// The arrays share the arena's memory: it stays allocated while any of
// them is reachable. Element types must hold no pointers (the garbage
// collector does not scan the arena). Not safe for concurrent use.
type Arena struct {
	b []byte
}

// lineAlign aligns every array of an arena to a cache line.
const lineAlign = 64

// ArenaBytes returns the arena bytes n elements of type T take.
func ArenaBytes[T any](n int) int {
	var zero T
	return (n*int(unsafe.Sizeof(zero)) + lineAlign - 1) &^ (lineAlign - 1)
}

// NewArena returns a zeroed arena of n bytes (a sum of ArenaBytes). An
// arena of less than a block is ordinary memory.
func NewArena(n int) Arena {
	if n < Size {
		b := make([]byte, n+lineAlign)
		start := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
		off := int((lineAlign - start%lineAlign) % lineAlign)
		return Arena{b[off : off+n : off+n]}
	}
	// Room to align the start.
	b := make([]byte, n+Size)
	start := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	off := int((Size - start%Size) % Size)
	Advise(b[off : off+n])
	return Arena{b[off : off+n : off+n]}
}

// Take returns the next n elements of type T of a, zeroed, with len and
// cap n. It panics if a has not that much room left (a caller's size
// error).
func Take[T any](a *Arena, n int) []T {
	k := ArenaBytes[T](n)
	if k > len(a.b) {
		panic("hugepage: arena too small")
	}
	if n == 0 {
		a.b = a.b[k:]
		return []T{}
	}
	s := unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(a.b))), n)
	a.b = a.b[k:]
	return s
}

// Scratch returns a slice of n elements of type T (no pointers) to be
// overwritten: s resliced if its capacity suffices, else fresh memory from
// an arena of its own (slices.Grow would zero it first, faulting it in
// 4 KB pages before any advice). Unlike slices.Grow it does not keep the
// contents of s.
func Scratch[T any](s []T, n int) []T {
	if n <= cap(s) {
		return s[:n]
	}
	a := NewArena(ArenaBytes[T](n))
	return Take[T](&a, n)
}
