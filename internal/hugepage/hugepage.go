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
