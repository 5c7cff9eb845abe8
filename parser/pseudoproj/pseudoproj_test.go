package pseudoproj

import (
	"fmt"
	"math/rand"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/transparse/transparse/internal/testenv"

	"github.com/transparse/transparse/parser/conllu"
	"github.com/transparse/transparse/parser/tree"
)

type sent struct {
	head   []int32
	deprel []string
}

func treebankFiles(t *testing.T) []string {
	t.Helper()
	files := testenv.UDFiles(t, "*.conllu")
	for i := range files {
		files[i] = filepath.Base(files[i])
	}
	return files
}

func load(t *testing.T, file string) []sent {
	t.Helper()
	sents, err := conllu.ReadFile(testenv.UDFile(t, file))
	if err != nil {
		t.Fatal(err)
	}
	out := make([]sent, len(sents))
	for k, s := range sents {
		n := len(s.Words)
		out[k] = sent{make([]int32, n+1), make([]string, n+1)}
		out[k].head[0] = -1
		for i, w := range s.Words {
			out[k].head[i+1] = int32(w.Head)
			out[k].deprel[i+1] = w.Deprel
		}
	}
	return out
}

func TestEncodingNames(t *testing.T) {
	for _, e := range Encodings() {
		got, err := Parse(e.String())
		if err != nil || got != e {
			t.Errorf("Parse(%q) = %v, %v; want %v", e.String(), got, err, e)
		}
	}
	want := []string{"baseline", "head", "path", "head+path"}
	for i, e := range Encodings() {
		if e.String() != want[i] {
			t.Errorf("encoding %d is %q, want %q", i, e, want[i])
		}
	}
	for _, s := range []string{"", "Head", "none", "head+Path", "trace"} {
		if _, err := Parse(s); err == nil || !strings.Contains(err.Error(), "head+path") {
			t.Errorf("Parse(%q): error %v, want one listing the encodings", s, err)
		}
	}
	if s := Encoding(9).String(); s != "Encoding(9)" {
		t.Errorf("Encoding(9).String() = %q", s)
	}
}

func TestDecode(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Label
	}{
		{"nsubj", Label{Base: "nsubj"}},
		{"obl:tmod", Label{Base: "obl:tmod"}},
		{"obl|nsubj", Label{Base: "obl", Lifted: true, SynHead: "nsubj"}},
		{"obl|", Label{Base: "obl", Lifted: true}},
		{"obl%", Label{Base: "obl", Down: true}},
		{"obl|%", Label{Base: "obl", Lifted: true, Down: true}},
		{"obl|acl:relcl%", Label{Base: "obl", Lifted: true, SynHead: "acl:relcl", Down: true}},
		{"a%b|c", Label{Base: "a", Lifted: true, SynHead: "c"}},
		{"a|b%c%", Label{Base: "a", Lifted: true, SynHead: "bc", Down: true}},
		{"%", Label{Down: true}},
		{"", Label{}},
	} {
		if got := Decode(c.in); got != c.want {
			t.Errorf("Decode(%q) = %+v, want %+v", c.in, got, c.want)
		}
		if got := Strip(c.in); strings.ContainsAny(got, Up+Down) || got != c.want.Base {
			t.Errorf("Strip(%q) = %q", c.in, got)
		}
	}
}

// tvc1 is the Czech tree of Nivre 2008 Fig. 1.
func tvc1() ([]int32, []string) {
	return []int32{-1, 5, 1, 0, 5, 3, 3, 6, 0},
		[]string{"", "AuxP", "Atr", "Pred", "AuxZ", "Sb", "AuxP", "Adv", "AuxK"}
}

