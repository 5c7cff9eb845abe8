package main

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/transparse/transparse/internal/testenv"
	"github.com/transparse/transparse/modelfmt"
)

// TestTrainTemplates trains a small model with template files of its own
// (and a fast classifier for the gold-tag parser) and checks that each
// parser of the saved model uses exactly its file's templates, in order,
// and that the card says so.
func TestTrainTemplates(t *testing.T) {
	if testing.Short() {
		t.Skip("trains a model")
	}
	train := absPath(t, testenv.Fixture(t, "en_ewt-train-150.conllu"))
	dev := absPath(t, testenv.Fixture(t, "en_ewt-dev-40.conllu"))
	dir := t.TempDir()
	gold := []string{"s0.w+s0.p", "n0.w+n0.p", "s0.p+n0.p", "n0l.d", "s0.u+n0.u"}
	plain := []string{"s0.w", "n0.w", "s0.p+n0.p", "n0.a", "s0.ax+n0.ax", "s1.p+s0.p"}
	goldFile := writeFile(t, dir, "gold.txt", "# gold\n\n"+strings.Join(gold, "\n"))
	plainFile := writeFile(t, dir, "plain.txt", strings.Join(plain, "\n")+"\n# end\n")
	fast := []string{"s0.p+n0.p", "n0l.d"}
	fastFile := writeFile(t, dir, "fast.txt", strings.Join(fast, "\n"))
	model := filepath.Join(dir, "m.tpm")
	code, _, stderr := runCmd(t, "", "train", "--train", train, "--dev", dev, "--max-sentences", "100",
		"--epochs", "1", "--tagger-epochs", "1", "--progress", "never",
		"--options", writeFile(t, dir, "options.json", `{"jackknife_folds": 2, "gold": {"fast_max_loss": 100}}`),
		"--gold-templates", goldFile, "--plain-templates", plainFile, "--gold-fast-templates", fastFile, "-o", model)
	if code != 0 {
		t.Fatalf("train: exit status %d, stderr:\n%s", code, stderr)
	}
	doc, err := modelfmt.ReadFile(model)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []struct {
		name      string
		templates []string
	}{{"parser.gold", gold}, {"parser.plain", plain}, {"parser.gold.fast", fast}} {
		var got []string
		for _, c := range doc.Classifiers {
			if c.Name == want.name {
				got = c.Templates
			}
		}
		if !slices.Equal(got, want.templates) {
			t.Errorf("%s templates = %q, want %q", want.name, got, want.templates)
		}
	}
	if g, p := doc.Card.Options["gold.templates"], doc.Card.Options["plain.templates"]; g != "5 given" || p != "6 given" {
		t.Errorf("card: gold.templates %q, plain.templates %q; want \"5 given\", \"6 given\"", g, p)
	}
	// Allowed to lose 100 points, the fast classifier stays at the
	// smallest margin.
	if f, p := doc.Card.Options["gold.fast"], doc.Card.Options["plain.fast"]; f != "2 templates, margin 5" || p != "none" {
		t.Errorf("card: gold.fast %q, plain.fast %q", f, p)
	}
	exerciseModel(t, model)
	// prune treats the fast classifier as its parser.
	pruned := filepath.Join(dir, "pruned.tpm")
	code, _, stderr = runCmd(t, "", "prune", "--weight-bits", "6", "--gold-min-abs", "2", model, "-o", pruned)
	if code != 0 {
		t.Fatalf("prune: exit status %d, stderr:\n%s", code, stderr)
	}
	wantContains(t, "prune output", stderr, "parser.gold.fast min_abs 2:", "parser.gold.fast: weights rounded to 6 bits")
	exerciseModel(t, pruned)
}

// TestTrainTemplatesBad: a template file with an invalid template (also
// as fast templates), an empty one and a missing one fail before
// training, naming the file (and the line).
func TestTrainTemplatesBad(t *testing.T) {
	dir := t.TempDir()
	gold := writeFile(t, dir, "gold.conllu", goldCoNLLU)
	for _, c := range []struct{ content, want string }{
		{"s0.w\n\ns0.zz\n", "bad.txt:3"},
		{"# nothing\n\n", "bad.txt: no templates"},
	} {
		bad := writeFile(t, dir, "bad.txt", c.content)
		code, _, stderr := runCmd(t, "", "train", "--train", gold, "--dev", gold, "--gold-templates", bad,
			"-o", filepath.Join(dir, "m.tpm"))
		if code != 1 {
			t.Errorf("%q: exit status %d, want 1", c.content, code)
		}
		wantContains(t, "stderr", stderr, c.want)
	}
	bad := writeFile(t, dir, "bad.txt", "n0.w\nn0.nope\n")
	code, _, stderr := runCmd(t, "", "train", "--train", gold, "--dev", gold, "--gold-fast-templates", bad,
		"-o", filepath.Join(dir, "m.tpm"))
	if code != 1 {
		t.Errorf("bad fast templates: exit status %d, want 1", code)
	}
	wantContains(t, "stderr", stderr, "bad.txt:2")
	code, _, stderr = runCmd(t, "", "train", "--train", gold, "--dev", gold, "--plain-templates",
		filepath.Join(dir, "none.txt"), "-o", filepath.Join(dir, "m.tpm"))
	if code != 1 {
		t.Errorf("missing file: exit status %d, want 1", code)
	}
	wantContains(t, "stderr", stderr, "none.txt")
}
