package transition

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/transparse/transparse/parser/tree"
)

// plAbbrev writes a sequence as GN13 does: SH, RE, LA, RA, SW (no labels).
func plAbbrev(seq []Transition) string {
	names := map[Move]string{Shift: "SH", Reduce: "RE", LeftArc: "LA", RightArc: "RA", Switch: "SW"}
	out := make([]string, len(seq))
	for i, t := range seq {
		out[i] = names[t.Move]
		if out[i] == "" {
			out[i] = t.Move.String()
		}
	}
	return strings.Join(out, " ")
}

// plUnlabeled makes a Gold with label 0 on every arc (None for headless
// words).
func plUnlabeled(head []int32) *Gold {
	lab := make([]int32, len(head))
	for d := range head {
		lab[d] = None
		if d > 0 && head[d] >= 0 {
			lab[d] = 0
		}
	}
	return NewGold(head, lab)
}

// TV-E5 (docs/transition-systems.md, planar): S_P with SINGLE-HEAD + ACYCLICITY on
// GN13's TV-E2 graph A2 (nodes 1..9, no root; "had" = 3 is headless). Node 0
// is present but isolated, so the sequence is one SHIFT (of node 0) longer
// than the paper's 22; REDUCE never meets a headless node, so the
// NO-COVERED-ROOTS restriction changes nothing.
func exPlanarTVE5(t *testing.T) {
	head := []int32{None, 2, 3, None, 5, 3, 5, 8, 6, 3}
	g := plUnlabeled(head)
	sys := Planar{}
	if !sys.InClass(g) {
		t.Fatal("TV-E2 graph not planar")
	}
	var s State
	seq, err := Derive(sys, &s, g)
	if err != nil {
		t.Fatal(err)
	}
	want := "SH " + "SH LA SH LA SH SH LA RE RA SH RA SH SH LA RE RA SH RE RE RE RA SH"
	if got := plAbbrev(seq); got != want {
		t.Errorf("TV-E5:\n got %s\nwant %s", got, want)
	}
	if got := fmt.Sprint(s.Stack); got != "[0 1 2 3 9]" {
		t.Errorf("final stack %s, want [0 1 2 3 9]", got)
	}
}

// TV-E1 with its ROOT as node 0 (the tree of TV-E5 plus 0 → had): the
// oracle reduces "news" and "Economic" to reach 0 for RIGHT-ARC:ROOT, so
// the sequence has 26 = 22 + SH(0) + RE RE RA transitions (ours; each step
// checked by hand against the oracle rules).
func exPlanarTVE1(t *testing.T) {
	s := runVector(t, Planar{}, tvE1Heads, tvE1Labels,
		"SH, SH, LA:NMOD, SH, LA:SBJ, RE, RE, RA:ROOT, SH, SH, LA:NMOD, RE, RA:OBJ, SH, RA:NMOD, SH, SH, LA:NMOD, RE, RA:PMOD, SH, RE, RE, RE, RA:P, SH")
	if got := fmt.Sprint(s.Stack); got != "[0 3 9]" {
		t.Errorf("final stack %s, want [0 3 9]", got)
	}
	if s.Steps != 26 || s.Steps > (Planar{}).MaxTransitions(9) {
		t.Errorf("%d steps", s.Steps)
	}
}