// TV-C4: the Czech tree under the Head encoding (Nivre & Nilsson 2005):
// its one non-projective arc jedna → Z (AuxP) is lifted to je with label
// AuxP|Sb (the paper's AuxP↑Sb), and deprojectivizing finds Sb below je and reattaches Z to
// jedna; and the same tree under the other encodings.
func TestTVC4(t *testing.T) {
	head, deprel := tvc1()
	wantHead := []int32{-1, 3, 1, 0, 5, 3, 3, 6, 0}
	wantLab := map[Encoding][]string{
		Baseline: {"", "AuxP", "Atr", "Pred", "AuxZ", "Sb", "AuxP", "Adv", "AuxK"},
		Head:     {"", "AuxP|Sb", "Atr", "Pred", "AuxZ", "Sb", "AuxP", "Adv", "AuxK"},
		Path:     {"", "AuxP|", "Atr", "Pred", "AuxZ", "Sb%", "AuxP", "Adv", "AuxK"},
		HeadPath: {"", "AuxP|Sb", "Atr", "Pred", "AuxZ", "Sb%", "AuxP", "Adv", "AuxK"},
	}
	for _, enc := range Encodings() {
		h, l, lifted := Projectivize(head, deprel, enc)
		if !slices.Equal(h, wantHead) || !slices.Equal(l, wantLab[enc]) || lifted != 1 {
			t.Errorf("%v: Projectivize = %v %q %d, want %v %q 1", enc, h, l, lifted, wantHead, wantLab[enc])
		}
		if !tree.Projective(h) {
			t.Errorf("%v: result not projective", enc)
		}
		dh, dl := Deprojectivize(h, l, enc)
		if enc == Baseline {
			if !slices.Equal(dh, wantHead) || !slices.Equal(dl, deprel) {
				t.Errorf("baseline: Deprojectivize = %v %q, want the lifted tree", dh, dl)
			}
			continue
		}
		if !slices.Equal(dh, head) || !slices.Equal(dl, deprel) {
			t.Errorf("%v: Deprojectivize = %v %q, want %v %q", enc, dh, dl, head, deprel)
		}
	}
	// The input is not modified.
	h0, l0 := tvc1()
	if !slices.Equal(head, h0) || !slices.Equal(deprel, l0) {
		t.Errorf("input modified: %v %q", head, deprel)
	}
}

// A word lifted twice, and a word lifted from it: the labels name the
// original head and mark every head a word was lifted from.
//
//	heads 1:4 2:5 3:1 4:0 5:3 (arcs 4→1, 5→2, 1→3, 0→4, 3→5)
//
// Non-projective: (3,5) spans 4, (5,2) spans 3 and 4. Shortest first:
// (3,5) → (1,5); then (5,2), length 3, → (1,2); then (1,5), spanning 4, →
// (4,5). Words 5 (from 3, then 1) and 2 (from 5) are lifted; the arcs into
// 3, 1 and 5 are on the paths.
func TestProjectivizeTwoLevels(t *testing.T) {
	head := []int32{-1, 4, 5, 1, 0, 3}
	deprel := []string{"", "a", "b", "c", "root", "e"}
	wantHead := []int32{-1, 4, 1, 1, 0, 4}
	wantLab := map[Encoding][]string{
		Baseline: deprel,
		Head:     {"", "a", "b|e", "c", "root", "e|c"},
		Path:     {"", "a%", "b|", "c%", "root", "e|%"},
		HeadPath: {"", "a%", "b|e", "c%", "root", "e|c%"},
	}
	for _, enc := range Encodings() {
		h, l, lifted := Projectivize(head, deprel, enc)
		if !slices.Equal(h, wantHead) || !slices.Equal(l, wantLab[enc]) || lifted != 2 {
			t.Errorf("%v: Projectivize = %v %q %d, want %v %q 2", enc, h, l, lifted, wantHead, wantLab[enc])
		}
		dh, dl := Deprojectivize(h, l, enc)
		want := head
		if enc == Baseline {
			want = wantHead
		}
		if !slices.Equal(dh, want) || !slices.Equal(dl, deprel) {
			t.Errorf("%v: Deprojectivize = %v %q, want %v %q", enc, dh, dl, want, deprel)
		}
	}
}

