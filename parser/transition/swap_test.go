package transition

import (
	"math/rand"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/transparse/transparse/parser/tree"
)

// tvH1 is the sentence of Nivre (2009) Fig. 1 ("A hearing is scheduled on
// the issue today ."), TV-H1.
var tvH1Heads = []int32{None, 2, 3, 0, 3, 2, 7, 5, 4, 3}
var tvH1Labels = []string{"", "DET", "SBJ", "ROOT", "VG", "NMOD", "DET", "PC", "ADV", "P"}

func swCount(seq []Transition, m Move) int {
	c := 0
	for _, t := range seq {
		if t.Move == m {
			c++
		}
	}
	return c
}

// TV-H1: Nivre (2009) Fig. 3, eager oracle, 30 = 2·9 + 2·6 transitions.
func exSwapEagerNivre2009Fig3(t *testing.T) {
	sys, err := Lookup("swap-eager")
	if err != nil {
		t.Fatal(err)
	}
	seq := npVector(t, sys, tvH1Heads, tvH1Labels,
		"SH, SH, LA:DET, SH, SH, SH, SW, SW, SH, SH, SH, SW, SW, SH, SH, SH, SW, SW, LA:DET, RA:PC, RA:NMOD, "+
			"SH, LA:SBJ, SH, SH, RA:ADV, RA:VG, SH, RA:P, RA:ROOT",
		[]npCheckpoint{
			{8, []int32{0, 2, 5}, nil, []int32{3, 4, 6, 7, 8, 9}},
			{18, []int32{0, 2, 5, 6, 7}, nil, []int32{3, 4, 8, 9}},
			{30, []int32{0}, nil, nil},
		})
	if k := swCount(seq, Swap); k != 6 {
		t.Errorf("%d swaps, want 6", k)
	}
}

// TV-H2: the lazy oracle on the same tree, 22 transitions, 2 swaps.
func exSwapLazyTVH2(t *testing.T) {
	sys, err := Lookup("swap-lazy")
	if err != nil {
		t.Fatal(err)
	}
	seq := npVector(t, sys, tvH1Heads, tvH1Labels,
		"SH, SH, LA:DET, SH, SH, SH, SH, SH, LA:DET, RA:PC, SW, SW, RA:NMOD, SH, LA:SBJ, SH, SH, RA:ADV, RA:VG, "+
			"SH, RA:P, RA:ROOT", []npCheckpoint{{22, []int32{0}, nil, nil}})
	if k := swCount(seq, Swap); k != 2 {
		t.Errorf("%d swaps, want 2", k)
	}
}

// The maximal projective components include the arcs built after the
// buffer is empty: in 2 → 1 → 3 → 4 (2 the root word; 1 → 3 spans 2) the
// component {3, 4} is finished only after 4 is shifted, and the lazy oracle
// then moves it with one swap where the eager oracle needs two (sequences
// checked by hand).
func exSwapLazyComponentAfterLastShift(t *testing.T) {
	heads := []int32{None, 2, 0, 1, 3}
	labels := []string{"", "dep", "root", "dep", "dep"}
	npVector(t, SwapSystem{Lazy: true}, heads, labels,
		"SH, SH, SH, SH, RA:dep, SW, RA:dep, SH, LA:dep, RA:root", nil)
	npVector(t, SwapSystem{}, heads, labels,
		"SH, SH, SH, SW, SH, SH, SW, RA:dep, RA:dep, SH, LA:dep, RA:root", nil)
}

// TV-C2: the Czech tree of TV-C1 (two words on node 0, so the single-root
// rule is off), 18 transitions, 1 swap; eager and lazy agree.
func exSwapTVC2(t *testing.T) {
	want := "SH, SH, RA:Atr, SH, SW, SH, SH, SH, LA:AuxZ, LA:AuxP, RA:Sb, SH, SH, RA:Adv, RA:AuxP, RA:Pred, SH, RA:AuxK"
	for _, sys := range []SwapSystem{{multiRoot: true}, {Lazy: true, multiRoot: true}} {
		npVector(t, sys, tvC1Heads, tvC1Labels, want, nil)
	}
	// The registered systems keep one word on node 0 and refuse the tree.
	lab, _, _ := labelIDs(tvC1Labels)
	g := NewGold(tvC1Heads, lab)
	for _, name := range []string{"swap-eager", "swap-lazy"} {
		sys, _ := Lookup(name)
		var s State
		if _, err := Derive(sys, &s, g); err == nil || sys.InClass(g) {
			t.Errorf("%s: two-root tree in class %v, derive error %v", name, sys.InClass(g), err)
		}
	}
}

