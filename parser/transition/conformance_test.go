package transition_test

import (
	"math/rand"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/transparse/transparse/internal/testenv"
	"github.com/transparse/transparse/parser/conllu"
	"github.com/transparse/transparse/parser/feature"
	"github.com/transparse/transparse/parser/transition"
	"github.com/transparse/transparse/parser/tree"
)

// TestConformance checks every registered system against the checklist of
// docs/adding-a-system.md, one subtest per system, with no data from
// outside the repository:
//
//   - the registry: Lookup gives the system under its name, with distinct
//     moves, a row in docs/systems.md and a section in
//     docs/transition-systems.md;
//   - the static oracle on every tree of n ≤ 7 words (one word on node 0):
//     InClass(g) holds exactly when Derive rebuilds g, within
//     MaxTransitions(n); and on every sentence of the EWT fixture;
//   - random legal derivations: they end within MaxTransitions, labeled
//     moves add the arc Arc announces to a headless word, unlabeled moves
//     add no arc to a word with a head, and no cycle is ever built;
//   - feature addresses: the templates of feature.ForSystem address every
//     structure the system fills (q for Covington's λ2 and inactive
//     stacks, g for registers), and extraction works on every state;
//   - the dynamic oracle, for systems that have one: along random walks a
//     zero-cost transition always exists, and the costs of a walk that
//     ends on zero-cost transitions add up to the arcs the final tree gets
//     wrong (arc decomposition);
//   - the worked examples of the papers (at least one per system).
func TestConformance(t *testing.T) {
	names := transition.Names()
	if len(names) == 0 {
		t.Fatal("no registered systems")
	}
	fix := loadFixture(t)
	examples := transition.WorkedExamples()
	systemsDoc := readDoc(t, "systems.md")
	referenceDoc := readDoc(t, "transition-systems.md")
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			sys, err := transition.Lookup(name)
			if err != nil {
				t.Fatal(err)
			}
			t.Run("registry", func(t *testing.T) { checkRegistry(t, sys, name, systemsDoc, referenceDoc) })
			t.Run("small-trees", func(t *testing.T) { checkSmallTrees(t, sys) })
			t.Run("fixture", func(t *testing.T) { checkFixture(t, sys, fix) })
			t.Run("random-walks", func(t *testing.T) { checkWalks(t, sys, fix) })
			if dyn, ok := sys.(transition.DynamicSystem); ok {
				t.Run("dynamic-oracle", func(t *testing.T) { checkDynamic(t, dyn, fix) })
			}
			t.Run("examples", func(t *testing.T) {
				exs := examples[name]
				if len(exs) == 0 {
					t.Fatalf("no worked example for %s (add one to workedExamples)", name)
				}
				for _, ex := range exs {
					t.Run(strings.ReplaceAll(ex.Name, " ", "_"), ex.Check)
				}
			})
		})
	}
	for name := range examples {
		if _, err := transition.Lookup(name); err != nil {
			t.Errorf("worked examples for %q, which is not registered", name)
		}
	}
}

// fixture is the EWT slice of testdata/ud: sentences and their gold trees.
type fixture struct {
	sents []*conllu.Sentence
	golds []*transition.Gold
}

func loadFixture(t *testing.T) fixture {
	t.Helper()
	f := loadTrees(t, testenv.Fixture(t, "en_ewt-dev-slice.conllu"))
	nonProj := 0
	for _, g := range f.golds {
		if !tree.Projective(g.Head) {
			nonProj++
		}
	}
	if len(f.golds) < 100 || nonProj < 10 {
		t.Fatalf("fixture: %d sentences, %d non-projective; want at least 100 and 10", len(f.golds), nonProj)
	}
	return f
}

// loadTrees reads a CoNLL-U file and numbers its deprels.
func loadTrees(t *testing.T, path string) fixture {
	t.Helper()
	sents, err := conllu.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	labels := map[string]int32{}
	var f fixture
	for _, s := range sents {
		head := []int32{transition.None}
		lab := []int32{transition.None}
		for _, w := range s.Words {
			l, ok := labels[w.Deprel]
			if !ok {
				l = int32(len(labels))
				labels[w.Deprel] = l
			}
			head = append(head, int32(w.Head))
			lab = append(lab, l)
		}
		f.sents = append(f.sents, s)
		f.golds = append(f.golds, transition.NewGold(head, lab))
	}
	return f
}

