package linear

import (
	"math/bits"
	"unsafe"
)

// useAVX2 reports whether addDense uses the AVX2 kernel (the CPU and the
// operating system support AVX2). Tests switch it off to check the
// portable kernel.
var useAVX2 = hasAVX2()

// hasAVX2 reports whether the CPU has AVX2 and the OS saves the YMM
// registers (CPUID leaf 1: OSXSAVE and AVX; XCR0: XMM and YMM state; CPUID
// leaf 7: AVX2).
func hasAVX2() bool {
	maxLeaf, _, _, _ := cpuid(0, 0)
	if maxLeaf < 7 {
		return false
	}
	_, _, ecx1, _ := cpuid(1, 0)
	const osxsave, avx = 1 << 27, 1 << 28
	if ecx1&osxsave == 0 || ecx1&avx == 0 {
		return false
	}
	if xcr0, _ := xgetbv(); xcr0&6 != 6 {
		return false
	}
	_, ebx7, _, _ := cpuid(7, 0)
	return ebx7&(1<<5) != 0
}

// cpuid executes CPUID with EAX=leaf, ECX=sub.
func cpuid(leaf, sub uint32) (eax, ebx, ecx, edx uint32)

// xgetbv returns XCR0.
func xgetbv() (eax, edx uint32)

// addDenseAVX2 is addDense for len(acc) a multiple of 16, n = len(offs) > 0,
// every row in bounds (checked by addDense).
//
//go:noescape
func addDenseAVX2(acc *int32, rows *int16, offs *uint32, n, width int)

// addDense adds the dense rows rows[off : off+len(acc)] for every off in
// offs to acc (len(acc) is a multiple of 16, every row within rows).
func addDense(acc []int32, rows []int16, offs []uint32) {
	if !useAVX2 || len(offs) == 0 || len(acc) == 0 {
		addDenseGo(acc, rows, offs)
		return
	}
	// The kernel does not check bounds: check them here (cheaply, as the
	// largest offset).
	hi := uint32(0)
	for _, off := range offs {
		hi = max(hi, off)
	}
	if len(acc)%16 != 0 || uint64(hi)+uint64(len(acc)) > uint64(len(rows)) {
		panic("linear: addDense: row out of range")
	}
	addDenseAVX2(&acc[0], &rows[0], &offs[0], len(offs), len(acc))
}

// prefetchRows prefetches every cache line of the bytes bytes of each row
// starting at base + offs[i]<<shift, i < n.
//
//go:noescape
func prefetchRows(base unsafe.Pointer, offs *uint32, n int, shift uint, bytes int)

// touchLines starts loading the lines lines[i] for i in idx, without
// waiting for them. It returns 0 (see the portable version).
func touchLines(lines []line, idx []uint32) uint32 {
	if len(idx) > 0 && len(lines) > 0 {
		const shift = 6 // a line is 1<<6 bytes (checked below)
		prefetchRows(unsafe.Pointer(&lines[0]), &idx[0], len(idx), shift, 1)
	}
	return 0
}

// touchRows starts loading every cache line of the rows rows[off :
// off+n] for off in offs, without waiting for them. It returns 0.
func touchRows[T int16 | uint32](rows []T, offs []uint32, n int) uint32 {
	if len(offs) > 0 && len(rows) > 0 {
		size := unsafe.Sizeof(rows[0])
		prefetchRows(unsafe.Pointer(&rows[0]), &offs[0], len(offs), uint(bits.TrailingZeros64(uint64(size))), n*int(size))
	}
	return 0
}

// A line is 64 bytes (touchLines's shift): this does not compile otherwise.
var _ = [1]struct{}{}[unsafe.Sizeof(line{})-64]

// scaleSumsSSE2 sets dst[i] = float32(src[i]) * scale for i < n, n a
// positive multiple of 4 (dense_amd64.s).
//
//go:noescape
func scaleSumsSSE2(dst *float32, src *int32, n int, scale float32)

// scaleSums sets dst[i] = float32(src[i]) * scale for i < len(dst)
// (len(src) >= len(dst)), four at a time with SSE2.
func scaleSums(dst []float32, src []int32, scale float32) {
	src = src[:len(dst)]
	n := len(dst) &^ 3
	if n > 0 {
		scaleSumsSSE2(&dst[0], &src[0], n, scale)
	}
	scaleSumsGo(dst[n:], src[n:], scale)
}
