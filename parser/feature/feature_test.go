package feature

import (
	"fmt"
	"hash/fnv"
	"reflect"
	"strings"
	"testing"

	"github.com/transparse/transparse/parser/conllu"
	"github.com/transparse/transparse/parser/form"
	"github.com/transparse/transparse/parser/transition"
)

func TestParseAddress(t *testing.T) {
	cases := []struct {
		in    string
		kind  uint8
		index int
		path  []step
	}{
		{"s0", kindStack, 0, nil},
		{"n2", kindBuffer, 2, nil},
		{"s0h2", kindStack, 0, []step{stepHead, stepHead}},
		{"s1l2", kindStack, 1, []step{stepL2}},
		{"n0lr", kindBuffer, 0, []step{stepL1, stepR1}},
		{"s0hr2", kindStack, 0, []step{stepHead, stepR2}},
		{"q0", kindSecond, 0, nil},
		{"g1h", kindRegister, 1, []step{stepHead}},
	}
	for _, c := range cases {
		a, err := parseAddress(c.in)
		if err != nil || a.kind != c.kind || a.index != c.index || !reflect.DeepEqual(a.path, c.path) {
			t.Errorf("parseAddress(%q) = %+v, %v", c.in, a, err)
		}
	}
	for _, bad := range []string{"", "s", "x0", "s4", "s0q", "s0h3", "g2", "q4"} {
		if _, err := parseAddress(bad); err == nil {
			t.Errorf("parseAddress(%q) gave no error", bad)
		}
	}
}

// Every shipped template compiles, and on the configuration after
// SHIFT, LEFT-ARC of "Economic news had" the addresses resolve to the
// expected nodes: features of different configurations differ.
func TestTemplatesExtract(t *testing.T) {
	for _, morph := range []bool{false, true} {
		e, err := New(ZhangNivre2011(morph))
		if err != nil {
			t.Fatal(err)
		}
		var s transition.State
		sys := transition.ArcEager{}
		sys.Init(&s, 3)
		w := testWords(3, func(i, v int) uint64 { return uint64(i*100 + v + 1) })
		var sc Scratch
		before := append([]uint64(nil), e.Extract(&s, w, &sc)...)
		transition.Step(sys, &s, transition.Transition{Move: transition.Shift, Label: transition.None})
		transition.Step(sys, &s, transition.Transition{Move: transition.LeftArc, Label: 0})
		after := e.Extract(&s, w, &sc)
		if len(after) != e.Len() || reflect.DeepEqual(before, after) {
			t.Fatalf("morph=%v: features did not change with the configuration", morph)
		}
	}
	if _, err := New([]string{"s0.w+n9.p"}); err == nil {
		t.Error("bad template compiled")
	}
}

// Models trained with hash version 1 keep their feature keys: HashV1
// reproduces the mix-after-every-atom hash, HashV2 gives other keys for the
// same state, and both give one key per template.
func TestHashVersions(t *testing.T) {
	tpls := []string{"s0.w", "s0.w+n0.p", "n0.p+dist"}
	v1, err := NewVersion(tpls, HashV1)
	if err != nil {
		t.Fatal(err)
	}
	v2, _ := New(tpls)
	if _, err := NewVersion(tpls, 3); err == nil {
		t.Error("hash version 3 accepted")
	}
	s, w := afterShift(func(i, v int) uint64 { return uint64(100*i + v + 1) })
	var sc1, sc2 Scratch
	f1 := append([]uint64(nil), v1.Extract(s, w, &sc1)...)
	f2 := v2.Extract(s, w, &sc2)
	// s0 = 1, n0 = 2; dist = 1 + 0x100.
	seed := func(t uint64) uint64 { return t * 0x9E3779B97F4A7C15 }
	want := []uint64{
		mix(seed(1) ^ w.Values[1][W]),
		mix(mix(seed(2)^w.Values[1][W]) ^ w.Values[2][P]),
		mix(mix(seed(3)^w.Values[2][P]) ^ (1 + 0x100)),
	}
	for i := range want {
		if f1[i] != want[i] {
			t.Errorf("HashV1 template %d: %x, want %x", i, f1[i], want[i])
		}
		if f2[i] == f1[i] {
			t.Errorf("HashV2 template %d equals HashV1", i)
		}
	}
}