func TestPlanarLegal(t *testing.T) {
	sys := Planar{}
	var s State
	sys.Init(&s, 3)
	if sys.Legal(&s, Reduce) || sys.Legal(&s, LeftArc) || sys.Legal(&s, RightArc) || !sys.Legal(&s, Shift) {
		t.Fatal("initial state: only SHIFT is legal")
	}
	Step(sys, &s, Transition{Shift, None}) // [0] | 1 2 3
	if sys.Legal(&s, LeftArc) {
		t.Error("LEFT-ARC would make node 0 a dependent")
	}
	if sys.Legal(&s, Reduce) {
		t.Error("REDUCE of node 0 (headless) is legal")
	}
	Step(sys, &s, Transition{RightArc, 0}) // 0 → 1
	if sys.Legal(&s, RightArc) || sys.Legal(&s, LeftArc) {
		t.Error("second arc between connected nodes is legal")
	}
	Step(sys, &s, Transition{Shift, None}) // [0 1] | 2 3
	Step(sys, &s, Transition{Shift, None}) // [0 1 2] | 3
	if sys.Legal(&s, Reduce) {
		t.Error("REDUCE of headless 2 is legal (NO-COVERED-ROOTS)")
	}
	Step(sys, &s, Transition{LeftArc, 1}) // 3 → 2
	if !sys.Legal(&s, Reduce) || sys.Legal(&s, LeftArc) {
		t.Error("after 3 → 2: REDUCE should be legal, LEFT-ARC not")
	}
	Step(sys, &s, Transition{Reduce, None}) // [0 1] | 3
	if !sys.Legal(&s, RightArc) {
		t.Error("RIGHT-ARC 1 → 3 should be legal")
	}
	Step(sys, &s, Transition{Reduce, None}) // [0] | 3
	if sys.Legal(&s, RightArc) {
		t.Error("a second word on node 0 is legal")
	}
	if sys.Legal(&s, Reduce) {
		t.Error("node 0 can be reduced")
	}
	// A projective graph with two words on node 0 is outside the class.
	two := NewGold([]int32{None, 0, 0}, []int32{None, 0, 0})
	if sys.InClass(two) {
		t.Error("InClass accepts two words on node 0")
	}
	if _, err := Derive(sys, &s, two); err == nil {
		t.Error("Derive builds two words on node 0")
	}
}

// plTreebankSystems are the systems of this file and multiplanar.go, with
// an independent membership test for the treebank and exhaustive tests.
var plTreebankSystems = []struct {
	name string
	in   func(head []int32) bool
}{
	{"planar", func(h []int32) bool { return tree.Projective(h) }},
	{"2-planar", func(h []int32) bool { return tree.KPlanar(h, 2) }},
	{"3-planar", func(h []int32) bool { return tree.KPlanar(h, 3) }},
}

// plCheckSeq checks the length bound and the SWITCH runs of a sequence.
func plCheckSeq(sys System, seq []Transition, n int) error {
	if len(seq) > sys.MaxTransitions(n) {
		return fmt.Errorf("%d transitions > bound %d", len(seq), sys.MaxTransitions(n))
	}
	k := 1
	if mp, ok := sys.(MultiPlanar); ok {
		k = mp.K()
	}
	run := 0
	for _, t := range seq {
		if t.Move != Switch {
			run = 0
		} else if run++; run > k-1 {
			return fmt.Errorf("%d consecutive SWITCHes", run)
		}
	}
	return nil
}

