package segment

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/transparse/transparse/internal/testenv"
	"github.com/transparse/transparse/parser/conllu"
)

// TestUDTextMatchesScript checks that UDText makes the text that
// scripts/ud_text.py (the script the docs name for a treebank's raw text)
// makes, on the committed slice and on the shared treebanks' test files.
func TestUDTextMatchesScript(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3 to run scripts/ud_text.py")
	}
	script := filepath.Join("..", "..", "scripts", "ud_text.py")
	files := []string{filepath.Join("..", "..", "testdata", "ud", "en_ewt-dev-slice.conllu")}
	for _, name := range []string{"en_ewt", "tr_imst", "hu_szeged", "fr_sequoia"} {
		if path := filepath.Join(testenv.UDDir(), name+"-ud-test.conllu"); exists(path) {
			files = append(files, path)
		}
	}
	for _, path := range files {
		want, err := exec.Command(python, script, path).Output()
		if err != nil {
			t.Fatalf("%s %s: %v", script, path, err)
		}
		sents, err := conllu.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if got := UDText(sents); got != string(want) {
			t.Errorf("%s: UDText differs from scripts/ud_text.py (%d and %d bytes)", filepath.Base(path), len(got), len(want))
		}
	}
}

// exists reports whether a file is there.
func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
