package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/transparse/transparse/internal/testenv"
)

// eval --beam K parses GOLD as parse --beam K does: the same trees, which
// on the committed EWT slice differ from the greedy ones, and the score of
// eval's -o output.
func TestEvalBeam(t *testing.T) {
	model := bundledModel(t)
	gold := testenv.Fixture(t, "en_ewt-dev-40.conllu")
	dir := t.TempDir()
	trees := func(what, conllu string) []string {
		var heads []string
		for _, s := range readCoNLLU(t, what, conllu) {
			for _, w := range s.Words {
				heads = append(heads, fmt.Sprint(w.Form, " ", w.Head, " ", w.Deprel))
			}
		}
		return heads
	}
	parseOut := func(beam string) []string {
		code, stdout, stderr := runCmd(t, "", "parse", "-m", model, "--beam", beam, gold)
		if code != 0 {
			t.Fatalf("parse --beam %s: exit status %d, stderr %q", beam, code, stderr)
		}
		return trees("parse --beam "+beam, stdout)
	}
	evalOut := func(beam string) (string, []string) {
		out := filepath.Join(dir, "pred"+beam+".conllu")
		code, stdout, stderr := runCmd(t, "", "eval", "-m", model, "--beam", beam, "-o", out, gold)
		if code != 0 {
			t.Fatalf("eval --beam %s: exit status %d, stderr %q", beam, code, stderr)
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		return stdout, trees("eval -o", string(b))
	}
	greedyReport, greedy := evalOut("1")
	beamReport, beam := evalOut("4")
	if strings.Contains(greedyReport, "Beam:") || !strings.Contains(beamReport, "Beam:        4\n") {
		t.Errorf("eval reports:\n%s\n%s", greedyReport, beamReport)
	}
	if want := parseOut("4"); strings.Join(beam, "\n") != strings.Join(want, "\n") {
		t.Errorf("eval --beam 4 parsed differently from parse --beam 4")
	}
	if strings.Join(beam, "\n") == strings.Join(greedy, "\n") {
		t.Errorf("eval --beam 4 gave the greedy trees on %s", gold)
	}
	code, stdout, _ := runCmd(t, "", "eval", gold, filepath.Join(dir, "pred4.conllu"))
	if code != 0 {
		t.Fatalf("eval of the --beam 4 output: exit status %d", code)
	}
	for _, l := range strings.Split(beamReport, "\n") {
		if strings.HasPrefix(l, "LAS ") {
			wantContains(t, "eval GOLD PRED", stdout, l+"\n")
		}
	}
	for _, args := range [][]string{
		{"eval", "-m", model, "--beam", "-1", gold},
		{"eval", "-m", model, "--beam", "65", gold},
		{"eval", "--beam", "2", gold, gold},
	} {
		if code, _, stderr := runCmd(t, "", args...); code != 2 {
			t.Errorf("%q: exit status %d, want 2 (stderr %q)", args, code, stderr)
		}
	}
}

// eval --confidence reports ten accuracies, one per tenth of the words by
// confidence, the most confident tenth far more often right than the
// least; JSON carries them too; with PRED given it is a usage error.
func TestEvalConfidence(t *testing.T) {
	model := bundledModel(t)
	gold := testenv.Fixture(t, "en_ewt-dev-slice.conllu")
	code, stdout, stderr := runCmd(t, "", "eval", "-m", model, "--confidence", "--json", gold)
	if code != 0 {
		t.Fatalf("exit status %d, stderr %q", code, stderr)
	}
	var r struct {
		Deciles []float64 `json:"confidence_deciles"`
	}
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Deciles) != 10 || r.Deciles[9] < r.Deciles[0]+30 {
		t.Fatalf("deciles %v", r.Deciles)
	}
	for _, a := range r.Deciles {
		if !(a >= 0 && a <= 100) {
			t.Fatalf("deciles %v", r.Deciles)
		}
	}
	code, stdout, _ = runCmd(t, "", "eval", "-m", model, "--confidence", gold)
	wantContains(t, "eval --confidence", stdout, "per tenth of the words by confidence")
	if code, _, _ := runCmd(t, "", "eval", "--confidence", gold, gold); code != 2 {
		t.Errorf("eval --confidence GOLD PRED: exit status %d, want 2", code)
	}
}
