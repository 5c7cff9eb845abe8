package tree

import (
	"math/rand"
	"testing"
)

// plTVC1 is the Czech tree of Nivre (2008) Fig. 1 = GN13 Fig. 1 with ROOT at
// 0 (TV-C1 of the transition tests): Z nich je jen jedna na kvalitu .
var plTVC1 = []int32{-1, 5, 1, 0, 5, 3, 3, 6, 0}

// plTVE1 is the projective English tree of Nivre (2008) Fig. 2 (TV-E1).
var plTVE1 = []int32{-1, 2, 3, 0, 5, 3, 5, 8, 6, 3}

// plK3Tree has three pairwise crossing arcs 1→4, 2→5, 3→6 (a triangle in
// the crossings graph): 3-planar, not 2-planar.
var plK3Tree = []int32{-1, 0, 1, 1, 1, 2, 3}

// plK4Tree has four pairwise crossing arcs 0→4, 1→5, 2→6, 3→7 (K4): the
// smallest kind of tree that is not 3-planar; it has only 7 words.
var plK4Tree = []int32{-1, 4, 4, 4, 0, 1, 2, 3}

// plK33Tree's crossings graph is K3,3: the nested arcs 1→10, 2→9, 3→8 each
// cross each of the nested arcs 4→13, 5→12, 6→11. It is 2-planar, and for
// k = 3 every arc has degree 3, so colouring it needs the search.
var plK33Tree = []int32{-1, 0, 1, 2, 3, 4, 5, 6, 3, 2, 1, 6, 5, 4}

func TestCrosses(t *testing.T) {
	cases := []struct {
		h1, d1, h2, d2 int32
		want           bool
	}{
		{1, 3, 2, 4, true},
		{3, 1, 4, 2, true}, // direction does not matter
		{2, 4, 1, 3, true}, // symmetric
		{1, 3, 3, 5, false},
		{1, 3, 1, 5, false}, // shared endpoint
		{1, 5, 5, 3, false},
		{1, 6, 2, 4, false}, // nested
		{1, 2, 3, 4, false}, // disjoint
		{0, 3, 1, 5, true},  // arcs from node 0 count
		{0, 5, 1, 3, false},
	}
	for _, c := range cases {
		if got := Crosses(c.h1, c.d1, c.h2, c.d2); got != c.want {
			t.Errorf("Crosses(%d,%d, %d,%d) = %v, want %v", c.h1, c.d1, c.h2, c.d2, got, c.want)
		}
		if got := Crosses(c.h2, c.d2, c.h1, c.d1); got != c.want {
			t.Errorf("Crosses(%d,%d, %d,%d) = %v, want %v", c.h2, c.d2, c.h1, c.d1, got, c.want)
		}
	}
}

// plValidPlanes checks that plane is a proper k-colouring of head's crossings
// graph covering exactly the arcs.
func plValidPlanes(t *testing.T, head []int32, plane []int8, k int) {
	t.Helper()
	if len(plane) != len(head) || plane[0] != -1 {
		t.Fatalf("%v: plane %v has wrong shape", head, plane)
	}
	for d := 1; d < len(head); d++ {
		if (head[d] < 0) != (plane[d] < 0) || int(plane[d]) >= k {
			t.Fatalf("%v: plane[%d] = %d (k = %d)", head, d, plane[d], k)
		}
		for e := d + 1; e < len(head); e++ {
			if head[d] >= 0 && head[e] >= 0 && plane[d] == plane[e] && Crosses(head[d], int32(d), head[e], int32(e)) {
				t.Fatalf("%v: crossing arcs into %d and %d share plane %d", head, d, e, plane[d])
			}
		}
	}
}

func TestPlanesHandMade(t *testing.T) {
	cases := []struct {
		name   string
		head   []int32
		planar bool
		minK   int // the least k for which it is k-planar
	}{
		{"TV-E1", plTVE1, true, 1},
		{"TV-C1", plTVC1, false, 2},
		{"K3", plK3Tree, false, 3},
		{"K4", plK4Tree, false, 4},
		{"K3,3", plK33Tree, false, 2},
		{"empty", []int32{-1}, true, 1},
		{"one word", []int32{-1, 0}, true, 1},
		// A forest: word 2 has no head; 3 → 1 would cross 0 → 2 if it existed.
		{"forest", []int32{-1, 0, -1, 1}, true, 1},
	}
	for _, c := range cases {
		if got := Planar(c.head); got != c.planar {
			t.Errorf("%s: Planar = %v, want %v", c.name, got, c.planar)
		}
		for k := 1; k <= 5; k++ {
			plane, ok := Planes(c.head, k)
			if ok != (k >= c.minK) {
				t.Errorf("%s: Planes(k=%d) ok = %v, want %v", c.name, k, ok, k >= c.minK)
			}
			if ok {
				plValidPlanes(t, c.head, plane, k)
			} else if plane != nil {
				t.Errorf("%s: Planes(k=%d) failed but returned %v", c.name, k, plane)
			}
			if KPlanar(c.head, k) != ok {
				t.Errorf("%s: KPlanar(k=%d) disagrees with Planes", c.name, k)
			}
		}
	}
	// TV-C1: the arc jedna → Z (into 1) crosses ROOT → je (into 3) and
	// je → na (into 6), so it is on the other plane (GN13 Fig. 6).
	plane, _ := Planes(plTVC1, 2)
	if plane[1] == plane[3] || plane[3] != plane[6] {
		t.Errorf("TV-C1 planes %v: want the arc into 1 apart from those into 3 and 6", plane)
	}
	if _, ok := Planes(plTVE1, 0); ok {
		t.Error("Planes(k=0) succeeded")
	}
	if _, ok := Planes(plTVE1, 128); ok {
		t.Error("Planes(k=128) succeeded")
	}
}

