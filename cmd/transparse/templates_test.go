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
// and checks that each parser of the saved model uses exactly its file's
// templates, in order, and that the card says so.
func TestTrainTemplates(t *testing.T) {
	if testing.Short() {
		t.Skip("trains a model")
	}
	train := absPath(t, testenv.UDFile(t, "en_ewt-ud-train.conllu"))
	dir := t.TempDir()
	gold := []string{"s0.w+s0.p", "n0.w+n0.p", "s0.p+n0.p", "n0l.d", "s0.u+n0.u"}
	plain := []string{"s0.w", "n0.w", "s0.p+n0.p", "n0.a", "s0.ax+n0.ax", "s1.p+s0.p"}
	goldFile := writeFile(t, dir, "gold.txt", "# gold\n\n"+strings.Join(gold, "\n"))
	plainFile := writeFile(t, dir, "plain.txt", strings.Join(plain, "\n")+"\n# end\n")
	model := filepath.Join(dir, "m.tpm")
	code, _, stderr := runCmd(t, "", "train", "--train", train, "--dev", train, "--max-sentences", "100",
		"--epochs", "1", "--tagger-epochs", "1", "--folds", "2", "--progress", "never",
		"--gold-templates", goldFile, "--plain-templates", plainFile, "-o", model)
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
	}{{"parser.gold", gold}, {"parser.plain", plain}} {
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
	if g, p := doc.Card.Options["gold_templates"], doc.Card.Options["plain_templates"]; g != "5 given" || p != "6 given" {
		t.Errorf("card: gold_templates %q, plain_templates %q; want \"5 given\", \"6 given\"", g, p)
	}
	exerciseModel(t, model)
}

// TestTrainTemplatesBad: a template file with an invalid template, an
// empty one and a missing one fail before training, naming the file (and
// the line).
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
	code, _, stderr := runCmd(t, "", "train", "--train", gold, "--dev", gold, "--plain-templates",
		filepath.Join(dir, "none.txt"), "-o", filepath.Join(dir, "m.tpm"))
	if code != 1 {
		t.Errorf("missing file: exit status %d, want 1", code)
	}
	wantContains(t, "stderr", stderr, "none.txt")
}
