package main

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/transparse/transparse/internal/testenv"
	"github.com/transparse/transparse/modelfmt"
	"github.com/transparse/transparse/parser/conllu"
)

// trainBeamModel trains a small model with beam classifiers of width 4 on
// the committed EWT fixtures and returns its path and the dev fixture.
func trainBeamModel(t *testing.T, dir string) (model, dev string) {
	t.Helper()
	train := absPath(t, testenv.Fixture(t, "en_ewt-train-150.conllu"))
	dev = absPath(t, testenv.Fixture(t, "en_ewt-dev-40.conllu"))
	model = filepath.Join(dir, "beam.tpm")
	code, _, stderr := runCmd(t, "", "train", "--train", train, "--dev", dev, "--epochs", "1", "--tagger-epochs", "1",
		"--options", writeFile(t, dir, "options.json", `{"jackknife_folds": 2, "beam": {"epochs": 2}}`), "--beam", "4", "--progress", "never", "-o", model)
	if code != 0 {
		t.Fatalf("train --beam 4: exit status %d, stderr:\n%s", code, stderr)
	}
	return model, dev
}

// parseOut runs parse with args and returns its output.
func parseOut(t *testing.T, args ...string) string {
	t.Helper()
	code, stdout, stderr := runCmd(t, "", append([]string{"parse"}, args...)...)
	if code != 0 {
		t.Fatalf("parse %q: exit status %d, stderr %q", args, code, stderr)
	}
	return stdout
}

// classifierSizes returns the number of stored weights of each classifier
// of a model file.
func classifierSizes(t *testing.T, path string) map[string]int64 {
	t.Helper()
	doc, err := modelfmt.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sizes := map[string]int64{}
	for _, c := range doc.Classifiers {
		sizes[c.Name] = c.Params["entries"]
	}
	return sizes
}