// HashV2 folds the atoms of a template into (t+1)*seed, one multiply per
// atom, and folds the high bits once, for templates of every number of
// atoms (those of up to maxArity atoms are hashed by loops of their own,
// longer ones by the general loop), each written at its template's index.
func TestHashV2(t *testing.T) {
	tpls := []string{"s0.w+s0.p+n0.w+n0.p+dist", "s0.w", "s0.w+s0.p+n0.w", "s0.w+n0.p",
		"s0.w+s0.p+n0.w+n0.p", "n0.p+dist", "n0.w+n0.p+s0.p+s0.w+dist+n0.w"}
	e, err := New(tpls)
	if err != nil {
		t.Fatal(err)
	}
	if len(e.long) != 2 {
		t.Fatalf("%d templates hashed by the general loop, want 2", len(e.long))
	}
	s, w := afterShift(func(i, v int) uint64 { return uint64(1000*i+v+1) * 0x9E3779B97F4A7C15 })
	var sc Scratch
	got := e.Extract(s, w, &sc)
	// s0 = 1, n0 = 2; dist = 1 + 0x100.
	s0w, s0p, n0w, n0p, dist := w.Values[1][W], w.Values[1][P], w.Values[2][W], w.Values[2][P], uint64(1+0x100)
	hash := func(t uint64, vals ...uint64) uint64 {
		h := t * 0x9E3779B97F4A7C15
		for _, v := range vals {
			h = (h ^ v) * 0xff51afd7ed558ccd
		}
		return h ^ h>>29
	}
	want := []uint64{
		hash(1, s0w, s0p, n0w, n0p, dist), hash(2, s0w), hash(3, s0w, s0p, n0w), hash(4, s0w, n0p),
		hash(5, s0w, s0p, n0w, n0p), hash(6, n0p, dist), hash(7, n0w, n0p, s0p, s0w, dist, n0w),
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("HashV2 features\n got %x\nwant %x", got, want)
	}
}

// afterShift returns the arc-eager state of a two-word sentence after
// SHIFT (s0 = 1, n0 = 2) and its words, value v of node i being value(i, v).
func afterShift(value func(i, v int) uint64) (*transition.State, *Words) {
	s := new(transition.State)
	transition.ArcEager{}.Init(s, 2)
	transition.Step(transition.ArcEager{}, s, transition.Transition{Move: transition.Shift, Label: transition.None})
	return s, testWords(2, value)
}

// testWords is the Words of a sentence of n words whose node i has word
// value v value(i, v), with the null row FillWords adds.
func testWords(n int, value func(i, v int) uint64) *Words {
	w := &Words{Values: make([][NumWordValues]uint64, n+2)}
	for i := range w.Values {
		for v := range w.Values[i] {
			w.Values[i][v] = value(i, v)
			if i == n+1 {
				w.Values[i][v] = nullValue
			}
		}
	}
	return w
}