func TestProjectivizeRejectsNonForest(t *testing.T) {
	for _, head := range [][]int32{
		{-1, 2, 1},    // cycle
		{-1, 0, 7},    // out of range
		{-1, 0, 3, 2}, // cycle beside a root
		{-1, 1},       // self loop
	} {
		deprel := make([]string, len(head))
		h, l, lifted := Projectivize(head, deprel, Head)
		if lifted != -1 || !slices.Equal(h, head) || len(l) != len(deprel) {
			t.Errorf("Projectivize(%v) = %v, %d; want the input back and -1", head, h, lifted)
		}
	}
	// A forest with several roots is accepted.
	if _, _, lifted := Projectivize([]int32{-1, 0, 0, 2}, []string{"", "a", "b", "c"}, Head); lifted != 0 {
		t.Errorf("forest: lifted %d, want 0", lifted)
	}
	h, _, lifted := Projectivize(nil, nil, Head)
	if lifted != 0 || len(h) != 0 {
		t.Errorf("empty: %v %d", h, lifted)
	}
}

// Every tree of up to 7 words: Projectivize gives a projective tree with
// the same root; with distinct labels (so that a label names a node) Head
// and Head+Path recover every tree exactly. Path, whose marks do not say
// which path belongs to which lifted word, is counted.
func TestExhaustiveSmallTrees(t *testing.T) {
	maxN := 7
	if testing.Short() {
		maxN = 6
	}
	for n := 1; n <= maxN; n++ {
		deprel := make([]string, n+1)
		for d := 1; d <= n; d++ {
			deprel[d] = fmt.Sprintf("l%d", d)
		}
		var total, nonProj int
		recovered := map[Encoding]int{}
		tree.Each(n, true, func(head []int32) {
			total++
			proj := tree.Projective(head)
			if !proj {
				nonProj++
			}
			for _, enc := range Encodings() {
				h, l, lifted := Projectivize(head, deprel, enc)
				if !tree.Projective(h) || tree.Check(h) != nil {
					t.Fatalf("%v %v: Projectivize gives %v", enc, head, h)
				}
				if (lifted == 0) != proj {
					t.Fatalf("%v %v: lifted %d, projective %v", enc, head, lifted, proj)
				}
				dh, dl := Deprojectivize(h, l, enc)
				if err := tree.Check(dh); err != nil {
					t.Fatalf("%v %v: Deprojectivize gives %v: %v", enc, head, dh, err)
				}
				if !slices.Equal(dl, deprel) {
					t.Fatalf("%v %v: labels %q", enc, head, dl)
				}
				if slices.Equal(dh, head) {
					recovered[enc]++
				} else if enc == Head || enc == HeadPath {
					t.Fatalf("%v %v: projectivized %v %q, deprojectivized %v", enc, head, h, l, dh)
				}
			}
		})
		if recovered[Baseline] != total-nonProj {
			t.Errorf("n=%d: baseline recovers %d, want the %d projective trees", n, recovered[Baseline], total-nonProj)
		}
		if recovered[Path] < total-nonProj {
			t.Errorf("n=%d: path recovers %d < %d projective trees", n, recovered[Path], total-nonProj)
		}
		t.Logf("n=%d: %d trees, %d non-projective; recovered: baseline %d, head %d, path %d, head+path %d",
			n, total, nonProj, recovered[Baseline], recovered[Head], recovered[Path], recovered[HeadPath])
	}
}

