package transition

import (
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/transparse/transparse/parser/tree"
)

// tvC1 is the Czech sentence of Nivre (2008) Fig. 1 ("Z nich je jen jedna
// na kvalitu ."), TV-C1. It has two words on node 0
// (je/Pred and ./AuxK), as in the paper.
var tvC1Heads = []int32{None, 5, 1, 0, 5, 3, 3, 6, 0}
var tvC1Labels = []string{"", "AuxP", "Atr", "Pred", "AuxZ", "Sb", "AuxP", "Adv", "AuxK"}

// npAbbrev abbreviates like abbrev, with NA for NO-ARC and SW for SWAP.
func npAbbrev(t Transition, labels []string) string {
	switch t.Move {
	case NoArc:
		return "NA"
	case Swap:
		return "SW"
	}
	return abbrev(t, labels)
}

// npCheckpoint is a configuration after the first `after` transitions:
// stack (λ1) bottom first, list2 (λ2) head first, buffer front first.
type npCheckpoint struct {
	after                int
	stack, list2, buffer []int32
}

// npSpan returns the nodes lo..hi.
func npSpan(lo, hi int32) []int32 {
	var out []int32
	for x := lo; x <= hi; x++ {
		out = append(out, x)
	}
	return out
}

// npVector derives the tree with sys (Derive), checks that it gives want
// (transitions joined by ", ") and rebuilds the tree, then replays the
// sequence and checks the configurations at the checkpoints. It returns the
// sequence.
func npVector(t *testing.T, sys System, heads []int32, labels []string, want string, cps []npCheckpoint) []Transition {
	t.Helper()
	lab, _, back := labelIDs(labels)
	g := NewGold(heads, lab)
	if !sys.InClass(g) {
		t.Fatalf("%s: tree not in class", sys.Name())
	}
	var s State
	seq, err := Derive(sys, &s, g)
	if err != nil {
		t.Fatal(err)
	}
	str := func(seq []Transition) string {
		var parts []string
		for _, tr := range seq {
			parts = append(parts, npAbbrev(tr, back))
		}
		return strings.Join(parts, ", ")
	}
	if got := str(seq); got != want {
		t.Errorf("%s sequence (%d):\n got %s\nwant %s", sys.Name(), len(seq), got, want)
	}
	n := len(heads) - 1
	sys.Init(&s, n)
	check := func(k int) {
		for _, cp := range cps {
			if cp.after != k {
				continue
			}
			l2 := slices.Clone(s.List2)
			slices.Reverse(l2)
			bu := slices.Clone(s.Buffer)
			slices.Reverse(bu)
			if !slices.Equal(s.Stack, cp.stack) || !slices.Equal(l2, cp.list2) || !slices.Equal(bu, cp.buffer) {
				t.Errorf("%s after %d transitions: (%v, %v, %v), want (%v, %v, %v)",
					sys.Name(), k, s.Stack, l2, bu, cp.stack, cp.list2, cp.buffer)
			}
		}
	}
	for k, tr := range seq {
		check(k)
		if !sys.Legal(&s, tr.Move) {
			t.Fatalf("%s: transition %d (%v) illegal on replay", sys.Name(), k, tr)
		}
		Step(sys, &s, tr)
	}
	check(len(seq))
	if !sys.Terminal(&s) {
		t.Errorf("%s: replay does not end in a terminal state", sys.Name())
	}
	for d := 1; d <= n; d++ {
		if s.Head[d] != heads[d] || s.Label[d] != lab[d] {
			t.Errorf("%s: word %d got head %d label %d, want %d %d", sys.Name(), d, s.Head[d], s.Label[d], heads[d], lab[d])
		}
	}
	return seq
}