// The projective orders of TV-H1 and TV-C1 (Nivre 2009 §3.3),
// and the maximal projective components of TV-H1.
func TestSwapProjectiveOrderAndComponents(t *testing.T) {
	for _, c := range []struct {
		heads []int32
		order []int32 // nodes in <_G order
	}{
		{tvH1Heads, []int32{0, 1, 2, 5, 6, 7, 3, 4, 8, 9}}, // ROOT A hearing on the issue is scheduled today .
		{tvC1Heads, []int32{0, 3, 1, 2, 4, 5, 6, 7, 8}},    // ROOT je Z nich jen jedna na kvalitu .
		{tvE1Heads, npSpan(0, 9)},                          // projective: word order
	} {
		g := NewGold(c.heads, labelsFor(c.heads))
		pos, err := swProjOrder(g)
		if err != nil {
			t.Fatal(err)
		}
		got := make([]int32, len(pos))
		for x, p := range pos {
			got[p] = int32(x)
		}
		if !slices.Equal(got, c.order) {
			t.Errorf("projective order of %v: %v, want %v", c.heads, got, c.order)
		}
	}
	g := NewGold(tvH1Heads, labelsFor(tvH1Heads))
	mpc := SwapSystem{Lazy: true}.projectiveComponents(new(State), g)
	want := [][]int32{{0}, {1, 2}, {3}, {4}, {5, 6, 7}, {8}, {9}}
	for _, a := range want {
		for _, b := range want {
			for _, x := range a {
				for _, y := range b {
					if same := mpc[x] == mpc[y]; same != (a[0] == b[0]) {
						t.Errorf("MPC(%d) = MPC(%d) is %v; want components %v", x, y, same, want)
					}
				}
			}
		}
	}
	// A graph that is not a tree rooted at 0 has no projective order.
	cyc := NewGold([]int32{None, 0, 3, 2}, []int32{None, 0, 1, 1})
	if _, err := swProjOrder(cyc); err == nil || !strings.Contains(err.Error(), "not a tree") {
		t.Errorf("cyclic graph: error %v", err)
	}
	for _, sys := range []System{SwapSystem{}, SwapSystem{Lazy: true}} {
		var s State
		if sys.InClass(cyc) {
			t.Errorf("%s: cyclic graph in class", sys.Name())
		}
		if _, err := Derive(sys, &s, cyc); err == nil {
			t.Errorf("%s derived a cyclic graph", sys.Name())
		}
		// The state-wise oracle stops too (no endless ancestor walk).
		if _, err := Run(sys, &s, cyc); err == nil {
			t.Errorf("%s: Run derived a cyclic graph", sys.Name())
		}
	}
}

// swCheckOrder verifies that g is projective in its projective order: with
// every node renumbered by its place in <_G (0 stays 0), the tree has no
// crossing arc (Nivre 2009 §3.3).
func swCheckOrder(t *testing.T, g *Gold) {
	t.Helper()
	pos, err := swProjOrder(g)
	if err != nil {
		t.Fatal(err)
	}
	if pos[0] != 0 {
		t.Fatalf("tree %v: node 0 at place %d of the projective order", g.Head, pos[0])
	}
	head := make([]int32, len(pos))
	head[0] = None
	for d := 1; d < len(pos); d++ {
		head[pos[d]] = pos[g.Head[d]]
	}
	if !tree.Projective(head) {
		t.Fatalf("tree %v is not projective in its projective order %v", g.Head, pos)
	}
}

