package testenv

import (
	"syscall"
	"time"
	"unsafe"
)

// ThreadCPU returns the CPU time of the calling OS thread (call
// runtime.LockOSThread first). On a shared machine it measures the work of a
// benchmark much more steadily than the wall clock.
func ThreadCPU() time.Duration {
	var ts syscall.Timespec
	const clockThreadCPUTimeID = 3
	syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTimeID, uintptr(unsafe.Pointer(&ts)), 0)
	return time.Duration(ts.Nano())
}