// TV-C1: Nivre (2008) Fig. 8, Covington non-projective, 28 transitions, on
// the two-root tree of the paper (single-root rule off).
func exCovingtonNonProjectiveNivre2008Fig8(t *testing.T) {
	npVector(t, CovingtonNonProjective{multiRoot: true}, tvC1Heads, tvC1Labels,
		"SH, RA:Atr, SH, NA, NA, RA:Pred, SH, SH, LA:AuxZ, RA:Sb, NA, LA:AuxP, SH, NA, NA, "+
			"RA:AuxP, SH, RA:Adv, SH, NA, NA, NA, NA, NA, NA, NA, RA:AuxK, SH",
		[]npCheckpoint{
			{0, []int32{0}, nil, npSpan(1, 8)},
			{2, []int32{0}, []int32{1}, npSpan(2, 8)},
			{3, []int32{0, 1, 2}, nil, npSpan(3, 8)},
			{6, nil, []int32{0, 1, 2}, npSpan(3, 8)},
			{12, []int32{0}, npSpan(1, 4), npSpan(5, 8)},
			{28, npSpan(0, 8), nil, nil},
		})
	// The registered system keeps one word on node 0: the paper's tree is
	// outside its class, and its oracle cannot build the second root arc.
	sys, _ := Lookup("covington-nonprojective")
	lab, _, _ := labelIDs(tvC1Labels)
	g := NewGold(tvC1Heads, lab)
	if sys.InClass(g) {
		t.Error("covington-nonprojective: two-root tree reported in class")
	}
	var s State
	if _, err := Derive(sys, &s, g); err == nil {
		t.Error("covington-nonprojective derived a tree with two words on node 0")
	}
	// With "." attached to "je" the tree has one root word and the
	// registered system derives it: the last comparisons stop at 3.
	one := slices.Clone(tvC1Heads)
	one[8] = 3
	npVector(t, sys, one, tvC1Labels,
		"SH, RA:Atr, SH, NA, NA, RA:Pred, SH, SH, LA:AuxZ, RA:Sb, NA, LA:AuxP, SH, NA, NA, "+
			"RA:AuxP, SH, RA:Adv, SH, NA, NA, NA, NA, RA:AuxK, SH", nil)
}

// TV-E4: Nivre (2008) Fig. 10, Covington projective on TV-E1, 16 transitions.
func exCovingtonProjectiveNivre2008Fig10(t *testing.T) {
	sys, err := Lookup("covington-projective")
	if err != nil {
		t.Fatal(err)
	}
	npVector(t, sys, tvE1Heads, tvE1Labels,
		"SH, LA:NMOD, SH, LA:SBJ, RA:ROOT, SH, LA:NMOD, RA:OBJ, RA:NMOD, SH, LA:NMOD, RA:PMOD, NA, NA, NA, RA:P",
		[]npCheckpoint{
			{12, []int32{0, 3, 5, 6, 8}, nil, []int32{9}},
			{15, []int32{0, 3}, []int32{5, 6, 8}, []int32{9}},
			{16, []int32{0, 3, 9}, nil, nil},
		})
	// Covington non-projective on the same tree (sequence checked by hand):
	// no deletions, so it compares more pairs; 24 transitions ≤ n(n+3)/2.
	np, _ := Lookup("covington-nonprojective")
	seq := npVector(t, np, tvE1Heads, tvE1Labels,
		"SH, LA:NMOD, SH, LA:SBJ, NA, RA:ROOT, SH, SH, LA:NMOD, RA:OBJ, SH, RA:NMOD, SH, SH, LA:NMOD, "+
			"RA:PMOD, SH, NA, NA, NA, NA, NA, RA:P, SH", nil)
	if len(seq) > np.MaxTransitions(9) {
		t.Errorf("%d transitions > n(n+3)/2", len(seq))
	}
}

// The projective Covington oracle refuses a non-projective tree; the
// non-projective one derives it.
func TestCovingtonNonProjectiveTree(t *testing.T) {
	heads := slices.Clone(tvC1Heads)
	heads[8] = 3 // one root word, still non-projective (5 → 1 spans 3)
	lab, _, _ := labelIDs(tvC1Labels)
	g := NewGold(heads, lab)
	p, np := CovingtonProjective{}, CovingtonNonProjective{}
	if p.InClass(g) || !np.InClass(g) {
		t.Fatalf("InClass: projective %v, non-projective %v; want false, true", p.InClass(g), np.InClass(g))
	}
	var s State
	if _, err := Derive(p, &s, g); err == nil {
		t.Error("covington-projective derived a non-projective tree")
	}
	if _, err := Derive(np, &s, g); err != nil {
		t.Error(err)
	}
}

