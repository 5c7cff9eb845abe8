package transition

import (
	"strings"
	"testing"
)

// tvE1 is the sentence of Nivre (2008) Fig. 2 ("Economic news had little
// effect on financial markets ."), TV-E1.
var tvE1Heads = []int32{None, 2, 3, 0, 5, 3, 5, 8, 6, 3}
var tvE1Labels = []string{"", "NMOD", "SBJ", "ROOT", "NMOD", "OBJ", "NMOD", "NMOD", "PMOD", "P"}

// labelIDs maps label strings to ids for a test vector.
func labelIDs(names []string) ([]int32, map[string]int32, []string) {
	ids := map[string]int32{}
	var back []string
	out := make([]int32, len(names))
	for i, n := range names {
		if n == "" {
			out[i] = None
			continue
		}
		id, ok := ids[n]
		if !ok {
			id = int32(len(back))
			ids[n] = id
			back = append(back, n)
		}
		out[i] = id
	}
	return out, ids, back
}

func abbrev(t Transition, labels []string) string {
	switch t.Move {
	case Shift:
		return "SH"
	case Reduce:
		return "RE"
	case LeftArc:
		return "LA:" + labels[t.Label]
	case RightArc:
		return "RA:" + labels[t.Label]
	}
	return t.String()
}

func runVector(t *testing.T, sys System, heads []int32, labels []string, want string) *State {
	t.Helper()
	lab, _, back := labelIDs(labels)
	g := NewGold(heads, lab)
	if !sys.InClass(g) {
		t.Fatalf("%s: tree not in class", sys.Name())
	}
	var s State
	seq, err := Run(sys, &s, g)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tr := range seq {
		got = append(got, abbrev(tr, back))
	}
	if g := strings.Join(got, ", "); g != want {
		t.Errorf("%s sequence:\n got %s\nwant %s", sys.Name(), g, want)
	}
	for d := 1; d < len(heads); d++ {
		if s.Head[d] != heads[d] || s.Label[d] != lab[d] {
			t.Errorf("%s: word %d got head %d label %d, want %d %d", sys.Name(), d, s.Head[d], s.Label[d], heads[d], lab[d])
		}
	}
	return &s
}

// TV-E1: Nivre (2008) Fig. 4, arc-standard, 18 = 2n transitions.
func exArcStandardNivre2008Fig4(t *testing.T) {
	s := runVector(t, ArcStandard{}, tvE1Heads, tvE1Labels,
		"SH, LA:NMOD, SH, LA:SBJ, SH, SH, LA:NMOD, SH, SH, SH, LA:NMOD, RA:PMOD, RA:NMOD, RA:OBJ, SH, RA:P, RA:ROOT, SH")
	if len(s.Stack) != 1 || s.Stack[0] != 0 || len(s.Buffer) != 0 {
		t.Errorf("final configuration: stack %v buffer %v, want [0] []", s.Stack, s.Buffer)
	}
}

// TV-E3: Nivre (2008) Fig. 6, arc-eager, 16 transitions, final ([0,3,9],[],A9).
func exArcEagerNivre2008Fig6(t *testing.T) {
	s := runVector(t, ArcEager{}, tvE1Heads, tvE1Labels,
		"SH, LA:NMOD, SH, LA:SBJ, RA:ROOT, SH, LA:NMOD, RA:OBJ, RA:NMOD, SH, LA:NMOD, RA:PMOD, RE, RE, RE, RA:P")
	if got := s.Stack; len(got) != 3 || got[0] != 0 || got[1] != 3 || got[2] != 9 {
		t.Errorf("final stack %v, want [0 3 9]", got)
	}
}

// Arc-hybrid on TV-E1: exactly 2n transitions; RIGHT-ARC attaches σ0 to σ1,
// so "markets" is shifted before RA:PMOD (unlike arc-standard's Fig. 4).
func exArcHybridTVE1(t *testing.T) {
	runVector(t, ArcHybrid{}, tvE1Heads, tvE1Labels,
		"SH, LA:NMOD, SH, LA:SBJ, SH, SH, LA:NMOD, SH, SH, SH, LA:NMOD, SH, RA:PMOD, RA:NMOD, RA:OBJ, SH, RA:P, RA:ROOT")
}

func TestLookup(t *testing.T) {
	for _, n := range []string{"arc-standard", "arc-eager", "arc-hybrid"} {
		s, err := Lookup(n)
		if err != nil || s.Name() != n {
			t.Errorf("Lookup(%q) = %v, %v", n, s, err)
		}
	}
	_, err := Lookup("arc-wobbly")
	if err == nil || !strings.Contains(err.Error(), "arc-eager") || !strings.Contains(err.Error(), "arc-wobbly") {
		t.Errorf("unknown system error %v should name it and list the known ones", err)
	}
}
