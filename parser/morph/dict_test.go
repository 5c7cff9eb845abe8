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

// TestWordIndex checks that a word index finds what the three levels of
// the dictionary, probed in turn, give, for known and unknown forms,
// casings and tags; and that it is not built when a '1' or '2' key lacks
// its '3' key.
func TestWordIndex(t *testing.T) {
	forms := []string{"the", "The", "THE", "run", "Run", "École", "école", "x"}
	tags := [][2]string{{"DET", "DT"}, {"VERB", "VB"}, {"VERB", "VBP"}, {"NOUN", "NN"}}
	set := map[string]bool{}
	for i, f := range forms {
		for j, tg := range tags {
			if (i+j)%2 == 0 {
				set[key(levelTags, f, tg[0], tg[1])] = true
			}
			if (i+j)%3 != 1 {
				set[key(levelUPOS, f, tg[0])] = true
			}
			set[key(levelLower, strings.ToLower(f), tg[0])] = true
		}
	}
	set[key(indexTags, "NOUN", "NN")] = true
	var keys []string
	for k := range set {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var ends []uint32
	var ids []int32
	for i := range keys {
		ids = append(ids, int32(i))
		ends = append(ends, uint32(len(ids)))
	}
	d := newDict(keys, ends, ids)
	w := newWordIndex(d)
	if w == nil {
		t.Fatal("no word index")
	}
	var kb []byte
	for _, f := range append(forms, "unknown", "Unknown") {
		for _, tg := range append(tags, [2]string{"ADJ", "JJ"}) {
			var want []int32
			var wantLevel byte
			wantOK := false
			for _, k := range []string{key(levelTags, f, tg[0], tg[1]), key(levelUPOS, f, tg[0]), key(levelLower, strings.ToLower(f), tg[0])} {
				if l, ok := d.get([]byte(k)); ok {
					want, wantLevel, wantOK = l, k[0], true
					break
				}
			}
			var got []int32
			var level byte
			var ok bool
			got, level, ok, kb = w.find(d, kb, f, strings.ToLower(f), tg[0], tg[1], 0)
			if ok != wantOK || level != wantLevel || !slices.Equal(got, want) {
				t.Errorf("find(%q, %v) = %v, %q, %v; want %v, %q, %v", f, tg, got, level, ok, want, wantLevel, wantOK)
			}
		}
	}
	orphan := newDict([]string{key(levelUPOS, "Run", "VERB")}, []uint32{1}, []int32{0})
	if newWordIndex(orphan) != nil {
		t.Error("a word index without the '3' key of a '2' key")
	}
}

// TestSeenLemmas checks the set of training lemmas built from a model
// file's keys: whether a lemma was seen with a UPOS and with any, the
// lemma strings it gives, and the keys it stores back; older files' extra
// "lemma<TAB>" keys and unsorted lists give the same set.
func TestSeenLemmas(t *testing.T) {
	stored := []string{"ab\tNOUN", "ab\tVERB", "ab-c\tNOUN", "abc\tADJ", "xyz\t"}
	older := append(slices.Clone(stored), "ab\t", "ab-c\t", "abc\t")
	slices.Sort(older)
	shuffled := []string{"abc\tADJ", "xyz\t", "ab\tVERB", "ab-c\tNOUN", "ab\tNOUN"}
	for _, in := range [][]string{stored, older, shuffled} {
		s := newSeenLemmas(in)
		for _, c := range []struct {
			lemma, upos   string
			withUPOS, any bool
		}{
			{"ab", "NOUN", true, true}, {"ab", "VERB", true, true}, {"ab", "ADJ", false, true},
			{"ab-c", "NOUN", true, true}, {"abc", "NOUN", false, true}, {"abc", "", true, true},
			{"xyz", "NOUN", false, true}, {"a", "NOUN", false, false}, {"abcd", "ADJ", false, false},
		} {
			u, a := s.has([]byte(c.lemma+"\t"), c.upos)
			if u != c.withUPOS || a != c.any {
				t.Errorf("%q: has(%q, %q) = %v, %v; want %v, %v", in, c.lemma, c.upos, u, a, c.withUPOS, c.any)
			}
			if l, ok := s.lemma([]byte(c.lemma + "\t")); ok != c.any || ok && l != c.lemma {
				t.Errorf("%q: lemma(%q) = %q, %v", in, c.lemma, l, ok)
			}
		}
		if got := s.keys(); !slices.Equal(got, stored) {
			t.Errorf("%q: keys() = %q, want %q", in, got, stored)
		}
	}
}

// A sentence's dictionary entries looked up at once (lookupWords: hashed,
// touched, then found) are those candidates finds word by word, for the
// lemmatizer and the FEATS tagger, on every word of the EWT dev slice.
func TestLookupWordsAsCandidates(t *testing.T) {
	train := readFixture(t, "en_ewt-train-150.conllu")
	l, f := trainBoth(t, train)
	in := 0
	for _, c := range []*component{l.c, f.c} {
		if c.words == nil {
			t.Fatalf("%s: no word index once trained", c.kind)
		}
		var sc, one scratch
		for _, s := range readFixture(t, "en_ewt-dev-40.conllu") {
			ws := s.Words
			sc.ws = analyze(ws, sc.ws, &sc.offs, &sc.lowers, c.lemmaUse())
			one.ws = analyze(ws, one.ws, &one.offs, &one.lowers, c.lemmaUse())
			c.lookupWords(ws, &sc)
			for i := range ws {
				cands, lower, ok := c.candidates(&ws[i], i, &one, nil)
				got := sc.found[i]
				if !ok {
					if got.ok {
						t.Fatalf("%s %q: found by lookupWords, not by candidates", c.kind, ws[i].Form)
					}
					continue
				}
				in++
				if !got.ok || (got.level == levelLower) != lower || !slices.Equal(got.cands, cands) {
					t.Fatalf("%s %q: lookupWords %v/%v/%v, candidates %v/%v", c.kind, ws[i].Form, got.cands, got.level, got.ok, cands, lower)
				}
			}
		}
	}
	if in == 0 {
		t.Fatal("no word in the dictionaries")
	}
}