func TestLookupNonProjectiveSystems(t *testing.T) {
	for _, name := range []string{"covington-nonprojective", "covington-projective", "swap-eager", "swap-lazy"} {
		sys, err := Lookup(name)
		if err != nil || sys.Name() != name {
			t.Errorf("Lookup(%q) = %v, %v", name, sys, err)
		}
	}
}

// npTreebankRoundTrip runs Derive for sys over every tree of every file of
// treebankFiles: trees in the class (want(g) must agree with InClass) are
// rebuilt exactly, trees outside are recognised and the oracle fails on
// them. per is called with every derived sequence. It logs the counts.
func npTreebankRoundTrip(t *testing.T, sys System, want func(gs goldSent) bool, per func(file string, k int, g *Gold, seq []Transition)) {
	t.Helper()
	for _, file := range treebankFiles(t) {
		sents := loadGold(t, file)
		var s State
		in, out, trans, words := 0, 0, 0, 0
		for k, gs := range sents {
			n := len(gs.g.Head) - 1
			c := sys.InClass(gs.g)
			if c != want(gs) {
				t.Fatalf("%s %s sentence %d: InClass = %v, want %v", file, sys.Name(), k, c, !c)
			}
			seq, err := Derive(sys, &s, gs.g)
			if !c {
				out++
				if err == nil {
					t.Fatalf("%s %s sentence %d: out-of-class tree derived", file, sys.Name(), k)
				}
				continue
			}
			in++
			if err != nil {
				t.Fatalf("%s %s sentence %d: %v", file, sys.Name(), k, err)
			}
			if len(seq) > sys.MaxTransitions(n) {
				t.Fatalf("%s %s sentence %d: %d transitions > bound %d", file, sys.Name(), k, len(seq), sys.MaxTransitions(n))
			}
			trans += len(seq)
			words += n
			if per != nil {
				per(file, k, gs.g, seq)
			}
		}
		t.Logf("%s %s: %d trees rebuilt, %d out of class recognised; %.3f transitions per word",
			file, sys.Name(), in, out, float64(trans)/float64(words))
	}
}

// Both Covington systems over the full treebanks (or the EWT slice without
// them): non-projective rebuilds
// every tree, projective every projective tree; both within n(n+3)/2.
func TestCovingtonTreebanks(t *testing.T) {
	np, _ := Lookup("covington-nonprojective")
	npTreebankRoundTrip(t, np, func(goldSent) bool { return true }, nil)
	p, _ := Lookup("covington-projective")
	npTreebankRoundTrip(t, p, func(gs goldSent) bool { return gs.proj }, nil)
}

// npExhaustive derives every single-root tree of n ≤ maxN words with sys and
// checks: the oracle derives it iff InClass, and InClass agrees with want.
// per is called with every derived sequence. It returns the number of trees
// in class per n.
func npExhaustive(t *testing.T, sys System, maxN int, want func(head []int32) bool, per func(g *Gold, seq []Transition)) []int {
	t.Helper()
	counts := make([]int, maxN+1)
	var s State
	for n := 1; n <= maxN; n++ {
		total := 0
		tree.Each(n, true, func(head []int32) {
			total++
			g := NewGold(slices.Clone(head), labelsFor(head))
			c := sys.InClass(g)
			if c != want(head) {
				t.Fatalf("%s: tree %v InClass = %v", sys.Name(), head, c)
			}
			seq, err := Derive(sys, &s, g)
			if (err == nil) != c {
				t.Fatalf("%s: tree %v in class %v, derive error %v", sys.Name(), head, c, err)
			}
			if c {
				counts[n]++
				if per != nil {
					per(g, seq)
				}
			}
		})
		t.Logf("%s n=%d: %d of %d trees derived", sys.Name(), n, counts[n], total)
	}
	return counts
}

