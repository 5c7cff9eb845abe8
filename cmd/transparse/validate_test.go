package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/transparse/transparse/internal/testenv"
)

// What parse writes passes UD's official validator at level 2 (the UD
// format): the committed EWT slice (multiword tokens and empty nodes
// included) parsed with its tags, from plain tokens (--no-tags) and as
// pre-tokenized text, the first and the last also with a beam,
// confidences in MISC and the k best trees, and, when it is there, the EWT
// test set from plain tokens. Skipped when the validator is not installed
// (scripts/validate.sh --setup).
func TestParseOutputValidates(t *testing.T) {
	validator := testenv.UDTool(t, "udvalidate")
	model := bundledModel(t)
	files := []string{testenv.Fixture(t, "en_ewt-dev-slice.conllu")}
	if p := filepath.Join(testenv.UDDir(), "en_ewt-ud-test.conllu"); fileExists(p) {
		files = append(files, p)
	}
	dir := t.TempDir()
	for _, file := range files {
		tokens := tokensOf(t, file)
		for _, c := range []struct {
			name, stdin string
			args        []string
		}{
			{"tags", "", []string{file}},
			{"no-tags", "", []string{"--no-tags", file}},
			{"tokens", tokens, []string{"--input", "tokens"}},
			{"beam", "", []string{"--beam", "4", "--confidence", "--kbest", "3", file}},
			{"beam-tokens", tokens, []string{"--input", "tokens", "--beam", "8", "--confidence", "--kbest", "2"}},
		} {
			if file != files[0] && c.name != "no-tags" {
				continue
			}
			args := append([]string{"parse", "-m", model, "-t", "2"}, c.args...)
			code, stdout, stderr := runCmd(t, c.stdin, args...)
			if code != 0 {
				t.Fatalf("%v: exit %d, stderr %q", args, code, stderr)
			}
			out := filepath.Join(dir, filepath.Base(file)+"."+c.name)
			if err := os.WriteFile(out, []byte(stdout), 0o644); err != nil {
				t.Fatal(err)
			}
			res, err := exec.Command(validator, "--lang", "en", "--level", "2", out).CombinedOutput()
			if err != nil {
				t.Errorf("%s, %s: %v\n%.3000s", filepath.Base(file), c.name, err, res)
			}
		}
	}
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
