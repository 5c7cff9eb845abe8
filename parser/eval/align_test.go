package eval

import (
	"fmt"
	"strings"
	"testing"

	"github.com/transparse/transparse/parser/conllu"
)

// tokens builds a sentence in the notation of the evaluation script's own
// alignment tests: each item is a token, "abc a b c" a multiword token
// "abc" of the words "a", "b" and "c". Word 1 is the root, the others
// depend on it.
func tokens(items ...string) *conllu.Sentence {
	s := &conllu.Sentence{}
	for _, it := range items {
		f := strings.Fields(it)
		forms := f
		if len(f) > 1 {
			a := len(s.Words) + 1
			s.Multiword = append(s.Multiword, conllu.RawLine{Before: a,
				Text: fmt.Sprintf("%d-%d\t%s\t_\t_\t_\t_\t_\t_\t_\t_", a, a+len(f)-2, f[0])})
			forms = f[1:]
		}
		for _, form := range forms {
			head := 1
			if len(s.Words) == 0 {
				head = 0
			}
			s.Words = append(s.Words, conllu.Word{ID: len(s.Words) + 1, Form: form, Lemma: "_", UPOS: "X",
				XPOS: "_", Feats: "_", Head: head, Deprel: "dep", Deps: "_", Misc: "_"})
		}
	}
	return s
}

// TestAlignLikeTheScorersTests runs the cases of the evaluation script's
// TestAlignment: how many words align between two tokenizations of a
// text.
func TestAlignLikeTheScorersTests(t *testing.T) {
	for _, c := range []struct {
		gold, pred []string
		aligned    int
	}{
		{[]string{"a"}, []string{"a"}, 1},
		{[]string{"a", "b", "c"}, []string{"a", "b", "c"}, 3},
		{[]string{"abc a b c"}, []string{"a", "b", "c"}, 3},
		{[]string{"a", "bc b c", "d"}, []string{"a", "b", "c", "d"}, 4},
		{[]string{"abcd a b c d"}, []string{"ab a b", "cd c d"}, 4},
		{[]string{"abc a b c", "de d e"}, []string{"a", "bcd b c d", "e"}, 5},
		{[]string{"abcd"}, []string{"a", "b", "c", "d"}, 0},
		{[]string{"abc", "d"}, []string{"a", "b", "c", "d"}, 1},
		{[]string{"a", "bc", "d"}, []string{"a", "b", "c", "d"}, 2},
		{[]string{"a", "bc b c", "d"}, []string{"a", "b", "cd"}, 2},
		{[]string{"abc a BX c", "def d EX f"}, []string{"ab a b", "cd c d", "ef e f"}, 4},
		{[]string{"ab a b", "cd bc d"}, []string{"a", "bc", "d"}, 2},
		{[]string{"a", "bc b c", "d"}, []string{"ab AX BX", "cd CX a"}, 1},
	} {
		g, p := tokens(c.gold...), tokens(c.pred...)
		s, err := Score([]*conllu.Sentence{g}, []*conllu.Sentence{p})
		if err != nil {
			t.Errorf("%q against %q: %v", c.pred, c.gold, err)
			continue
		}
		want := Metric{Gold: len(g.Words), System: len(p.Words), Correct: c.aligned}
		if s.AlignedWords != want {
			t.Errorf("%q against %q: Words %+v, want %+v", c.pred, c.gold, s.AlignedWords, want)
		}
		// Every word depends on word 1 with the same label: the aligned
		// words are right under LAS, unless word 1 itself is unaligned.
		if s.UPOS.Correct != c.aligned || s.LAS.Correct > c.aligned {
			t.Errorf("%q against %q: UPOS %+v, LAS %+v with %d words aligned", c.pred, c.gold, s.UPOS, s.LAS, c.aligned)
		}
	}
}

// TestScoreRefusesAnotherText checks the errors for texts that differ: the
// first character offset where they do, counting from 0 without
// whitespace, and each side's text and token there.
func TestScoreRefusesAnotherText(t *testing.T) {
	gold := []*conllu.Sentence{tokens("I", "can't can 't", "go"), tokens("Yes", ".")}
	for _, c := range []struct {
		name string
		pred []*conllu.Sentence
		want string
	}{
		{"ends early", []*conllu.Sentence{tokens("I", "can't can 't", "go")},
			`differ at character 8 (counting from 0): gold has "Yes." in sentence 2, token "Yes"; prediction ends there (after 8 characters)`},
		{"continues", append(gold[:2:2], tokens("More")),
			`differ at character 12 (counting from 0): gold ends there (after 12 characters); prediction has "More" in sentence 3, token "More"`},
		{"other letter in a multiword token", []*conllu.Sentence{tokens("I", "cant ca nt", "go"), gold[1]},
			`differ at character 4 (counting from 0): gold has "'tgoYes." in sentence 1, token "can't"; prediction has "tgoYes." in sentence 1, token "cant"`},
		{"empty", nil, `differ at character 0 (counting from 0): gold has "Ican'tgoYes." in sentence 1, token "I"; prediction ends there (after 0 characters)`},
	} {
		_, err := Score(gold, c.pred)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}

// TestScoreRefusesEmpty checks that a sentence without words and a FORM
// of spaces only are errors, as they are for the evaluation script.
func TestScoreRefusesEmpty(t *testing.T) {
	good := tokens("Hi", "there")
	space := tokens("Hi", "there", "x")
	space.Words[2].Form = "\u00a0"
	for _, c := range []struct {
		name string
		pred *conllu.Sentence
		want string
	}{
		{"no words", &conllu.Sentence{}, "sentence 2: prediction has no words"},
		{"space FORM", space, "sentence 2: prediction has an empty FORM (word 3)"},
	} {
		_, err := Score([]*conllu.Sentence{good, good}, []*conllu.Sentence{good, c.pred})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}

// TestScoreAcrossSentenceBoundaries scores a prediction that joins two
// gold sentences: the words still align, the heads that cross the old
// boundary are wrong, and no sentence is right.
func TestScoreAcrossSentenceBoundaries(t *testing.T) {
	gold := []*conllu.Sentence{tokens("Go", "now"), tokens("Stay", "here")}
	joined := tokens("Go", "now", "Stay", "here")
	s, err := Score(gold, []*conllu.Sentence{joined})
	if err != nil {
		t.Fatal(err)
	}
	wantMetric(t, "Sentences", s.SentenceSpans, Metric{Gold: 2, System: 1})
	wantMetric(t, "Words", s.AlignedWords, Metric{Gold: 4, System: 4, Correct: 4})
	// "Stay" is the root of gold sentence 2 but depends on "Go" in the
	// prediction, and "here" depends on "Go" rather than "Stay".
	wantMetric(t, "UAS", s.UAS, Metric{Gold: 4, System: 4, Correct: 2})
	wantMetric(t, "ExactUAS", s.ExactUAS, Metric{Gold: 2, System: 1})
}

// TestPythonLower checks the lowercasing of FORMs against what Python's
// str.lower returns (the evaluation script compares FORMs with it).
func TestPythonLower(t *testing.T) {
	for in, want := range map[string]string{
		"ΤΟΥΣ": "τους", "ΣΕ": "σε", "Σ": "σ", "ΑΣ.": "ας.", "ΑΣ'Β": "ασ'β",
		"İstanbul": "i\u0307stanbul", "AΣ\u0301": "aς\u0301", "ΌΣΟΣ-ΚΑΙ": "όσος-και", "Can't": "can't",
	} {
		if got := pythonLower(in); got != want {
			t.Errorf("pythonLower(%q) = %q, want %q", in, got, want)
		}
	}
}