// Every tree of n ≤ 7 words: Covington non-projective derives all of them,
// Covington projective exactly the projective ones; both within n(n+3)/2.
func TestCovingtonExhaustive(t *testing.T) {
	maxN := 7
	if testing.Short() {
		maxN = 6
	}
	bound := func(sys System) func(*Gold, []Transition) {
		return func(g *Gold, seq []Transition) {
			if n := len(g.Head) - 1; len(seq) > sys.MaxTransitions(n) {
				t.Fatalf("%s: %d transitions > %d for %v", sys.Name(), len(seq), sys.MaxTransitions(n), g.Head)
			}
		}
	}
	np := CovingtonNonProjective{}
	all := npExhaustive(t, np, maxN, func([]int32) bool { return true }, bound(np))
	p := CovingtonProjective{}
	proj := npExhaustive(t, p, maxN, tree.Projective, bound(p))
	// Projective trees of n words with one word on node 0 are counted by
	// OEIS A006013, C(3m+1, m)/(m+1) with m = n−1: 1, 2, 7, 30, 143, 728,
	// 3876. All trees: n^(n−1) (rooted labelled trees, Cayley).
	wantProj := []int{0, 1, 2, 7, 30, 143, 728, 3876}
	for n := 1; n <= maxN; n++ {
		if proj[n] != wantProj[n] {
			t.Errorf("n=%d: %d projective trees derived, want %d", n, proj[n], wantProj[n])
		}
		if want := npPow(n, n-1); all[n] != want {
			t.Errorf("n=%d: %d trees derived, want n^(n-1) = %d", n, all[n], want)
		}
	}
}

func npPow(a, b int) int {
	r := 1
	for ; b > 0; b-- {
		r *= a
	}
	return r
}

// npRandomDerivation applies random legal transitions (random labels) from the
// initial state for n words until a terminal state and checks: no dead end,
// termination within MaxTransitions, Arc names the arc each labeled move
// adds (to a headless word, never node 0) and unlabeled moves add none, and
// the result is a forest with at most one word on node 0. It returns the
// number of transitions of each move.
func npRandomDerivation(t *testing.T, sys System, s *State, n int, rng *rand.Rand) (count [NumMoves]int) {
	t.Helper()
	sys.Init(s, n)
	bound := sys.MaxTransitions(n)
	var legal []Move
	arcs, steps := 0, 0
	for !sys.Terminal(s) {
		legal = legal[:0]
		for _, m := range sys.Moves() {
			if sys.Legal(s, m) {
				legal = append(legal, m)
			}
		}
		if len(legal) == 0 {
			t.Fatalf("%s n=%d: dead end after %d transitions (stack %v buffer %v)", sys.Name(), n, steps, s.Stack, s.Buffer)
		}
		m := legal[rng.Intn(len(legal))]
		tr := Transition{m, None}
		h, d := sys.Arc(s, m)
		if m.Labeled() {
			tr.Label = rng.Int31n(40)
			if h < 0 || d <= 0 || h == d || s.Head[d] != None {
				t.Fatalf("%s: %v would add arc %d → %d (head of %d is %d)", sys.Name(), m, h, d, max(d, 0), s.HeadOf(d))
			}
			arcs++
		} else if h != None || d != None {
			t.Fatalf("%s: unlabeled %v has arc %d → %d", sys.Name(), m, h, d)
		}
		Step(sys, s, tr)
		steps++
		count[m]++
		if m.Labeled() && (s.Head[d] != h || s.Label[d] != tr.Label) {
			t.Fatalf("%s: %v did not add %d → %d:%d", sys.Name(), tr, h, d, tr.Label)
		}
		if s.Steps != steps || s.Prev != m {
			t.Fatalf("%s: Steps %d Prev %v after %d transitions, last %v", sys.Name(), s.Steps, s.Prev, steps, m)
		}
		if steps > bound {
			t.Fatalf("%s n=%d: no terminal state within %d transitions", sys.Name(), n, bound)
		}
	}
	got, roots := 0, 0
	for d := 1; d <= n; d++ {
		if s.Head[d] != None {
			got++
		}
		if s.Head[d] == 0 {
			roots++
		}
		for x, k := int32(d), 0; x != None; x, k = s.Head[x], k+1 {
			if k > n {
				t.Fatalf("%s: cycle through word %d: %v", sys.Name(), d, s.Head)
			}
		}
	}
	if got != arcs || roots > 1 || s.Head[0] != None {
		t.Fatalf("%s: %d heads for %d arcs, %d words on node 0, head of 0 %d", sys.Name(), got, arcs, roots, s.Head[0])
	}
	return count
}

