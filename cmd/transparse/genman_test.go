package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestGenMan(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("SOURCE_DATE_EPOCH", "0")
	code, _, stderr := runCmd(t, "", "gen-man", dir)
	if code != 0 {
		t.Fatalf("gen-man: exit status %d: %s", code, stderr)
	}
	root := newRootCmd()
	for _, c := range root.Commands() {
		name := "transparse-" + c.Name() + ".1"
		b, err := os.ReadFile(filepath.Join(dir, name))
		if c.Hidden || c.Name() == "help" {
			if err == nil {
				t.Errorf("%s written for a hidden command", name)
			}
			continue
		}
		if err != nil {
			t.Errorf("no page for %q: %v", c.Name(), err)
			continue
		}
		page := string(b)
		wantContains(t, name, page, `.TH "TRANSPARSE" "1" "Jan 1970"`, "transparse-"+c.Name(),
			c.Short, `.SH SEE ALSO`, `\fBtransparse(1)\fP`)
	}
	b, err := os.ReadFile(filepath.Join(dir, "transparse.1"))
	if err != nil {
		t.Fatal(err)
	}
	wantContains(t, "transparse.1", string(b), `\fBtransparse-parse(1)\fP`, `"transparse: <message>"`)
	if _, out, _ := runCmd(t, "", "--help"); strings.Contains(out, "gen-man") {
		t.Errorf("--help lists the hidden gen-man:\n%s", out)
	}
}
