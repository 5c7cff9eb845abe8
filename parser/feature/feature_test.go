package feature

import (
	"reflect"
	"testing"

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
		var w Words
		w.Values = make([][NumWordValues]uint64, 4)
		for i := range w.Values {
			for v := range w.Values[i] {
				w.Values[i][v] = uint64(i*100 + v + 1)
			}
		}
		var sc Scratch
		before := append([]uint64(nil), e.Extract(&s, &w, &sc)...)
		sys.Apply(&s, transition.Transition{Move: transition.Shift, Label: transition.None})
		sys.Apply(&s, transition.Transition{Move: transition.LeftArc, Label: 0})
		after := e.Extract(&s, &w, &sc)
		if len(after) != e.Len() || reflect.DeepEqual(before, after) {
			t.Fatalf("morph=%v: features did not change with the configuration", morph)
		}
	}
	if _, err := New([]string{"s0.w+n9.p"}); err == nil {
		t.Error("bad template compiled")
	}
}