// For every tree of every shared treebank file: Projectivize gives a
// projective tree that keeps the words attached to 0 and whose stripped
// labels are the originals; Deprojectivize(Projectivize(t)) is counted as an
// exact recovery (heads and labels). Baseline recovers exactly the
// projective trees. The other encodings recover these counts (measured;
// Head loses trees where the breadth-first, left-to-right search meets
// another node with the syntactic head's label first, e.g. a second advmod
// left of the real head).
var wantRecovered = map[string][3]int{ // head, path, head+path
	"en_ewt-ud-dev.conllu":       {2000, 2001, 2001},
	"en_ewt-ud-test.conllu":      {2077, 2077, 2077},
	"en_ewt-ud-train.conllu":     {12527, 12538, 12543},
	"fr_sequoia-ud-dev.conllu":   {412, 412, 412},
	"fr_sequoia-ud-test.conllu":  {455, 455, 456},
	"fr_sequoia-ud-train.conllu": {2228, 2229, 2231},
	"hu_szeged-ud-dev.conllu":    {412, 438, 440},
	"hu_szeged-ud-test.conllu":   {433, 446, 448},
	"hu_szeged-ud-train.conllu":  {862, 908, 910},
	"tr_imst-ud-dev.conllu":      {1093, 1099, 1100},
	"tr_imst-ud-test.conllu":     {1097, 1099, 1100},
	"tr_imst-ud-train.conllu":    {3416, 3423, 3434},
}

func TestTreebankRoundTrip(t *testing.T) {
	for _, file := range treebankFiles(t) {
		sents := load(t, file)
		nonProj, liftedArcs := 0, 0
		recovered := map[Encoding]int{}
		for k, s := range sents {
			proj := tree.Projective(s.head)
			if !proj {
				nonProj++
			}
			for _, enc := range Encodings() {
				h, l, lifted := Projectivize(s.head, s.deprel, enc)
				if lifted < 0 || !tree.Projective(h) || tree.Check(h) != nil {
					t.Fatalf("%s sentence %d %v: Projectivize gives %v (lifted %d)", file, k, enc, h, lifted)
				}
				if (lifted == 0) != proj {
					t.Fatalf("%s sentence %d %v: lifted %d but projective = %v", file, k, enc, lifted, proj)
				}
				if enc == Baseline {
					liftedArcs += lifted
				}
				for d := 1; d < len(h); d++ {
					if (h[d] == 0) != (s.head[d] == 0) {
						t.Fatalf("%s sentence %d %v: word %d root attachment changed", file, k, enc, d)
					}
					if Strip(l[d]) != s.deprel[d] || (enc == Baseline && l[d] != s.deprel[d]) {
						t.Fatalf("%s sentence %d %v: word %d label %q for %q", file, k, enc, d, l[d], s.deprel[d])
					}
				}
				dh, dl := Deprojectivize(h, l, enc)
				if err := tree.Check(dh); err != nil {
					t.Fatalf("%s sentence %d %v: Deprojectivize: %v", file, k, enc, err)
				}
				if !slices.Equal(dl[1:], s.deprel[1:]) {
					t.Fatalf("%s sentence %d %v: labels %q, want %q", file, k, enc, dl, s.deprel)
				}
				if slices.Equal(dh[1:], s.head[1:]) {
					recovered[enc]++
				} else if proj {
					t.Fatalf("%s sentence %d %v: projective tree changed", file, k, enc)
				}
			}
		}
		n := len(sents)
		if recovered[Baseline] != n-nonProj {
			t.Errorf("%s: baseline recovers %d trees, want the %d projective ones", file, recovered[Baseline], n-nonProj)
		}
		if want, ok := wantRecovered[file]; ok {
			for i, enc := range []Encoding{Head, Path, HeadPath} {
				if recovered[enc] != want[i] {
					t.Errorf("%s %v: recovers %d trees, want %d", file, enc, recovered[enc], want[i])
				}
			}
		} else {
			t.Errorf("%s: no expected recovery counts", file)
		}
		pct := func(k int) string { return fmt.Sprintf("%d (%.2f%%)", k, 100*float64(k)/float64(n)) }
		t.Logf("%s: %d trees, %d non-projective, %d arcs lifted; exact recovery: baseline %s, head %s, path %s, head+path %s",
			file, n, nonProj, liftedArcs, pct(recovered[Baseline]), pct(recovered[Head]), pct(recovered[Path]), pct(recovered[HeadPath]))
	}
}