// swapIdentities checks the counting identities of Nivre (2009) §3.2 on a
// derived sequence: exactly 2n + 2k transitions for k SWAPs, k ≤ n(n−1)/2,
// and k = 0 iff the tree is projective. It returns k.
func swapIdentities(t *testing.T, name string, g *Gold, seq []Transition) int {
	t.Helper()
	n := len(g.Head) - 1
	k := swCount(seq, Swap)
	if len(seq) != 2*n+2*k || k > n*(n-1)/2 {
		t.Fatalf("%s: %d transitions with %d swaps for n = %d, want 2n+2k = %d", name, len(seq), k, n, 2*n+2*k)
	}
	if p := tree.Projective(g.Head); p != (k == 0) {
		t.Fatalf("%s: tree %v projective %v with %d swaps", name, g.Head, p, k)
	}
	return k
}

// Both swap oracles over the full treebanks (or the EWT slice without them):
// every tree rebuilt exactly, 2n + 2k transitions, k = 0 exactly on
// projective trees, and the lazy oracle never swaps more than the eager
// one; the projective order is checked on dev trees. Logs the mean swaps per sentence and transitions per
// word per file.
func TestSwapTreebanks(t *testing.T) {
	type stat struct{ sents, words, swaps, trans, withSwaps, maxSwaps int }
	swaps := map[string]map[int]int{} // eager swaps per file and sentence
	stats := map[string]*[2]stat{}
	var files []string
	for li, name := range []string{"swap-eager", "swap-lazy"} {
		sys, _ := Lookup(name)
		npTreebankRoundTrip(t, sys, func(goldSent) bool { return true }, func(file string, k int, g *Gold, seq []Transition) {
			n := len(g.Head) - 1
			sw := swapIdentities(t, name+" "+file, g, seq)
			if stats[file] == nil {
				stats[file] = new([2]stat)
				swaps[file] = map[int]int{}
				files = append(files, file)
			}
			st := &stats[file][li]
			st.sents++
			st.words += n
			st.swaps += sw
			st.trans += len(seq)
			if sw > 0 {
				st.withSwaps++
			}
			st.maxSwaps = max(st.maxSwaps, sw)
			if li == 0 {
				swaps[file][k] = sw
			} else if e := swaps[file][k]; sw > e {
				t.Fatalf("%s sentence %d: lazy oracle %d swaps > eager %d", file, k, sw, e)
			}
			if li == 0 && strings.Contains(file, "dev") && n <= 40 {
				swCheckOrder(t, g)
			}
		})
	}
	for _, f := range files {
		e, l := stats[f][0], stats[f][1]
		t.Logf("%s: swaps per sentence eager %.4f lazy %.4f (sentences with swaps %d eager, %d lazy, of %d; max %d / %d); "+
			"transitions per word eager %.4f lazy %.4f",
			f, float64(e.swaps)/float64(e.sents), float64(l.swaps)/float64(l.sents), e.withSwaps, l.withSwaps, e.sents,
			e.maxSwaps, l.maxSwaps, float64(e.trans)/float64(e.words), float64(l.trans)/float64(l.words))
	}
}

// Every tree of n ≤ 7 words is derived by both oracles with the counting
// identities, the lazy one never swapping more than the eager one; every
// tree is projective in its projective order.
func TestSwapExhaustive(t *testing.T) {
	maxN := 7
	if testing.Short() {
		maxN = 6
	}
	var eager []int
	npExhaustive(t, SwapSystem{}, maxN, func([]int32) bool { return true }, func(g *Gold, seq []Transition) {
		eager = append(eager, swapIdentities(t, "swap-eager", g, seq))
		if len(g.Head) <= 7 {
			swCheckOrder(t, g)
		}
	})
	k, fewer, eagerTotal, lazyTotal := 0, 0, 0, 0
	npExhaustive(t, SwapSystem{Lazy: true}, maxN, func([]int32) bool { return true }, func(g *Gold, seq []Transition) {
		sw := swapIdentities(t, "swap-lazy", g, seq)
		if sw > eager[k] {
			t.Fatalf("tree %v: lazy %d swaps > eager %d", g.Head, sw, eager[k])
		}
		if sw < eager[k] {
			fewer++
		}
		eagerTotal += eager[k]
		lazyTotal += sw
		k++
	})
	t.Logf("n ≤ %d: %d trees, %d swaps eager, %d lazy; lazy fewer on %d trees", maxN, k, eagerTotal, lazyTotal, fewer)
	if fewer == 0 {
		t.Error("the lazy oracle never saved a swap")
	}
}

