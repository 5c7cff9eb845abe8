package morph

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"unsafe"
)

// TestDict checks that every key of a frozen dict finds its own
// candidates and that absent keys (prefixes and extensions of present
// ones) are not found.
func TestDict(t *testing.T) {
	var keys []string
	for i := 0; i < 1000; i++ {
		keys = append(keys, fmt.Sprintf("2w%d\tNOUN", i))
	}
	slices.Sort(keys)
	var ends []uint32
	var ids []int32
	for i := range keys {
		for j := 0; j <= i%3; j++ {
			ids = append(ids, int32(i*10+j))
		}
		ends = append(ends, uint32(len(ids)))
	}
	d := newDict(keys, ends, ids)
	start := uint32(0)
	for i, k := range keys {
		got, ok := d.get([]byte(k))
		if want := ids[start:ends[i]]; !ok || !slices.Equal(got, want) {
			t.Fatalf("get(%q) = %v, %v; want %v, true", k, got, ok, want)
		}
		start = ends[i]
		for _, absent := range []string{k[:len(k)-1], k + "X", ""} {
			if got, ok := d.get([]byte(absent)); ok {
				t.Fatalf("get(%q) = %v, true; want not found", absent, got)
			}
		}
	}
}

// TestCasedForms checks the cache against applyCase for each casing.
func TestCasedForms(t *testing.T) {
	var cf casedForms
	for _, form := range []string{"Running", "ÉCOLE", "iPhone", "", "x"} {
		for _, c := range casings {
			if got, want := cf.get(form, c), applyCase(form, c); got != want {
				t.Errorf("get(%q, %c) = %q, want %q", form, c, got, want)
			}
		}
	}
}

// TestArenaCasing checks the arena's casings against the strings
// package's, on ASCII, non-ASCII, mixed and invalid UTF-8 forms, and that
// a form that needs no change is returned as it is.
func TestArenaCasing(t *testing.T) {
	var a arena
	for _, form := range []string{"running", "Running", "ÉCOLE", "école", "iPhone", "", "x", "X", "İstanbul", "ǅemal", "ab\xffCD", "\xe2\x82", "ΣΑΣ", "123", "U.S."} {
		a.reset()
		if got, want := a.lower(form), strings.ToLower(form); got != want {
			t.Errorf("lower(%q) = %q, want %q", form, got, want)
		}
		for _, c := range casings {
			if got, want := a.cased(form, c), applyCase(form, c); got != want {
				t.Errorf("cased(%q, %c) = %q, want %q", form, c, got, want)
			}
		}
		if l := a.lower(form); l == form && len(form) > 0 && unsafe.StringData(l) != unsafe.StringData(form) {
			t.Errorf("lower(%q) copied a form that needs no change", form)
		}
	}
}
