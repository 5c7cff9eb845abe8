package hugepage

import (
	"bufio"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

// Advise never changes memory, whatever the slice: empty, smaller than a
// block, not aligned, or already written.
func TestAdviseKeepsContents(t *testing.T) {
	big := make([]byte, 3*Size+12345)
	for i := range big {
		big[i] = byte(i*7 + 3)
	}
	for _, s := range [][]byte{nil, big[:0], big[:1], big[1:Size], big[3:], big[Size-1 : 2*Size+1], big} {
		Advise(s)
	}
	Advise(make([]uint64, 0, 1<<20)) // capacity, no length
	Advise(make([]struct{ a, b uint32 }, Size/4))
	for i := range big {
		if big[i] != byte(i*7+3) {
			t.Fatalf("byte %d changed", i)
		}
	}
}

// On Linux, the whole blocks of an advised slice are in memory the kernel
// may back with huge pages ("THPeligible: 1" in /proc/self/smaps), unless
// transparent huge pages are off. Whether it does depends on free memory,
// so the test checks the advice, not the pages.
func TestAdviseMarksMemory(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("huge-page advice is Linux only")
	}
	mode, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil || strings.Contains(string(mode), "[never]") {
		t.Skipf("transparent huge pages are off or unknown here (%q, %v)", mode, err)
	}
	s := make([]byte, 4*Size)
	Advise(s)
	start := uintptr(unsafe.Pointer(&s[0]))
	block := (start + Size - 1) &^ (Size - 1)
	for i := 0; i < len(s); i += 4096 {
		s[i] = 1
	}
	eligible, found := thpEligible(t, block)
	if !found {
		t.Fatalf("no mapping holds %#x in /proc/self/smaps", block)
	}
	if !eligible {
		t.Errorf("the mapping holding %#x is not THP-eligible after Advise (mode %q)", block, strings.TrimSpace(string(mode)))
	}
	runtime.KeepAlive(s)
}

// thpEligible reports the THPeligible field of the mapping of
// /proc/self/smaps that holds address a.
func thpEligible(t *testing.T, a uintptr) (eligible, found bool) {
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skipf("no /proc/self/smaps: %v", err)
	}
	defer f.Close()
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if fields := strings.Fields(line); len(fields) > 0 && strings.Contains(fields[0], "-") && !strings.HasSuffix(fields[0], ":") {
			lo, hi, ok := strings.Cut(fields[0], "-")
			l, err1 := strconv.ParseUint(lo, 16, 64)
			h, err2 := strconv.ParseUint(hi, 16, 64)
			in = ok && err1 == nil && err2 == nil && uint64(a) >= l && uint64(a) < h
			continue
		}
		if in && strings.HasPrefix(line, "THPeligible:") {
			return strings.TrimSpace(strings.TrimPrefix(line, "THPeligible:")) == "1", true
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return false, false
}
