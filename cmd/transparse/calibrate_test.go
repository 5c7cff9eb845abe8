package main

import (
	"path/filepath"
	"testing"

	"github.com/transparse/transparse/internal/testenv"
	"github.com/transparse/transparse/modelfmt"
)

// calibrate writes a model whose parses are the input model's and whose
// confidences are fitted to the data given; bad arguments are usage
// errors, a missing treebank an error.
func TestCalibrate(t *testing.T) {
	model := bundledModel(t)
	dev := testenv.Fixture(t, "en_ewt-dev-40.conllu")
	out := filepath.Join(t.TempDir(), "cal.tpm")
	if code, _, stderr := runCmd(t, "", "calibrate", "-m", model, "--beam", "2", dev, "-o", out); code != 0 {
		t.Fatalf("exit status %d, stderr %q", code, stderr)
	}
	doc, err := modelfmt.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, c := range doc.Classifiers {
		names[c.Name] = true
	}
	for _, v := range []string{"parser.gold", "parser.plain"} {
		if !names[v+".confidence"] || !names[v+".beam.confidence"] {
			t.Fatalf("%s: calibrators missing", v)
		}
	}
	parse := func(model string) (string, string) {
		code, stdout, stderr := runCmd(t, "", "parse", "-m", model, dev)
		if code != 0 {
			t.Fatalf("parse: exit status %d, stderr %q", code, stderr)
		}
		_, conf, _ := runCmd(t, "", "parse", "-m", model, "--confidence", dev)
		return stdout, conf
	}
	trees, conf := parse(model)
	trees2, conf2 := parse(out)
	if trees != trees2 {
		t.Error("the calibrated model parses differently")
	}
	if conf == conf2 {
		t.Error("calibrating on other data left the confidences as they were")
	}
	for _, args := range [][]string{
		{"calibrate", "-m", model, dev},
		{"calibrate", "-m", model, "--beam", "65", dev, "-o", out},
		{"calibrate", "-m", model, "-o", out},
	} {
		if code, _, stderr := runCmd(t, "", args...); code != 2 {
			t.Errorf("%q: exit status %d, want 2 (stderr %q)", args, code, stderr)
		}
	}
	if code, _, _ := runCmd(t, "", "calibrate", "-m", model, filepath.Join(t.TempDir(), "none.conllu"), "-o", out); code != 1 {
		t.Errorf("missing treebank: exit status %d, want 1", code)
	}
}

// calibrate refuses data without gold heads, naming the sentence.
func TestCalibrateNeedsHeads(t *testing.T) {
	model := bundledModel(t)
	dir := t.TempDir()
	in := writeFile(t, dir, "bare.conllu", "# sent_id = bare-1\n1\tHello\t_\t_\t_\t_\t_\t_\t_\t_\n2\tworld\t_\t_\t_\t_\t_\t_\t_\t_\n\n")
	code, _, stderr := runCmd(t, "", "calibrate", "-m", model, in, "-o", filepath.Join(dir, "out.tpm"))
	if code != 1 {
		t.Fatalf("exit status %d, want 1 (stderr %q)", code, stderr)
	}
	wantContains(t, "calibrate", stderr, "sentence 1 (bare-1) has no annotation")
}
