package transition

import (
	"math/rand"
	"path/filepath"
	"testing"

	"github.com/transparse/transparse/internal/testenv"

	"github.com/transparse/transparse/parser/conllu"
	"github.com/transparse/transparse/parser/tree"
)

// udDir holds the shared Universal Dependencies treebanks (testenv.UDDir).
var udDir = testenv.UDDir()

type goldSent struct {
	g    *Gold
	proj bool
}

func loadGold(t *testing.T, file string) []goldSent {
	t.Helper()
	sents, err := conllu.ReadFile(filepath.Join(udDir, file))
	if err != nil {
		t.Fatal(err)
	}
	labels := map[string]int32{}
	var out []goldSent
	for _, s := range sents {
		n := len(s.Words)
		head := make([]int32, n+1)
		lab := make([]int32, n+1)
		head[0], lab[0] = None, None
		for i, w := range s.Words {
			head[i+1] = int32(w.Head)
			l, ok := labels[w.Deprel]
			if !ok {
				l = int32(len(labels))
				labels[w.Deprel] = l
			}
			lab[i+1] = l
		}
		out = append(out, goldSent{NewGold(head, lab), tree.Projective(head)})
	}
	return out
}

func treebankFiles(t *testing.T) []string {
	files := testenv.UDFiles(t, "*.conllu")
	for i := range files {
		files[i] = filepath.Base(files[i])
	}
	return files
}

// Every oracle rebuilds every tree of its class in every shared treebank
// exactly, and trees outside the class are recognised before it runs.
func TestOracleRoundTripTreebanks(t *testing.T) {
	for _, file := range treebankFiles(t) {
		sents := loadGold(t, file)
		for _, name := range []string{"arc-standard", "arc-eager", "arc-hybrid"} {
			sys, _ := Lookup(name)
			var s State
			in, out := 0, 0
			for k, gs := range sents {
				if sys.InClass(gs.g) != gs.proj {
					t.Fatalf("%s %s sentence %d: InClass = %v, projective = %v", file, name, k, !gs.proj, gs.proj)
				}
				if !gs.proj {
					out++
					continue
				}
				in++
				seq, err := Run(sys, &s, gs.g)
				if err != nil {
					t.Fatalf("%s %s sentence %d: %v", file, name, k, err)
				}
				n := len(gs.g.Head) - 1
				for d := 1; d <= n; d++ {
					if s.Head[d] != gs.g.Head[d] || s.Label[d] != gs.g.Label[d] {
						t.Fatalf("%s %s sentence %d word %d: got %d/%d want %d/%d", file, name, k, d, s.Head[d], s.Label[d], gs.g.Head[d], gs.g.Label[d])
					}
				}
				if name != "arc-eager" && len(seq) != 2*n {
					t.Fatalf("%s %s sentence %d: %d transitions, want exactly 2n = %d", file, name, k, len(seq), 2*n)
				}
				if len(seq) > 2*n {
					t.Fatalf("%s %s sentence %d: %d transitions > 2n", file, name, k, len(seq))
				}
			}
			t.Logf("%s %s: %d projective trees rebuilt, %d non-projective recognised", file, name, in, out)
		}
	}
}

// The dynamic oracles are exact: along any path of legal transitions, the
// costs add up to the number of gold arcs the final tree gets wrong
// (labeled), and from any reachable state the zero-cost transitions lead to
// a tree with no further loss. (Arc-eager's end-of-sentence REDUCE may
// attach a headless node correctly by chance, so there the costs are an
// upper bound.)
func TestDynamicOracleDecomposes(t *testing.T) {
	sents := loadGold(t, "en_ewt-ud-dev.conllu")
	rng := rand.New(rand.NewSource(1))
	for _, name := range []string{"arc-eager", "arc-hybrid"} {
		sys, _ := Lookup(name)
		dyn := sys.(DynamicOracle)
		nlab := int32(60)
		var s State
		checked := 0
		for k, gs := range sents {
			if !gs.proj || k%3 != 0 {
				continue
			}
			g := gs.g
			n := len(g.Head) - 1
			sys.Init(&s, n)
			total := 0
			endReduce := false // arc-eager's end-of-sentence REDUCE may repair lost arcs
			// random walk for a random prefix, then follow zero-cost moves
			prefix := rng.Intn(2*n + 1)
			for step := 0; !sys.Terminal(&s); step++ {
				var opts []Transition
				for _, m := range sys.Moves() {
					if !sys.Legal(&s, m) {
						continue
					}
					if m.Labeled() || (m == Reduce && s.Head[s.S(0)] == None) {
						_, d := sys.Arc(&s, m)
						opts = append(opts, Transition{m, g.Label[d]}, Transition{m, rng.Int31n(nlab)})
					} else {
						opts = append(opts, Transition{m, None})
					}
				}
				var tr Transition
				if step < prefix {
					tr = opts[rng.Intn(len(opts))]
				} else {
					found := false
					for _, o := range opts {
						if dyn.Cost(&s, o, g) == 0 {
							tr, found = o, true
							break
						}
					}
					if !found {
						t.Fatalf("%s sentence %d step %d: no zero-cost transition (stack %v buffer %v)", name, k, step, s.Stack, s.Buffer)
					}
				}
				if tr.Move == Reduce && s.Head[s.S(0)] == None {
					endReduce = true
				}
				total += dyn.Cost(&s, tr, g)
				sys.Apply(&s, tr)
			}
			loss := 0
			for d := 1; d <= n; d++ {
				if s.Head[d] != g.Head[d] || s.Label[d] != g.Label[d] {
					loss++
				}
			}
			if loss != total && !(endReduce && loss < total) {
				t.Fatalf("%s sentence %d: costs add up to %d, final tree has %d wrong arcs", name, k, total, loss)
			}
			if err := tree.Check(s.Head); err != nil {
				t.Fatalf("%s sentence %d: %v", name, k, err)
			}
			checked++
		}
		t.Logf("%s: %d random derivations checked", name, checked)
	}
}