// wantLabels holds the measured label set sizes per encoding.
var wantLabels = map[string][4]int{
	"en_ewt-ud-train.conllu":    {51, 136, 103, 164},
	"hu_szeged-ud-train.conllu": {51, 101, 90, 116},
}

// The label set grows with the encoding: Baseline keeps it, Head and Path
// add labels, Head+Path adds at least as many as either.
func TestLabelSetGrowth(t *testing.T) {
	for _, file := range []string{"en_ewt-ud-train.conllu", "hu_szeged-ud-train.conllu"} {
		sents := load(t, file)
		var count [4]int
		orig := map[string]bool{}
		for _, s := range sents {
			for _, l := range s.deprel[1:] {
				orig[l] = true
			}
		}
		for _, enc := range Encodings() {
			set := map[string]bool{}
			for _, s := range sents {
				_, l, _ := Projectivize(s.head, s.deprel, enc)
				for _, x := range l[1:] {
					set[x] = true
				}
			}
			count[enc] = len(set)
		}
		if want, ok := wantLabels[file]; ok && count != want {
			t.Errorf("%s: label counts %v, want %v", file, count, want)
		}
		if count[Baseline] != len(orig) {
			t.Errorf("%s: baseline has %d labels, the treebank %d", file, count[Baseline], len(orig))
		}
		if !(count[Head] > count[Baseline] && count[Path] > count[Baseline] &&
			count[HeadPath] >= count[Head] && count[HeadPath] >= count[Path]) {
			t.Errorf("%s: label counts %v do not grow baseline < head, path ≤ head+path", file, count)
		}
		t.Logf("%s: distinct labels: baseline %d, head %d, path %d, head+path %d",
			file, count[Baseline], count[Head], count[Path], count[HeadPath])
	}
}

// Deprojectivize on parser-like output (a projectivized tree with random
// reattachments that keep it a tree, and random marks on random labels)
// always returns a tree with the same root word and labels free of marks.
func TestDeprojectivizeNoise(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	sents := load(t, "en_ewt-ud-dev.conllu")
	sents = append(sents, load(t, "hu_szeged-ud-dev.conllu")...)
	labels := []string{"nsubj", "obj", "obl", "root", "punct", "det", "case"}
	moved, checked := 0, 0
	for k, s := range sents {
		n := len(s.head) - 1
		if n < 2 {
			continue
		}
		for _, enc := range Encodings() {
			h, l, _ := Projectivize(s.head, s.deprel, enc)
			// Reattach up to 3 words (not the root word) to a random node
			// outside their subtree other than 0.
			for r := rng.Intn(4); r > 0; r-- {
				d := int32(1 + rng.Intn(n))
				g := int32(1 + rng.Intn(n))
				if h[d] != 0 && !tree.Dominates(h, d, g) {
					h[d] = g
				}
			}
			for d := 1; d <= n; d++ {
				if rng.Intn(4) != 0 {
					continue
				}
				base := Strip(l[d])
				if rng.Intn(2) == 0 {
					base = labels[rng.Intn(len(labels))]
				}
				switch rng.Intn(5) {
				case 0:
					l[d] = base + Up + labels[rng.Intn(len(labels))]
				case 1:
					l[d] = base + Up
				case 2:
					l[d] = base + Down
				case 3:
					l[d] = base + Up + labels[rng.Intn(len(labels))] + Down
				case 4:
					l[d] = base + Up + Down
				}
			}
			before := append([]int32(nil), h...)
			for _, denc := range Encodings() {
				dh, dl := Deprojectivize(h, l, denc)
				if err := tree.Check(dh); err != nil {
					t.Fatalf("sentence %d %v/%v: %v\nin  %v %q\nout %v", k, enc, denc, err, h, l, dh)
				}
				for d := 1; d <= n; d++ {
					if (dh[d] == 0) != (h[d] == 0) {
						t.Fatalf("sentence %d %v/%v: word %d root attachment changed", k, enc, denc, d)
					}
					if strings.ContainsAny(dl[d], Up+Down) {
						t.Fatalf("sentence %d %v/%v: label %q keeps a mark", k, enc, denc, dl[d])
					}
				}
				if !slices.Equal(dh, h) {
					moved++
				}
				checked++
			}
			if !slices.Equal(before, h) {
				t.Fatalf("sentence %d: Deprojectivize modified its input", k)
			}
		}
	}
	if moved == 0 {
		t.Fatal("the noise never made Deprojectivize move a word")
	}
	t.Logf("%d noisy trees deprojectivized, %d changed, all trees", checked, moved)
}

