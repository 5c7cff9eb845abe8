package hugepage

import (
	"syscall"
	"unsafe"
)

// advise calls madvise(MADV_HUGEPAGE) on the n bytes at p.
func advise(p unsafe.Pointer, n uintptr) {
	_ = syscall.Madvise(unsafe.Slice((*byte)(p), n), syscall.MADV_HUGEPAGE)
}
