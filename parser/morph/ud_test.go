package morph

import (
	"testing"

	"github.com/transparse/transparse/internal/testenv"
	"github.com/transparse/transparse/parser/conllu"
)

func readUD(t testing.TB, name string) []*conllu.Sentence {
	t.Helper()
	s, err := conllu.ReadFile(testenv.UDFile(t, name))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestUDDev trains on each full training set and scores its development
// set from gold UPOS and XPOS.
func TestUDDev(t *testing.T) {
	if testing.Short() {
		t.Skip("trains on full treebanks")
	}
	for _, tb := range []string{"en_ewt", "tr_imst", "hu_szeged"} {
		t.Run(tb, func(t *testing.T) {
			train := readUD(t, tb+"-ud-train.conllu")
			dev := readUD(t, tb+"-ud-dev.conllu")
			l, f := trainBoth(t, train)
			s := evaluate(l, f, dev)
			t.Logf("%s dev: %v; %v; %v", tb, s, l, f)
		})
	}
}
