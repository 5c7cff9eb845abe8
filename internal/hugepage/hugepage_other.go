//go:build !linux

package hugepage

import "unsafe"

// advise does nothing where there is no huge-page advice.
func advise(p unsafe.Pointer, n uintptr) {}