// Input that is not a tree does not hang or panic; words not reachable
// from 0 keep their heads, and every label loses its marks.
func TestDeprojectivizeMalformed(t *testing.T) {
	for _, c := range []struct {
		head   []int32
		deprel []string
		want   []int32 // nil: only lengths and labels are checked
	}{
		// A cycle 1→2→3→1: nothing is reachable from 0.
		{[]int32{-1, 2, 3, 1}, []string{"", "a|b", "b%", "c|"}, []int32{-1, 2, 3, 1}},
		// A cycle 2↔3 beside the root word 1: 2 and 3 stay.
		{[]int32{-1, 0, 3, 2}, []string{"", "root", "b|root", "c%"}, []int32{-1, 0, 3, 2}},
		// Out-of-range heads.
		{[]int32{-1, 0, 9, -4}, []string{"", "root", "x|root", "y|"}, []int32{-1, 0, 9, -4}},
		// A lifted word below a word on a cycle is reachable from nowhere.
		{[]int32{-1, 0, 1, 4, 3, 3}, []string{"", "root", "a", "b%", "c%", "d|b"}, []int32{-1, 0, 1, 4, 3, 3}},
		{[]int32{-1, 0, 1}, []string{"", "root|x%"}, nil},              // short deprel
		{[]int32{-1, 0}, []string{"", "root", "extra|", "more%"}, nil}, // long deprel
		{nil, nil, nil},
	} {
		for _, enc := range Encodings() {
			h, l := Deprojectivize(c.head, c.deprel, enc)
			if len(h) != len(c.head) || len(l) != len(c.deprel) {
				t.Errorf("%v %v: lengths %d %d", enc, c.head, len(h), len(l))
			}
			if c.want != nil && !slices.Equal(h, c.want) {
				t.Errorf("%v %v %q: heads %v, want %v", enc, c.head, c.deprel, h, c.want)
			}
			for i, x := range l {
				if x != Strip(c.deprel[i]) {
					t.Errorf("%v %v: label %q for %q", enc, c.head, x, c.deprel[i])
				}
			}
		}
	}
}

// Labels holds every label Projectivize gives on every tree of six words
// with one root word, and no label twice or with root in it.
func TestLabelsCoverProjectivize(t *testing.T) {
	deprels := []string{"root", "a", "b"}
	for _, enc := range Encodings() {
		labels, err := Labels(deprels, "root", enc)
		if err != nil {
			t.Fatal(err)
		}
		have := map[string]bool{"root": true, "a": true, "b": true}
		for _, l := range labels {
			if have[l] || strings.Contains(l, "root") {
				t.Fatalf("%s: label %q repeated or with root", enc, l)
			}
			have[l] = true
		}
		tree.Each(6, true, func(head []int32) {
			deprel := make([]string, len(head))
			for d := 1; d < len(head); d++ {
				deprel[d] = deprels[1+d%2]
				if head[d] == 0 {
					deprel[d] = "root"
				}
			}
			_, got, _ := Projectivize(head, deprel, enc)
			for _, l := range got[1:] {
				if !have[l] {
					t.Fatalf("%s: Projectivize(%v) gives %q, not in Labels", enc, head, l)
				}
			}
		})
	}
	if _, err := Labels([]string{"root", "a|b"}, "root", Head); err == nil {
		t.Fatal("a deprel with a mark is accepted")
	}
}
