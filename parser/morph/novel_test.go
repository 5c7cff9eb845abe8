package morph

import (
	"fmt"
	"strings"
	"testing"
	"unsafe"
)

// TestNovelLemmas: a lemma asked for again is the kept string, found
// without allocating; past maxNovel lemmas new ones are still right.
func TestNovelLemmas(t *testing.T) {
	var n novelLemmas
	a := n.get([]byte("blorfed"))
	b := []byte("blorfed")
	if allocs := testing.AllocsPerRun(100, func() { _ = n.get(b) }); allocs != 0 {
		t.Fatalf("%v allocations for a kept lemma", allocs)
	}
	if c := n.get(b); c != a || unsafe.StringData(c) != unsafe.StringData(a) {
		t.Fatalf("%q is not the kept string", c)
	}
	for i := range maxNovel + 10 {
		w := fmt.Sprint("w", i)
		if got := n.get([]byte(w)); got != w {
			t.Fatalf("%q for %q", got, w)
		}
	}
	if len(n.m) != maxNovel {
		t.Fatalf("%d lemmas kept, want at most %d", len(n.m), maxNovel)
	}
}

// TestLowerBytes: lowerBytes is strings.ToLower, invalid UTF-8 and
// lemmas longer than any stack buffer included, and allocates nothing
// once its slice has grown.
func TestLowerBytes(t *testing.T) {
	for _, s := range []string{"", "abc", "ABC", "Straße", "İSTANBUL", "ÇAĞDAŞ", "a\xffB\xc3", strings.Repeat("ÄÖÜ", 40)} {
		b := lowerBytes([]byte(s))
		if got, want := string(b), strings.ToLower(s); got != want {
			t.Errorf("lowerBytes(%q) = %q, want %q", s, got, want)
		}
		buf := make([]byte, 0, 4*len(s)+8)
		if n := testing.AllocsPerRun(10, func() { buf = lowerBytes(append(buf[:0], s...)) }); n != 0 {
			t.Errorf("%q: %v allocations", s, n)
		}
	}
}