// Every tree of every full treebank file (or of the EWT slice without them):
// in the class of "planar"
// (projective), "2-planar" and "3-planar", Derive rebuilds it exactly
// (heads and labels) within the bound; outside, InClass says so and the
// oracle fails. Logs the coverage and the oracle's transitions per word.
func TestPlanarSystemsTreebanks(t *testing.T) {
	for _, file := range treebankFiles(t) {
		sents := loadGold(t, file)
		words := 0
		for _, gs := range sents {
			words += len(gs.g.Head) - 1
		}
		line := fmt.Sprintf("%s: %d trees, %d words", file, len(sents), words)
		for _, ps := range plTreebankSystems {
			sys, err := Lookup(ps.name)
			if err != nil {
				t.Fatal(err)
			}
			var s State
			in, out, steps, switches, inWords := 0, 0, 0, 0, 0
			for k, gs := range sents {
				g := gs.g
				n := len(g.Head) - 1
				member := ps.in(g.Head)
				if sys.InClass(g) != member {
					t.Fatalf("%s %s sentence %d: InClass = %v, tree class test = %v", file, ps.name, k, !member, member)
				}
				seq, err := Derive(sys, &s, g)
				if !member {
					out++
					if err == nil {
						t.Fatalf("%s %s sentence %d: out-of-class tree derived", file, ps.name, k)
					}
					continue
				}
				in++
				if err != nil {
					t.Fatalf("%s %s sentence %d: %v", file, ps.name, k, err)
				}
				if err := plCheckSeq(sys, seq, n); err != nil {
					t.Fatalf("%s %s sentence %d: %v", file, ps.name, k, err)
				}
				steps += len(seq)
				inWords += n
				for _, tr := range seq {
					if tr.Move == Switch {
						switches++
					}
				}
			}
			t.Logf("%s %s: %d rebuilt, %d out of class", file, ps.name, in, out)
			line += fmt.Sprintf("; %s %.2f%% (%d out), %.3f transitions/word, %.3f SWITCH/word",
				ps.name, 100*float64(in)/float64(len(sents)), out, float64(steps)/float64(inWords), float64(switches)/float64(inWords))
		}
		t.Log(line)
	}
}

// Every single-root tree of n ≤ 7 words (117,649 for n = 7): each system
// derives it iff it is in the system's class (checked independently with
// the tree package), and InClass agrees. Not every 7-word tree is 3-planar:
// four pairwise crossing arcs fit in 8 nodes.
func TestPlanarSystemsExhaustive(t *testing.T) {
	maxN := 7
	if testing.Short() {
		maxN = 6
	}
	var s State
	for n := 1; n <= maxN; n++ {
		counts := make([]int, len(plTreebankSystems))
		total := 0
		tree.Each(n, true, func(head []int32) {
			total++
			g := NewGold(head, labelsFor(head))
			for i, ps := range plTreebankSystems {
				sys, _ := Lookup(ps.name)
				member := ps.in(head)
				if sys.InClass(g) != member {
					t.Fatalf("%s %v: InClass = %v, want %v", ps.name, head, !member, member)
				}
				seq, err := Derive(sys, &s, g)
				if (err == nil) != member {
					t.Fatalf("%s %v: in class %v, Derive error %v", ps.name, head, member, err)
				}
				if member {
					counts[i]++
					if err := plCheckSeq(sys, seq, n); err != nil {
						t.Fatalf("%s %v: %v", ps.name, head, err)
					}
				}
			}
		})
		t.Logf("n=%d: %d trees; derived: planar %d, 2-planar %d, 3-planar %d", n, total, counts[0], counts[1], counts[2])
		if n == 7 && (counts[2] != total-396 || counts[1] != total-32973) {
			t.Errorf("n=7: 2-planar %d, 3-planar %d derived, want %d and %d", counts[1], counts[2], total-32973, total-396)
		}
	}
}

// plRandomSentence picks a sentence length: mostly short, some long.
func plRandomSentence(rng *rand.Rand, it int) int {
	if it%10 == 0 {
		return 100 + rng.Intn(201)
	}
	return 1 + rng.Intn(25)
}

