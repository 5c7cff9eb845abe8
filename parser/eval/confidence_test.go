package eval

import (
	"slices"
	"testing"

	"github.com/transparse/transparse/parser/conllu"
)

// TestConfidenceBins: words are binned by confidence, lowest first, and a
// bin's accuracy counts the head and the universal deprel only.
func TestConfidenceBins(t *testing.T) {
	w := func(head int, deprel string) conllu.Word { return conllu.Word{Head: head, Deprel: deprel} }
	gold := []*conllu.Sentence{{Words: []conllu.Word{w(2, "nsubj"), w(0, "root"), w(2, "obj"), w(2, "punct")}}}
	pred := []*conllu.Sentence{{Words: []conllu.Word{w(2, "nsubj:pass"), w(0, "root"), w(1, "obj"), w(2, "obj")}}}
	conf := [][]float64{{0.9, 0.8, 0.1, 0.2}}
	got, err := ConfidenceBins(gold, pred, conf, 2)
	if err != nil {
		t.Fatal(err)
	}
	// Lowest half: words 3 (wrong head) and 4 (wrong deprel); highest:
	// words 2 and 1 (a subtype differs: right).
	if want := []float64{0, 100}; !slices.Equal(got, want) {
		t.Fatalf("%v, want %v", got, want)
	}
	if _, err := ConfidenceBins(gold, pred, [][]float64{{1}}, 2); err == nil {
		t.Fatal("no error for missing confidences")
	}
	if _, err := ConfidenceBins(gold, pred, conf, 5); err == nil {
		t.Fatal("no error for more bins than words")
	}
}
