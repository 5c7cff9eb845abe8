package tree

import (
	"path/filepath"
	"testing"

	"github.com/transparse/transparse/internal/testenv"

	"github.com/transparse/transparse/parser/conllu"
)

func TestGapDegreeWellNestedExamples(t *testing.T) {
	for _, c := range []struct {
		name       string
		head       []int32
		gap        int
		wellNested bool
	}{
		{"empty", []int32{-1}, 0, true},
		{"one word", []int32{-1, 0}, 0, true},
		{"chain", []int32{-1, 2, 3, 0, 3}, 0, true},
		// Nivre 2008 Fig. 1 (TV-C1): jedna₅ has yield {1,2,4,5}, one gap.
		{"Czech TV-C1", []int32{-1, 5, 1, 0, 5, 3, 3, 6, 0}, 1, true},
		// Yields {1,3} (node 3) and {2,4} (node 4) interleave.
		{"ill-nested", []int32{-1, 3, 4, 5, 5, 0}, 1, false},
		// Node 5's yield {1,3,5} has two gaps; the only gapped node.
		{"two gaps", []int32{-1, 5, 6, 5, 6, 6, 0}, 2, true},
		// Yields {1,3} and {4,6} are disjoint and do not interleave.
		{"disjoint gapped", []int32{-1, 3, 7, 7, 6, 7, 7, 0}, 1, true},
		// Yields {1,3,5} and {2,4}: node 5 over 1 and 3, node 4 over 2.
		{"ill-nested two gaps", []int32{-1, 5, 4, 5, 6, 6, 0}, 2, false},
	} {
		if g := GapDegree(c.head); g != c.gap {
			t.Errorf("%s: GapDegree(%v) = %d, want %d", c.name, c.head, g, c.gap)
		}
		if w := WellNested(c.head); w != c.wellNested {
			t.Errorf("%s: WellNested(%v) = %v, want %v", c.name, c.head, w, c.wellNested)
		}
	}
}

// Malformed arrays (cycles, out-of-range heads) do not hang or panic.
func TestNestedMalformed(t *testing.T) {
	for _, head := range [][]int32{nil, {-1, 2, 1}, {-1, 0, 9, 2}, {-1, 0, 3, 2, 3}} {
		_ = GapDegree(head)
		_ = WellNested(head)
	}
}

// nestedBruteYields returns, for every node, the set of positions it dominates.
func nestedBruteYields(head []int32) [][]bool {
	n := len(head) - 1
	y := make([][]bool, n+1)
	for u := 0; u <= n; u++ {
		y[u] = make([]bool, n+1)
		for p := 0; p <= n; p++ {
			y[u][p] = Dominates(head, int32(u), int32(p))
		}
	}
	return y
}

// nestedBruteGapDegree and nestedBruteWellNested follow the definitions literally.
func nestedBruteGapDegree(head []int32) int {
	g := 0
	for _, y := range nestedBruteYields(head) {
		gaps, seen := 0, false
		for p := range y {
			if y[p] && seen && p > 0 && !y[p-1] {
				gaps++
			}
			seen = seen || y[p]
		}
		g = max(g, gaps)
	}
	return g
}

func nestedBruteWellNested(head []int32) bool {
	y := nestedBruteYields(head)
	n := len(head) - 1
	for u := 0; u <= n; u++ {
		for v := 0; v <= n; v++ {
			if u == v || y[u][v] || y[v][u] {
				continue
			}
			for l1 := 0; l1 <= n; l1++ {
				for l2 := l1 + 1; l2 <= n; l2++ {
					for r1 := l2 + 1; r1 <= n; r1++ {
						for r2 := r1 + 1; r2 <= n; r2++ {
							if y[u][l1] && y[v][l2] && y[u][r1] && y[v][r2] {
								return false
							}
						}
					}
				}
			}
		}
	}
	return true
}

// Every tree of up to 7 words (up to 6 with -short): GapDegree and
// WellNested agree with the literal definitions, gap degree 0 is exactly
// projectivity, and projective trees are well-nested.
func TestNestedExhaustive(t *testing.T) {
	maxN := 7
	if testing.Short() {
		maxN = 6
	}
	for n := 1; n <= maxN; n++ {
		var total, illNested int
		byGap := map[int]int{}
		Each(n, true, func(head []int32) {
			total++
			g, w := GapDegree(head), WellNested(head)
			if bg := nestedBruteGapDegree(head); g != bg {
				t.Fatalf("%v: GapDegree %d, definition %d", head, g, bg)
			}
			if bw := nestedBruteWellNested(head); w != bw {
				t.Fatalf("%v: WellNested %v, definition %v", head, w, bw)
			}
			if (g == 0) != Projective(head) {
				t.Fatalf("%v: gap degree %d, projective %v", head, g, Projective(head))
			}
			byGap[g]++
			if !w {
				illNested++
			}
		})
		// The first ill-nested trees need two disjoint gapped yields.
		if n <= 4 && illNested != 0 {
			t.Errorf("n=%d: %d ill-nested trees, want 0", n, illNested)
		}
		if n >= 5 && illNested == 0 {
			t.Errorf("n=%d: no ill-nested tree", n)
		}
		t.Logf("n=%d: %d trees; by gap degree %v; %d ill-nested", n, total, byGap, illNested)
	}
}

// On every shared treebank tree the fast functions agree with the
// definitions (trees up to 14 words; longer ones only check gap degree 0 ⇔
// projective).
func TestNestedTreebanks(t *testing.T) {
	for _, file := range testenv.UDFiles(t, "*-dev.conllu") {
		sents, err := conllu.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var gap1, ill, brute int
		for k, s := range sents {
			head := make([]int32, len(s.Words)+1)
			head[0] = -1
			for i, w := range s.Words {
				head[i+1] = int32(w.Head)
			}
			g, w := GapDegree(head), WellNested(head)
			if (g == 0) != Projective(head) {
				t.Fatalf("%s sentence %d: gap degree %d, projective %v", file, k, g, Projective(head))
			}
			if len(head) <= 15 {
				brute++
				if bg, bw := nestedBruteGapDegree(head), nestedBruteWellNested(head); g != bg || w != bw {
					t.Fatalf("%s sentence %d: gap degree %d well-nested %v, definitions %d %v", file, k, g, w, bg, bw)
				}
			}
			if g <= 1 {
				gap1++
			}
			if !w {
				ill++
			}
		}
		t.Logf("%s: %d trees (%d checked against the definitions): gap degree ≤ 1: %d, ill-nested: %d",
			filepath.Base(file), len(sents), brute, gap1, ill)
	}
}