// Random legal derivations on random sentences (n up to 300), with two
// policies: uniform over the legal moves, and "avoid SHIFT" (any other
// legal move first), which makes derivations as long as possible. Checks:
// a legal move in every non-terminal state, termination within
// MaxTransitions, no more than k−1 SWITCHes in a row, the arcs form a
// forest (single head, no cycle, node 0 never a dependent, at most one word
// on 0), and soundness: the arcs built on each stack are planar, so the
// output is planar / 2-planar / 3-planar (tree.KPlanar also checked for
// n ≤ 40). For the planar system, NO-COVERED-ROOTS makes attaching the
// headless words to node 0 keep the output planar.
func TestPlanarSystemsRandomDerivations(t *testing.T) {
	rng := rand.New(rand.NewSource(2013))
	iters := 2000
	if testing.Short() {
		iters = 300
	}
	for _, name := range []string{"planar", "2-planar", "3-planar"} {
		sys, _ := Lookup(name)
		k := 1
		if mp, ok := sys.(MultiPlanar); ok {
			k = mp.K()
		}
		var s State
		maxRatio := 0.0
		for it := 0; it < iters; it++ {
			n := plRandomSentence(rng, it)
			avoidShift := it%2 == 1
			sys.Init(&s, n)
			plane := make([]int, n+1) // plane (stack) each arc was built on
			active, run := 0, 0
			moves := sys.Moves()
			var legal []Move
			for !sys.Terminal(&s) {
				legal = legal[:0]
				for _, m := range moves {
					if sys.Legal(&s, m) && !(avoidShift && m == Shift) {
						legal = append(legal, m)
					}
				}
				if len(legal) == 0 && avoidShift && sys.Legal(&s, Shift) {
					legal = append(legal, Shift)
				}
				if len(legal) == 0 {
					t.Fatalf("%s n=%d: dead end at step %d (stack %v buffer %v)", name, n, s.Steps, s.Stack, s.Buffer)
				}
				m := legal[rng.Intn(len(legal))]
				tr := Transition{m, None}
				if m.Labeled() {
					tr.Label = rng.Int31n(5)
				}
				if m.Labeled() {
					_, d := sys.Arc(&s, m)
					plane[d] = active
				}
				Step(sys, &s, tr)
				if m == Switch {
					active = (active + 1) % k
					if run++; run > k-1 {
						t.Fatalf("%s: %d SWITCHes in a row", name, run)
					}
				} else {
					run = 0
				}
				if s.Steps > sys.MaxTransitions(n) {
					t.Fatalf("%s n=%d: no terminal state within %d transitions", name, n, sys.MaxTransitions(n))
				}
			}
			if r := float64(s.Steps) / float64(sys.MaxTransitions(n)); r > maxRatio {
				maxRatio = r
			}
			if err := plForest(&s); err != nil {
				t.Fatalf("%s n=%d: %v", name, n, err)
			}
			for p := 0; p < k; p++ {
				sub := make([]int32, n+1)
				for d := range sub {
					sub[d] = None
					if d > 0 && s.Head[d] != None && plane[d] == p {
						sub[d] = s.Head[d]
					}
				}
				if !tree.Planar(sub) {
					t.Fatalf("%s n=%d: the arcs built on stack %d cross: %v", name, n, p, sub)
				}
			}
			if n <= 40 && !tree.KPlanar(s.Head, k) {
				t.Fatalf("%s n=%d: output not %d-planar: %v", name, n, k, s.Head)
			}
			if k == 1 {
				rooted := append([]int32(nil), s.Head...)
				for d := 1; d <= n; d++ {
					if rooted[d] == None {
						rooted[d] = 0
					}
				}
				if !tree.Planar(rooted) {
					t.Fatalf("planar n=%d: a headless word is covered: %v", n, s.Head)
				}
			}
		}
		t.Logf("%s: %d random derivations, longest at %.0f%% of the bound", name, iters, 100*maxRatio)
	}
}

// plForest checks that the arcs of s form a forest: node 0 has no head,
// no cycles, Roots counts the words on node 0 and is at most 1.
func plForest(s *State) error {
	if s.Head[0] != None {
		return fmt.Errorf("node 0 has head %d", s.Head[0])
	}
	roots := 0
	for d := 1; d <= s.N; d++ {
		if s.Head[d] == 0 {
			roots++
		}
		x, steps := int32(d), 0
		for x > 0 && steps <= s.N {
			x = s.Head[x]
			steps++
		}
		if x > 0 {
			return fmt.Errorf("cycle through word %d: %v", d, s.Head)
		}
	}
	if roots != s.Roots || roots > 1 {
		return fmt.Errorf("%d words on node 0 (Roots = %d)", roots, s.Roots)
	}
	return nil
}
