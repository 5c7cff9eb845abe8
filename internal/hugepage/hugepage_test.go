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
	mode := thpMode(t)
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

// An arena hands out zeroed, non-overlapping, cache-line aligned arrays in
// order; one of at least a block starts on a block boundary; taking more
// than it holds panics.
func TestArenaTakes(t *testing.T) {
	for _, n := range []int{0, 100, Size - 64, Size, 3*Size + 4096} {
		k := n / 3
		size := ArenaBytes[uint64](k/8) + ArenaBytes[byte](k) + ArenaBytes[[3]uint32](k/12)
		a := NewArena(size)
		base := uintptr(unsafe.Pointer(unsafe.SliceData(a.b)))
		if size >= Size && base%Size != 0 {
			t.Errorf("arena of %d bytes starts at %#x, not on a block boundary", size, base)
		}
		x := Take[uint64](&a, k/8)
		y := Take[byte](&a, k)
		z := Take[[3]uint32](&a, k/12)
		if len(x) != k/8 || cap(x) != k/8 || len(y) != k || len(z) != k/12 {
			t.Fatalf("lengths %d %d %d, want %d %d %d", len(x), len(y), len(z), k/8, k, k/12)
		}
		for _, s := range []unsafe.Pointer{unsafe.Pointer(unsafe.SliceData(x)), unsafe.Pointer(unsafe.SliceData(y)), unsafe.Pointer(unsafe.SliceData(z))} {
			if k > 0 && uintptr(s)%lineAlign != 0 {
				t.Errorf("array at %#x is not cache-line aligned", s)
			}
		}
		for i := range x {
			if x[i] != 0 {
				t.Fatal("not zeroed")
			}
			x[i] = ^uint64(0)
		}
		for i := range y {
			if y[i] != 0 {
				t.Fatal("not zeroed: arrays overlap")
			}
			y[i] = 0xff
		}
		for i := range z {
			if z[i] != [3]uint32{} {
				t.Fatal("not zeroed: arrays overlap")
			}
		}
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("arena of %d bytes: taking past its end did not panic", size)
				}
			}()
			Take[byte](&a, 65)
		}()
	}
}

// Scratch reuses capacity and otherwise returns fresh memory of the length
// asked for.
func TestScratch(t *testing.T) {
	s := Scratch([]uint32(nil), 10)
	if len(s) != 10 {
		t.Fatalf("len %d", len(s))
	}
	s[0] = 7
	if r := Scratch(s[:0], 5); len(r) != 5 || &r[0] != &s[0] {
		t.Errorf("capacity not reused")
	}
	big := Scratch(s, Size)
	if len(big) != Size {
		t.Fatalf("len %d", len(big))
	}
	for _, v := range big {
		if v != 0 {
			t.Fatal("fresh scratch not zeroed")
		}
	}
}

// A large arena's whole blocks are advised. (That its last, partial block
// is not cannot be checked this way: memory the heap reuses keeps the
// advice of an earlier test.)
func TestArenaMarksMemory(t *testing.T) {
	thpMode(t)
	a := NewArena(2*Size + Size/2)
	b := Take[byte](&a, 2*Size+Size/2)
	for i := 0; i < len(b); i += 4096 {
		b[i] = 1
	}
	for _, at := range []int{0, Size, 2*Size - 1} {
		if eligible, found := thpEligible(t, uintptr(unsafe.Pointer(&b[at]))); !found || !eligible {
			t.Errorf("byte %d of the arena is not in THP-eligible memory (found %v)", at, found)
		}
	}
	runtime.KeepAlive(b)
}

// thpMode returns the transparent huge page mode, skipping the test where
// there is no advice to check: not Linux, or THP off or unknown.
func thpMode(t *testing.T) string {
	if runtime.GOOS != "linux" {
		t.Skip("huge-page advice is Linux only")
	}
	mode, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil || strings.Contains(string(mode), "[never]") {
		t.Skipf("transparent huge pages are off or unknown here (%q, %v)", mode, err)
	}
	return string(mode)
}