// A missing node (an empty address: s2 with two nodes on the stack, the
// dependents of a word without any, the head of a headless one) gives
// nullValue for every value, word or arc, next to present nodes' values;
// Words without the null row are refused.
func TestExtractMissingNodes(t *testing.T) {
	tpls := []string{"s2.w", "s0l.d", "n0.p+s2.p", "s0h.lm+n0.w", "s0.vl+n1.sf", "s0.d", "n0.sl+s2.sr", "q0.w"}
	e, err := New(tpls)
	if err != nil {
		t.Fatal(err)
	}
	s, w := afterShift(func(i, v int) uint64 { return uint64(1000*i+v+1) * 0x9E3779B97F4A7C15 })
	var sc Scratch
	got := e.Extract(s, w, &sc)
	hash := func(t uint64, vals ...uint64) uint64 {
		h := t * 0x9E3779B97F4A7C15
		for _, v := range vals {
			h = (h ^ v) * 0xff51afd7ed558ccd
		}
		return h ^ h>>29
	}
	// The stack is root, 1: s0 = 1 (no head, no dependents), n0 = 2; s2,
	// n1 and q0 are missing.
	null := uint64(nullValue)
	want := []uint64{
		hash(1, null), hash(2, null), hash(3, w.Values[2][P], null), hash(4, null, w.Values[2][W]),
		hash(5, 0+0x2000, null), hash(6, uint64(s.Label[1])+0x1000), hash(7, mix(0+0x4000), null), hash(8, null),
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("features\n got %x\nwant %x", got, want)
	}
	short := &Words{Values: w.Values[:len(w.Values)-1]}
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "null row") {
			t.Errorf("Words without the null row: recovered %v", r)
		}
	}()
	e.Extract(s, short, &sc)
}

// FillWords gives n+2 rows: the root's, one per word (the main tag is
// XPOS, else UPOS; lemma and FEATS only with morph), and the null row; a
// longer sentence after it moves the null row.
func TestFillWords(t *testing.T) {
	words := []conllu.Word{
		{Form: "Dogs", Lemma: "dog", UPOS: "NOUN", XPOS: "NNS", Feats: "Case=Nom|Number=Plur"},
		{Form: "bark", Lemma: "bark", UPOS: "VERB", XPOS: "_", Feats: "_"},
	}
	var w Words
	for _, morph := range []bool{true, false} {
		FillWords(&w, words, morph)
		if len(w.Values) != 4 {
			t.Fatalf("%d rows for 2 words", len(w.Values))
		}
		for v := range NumWordValues {
			if w.Values[3][v] != nullValue {
				t.Errorf("null row value %d: %x", v, w.Values[3][v])
			}
		}
		d, b := w.Values[1], w.Values[2]
		if d[W] != Hash(W, "Dogs") || d[LW] != lowerSeed^fnv64a("dogs")*0x9E3779B97F4A7C15 || d[SF] != Hash(SF, "ogs") ||
			d[P] != Hash(P, "NNS") || b[P] != Hash(P, "VERB") || d[U] != Hash(U, "NOUN") || d[A] != 0 {
			t.Errorf("morph=%v: word values %x %x", morph, d, b)
		}
		if wantLM := map[bool]uint64{true: Hash(LM, "dog"), false: 0}[morph]; d[LM] != wantLM || (morph && d[CS] != Hash(CS, "Nom")) {
			t.Errorf("morph=%v: lemma %x, case %x", morph, d[LM], d[CS])
		}
	}
	FillWords(&w, append(words, words...), false)
	if len(w.Values) != 6 || w.Values[5][W] != nullValue || w.Values[3][W] != Hash(W, "Dogs") {
		t.Errorf("longer sentence: %d rows, null row %x", len(w.Values), w.Values[5][W])
	}
}

// fnv64a is FNV-1a of s, from the standard library.
func fnv64a(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	return h.Sum64()
}

