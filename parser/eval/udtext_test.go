package eval

import (
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/transparse/transparse/internal/testenv"
	"github.com/transparse/transparse/parser/conllu"
)

// TestUDTextKeepsTheText runs scripts/ud_text.py on every treebank file
// of the shared UD data and checks its text against the treebank: without
// whitespace it is the concatenation of the tokens' FORMs (so a parse of
// it can be scored against the treebank), it has one paragraph per "#
// newpar" or "# newdoc" (and one for the start), and its lines are at most
// 80 characters long unless they are one word.
func TestUDTextKeepsTheText(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3")
	}
	for _, path := range testenv.UDFiles(t, "*.conllu") {
		out, err := exec.Command(python, filepath.Join("..", "..", "scripts", "ud_text.py"), path).Output()
		if err != nil {
			t.Fatalf("ud_text.py %s: %v", path, err)
		}
		sents, err := conllu.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		tx, err := readText(sents, "gold", 1)
		if err != nil {
			t.Fatal(err)
		}
		want, got := noSpace(string(tx.chars)), noSpace(string(out))
		if got != want {
			i := 0
			for i < len(got) && i < len(want) && got[i] == want[i] {
				i++
			}
			t.Errorf("%s: the text differs from the tokens at byte %d: %.40q, tokens %.40q", filepath.Base(path), i, got[i:], want[i:])
		}
		paragraphs := 1
		for k, s := range sents {
			if k > 0 && slices.ContainsFunc(s.Comments, func(c string) bool {
				c = strings.TrimSpace(strings.TrimPrefix(c, "#"))
				return strings.HasPrefix(c, "newpar") || strings.HasPrefix(c, "newdoc")
			}) {
				paragraphs++
			}
		}
		text := strings.TrimRight(string(out), "\n")
		if n := strings.Count(text, "\n\n") + 1; n != paragraphs {
			t.Errorf("%s: %d paragraphs, the treebank has %d", filepath.Base(path), n, paragraphs)
		}
		for _, line := range strings.Split(text, "\n") {
			if utf8.RuneCountInString(line) > 80 && strings.Contains(line, " ") {
				t.Errorf("%s: line of %d characters: %q", filepath.Base(path), utf8.RuneCountInString(line), line)
				break
			}
		}
	}
}

func noSpace(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return r
	}, s)
}
