package main

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/transparse/transparse/internal/testenv"
	"github.com/transparse/transparse/modelfmt"
	"github.com/transparse/transparse/parser/conllu"
	"github.com/transparse/transparse/parser/tree"
)

// TestParseAccurate: parse --accurate on the EWT dev fixture writes
// well-formed trees whose every arc is the beam's or the greedy parser's,
// different from both parsers' output; eval --accurate reports the mode
// and scores that parse; --kbest with it is a usage error.
func TestParseAccurate(t *testing.T) {
	model := bundledModel(t)
	dev := testenv.Fixture(t, "en_ewt-dev-40.conllu")
	acc := parseOut(t, "-m", model, "-t", "1", "--accurate", dev)
	beam := parseOut(t, "-m", model, "-t", "1", "--beam", "8", dev)
	greedy := parseOut(t, "-m", model, "-t", "1", "--beam", "1", dev)
	if acc == beam || acc == greedy {
		t.Fatalf("--accurate writes the same as the beam (%v) or the greedy parser (%v)", acc == beam, acc == greedy)
	}
	a, b, g := readSentences(t, acc), readSentences(t, beam), readSentences(t, greedy)
	if len(a) != 40 || len(b) != 40 || len(g) != 40 {
		t.Fatalf("%d, %d, %d sentences", len(a), len(b), len(g))
	}
	for k, s := range a {
		head := []int32{-1}
		for i, w := range s.Words {
			head = append(head, int32(w.Head))
			if w.Head != b[k].Words[i].Head && w.Head != g[k].Words[i].Head {
				t.Fatalf("sentence %d word %d: head %d, the beam's %d, the greedy parser's %d", k+1, i+1, w.Head, b[k].Words[i].Head, g[k].Words[i].Head)
			}
		}
		if err := tree.Check(head); err != nil {
			t.Fatalf("sentence %d: %v", k+1, err)
		}
	}
	for k, s := range readSentences(t, parseOut(t, "-m", model, "--accurate", "--confidence", dev)) {
		for i, w := range s.Words {
			if x := a[k].Words[i]; w.Head != x.Head || w.Deprel != x.Deprel || !strings.Contains(w.Misc, "Confidence=") {
				t.Fatalf("sentence %d word %d: with --confidence %d %s %s, without %d %s", k+1, i+1, w.Head, w.Deprel, w.Misc, x.Head, x.Deprel)
			}
		}
	}

	out := filepath.Join(t.TempDir(), "acc.conllu")
	code, stdout, stderr := runCmd(t, "", "eval", "-m", model, "--accurate", "--json", "-o", out, dev)
	var rep evalReport
	if code != 0 || json.Unmarshal([]byte(stdout), &rep) != nil || !rep.Accurate {
		t.Fatalf("eval --accurate: exit status %d, %q, stderr %q", code, stdout, stderr)
	}
	_, files, _ := runCmd(t, "", "eval", "--json", dev, out)
	var rep2 evalReport
	if json.Unmarshal([]byte(files), &rep2) != nil || rep2.Scores.LAS != rep.Scores.LAS {
		t.Errorf("eval --accurate scores %+v, its parse scores %+v", rep.Scores.LAS, rep2.Scores.LAS)
	}
	code, _, stderr = runCmd(t, "", "parse", "-m", model, "--accurate", "--kbest", "2", dev)
	if code != 2 || !strings.Contains(stderr, "with --accurate") {
		t.Errorf("--accurate --kbest 2: exit status %d, stderr %q", code, stderr)
	}
}

// TestAccurateNeedsBeamClassifiers: the bundled model without its
// classifiers trained for the beam is refused --accurate by parse and
// eval (exit status 2), and still parses greedily.
func TestAccurateNeedsBeamClassifiers(t *testing.T) {
	model := bundledModel(t)
	dev := testenv.Fixture(t, "en_ewt-dev-40.conllu")
	doc, err := modelfmt.ReadFile(model)
	if err != nil {
		t.Fatal(err)
	}
	n := len(doc.Classifiers)
	doc.Classifiers = slices.DeleteFunc(doc.Classifiers, func(c modelfmt.Classifier) bool { return strings.HasSuffix(c.Name, ".beam") })
	if len(doc.Classifiers) != n-2 {
		t.Fatalf("%d classifiers, %d without .beam: want a gold and a plain beam classifier", n, len(doc.Classifiers))
	}
	greedy := filepath.Join(t.TempDir(), "greedy.tpm")
	if err := modelfmt.WriteFile(greedy, doc); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"parse", "-m", greedy, "--accurate", dev},
		{"eval", "-m", greedy, "--accurate", dev},
	} {
		code, stdout, stderr := runCmd(t, "", args...)
		if code != 2 || stdout != "" || !strings.Contains(stderr, "invalid --accurate: the model has no classifiers trained for the beam") {
			t.Errorf("%q: exit status %d, stdout %d bytes, stderr %q", args, code, len(stdout), stderr)
		}
	}
	parseOut(t, "-m", greedy, dev)
}

// TestDamagedBeamClassifier: the bundled model with a damaged classifier
// trained for the beam loads and parses greedily; --beam and --accurate
// fail with an error naming the classifier, and nothing on standard
// output.
func TestDamagedBeamClassifier(t *testing.T) {
	model := bundledModel(t)
	dev := testenv.Fixture(t, "en_ewt-dev-40.conllu")
	doc, err := modelfmt.ReadFile(model)
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(doc.Classifiers, func(c modelfmt.Classifier) bool { return c.Name == "parser.plain.beam" })
	if i < 0 {
		t.Fatal("the bundled model has no parser.plain.beam")
	}
	w := doc.Classifiers[i].Blobs["weights"]
	doc.Classifiers[i].Blobs["weights"] = w[:len(w)/2]
	damaged := filepath.Join(t.TempDir(), "damaged.tpm")
	if err := modelfmt.WriteFile(damaged, doc); err != nil {
		t.Fatal(err)
	}
	if out := parseOut(t, "-m", damaged, "--no-tags", dev); len(readSentences(t, out)) != 40 {
		t.Error("the greedy parse of the damaged model lost sentences")
	}
	for _, args := range [][]string{
		{"parse", "-m", damaged, "--no-tags", "--beam", "8", dev},
		{"parse", "-m", damaged, "--no-tags", "--accurate", dev},
	} {
		code, stdout, stderr := runCmd(t, "", args...)
		if code == 0 || stdout != "" || !strings.Contains(stderr, `"parser.plain.beam"`) || !strings.Contains(stderr, "corrupt") {
			t.Errorf("%q: exit status %d, stdout %d bytes, stderr %q", args, code, len(stdout), stderr)
		}
	}
}

// readSentences reads CoNLL-U text.
func readSentences(t *testing.T, text string) []*conllu.Sentence {
	t.Helper()
	sents, err := conllu.ReadAll(strings.NewReader(text), "output")
	if err != nil {
		t.Fatal(err)
	}
	return sents
}