func npSum(c [NumMoves]int) int {
	t := 0
	for _, x := range c {
		t += x
	}
	return t
}

// npRandomLengths gives the sentence lengths of the random tests: many short
// ones and a few of 100..300 words.
func npRandomLengths(rng *rand.Rand) []int {
	var ns []int
	for k := 0; k < 400; k++ {
		ns = append(ns, rng.Intn(25))
	}
	for k := 0; k < 6; k++ {
		ns = append(ns, 100+rng.Intn(201))
	}
	return ns
}

// Random legal derivations of both Covington systems end within n(n+3)/2
// in a forest with at most one word on 0; the projective system's output is
// projective, also after attaching its headless words to 0 (no headless
// word is covered by an arc).
func TestCovingtonRandomDerivations(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	var s State
	for _, sys := range []System{CovingtonNonProjective{}, CovingtonProjective{}} {
		total, nonproj := 0, 0
		for _, n := range npRandomLengths(rng) {
			total += npSum(npRandomDerivation(t, sys, &s, n, rng))
			head := slices.Clone(s.Head)
			for d := 1; d <= n; d++ {
				if head[d] == None {
					head[d] = 0
				}
			}
			if !tree.Projective(head) {
				if _, ok := sys.(CovingtonProjective); ok {
					t.Fatalf("covington-projective output is not projective: %v", s.Head)
				}
				nonproj++
			}
		}
		t.Logf("%s: %d transitions, %d non-projective outputs", sys.Name(), total, nonproj)
		if _, ok := sys.(CovingtonNonProjective); ok && nonproj == 0 {
			t.Error("covington-nonprojective: random derivations never gave a non-projective tree")
		}
	}
}

// The hot paths do not allocate: replaying a derivation (Legal, Apply) on a
// State that has been used once, and running the tree oracles of the
// Covington and swap systems step by step.
func TestNoAllocPerTransition(t *testing.T) {
	lab, _, _ := labelIDs(tvC1Labels)
	heads := slices.Clone(tvC1Heads)
	heads[8] = 3
	g := NewGold(heads, lab)
	for _, sys := range []System{CovingtonNonProjective{}, CovingtonProjective{}, SwapSystem{}, SwapSystem{Lazy: true}} {
		var s State
		tg := g
		if _, ok := sys.(CovingtonProjective); ok {
			lab, _, _ := labelIDs(tvE1Labels)
			tg = NewGold(tvE1Heads, lab)
		}
		seq, err := Derive(sys, &s, tg)
		if err != nil {
			t.Fatal(err)
		}
		nn := len(tg.Head) - 1
		if a := testing.AllocsPerRun(20, func() {
			sys.Init(&s, nn)
			for _, tr := range seq {
				if !sys.Legal(&s, tr.Move) {
					panic("illegal")
				}
				Step(sys, &s, tr)
			}
		}); a != 0 {
			t.Errorf("%s: %v allocations per replay", sys.Name(), a)
		}
		o, err := sys.Oracle(tg)
		if err != nil {
			t.Fatal(err)
		}
		if a := testing.AllocsPerRun(20, func() {
			sys.Init(&s, nn)
			for !sys.Terminal(&s) {
				Step(sys, &s, o.Next(&s))
			}
		}); a != 0 {
			t.Errorf("%s: %v allocations per oracle run", sys.Name(), a)
		}
	}
}
