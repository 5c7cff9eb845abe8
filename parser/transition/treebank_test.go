package transition

import (
	"testing"

	"github.com/transparse/transparse/internal/testenv"

	"github.com/transparse/transparse/parser/conllu"
	"github.com/transparse/transparse/parser/tree"
)

type goldSent struct {
	g    *Gold
	proj bool
}

// loadFixture reads the committed EWT slice (testdata/ud at the repository
// root), present in every clone.
func loadFixture(t *testing.T) []goldSent {
	t.Helper()
	return loadGold(t, testenv.Fixture(t, "en_ewt-dev-slice.conllu"))
}

// loadGold reads the gold trees of a CoNLL-U file, numbering its deprels.
func loadGold(t *testing.T, path string) []goldSent {
	t.Helper()
	sents, err := conllu.ReadFile(path)
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

// treebankFiles returns the paths of the full treebank files, or the
// committed EWT slice when they are absent (testenv.UDFilesOrFixture).
func treebankFiles(t *testing.T) []string { return testenv.UDFilesOrFixture(t, "*.conllu") }

// Every oracle rebuilds every tree of its class in every full treebank
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
