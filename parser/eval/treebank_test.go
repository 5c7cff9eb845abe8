package eval

import (
	"testing"

	"github.com/transparse/transparse/internal/testenv"
	"github.com/transparse/transparse/parser/conllu"
)

// TestTreebankAgainstItself scores the English EWT dev set against itself.
func TestTreebankAgainstItself(t *testing.T) {
	path := testenv.UDFile(t, "en_ewt-ud-dev.conllu")
	gold, err := conllu.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	pred, err := conllu.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(gold) < 1000 {
		t.Fatalf("read only %d sentences from %s", len(gold), path)
	}

	s, err := Score(gold, pred)
	if err != nil {
		t.Fatal(err)
	}
	if s.Sentences != len(gold) || s.Words < 20000 {
		t.Errorf("Sentences, Words = %d, %d", s.Sentences, s.Words)
	}
	for _, n := range MetricNames {
		if m, _ := s.Metric(n); m.F1() != 100 {
			t.Errorf("%s = %v, want 100", n, m.F1())
		}
	}
	if s.CLAS.Gold >= s.Words || s.CLAS.Gold < s.Words/3 {
		t.Errorf("CLAS counts %d content words of %d", s.CLAS.Gold, s.Words)
	}
	t.Logf("%d sentences, %d words, %d content words", s.Sentences, s.Words, s.CLAS.Gold)

	// Break one head: UAS loses exactly one word.
	w := &pred[0].Words[0]
	w.Head = (w.Head + 1) % (len(pred[0].Words) + 1)
	s, err = Score(gold, pred)
	if err != nil {
		t.Fatal(err)
	}
	if s.UAS.Correct != s.Words-1 {
		t.Errorf("UAS correct = %d, want %d", s.UAS.Correct, s.Words-1)
	}
}
