package eval

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/transparse/transparse/internal/testenv"
	"github.com/transparse/transparse/parser/conllu"
)

// officialCounts runs the scorer with --counts on two files and returns,
// for each metric row of its table, the correct, gold and predicted counts.
func officialCounts(t *testing.T, scorer, gold, pred string) map[string][3]int {
	t.Helper()
	out, err := exec.Command(scorer, "--counts", gold, pred).CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", scorer, err, out)
	}
	rows := map[string][3]int{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.Split(sc.Text(), "|")
		if len(f) < 4 {
			continue
		}
		var c [3]int
		ok := true
		for i := range c {
			n, err := strconv.Atoi(strings.TrimSpace(f[i+1]))
			c[i], ok = n, ok && err == nil
		}
		if ok {
			rows[strings.TrimSpace(f[0])] = c
		}
	}
	if len(rows) == 0 {
		t.Fatalf("no counts in the scorer's output:\n%s", out)
	}
	return rows
}

// perturb returns a copy of the sentences with errors in every column
// that the metrics read, word by word in a fixed pattern: heads moved to
// the root word (which keeps a tree with one root), deprels replaced or
// given another subtype (which LAS ignores and FullLAS does not), UPOS,
// XPOS, LEMMA replaced, FEATS with a universal feature dropped or a
// non-universal one added.
func perturb(sents []*conllu.Sentence) []*conllu.Sentence {
	out := make([]*conllu.Sentence, len(sents))
	k := 0
	for si, s := range sents {
		c := *s
		c.Words = append([]conllu.Word(nil), s.Words...)
		root := 0
		for i, w := range c.Words {
			if w.Head == 0 {
				root = i + 1
			}
		}
		for i := range c.Words {
			w := &c.Words[i]
			k++
			if k%7 == 0 && w.Head != 0 && i+1 != root {
				w.Head = root
			}
			switch k % 10 {
			case 0:
				w.Deprel = UniversalDeprel(w.Deprel) + ":other"
			case 5:
				w.Deprel = "dep"
			}
			if k%3 == 0 {
				w.UPOS = "X"
			}
			if k%4 == 0 {
				w.XPOS = "XX"
			}
			if k%8 == 0 {
				w.Lemma += "s"
			}
			switch k % 6 {
			case 1:
				if i := strings.LastIndexByte(w.Feats, '|'); i > 0 {
					w.Feats = w.Feats[:i]
				} else {
					w.Feats = "_"
				}
			case 4:
				if w.Feats == "_" {
					w.Feats = "Typo=Yes"
				} else {
					w.Feats += "|Typo=Yes"
				}
			}
		}
		out[si] = &c
	}
	return out
}

// TestScoresEqualOfficialScorer scores two pairs of files with Score and
// with the official scorer, and compares the counts of every metric both
// have: the hand-counted golden pair of TestScoreMorphologyGolden, and the
// committed EWT dev slice against a copy with errors in every column
// (perturb), whose multiword tokens and empty nodes the scorer reads too.
//
// The scorer is udeval of UD's tools (the PyPI package udtools, which
// scripts/validate.sh installs): conll18_ud_eval.py with the enhanced-graph
// metrics of IWPT 2020 added. The test is skipped when it is not installed.
func TestScoresEqualOfficialScorer(t *testing.T) {
	scorer := testenv.UDTool(t, "udeval")
	dir := t.TempDir()
	slice := testenv.Fixture(t, "en_ewt-dev-slice.conllu")
	gold, err := conllu.ReadFile(slice)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	for _, s := range perturb(gold) {
		if err := conllu.Write(&buf, s); err != nil {
			t.Fatal(err)
		}
	}
	errs := filepath.Join(dir, "errors.conllu")
	if err := os.WriteFile(errs, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ gold, pred string }{
		{"testdata/gold.conllu", "testdata/pred.conllu"},
		{slice, errs},
	} {
		g, err := conllu.ReadFile(c.gold)
		if err != nil {
			t.Fatal(err)
		}
		p, err := conllu.ReadFile(c.pred)
		if err != nil {
			t.Fatal(err)
		}
		s, err := Score(g, p)
		if err != nil {
			t.Fatal(err)
		}
		official := officialCounts(t, scorer, c.gold, c.pred)
		if w := official["Words"]; w != [3]int{s.Words, s.Words, s.Words} {
			t.Errorf("%s: Words %v, Score has %d", c.pred, w, s.Words)
		}
		for _, name := range []string{"UPOS", "XPOS", "UFeats", "AllTags", "Lemmas", "UAS", "LAS", "CLAS", "MLAS", "BLEX"} {
			m, _ := s.Metric(name)
			got, ok := official[name]
			if want := [3]int{m.Correct, m.Gold, m.System}; !ok || got != want {
				t.Errorf("%s: %s correct, gold, predicted: the official scorer %v, Score %v", c.pred, name, got, want)
			}
		}
		if m := s.LAS; c.pred == errs && (m.Correct == m.Gold || s.FullLAS.Correct >= m.Correct || s.UFeats.Correct == m.Gold) {
			t.Errorf("the errors do not show: LAS %+v, FullLAS %+v, UFeats %+v", m, s.FullLAS, s.UFeats)
		}
	}
}