// readDoc returns the text of docs/name at the repository root.
func readDoc(t *testing.T, name string) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	b, err := os.ReadFile(filepath.Join(filepath.Dir(file), "..", "..", "docs", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func checkRegistry(t *testing.T, sys transition.System, name, systemsDoc, referenceDoc string) {
	if sys.Name() != name {
		t.Errorf("Lookup(%q).Name() = %q", name, sys.Name())
	}
	moves := sys.Moves()
	if len(moves) == 0 {
		t.Fatal("no moves")
	}
	seen := map[transition.Move]bool{}
	for _, m := range moves {
		if m >= transition.NumMoves || seen[m] {
			t.Errorf("move %v out of range or listed twice", m)
		}
		seen[m] = true
	}
	if !seen[transition.Shift] {
		t.Error("no SHIFT: the words could not enter the structures")
	}
	if !strings.Contains(systemsDoc, "| `"+name+"` |") {
		t.Errorf("docs/systems.md has no table row for `%s`", name)
	}
	if !regexp.MustCompile("(?m)^#+ .*`" + regexp.QuoteMeta(name) + "`").MatchString(referenceDoc) {
		t.Errorf("docs/transition-systems.md has no section heading naming `%s`", name)
	}
}

var (
	smallOnce  sync.Once
	smallTrees [][]int32 // every tree of 1..7 words with one word on node 0
)

func treesUpTo7() [][]int32 {
	smallOnce.Do(func() {
		for n := 1; n <= 7; n++ {
			tree.Each(n, true, func(head []int32) {
				smallTrees = append(smallTrees, append([]int32(nil), head...))
			})
		}
	})
	return smallTrees
}

// labelsOf gives the root word label 0 and every other word label 1 + d%3,
// so that a wrong label is visible.
func labelsOf(head []int32) []int32 {
	l := make([]int32, len(head))
	l[0] = transition.None
	for d := 1; d < len(head); d++ {
		if head[d] == 0 {
			l[d] = 0
		} else {
			l[d] = 1 + int32(d%3)
		}
	}
	return l
}

// roundTrip checks InClass(g) ⇔ Derive(g) succeeds, and the bound.
func roundTrip(sys transition.System, s *transition.State, g *transition.Gold) (in bool, msg string) {
	n := len(g.Head) - 1
	in = sys.InClass(g)
	seq, err := transition.Derive(sys, s, g)
	switch {
	case in && err != nil:
		return in, "in class but not derived: " + err.Error()
	case !in && err == nil:
		return in, "derived but not in class"
	case err == nil && len(seq) > sys.MaxTransitions(n):
		return in, "derivation longer than MaxTransitions"
	}
	return in, ""
}

func checkSmallTrees(t *testing.T, sys transition.System) {
	var s transition.State
	in := 0
	trees := treesUpTo7()
	for _, head := range trees {
		ok, msg := roundTrip(sys, &s, transition.NewGold(head, labelsOf(head)))
		if msg != "" {
			t.Fatalf("tree %v: %s", head[1:], msg)
		}
		if ok {
			in++
		}
	}
	if in == 0 {
		t.Fatal("no tree in class")
	}
	t.Logf("%d of %d trees of n ≤ 7 in class, each derived exactly", in, len(trees))
}

func checkFixture(t *testing.T, sys transition.System, f fixture) {
	var s transition.State
	in := 0
	for k, g := range f.golds {
		ok, msg := roundTrip(sys, &s, g)
		if msg != "" {
			t.Fatalf("fixture sentence %d: %s", k+1, msg)
		}
		if ok {
			in++
		}
	}
	t.Logf("%d of %d fixture trees in class, each derived exactly", in, len(f.golds))
}

// checkWalks runs random legal derivations on the fixture sentences and
// checks each step, the bound, and the feature addresses.
func checkWalks(t *testing.T, sys transition.System, f fixture) {
	name := sys.Name()
	tpls := feature.ForSystem(name, false)
	ext, err := feature.New(tpls)
	if err != nil {
		t.Fatal(err)
	}
	hasQ, hasG := false, false
	for _, tp := range tpls {
		for _, part := range strings.Split(tp, "+") {
			hasQ = hasQ || strings.HasPrefix(part, "q")
			hasG = hasG || strings.HasPrefix(part, "g")
		}
	}
	usesQ, usesG := false, false
	rng := rand.New(rand.NewSource(int64(len(name))))
	var s transition.State
	var words feature.Words
	var fsc feature.Scratch
	for k, sent := range f.sents {
		n := len(sent.Words)
		feature.FillWords(&words, sent.Words, false)
		sys.Init(&s, n)
		bound := sys.MaxTransitions(n)
		for !sys.Terminal(&s) {
			if s.Steps >= bound {
				t.Fatalf("sentence %d: no terminal state within MaxTransitions(%d) = %d", k+1, n, bound)
			}
			ext.Extract(&s, &words, &fsc)
			usesQ = usesQ || s.Q(0) != transition.None
			usesG = usesG || s.Reg[0] != transition.None || s.Reg[1] != transition.None
			var legal []transition.Move
			for _, m := range sys.Moves() {
				if sys.Legal(&s, m) {
					legal = append(legal, m)
				}
			}
			if len(legal) == 0 {
				break // a dead end; the parser repairs the arcs built so far
			}
			m := legal[rng.Intn(len(legal))]
			tr := transition.Transition{Move: m, Label: transition.None}
			var h, d int32 = transition.None, transition.None
			if m.Labeled() {
				tr.Label = rng.Int31n(5)
				h, d = sys.Arc(&s, m)
				if h < 0 || h > int32(n) || d <= 0 || d > int32(n) || h == d || s.Head[d] != transition.None || s.Connected(h, d) {
					t.Fatalf("sentence %d step %d: %v would add %d → %d (head of %d: %d)", k+1, s.Steps, m, h, d, max(d, 0), s.HeadOf(d))
				}
			}
			before := append([]int32(nil), s.Head...)
			transition.Step(sys, &s, tr)
			if s.Prev != m {
				t.Fatalf("sentence %d: Step did not record %v", k+1, m)
			}
			for x := 1; x <= n; x++ {
				switch {
				case before[x] != transition.None && s.Head[x] != before[x]:
					t.Fatalf("sentence %d step %d: %v changed the head of %d", k+1, s.Steps, m, x)
				case int32(x) == d && (s.Head[x] != h || s.Label[x] != tr.Label):
					t.Fatalf("sentence %d step %d: %v did not add %d → %d", k+1, s.Steps, tr, h, d)
				case int32(x) != d && before[x] == transition.None && s.Head[x] != transition.None && m.Labeled():
					t.Fatalf("sentence %d step %d: %v attached %d besides %d", k+1, s.Steps, m, x, d)
				}
			}
		}
		if s.Roots > 1 {
			t.Fatalf("sentence %d: %d words on node 0", k+1, s.Roots)
		}
		if err := acyclic(s.Head); err != "" {
			t.Fatalf("sentence %d: %s", k+1, err)
		}
	}
	if usesQ && !hasQ {
		t.Errorf("the system fills State.List2 or State.Stacks but feature.ForSystem(%q) has no q address", name)
	}
	if usesG && !hasG {
		t.Errorf("the system fills State.Reg but feature.ForSystem(%q) has no g address", name)
	}
}

// acyclic reports a cycle in a partial head array ("" if none).
func acyclic(head []int32) string {
	for d := range head {
		x, steps := int32(d), 0
		for x > 0 && head[x] != transition.None {
			x = head[x]
			if steps++; steps > len(head) {
				return "cycle through word " + string(rune('0'+d%10))
			}
		}
	}
	return ""
}

// checkDynamic runs random walks on in-class trees (a sample of the trees
// of n ≤ 7 and the fixture): a random prefix of legal transitions, then
// zero-cost transitions to the end. Every state has a zero-cost
// transition, costs are never negative, and they add up to the number of
// words whose head or label is wrong at the end. Arc-eager's end-of-sentence
// REDUCE may attach a headless word correctly by chance, so after one the
// sum is an upper bound. The static oracle's own derivation costs 0.
func checkDynamic(t *testing.T, sys transition.DynamicSystem, f fixture) {
	rng := rand.New(rand.NewSource(1))
	var golds []*transition.Gold
	for i, head := range treesUpTo7() {
		if i%7 == 0 {
			golds = append(golds, transition.NewGold(head, labelsOf(head)))
		}
	}
	golds = append(golds, f.golds...)
	if walks := dynamicWalks(t, sys, golds, 2, rng); walks < 1000 {
		t.Fatalf("only %d walks", walks)
	}
}

// dynamicWalks runs the walks of checkDynamic, per in-class tree of golds,
// and returns their number.
func dynamicWalks(t *testing.T, sys transition.DynamicSystem, golds []*transition.Gold, per int, rng *rand.Rand) int {
	t.Helper()
	var s transition.State
	walks := 0
	for k, g := range golds {
		if !sys.InClass(g) {
			continue
		}
		co := sys.CostOracle(g)
		if o, err := sys.Oracle(g); err != nil {
			t.Fatal(err)
		} else if _, ok := o.(transition.CostOracle); !ok {
			t.Fatal("Oracle does not return a CostOracle")
		}
		n := len(g.Head) - 1
		// The static oracle's transitions cost nothing.
		sys.Init(&s, n)
		for !sys.Terminal(&s) && s.Steps <= sys.MaxTransitions(n) {
			tr := co.Next(&s)
			if c := co.Cost(&s, tr); c != 0 {
				t.Fatalf("tree %d: static oracle transition %v costs %d", k, tr, c)
			}
			transition.Step(sys, &s, tr)
		}
		for walk := 0; walk < per; walk++ {
			sys.Init(&s, n)
			prefix := rng.Intn(2*n + 1)
			total, endReduce := 0, false
			for step := 0; !sys.Terminal(&s); step++ {
				var opts []transition.Transition
				for _, m := range sys.Moves() {
					if !sys.Legal(&s, m) {
						continue
					}
					if _, d := sys.Arc(&s, m); d > 0 && s.Head[d] == transition.None {
						opts = append(opts, transition.Transition{Move: m, Label: g.Label[d]},
							transition.Transition{Move: m, Label: rng.Int31n(5)})
					} else {
						opts = append(opts, transition.Transition{Move: m, Label: transition.None})
					}
				}
				var tr transition.Transition
				if step < prefix {
					tr = opts[rng.Intn(len(opts))]
				} else {
					found := false
					for _, o := range opts {
						if co.Cost(&s, o) == 0 {
							tr, found = o, true
							break
						}
					}
					if !found {
						t.Fatalf("tree %d step %d: no zero-cost transition (stack %v, buffer %v)", k, step, s.Stack, s.Buffer)
					}
				}
				c := co.Cost(&s, tr)
				if c < 0 {
					t.Fatalf("tree %d step %d: negative cost %d for %v", k, step, c, tr)
				}
				if _, d := sys.Arc(&s, tr.Move); !tr.Move.Labeled() && d > 0 && s.Head[d] == transition.None {
					endReduce = true
				}
				total += c
				transition.Step(sys, &s, tr)
			}
			loss := 0
			for d := 1; d <= n; d++ {
				if s.Head[d] != g.Head[d] || s.Label[d] != g.Label[d] {
					loss++
				}
			}
			if loss != total && !(endReduce && loss < total) {
				t.Fatalf("tree %d (n = %d, prefix %d): costs add up to %d, the final tree has %d wrong arcs", k, n, prefix, total, loss)
			}
			walks++
		}
	}
	t.Logf("%d random walks checked", walks)
	return walks
}

// The dynamic-oracle walks of TestConformance over the dev files of the full
// treebanks, or the EWT slice without them (sentences of up to 60 words, one walk each), non-projective
// trees included for the systems whose class has them.
func TestDynamicOraclesTreebanks(t *testing.T) {
	files := testenv.UDFilesOrFixture(t, "*-dev.conllu")
	for _, name := range transition.Names() {
		sys, _ := transition.Lookup(name)
		dyn, ok := sys.(transition.DynamicSystem)
		if !ok {
			continue
		}
		rng := rand.New(rand.NewSource(7))
		for _, file := range files {
			var golds []*transition.Gold
			for _, g := range loadTrees(t, file).golds {
				if len(g.Head) <= 61 {
					golds = append(golds, g)
				}
			}
			t.Logf("%s %s:", name, filepath.Base(file))
			dynamicWalks(t, dyn, golds, 1, rng)
		}
	}
}
