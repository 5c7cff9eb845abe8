package form

import (
	"hash/fnv"
	"strings"
	"testing"
)

// fnv64a is FNV-1a of s, from the standard library.
func fnv64a(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	return h.Sum64()
}

// Of gives the standard library's FNV-1a of the form, of its lowercased
// form and of its last three runes, on ASCII, non-ASCII, short and empty
// forms, without allocating.
func TestOf(t *testing.T) {
	for _, s := range []string{"Dogs", "dogs", "ÄRGER", "İstanbul", "Straße", "a", "ab", "", "n't", "日本語です", "x\uFFFDy"} {
		r := []rune(s)
		want := Hashes{Form: fnv64a(s), Lower: fnv64a(strings.ToLower(s)), Suffix3: fnv64a(string(r[max(0, len(r)-3):]))}
		if got := Of(s); got != want {
			t.Errorf("Of(%q) = %#x, want %#x", s, got, want)
		}
	}
	if Of("Dogs").Lower != Of("DOGS").Lower || Of("Dogs").Form == Of("DOGS").Form || Of("Dogs").Suffix3 != Of("ogs").Suffix3 {
		t.Error("Of does not tell case from form")
	}
	if n := testing.AllocsPerRun(100, func() { Of("Straße") }); n != 0 {
		t.Errorf("Of allocates %v times", n)
	}
}