// FillAnalyzed gives the values FillWords gives, with and without
// morphology, with the ambiguity classes of the analysis; the lowercased
// form and suffix values are those of the lowercased form and of the last
// three runes.
func TestFillAnalyzed(t *testing.T) {
	words := []conllu.Word{{Form: "Ärger", UPOS: "NOUN", Lemma: "Ärger", Feats: "Case=Nom"}, {Form: "ÄRGER", XPOS: "NN"}, {Form: "ärger"}, {Form: "Ü"}, {Form: "rger"}}
	forms := make([]form.Word, len(words))
	for i, x := range words {
		forms[i] = form.Word{Hashes: form.Of(x.Form), Amb: [2]uint64{uint64(i + 1), uint64(i + 10)}}
	}
	var a, b Words
	for _, morph := range []bool{true, false} {
		FillAnalyzed(&a, words, forms, morph)
		FillWords(&b, words, morph)
		for i := range b.Values {
			if i >= 1 && i <= len(words) {
				b.Values[i][A], b.Values[i][AX] = uint64(i), uint64(i+9)
			}
			if a.Values[i] != b.Values[i] {
				t.Errorf("morph %v row %d: FillAnalyzed %x, FillWords %x", morph, i, a.Values[i], b.Values[i])
			}
		}
		if lm := a.Values[1][LM]; (lm != 0) != morph || morph && (lm == a.Values[2][LM] || a.Values[1][CS] != Hash(CS, "Nom")) {
			t.Errorf("morph %v: lemma and Case values %x", morph, a.Values[1])
		}
	}
	v := a.Values
	if v[1][LW] != v[2][LW] || v[1][LW] != v[3][LW] || v[1][W] == v[3][W] || v[1][SF] != Hash(SF, "ger") || v[4][SF] != Hash(SF, "Ü") ||
		v[1][SF] != v[5][SF] || v[5][LW] == v[1][LW] {
		t.Errorf("form values %x", v[1:6])
	}
	defer func() {
		if recover() == nil {
			t.Error("FillAnalyzed with too few forms does not panic")
		}
	}()
	FillAnalyzed(&a, words, forms[1:], false)
}

// UsesMorph tells the templates that read lemma or FEATS values.
func TestUsesMorph(t *testing.T) {
	for _, c := range []struct {
		templates []string
		want      bool
	}{{[]string{"s0.w", "n0.p+s0.u"}, false}, {[]string{"s0.w", "s0.p+n0.lm"}, true},
		{[]string{"n0l.m"}, true}, {[]string{"s1.cs+s0.cs"}, true}, {ZhangNivre2011(false), false}, {ZhangNivre2011(true), true}} {
		e, err := New(c.templates)
		if err != nil {
			t.Fatal(err)
		}
		if e.UsesMorph() != c.want {
			t.Errorf("%q: UsesMorph %v", c.templates, !c.want)
		}
	}
}

// The word-cluster values: FillAnalyzed reads form.Word.Cluster, SetCluster
// sets the same values, paths that share their first 4 (6) bits share C4
// (C6), and FillWords gives every word the values of no path.
func TestClusterValues(t *testing.T) {
	words := []conllu.Word{{Form: "dog"}, {Form: "cat"}, {Form: "Dog"}, {Form: "zzz"}}
	codes := []uint64{0b1_1001100, 0b1_1001111, 0b1_1001100, 0}
	forms := make([]form.Word, len(words))
	for i, x := range words {
		forms[i] = form.Word{Hashes: form.Of(x.Form), Cluster: codes[i]}
	}
	var a, b, none Words
	FillAnalyzed(&a, words, forms, false)
	FillWords(&b, words, false)
	FillWords(&none, words[3:], false)
	for i := range words {
		b.SetCluster(i+1, codes[i])
	}
	for i := 1; i <= len(words); i++ {
		for _, v := range []Value{C, C4, C6} {
			if a.Values[i][v] != b.Values[i][v] {
				t.Errorf("word %d value %d: FillAnalyzed %x, SetCluster %x", i, v, a.Values[i][v], b.Values[i][v])
			}
		}
	}
	v := a.Values
	if v[1][C] == v[2][C] || v[1][C6] == v[2][C6] || v[1][C4] != v[2][C4] || v[1][C] != v[3][C] {
		t.Errorf("paths 1001100 and 1001111: values %x and %x", v[1][C:C6+1], v[2][C:C6+1])
	}
	if v[4][C] != none.Values[1][C] || v[4][C4] != none.Values[1][C4] || v[4][C] == v[1][C] {
		t.Errorf("no path: %x, FillWords %x", v[4][C:C6+1], none.Values[1][C:C6+1])
	}
	if _, err := New([]string{"s0.c", "n0.c4+n1.c6"}); err != nil {
		t.Errorf("cluster templates: %v", err)
	}
}