// The search bound: with one search step allowed, K3,3 (whose 3-core is the
// whole graph) cannot be 3-coloured; k = 2 uses BFS and no search.
func TestPlanesSearchBound(t *testing.T) {
	if _, ok := Planes(plK33Tree, 3); !ok {
		t.Fatal("K3,3 tree not 3-planar")
	}
	old := maxColourSteps
	maxColourSteps = 1
	defer func() { maxColourSteps = old }()
	if _, ok := Planes(plK33Tree, 3); ok {
		t.Error("K3,3 coloured within one search step")
	}
	if _, ok := Planes(plK33Tree, 2); !ok {
		t.Error("K3,3 tree not 2-planar with the search bound at 1")
	}
	if _, ok := Planes(plK3Tree, 3); !ok {
		t.Error("K3 needs no search for k = 3 (every arc has degree 2)")
	}
}

// plExactColourable is an independent k-colourability test: plain
// backtracking over the arcs in index order.
func plExactColourable(head []int32, k int) bool {
	var arcs []int32
	for d := 1; d < len(head); d++ {
		if head[d] >= 0 {
			arcs = append(arcs, int32(d))
		}
	}
	col := make([]int, len(arcs))
	var rec func(i int) bool
	rec = func(i int) bool {
		if i == len(arcs) {
			return true
		}
		for c := 0; c < k; c++ {
			ok := true
			for j := 0; j < i && ok; j++ {
				if col[j] == c && Crosses(head[arcs[i]], arcs[i], head[arcs[j]], arcs[j]) {
					ok = false
				}
			}
			if ok {
				col[i] = c
				if rec(i + 1) {
					return true
				}
			}
		}
		return false
	}
	return rec(0)
}

// Every single-root tree of up to 7 words: Planar = Projective, Planes
// gives a proper colouring whenever it succeeds and fails only when no
// colouring exists (checked by exhaustive search), and k-planarity is
// monotone in k. The counts are regression values (n = 7: 117,649 trees;
// 396 of them are not 3-planar, e.g. plK4Tree).
func TestPlanesExhaustive(t *testing.T) {
	maxN := 7
	if testing.Short() {
		maxN = 6
	}
	type counts struct{ trees, nonPlanar, non2, non3 int }
	want := map[int]counts{
		1: {1, 0, 0, 0}, 2: {2, 0, 0, 0}, 3: {9, 2, 0, 0}, 4: {64, 34, 0, 0},
		5: {625, 482, 22, 0}, 6: {7776, 7048, 1020, 0}, 7: {117649, 113773, 32973, 396},
	}
	for n := 1; n <= maxN; n++ {
		var c counts
		Each(n, true, func(head []int32) {
			c.trees++
			p := Planar(head)
			if p != Projective(head) {
				t.Fatalf("%v: Planar = %v, Projective = %v", head, p, !p)
			}
			prev := p
			for k := 1; k <= 3; k++ {
				plane, ok := Planes(head, k)
				if ok {
					plValidPlanes(t, head, plane, k)
				} else if plExactColourable(head, k) {
					t.Fatalf("%v: Planes(k=%d) failed but a colouring exists", head, k)
				}
				if prev && !ok {
					t.Fatalf("%v: %d-planar but not %d-planar", head, k-1, k)
				}
				prev = ok
				if !ok {
					switch k {
					case 1:
						c.nonPlanar++
					case 2:
						c.non2++
					case 3:
						c.non3++
					}
				}
			}
		})
		t.Logf("n=%d: %d trees, %d not planar, %d not 2-planar, %d not 3-planar", n, c.trees, c.nonPlanar, c.non2, c.non3)
		if c != want[n] {
			t.Errorf("n=%d: counts %+v, want %+v", n, c, want[n])
		}
	}
}

// plRandomTree returns a random single-root tree: words attached in random
// order to a random already attached node.
func plRandomTree(rng *rand.Rand, n int) []int32 {
	head := make([]int32, n+1)
	head[0] = -1
	in := []int32{0}
	for _, d := range rng.Perm(n) {
		w := int32(d + 1)
		if len(in) == 1 {
			head[w] = 0
		} else {
			head[w] = in[1+rng.Intn(len(in)-1)]
		}
		in = append(in, w)
	}
	return head
}

// Random trees with many crossings: Planes for k = 2..4 agrees with the
// exhaustive search, and its colourings are proper.
func TestPlanesRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	fails := [5]int{}
	for it := 0; it < 3000; it++ {
		head := plRandomTree(rng, 8+rng.Intn(7))
		for k := 2; k <= 4; k++ {
			plane, ok := Planes(head, k)
			if ok != plExactColourable(head, k) {
				t.Fatalf("%v: Planes(k=%d) ok = %v, exhaustive search disagrees", head, k, ok)
			}
			if ok {
				plValidPlanes(t, head, plane, k)
			} else {
				fails[k]++
			}
		}
	}
	t.Logf("not 2-/3-/4-planar: %d/%d/%d of 3000", fails[2], fails[3], fails[4])
	if fails[2] == 0 || fails[3] == 0 {
		t.Error("random trees should include non-2-planar and non-3-planar ones")
	}
}
