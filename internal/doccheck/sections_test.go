package doccheck

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// sectionRef is a reference to a section of the decisions log, as the
// code and the docs write them: the file name, a comma and the heading in
// double quotes, after comment markers and line breaks are folded to
// spaces.
var sectionRef = regexp.MustCompile(`(decisions(?:-archive)?\.md)[` + "`" + `)]?,?\s*(?:section\s*)?["“]([^"”]+)["”]`)

// commentBreak is a line break with the comment marker of the next line.
var commentBreak = regexp.MustCompile(`\n\s*(?://|#|\*|;)?\s*`)

// headings returns the headings of a Markdown file, without their #s.
func headings(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, path))
	if err != nil {
		t.Fatal(err)
	}
	var hs []string
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "#") {
			hs = append(hs, strings.TrimSpace(strings.TrimLeft(line, "#")))
		}
	}
	return hs
}

// TestDecisionSectionsExist checks that every section of docs/decisions.md
// or docs/decisions-archive.md that a tracked file names by its heading
// (or the start of it) exists.
func TestDecisionSectionsExist(t *testing.T) {
	out, err := exec.Command("git", "-C", root, "ls-files").Output()
	if err != nil {
		t.Skipf("git ls-files: %v (not a git checkout)", err)
	}
	heads := map[string][]string{
		"decisions.md":         headings(t, "docs/decisions.md"),
		"decisions-archive.md": headings(t, "docs/decisions-archive.md"),
	}
	for _, f := range strings.Fields(string(out)) {
		if strings.Contains(f, "testdata/") || strings.HasPrefix(f, "internal/doccheck/") || !textFile(f) {
			continue
		}
		data, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			t.Fatal(err)
		}
		text := commentBreak.ReplaceAllString(string(data), " ")
		for _, m := range sectionRef.FindAllStringSubmatch(text, -1) {
			name := strings.TrimSpace(m[2])
			found := false
			for _, h := range heads[m[1]] {
				if strings.HasPrefix(h, name) {
					found = true
					break
				}
			}
			if !found {
				t.Errorf("%s names the section %q of docs/%s, which has no such heading", f, name, m[1])
			}
		}
	}
}

// textFile reports whether a tracked file is source or prose that may
// name a section.
func textFile(name string) bool {
	switch filepath.Ext(name) {
	case ".go", ".md", ".c", ".h", ".hpp", ".cpp", ".py", ".sh", ".txt", ".toml", ".cmake", ".in":
		return true
	}
	return false
}