// TestBeamDefaultWidth: a model trained with --beam 4 has the default
// width 4 (inspect shows it; parse without --beam parses at width 4, not
// greedily; --kbest is bounded by it), and the same model without its
// beam classifiers has the default width 1 (parse without --beam is the
// greedy parser, and parse, eval and calibrate refuse a wider beam). prune rounds and prunes the beam classifiers as their
// parsers: a no-op rounding parses identically at K = 4, a real pruning
// drops beam weights and makes the file smaller.
func TestBeamDefaultWidth(t *testing.T) {
	if testing.Short() {
		t.Skip("trains a model")
	}
	dir := t.TempDir()
	model, dev := trainBeamModel(t, dir)

	// inspect.
	code, stdout, stderr := runCmd(t, "", "inspect", model)
	if code != 0 {
		t.Fatalf("inspect: exit status %d, stderr %q", code, stderr)
	}
	if !regexp.MustCompile(`(?m)^Default beam: +4$`).MatchString(stdout) {
		t.Errorf("inspect does not show the default beam 4:\n%s", stdout)
	}
	wantContains(t, "inspect", stdout, "default_beam = 4")
	_, stdout, _ = runCmd(t, "", "inspect", "--json", model)
	var rep inspectReport
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil || rep.DefaultBeam != 4 {
		t.Errorf("inspect --json: default_beam %d, err %v", rep.DefaultBeam, err)
	}

	// parse: the default is the width 4, for CoNLL-U (gold tags) and
	// tokens (plain tokens); --beam 1 is the greedy parser.
	for _, format := range []string{"conllu", "tokens"} {
		in := dev
		if format == "tokens" {
			in = writeFile(t, dir, "dev.txt", tokensOf(t, dev))
		}
		flags := []string{"-m", model, "--input", format, "--confidence", "--kbest", "2", in}
		def := parseOut(t, flags...)
		k4 := parseOut(t, append([]string{"--beam", "4"}, flags...)...)
		k1 := parseOut(t, "-m", model, "--input", format, "--beam", "1", "--confidence", "--kbest", "1", in)
		if k1 != parseOut(t, "-m", model, "--input", format, "--beam", "1", "--confidence", in) {
			t.Errorf("%s: --kbest 1 writes more than the best tree", format)
		}
		if def != k4 {
			t.Errorf("%s: parse without --beam differs from --beam 4", format)
		}
		if !strings.Contains(def, "# kbest_rank = 2\n") {
			t.Errorf("%s: no second tree at the default width", format)
		}
		if best(def) == k1 {
			t.Errorf("%s: parse without --beam is the greedy parse", format)
		}
	}
	// eval: without --beam, at the default width, as parse.
	_, evalDef, _ := runCmd(t, "", "eval", "-m", model, dev)
	_, eval4, _ := runCmd(t, "", "eval", "-m", model, "--beam", "4", dev)
	_, eval1, _ := runCmd(t, "", "eval", "-m", model, "--beam", "1", dev)
	las := func(report string) string { return regexp.MustCompile(`(?m)^LAS .*$`).FindString(report) }
	if !strings.Contains(evalDef, "Beam:        4\n") || las(evalDef) != las(eval4) || strings.Contains(eval1, "Beam:") {
		t.Errorf("eval without --beam is not eval --beam 4:\n%s\n%s\n%s", evalDef, eval4, eval1)
	}
	code, _, stderr = runCmd(t, "", "parse", "-m", model, "--kbest", "5", dev)
	if code != 2 || !strings.Contains(stderr, "invalid --kbest 5") || !strings.Contains(stderr, "default, 4") {
		t.Errorf("--kbest 5 at the default width 4: exit status %d, stderr %q", code, stderr)
	}

	// Without its beam classifiers, the same model (same card) has the
	// default width 1.
	doc, err := modelfmt.ReadFile(model)
	if err != nil {
		t.Fatal(err)
	}
	var kept []modelfmt.Classifier
	for _, c := range doc.Classifiers {
		if !strings.HasSuffix(c.Name, ".beam") {
			kept = append(kept, c)
		}
	}
	if len(kept) != len(doc.Classifiers)-2 {
		t.Fatalf("%d classifiers, %d without .beam: want a gold and a plain beam classifier", len(doc.Classifiers), len(kept))
	}
	doc.Classifiers = kept
	greedy := filepath.Join(dir, "greedy.tpm")
	if err := modelfmt.WriteFile(greedy, doc); err != nil {
		t.Fatal(err)
	}
	_, stdout, _ = runCmd(t, "", "inspect", greedy)
	if !regexp.MustCompile(`(?m)^Default beam: +1$`).MatchString(stdout) {
		t.Errorf("inspect of the model without beam classifiers:\n%s", stdout)
	}
	if a, b := parseOut(t, "-m", greedy, "--confidence", dev), parseOut(t, "-m", greedy, "--beam", "1", "--confidence", dev); a != b {
		t.Error("without beam classifiers, parse without --beam differs from --beam 1")
	}
	if a, b := parseOut(t, "-m", greedy, dev), parseOut(t, "-m", model, "--beam", "1", dev); a != b {
		t.Error("the greedy parse changes with the beam classifiers removed")
	}
	// Without them, a width above 1 is refused by every command that parses.
	for _, args := range [][]string{
		{"parse", "-m", greedy, "--beam", "4", dev},
		{"parse", "-m", greedy, "--no-tags", "--beam", "4", "--kbest", "2", dev},
		{"eval", "-m", greedy, "--beam", "4", dev},
		{"calibrate", "-m", greedy, "--beam", "4", dev, "-o", filepath.Join(dir, "calibrated.tpm")},
	} {
		code, stdout, stderr := runCmd(t, "", args...)
		if code != 2 || stdout != "" || !strings.Contains(stderr, "invalid --beam 4: the model has no classifiers trained for the beam") {
			t.Errorf("%q: exit status %d, stdout %d bytes, stderr %q", args, code, len(stdout), stderr)
		}
	}

	// prune: rounding to the bits the weights have is a no-op.
	same := filepath.Join(dir, "same.tpm")
	code, _, stderr = runCmd(t, "", "prune", "--weight-bits", "12", model, "-o", same)
	if code != 0 {
		t.Fatalf("prune --weight-bits 12: exit status %d, stderr:\n%s", code, stderr)
	}
	wantContains(t, "prune output", stderr, "parser.gold.beam: weights rounded to 12 bits", "parser.plain.beam: weights rounded to 12 bits")
	for _, format := range []string{"conllu", "tokens"} {
		in := dev
		if format == "tokens" {
			in = filepath.Join(dir, "dev.txt")
		}
		flags := []string{"--input", format, "--beam", "4", "--kbest", "3", "--confidence", in}
		if a, b := parseOut(t, append([]string{"-m", model}, flags...)...), parseOut(t, append([]string{"-m", same}, flags...)...); a != b {
			t.Errorf("%s: the model rounded to its own 12 bits parses differently at K = 4", format)
		}
	}
	// A real pruning drops beam weights too.
	small := filepath.Join(dir, "small.tpm")
	code, _, stderr = runCmd(t, "", "prune", "--gold-min-abs", "20", "--plain-min-abs", "20", "--weight-bits", "6",
		model, "-o", small)
	if code != 0 {
		t.Fatalf("prune: exit status %d, stderr:\n%s", code, stderr)
	}
	wantContains(t, "prune output", stderr, "parser.gold.beam min_abs 20:", "parser.plain.beam min_abs 20:",
		"parser.gold.beam: weights rounded to 6 bits")
	before, after := classifierSizes(t, model), classifierSizes(t, small)
	for _, name := range []string{"parser.gold.beam", "parser.plain.beam"} {
		if after[name] <= 0 || after[name] >= before[name] {
			t.Errorf("%s: %d weights after pruning, %d before", name, after[name], before[name])
		}
	}
	if a, b := fileSize(t, small), fileSize(t, model); a >= b {
		t.Errorf("pruned model is %d bytes, the model %d", a, b)
	}
	if out := parseOut(t, "-m", small, "--kbest", "2", dev); !strings.Contains(out, "# kbest_rank = 2\n") {
		t.Error("the pruned model does not parse with its default beam")
	}
}

// best returns parse output without the other trees of the k best: what
// parse --kbest 1 writes.
func best(conllu string) string {
	var b strings.Builder
	for _, sent := range strings.SplitAfter(conllu, "\n\n") {
		if !strings.Contains(sent, "# kbest_rank = ") {
			b.WriteString(sent)
		}
	}
	return b.String()
}

// tokensOf returns the word forms of a CoNLL-U file as pre-tokenized text,
// a sentence per line (a space in a form written "_").
func tokensOf(t *testing.T, path string) string {
	t.Helper()
	sents, err := conllu.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, s := range sents {
		for i, w := range s.Words {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(strings.ReplaceAll(w.Form, " ", "_"))
		}
		b.WriteByte('\n')
	}
	return b.String()
}