// npRandomTree returns a random tree of n words with one word on node 0.
func npRandomTree(rng *rand.Rand, n int) []int32 {
	perm := rng.Perm(n)
	head := make([]int32, n+1)
	head[0] = None
	for k, p := range perm {
		if k == 0 {
			head[p+1] = 0
		} else {
			head[p+1] = int32(perm[rng.Intn(k)] + 1)
		}
	}
	return head
}

// Random long trees (mostly non-projective with many crossings): both swap
// oracles and Covington non-projective rebuild them within their bounds,
// Covington projective refuses the non-projective ones.
func TestRandomTreeRoundTrips(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	var s State
	systems := []System{SwapSystem{}, SwapSystem{Lazy: true}, CovingtonNonProjective{}, CovingtonProjective{}}
	maxK := 0
	for it := 0; it < 60; it++ {
		n := 1 + rng.Intn(300)
		head := npRandomTree(rng, n)
		g := NewGold(head, labelsFor(head))
		proj := tree.Projective(head)
		ks := [2]int{}
		for si, sys := range systems {
			seq, err := Derive(sys, &s, g)
			if in := sys.InClass(g); (err == nil) != in || in != (proj || si < 3) {
				t.Fatalf("%s n=%d: in class %v, derive error %v, projective %v", sys.Name(), n, in, err, proj)
			}
			if err != nil {
				continue
			}
			if len(seq) > sys.MaxTransitions(n) {
				t.Fatalf("%s n=%d: %d transitions > %d", sys.Name(), n, len(seq), sys.MaxTransitions(n))
			}
			if si < 2 {
				ks[si] = swapIdentities(t, sys.Name(), g, seq)
			}
		}
		if ks[1] > ks[0] {
			t.Fatalf("n=%d: lazy %d swaps > eager %d", n, ks[1], ks[0])
		}
		maxK = max(maxK, ks[0])
	}
	t.Logf("max eager swaps %d", maxK)
}

// Random legal derivations of the swap system end within n² + n in a tree
// with exactly one word on node 0, after 2n + 2k transitions for k SWAPs.
func TestSwapRandomDerivations(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	var s State
	sys := SwapSystem{}
	total, swaps := 0, 0
	for _, n := range npRandomLengths(rng) {
		c := npRandomDerivation(t, sys, &s, n, rng)
		if got, want := npSum(c), 2*n+2*c[Swap]; got != want {
			t.Fatalf("n=%d: %d transitions with %d swaps, want %d", n, got, c[Swap], want)
		}
		if err := tree.Check(s.Head); err != nil {
			t.Fatalf("n=%d: terminal state is not a tree: %v", n, err)
		}
		total += npSum(c)
		swaps += c[Swap]
	}
	t.Logf("%d transitions, %d swaps", total, swaps)
}

// One SwapSystem value is used by several goroutines at once (as in
// parallel training): Sequence keeps no state in the system, so each
// goroutine gets the sequential result (run with -race).
func TestSwapConcurrentSequences(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	var golds []*Gold
	for k := 0; k < 40; k++ {
		h := npRandomTree(rng, 5+rng.Intn(40))
		golds = append(golds, NewGold(h, labelsFor(h)))
	}
	for _, sys := range []System{SwapSystem{}, SwapSystem{Lazy: true}} {
		want := make([][]Transition, len(golds))
		var s State
		for k, g := range golds {
			want[k], _ = Derive(sys, &s, g)
		}
		var wg sync.WaitGroup
		errs := make(chan string, 4)
		for w := 0; w < 4; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				var s State
				for k := range golds {
					g := golds[(k+w*7)%len(golds)]
					seq, err := Derive(sys, &s, g)
					if err != nil || !slices.Equal(seq, want[(k+w*7)%len(golds)]) {
						errs <- sys.Name() + ": concurrent sequence differs"
						return
					}
				}
			}()
		}
		wg.Wait()
		close(errs)
		for e := range errs {
			t.Error(e)
		}
	}
}
