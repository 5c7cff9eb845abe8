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

// officialRows are the rows of the official scorer's table that Scores
// has too.
var officialRows = []string{"Tokens", "Sentences", "Words", "UPOS", "XPOS", "UFeats", "AllTags", "Lemmas", "UAS", "LAS", "CLAS", "MLAS", "BLEX"}

// writeSentences writes sents to a CoNLL-U file in dir and returns its path.
func writeSentences(t *testing.T, dir, name string, sents []*conllu.Sentence) string {
	t.Helper()
	var buf bytes.Buffer
	if err := conllu.WriteAll(&buf, sents); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// scoreLikeOfficial scores the files with Score and with the official
// scorer, requires the same counts for every row of the scorer's table,
// and returns the scores.
func scoreLikeOfficial(t *testing.T, scorer, gold, pred string) Scores {
	t.Helper()
	g, err := conllu.ReadFile(gold)
	if err != nil {
		t.Fatal(err)
	}
	p, err := conllu.ReadFile(pred)
	if err != nil {
		t.Fatal(err)
	}
	s, err := Score(g, p)
	if err != nil {
		t.Fatal(err)
	}
	official := officialCounts(t, scorer, gold, pred)
	for _, name := range officialRows {
		m, _ := s.Metric(name)
		got, ok := official[name]
		if want := [3]int{m.Correct, m.Gold, m.System}; !ok || got != want {
			t.Errorf("%s: %s correct, gold, predicted: the official scorer %v, Score %v", filepath.Base(pred), name, got, want)
		}
	}
	return s
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
	slice := testenv.Fixture(t, "en_ewt-dev-slice.conllu")
	gold, err := conllu.ReadFile(slice)
	if err != nil {
		t.Fatal(err)
	}
	errs := writeSentences(t, t.TempDir(), "errors.conllu", perturb(gold))
	scoreLikeOfficial(t, scorer, "testdata/gold.conllu", "testdata/pred.conllu")
	s := scoreLikeOfficial(t, scorer, slice, errs)
	if m := s.LAS; m.Correct == m.Gold || s.FullLAS.Correct >= m.Correct || s.UFeats.Correct == m.Gold {
		t.Errorf("the errors do not show: LAS %+v, FullLAS %+v, UFeats %+v", m, s.FullLAS, s.UFeats)
	}
	if s.AlignedWords.Correct != s.Words || s.Tokens.Correct != s.Tokens.Gold || s.SentenceSpans.Correct != s.Sentences {
		t.Errorf("gold tokenization is not all aligned: Tokens %+v, Sentences %+v, Words %+v", s.Tokens, s.SentenceSpans, s.AlignedWords)
	}
}

// TestRetokenizedEqualOfficialScorer scores treebanks against a copy with
// another tokenization and sentence segmentation of the same text
// (retokenize) and errors in every column (perturb), with Score and with
// the official scorer, and requires the same counts for every metric: the
// committed EWT dev slice, and the EWT and French Sequoia dev sets when the
// UD data is present (Sequoia has multiword tokens whose words do not spell
// the token, "du" = "de le", which only the LCS alignment pairs).
func TestRetokenizedEqualOfficialScorer(t *testing.T) {
	scorer := testenv.UDTool(t, "udeval")
	files := []string{testenv.Fixture(t, "en_ewt-dev-slice.conllu")}
	for _, name := range []string{"en_ewt-ud-dev.conllu", "fr_sequoia-ud-dev.conllu"} {
		if p := filepath.Join(testenv.UDDir(), name); fileExists(p) {
			files = append(files, p)
		}
	}
	dir := t.TempDir()
	for _, gold := range files {
		sents, err := conllu.ReadFile(gold)
		if err != nil {
			t.Fatal(err)
		}
		base := strings.TrimSuffix(filepath.Base(gold), ".conllu")
		retok := writeSentences(t, dir, base+"-retokenized.conllu", retokenize(sents))
		s := scoreLikeOfficial(t, scorer, gold, retok)
		for _, m := range []Metric{s.Tokens, s.SentenceSpans, s.AlignedWords} {
			if m.Correct == m.Gold || m.Correct == m.System || m.Correct < m.Gold/2 {
				t.Errorf("%s: the retokenization does not show, or changes too much: Tokens %+v, Sentences %+v, Words %+v",
					base, s.Tokens, s.SentenceSpans, s.AlignedWords)
				break
			}
		}
		errs := writeSentences(t, dir, base+"-retokenized-errors.conllu", perturb(retokenize(sents)))
		s = scoreLikeOfficial(t, scorer, gold, errs)
		t.Logf("%s: Tokens %.2f Sentences %.2f Words %.2f UPOS %.2f LAS %.2f MLAS %.2f BLEX %.2f (F1)", base,
			s.Tokens.F1(), s.SentenceSpans.F1(), s.AlignedWords.F1(), s.UPOS.F1(), s.LAS.F1(), s.MLAS.F1(), s.BLEX.F1())
	}
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// TestTextMismatchLikeOfficial makes predictions whose text differs from
// the EWT dev slice (one that ends a sentence early, one with a letter
// changed) and requires Score and the official scorer both to refuse them,
// quoting the same first differing characters of each side.
func TestTextMismatchLikeOfficial(t *testing.T) {
	scorer := testenv.UDTool(t, "udeval")
	slice := testenv.Fixture(t, "en_ewt-dev-slice.conllu")
	gold, err := conllu.ReadFile(slice)
	if err != nil {
		t.Fatal(err)
	}
	changed, _ := conllu.ReadFile(slice)
	w := &changed[40].Words[2]
	w.Form = "Q" + w.Form[1:]
	dir := t.TempDir()
	for _, pred := range []string{
		writeSentences(t, dir, "short.conllu", gold[:len(gold)-1]),
		writeSentences(t, dir, "changed.conllu", changed),
	} {
		p, err := conllu.ReadFile(pred)
		if err != nil {
			t.Fatal(err)
		}
		_, err = Score(gold, p)
		if err == nil {
			t.Fatalf("%s: no error", pred)
		}
		out, oerr := exec.Command(scorer, slice, pred).CombinedOutput()
		if oerr == nil {
			t.Fatalf("the official scorer accepts %s:\n%s", pred, out)
		}
		// The scorer: "First 20 differing characters in gold file: 'X'
		// and system file: 'Y'"; Score: `gold has "X" ...; prediction has
		// "Y"` or "prediction ends there".
		_, after, _ := strings.Cut(string(out), "First 20 differing characters in gold file: '")
		g, rest, _ := strings.Cut(after, "' and system file: '")
		sys, _, _ := strings.Cut(rest, "'")
		if !strings.Contains(err.Error(), "gold has "+conllu.Quote(g)) {
			t.Errorf("%s: Score says %q, the official scorer quotes gold %q", filepath.Base(pred), err, g)
		}
		if want := "prediction has " + conllu.Quote(sys); sys != "" && !strings.Contains(err.Error(), want) {
			t.Errorf("%s: Score says %q, the official scorer quotes the system file %q", filepath.Base(pred), err, sys)
		}
		t.Logf("%s: %v", filepath.Base(pred), err)
	}
}
