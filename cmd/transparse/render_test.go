package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const renderSample = "../../render/testdata/ewt-dev-sample.conllu"

func TestRenderFiles(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "trees")
	code, stdout, stderr := runCmd(t, "", "render", "-o", dir, renderSample)
	if code != 0 || stdout != "" || stderr != "" {
		t.Fatalf("exit status %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	names, err := filepath.Glob(filepath.Join(dir, "*.svg"))
	if err != nil {
		t.Fatal(err)
	}
	if len(names) != 5 || filepath.Base(names[0]) != "0001.svg" || filepath.Base(names[4]) != "0005.svg" {
		t.Fatalf("files %q, want 0001.svg ... 0005.svg", names)
	}
	b, err := os.ReadFile(names[1])
	if err != nil {
		t.Fatal(err)
	}
	// The second sentence's words and its multiword token's parts.
	wantContains(t, "0002.svg", string(b), "<svg ", ">Read</text>", ">there</text>", ">&#39;s</text>", ">expl</text>", "</svg>")
}

func TestRenderHTMLFromStdin(t *testing.T) {
	in, err := os.ReadFile(renderSample)
	if err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCmd(t, string(in), "render", "--html", "-")
	if code != 0 || stderr != "" {
		t.Fatalf("exit status %d, stderr %q", code, stderr)
	}
	if n := strings.Count(stdout, "<svg "); n != 5 {
		t.Errorf("%d pictures on the page, want 5", n)
	}
	wantContains(t, "page", stdout, "<!DOCTYPE html>", "answers-20070723111604AAzUvhb_ans-0008", "</html>")
}

func TestRenderErrors(t *testing.T) {
	for _, tc := range []struct {
		args  []string
		stdin string
		code  int
		want  string
	}{
		{[]string{"render"}, "", 2, "give one of -o DIR"},
		{[]string{"render", "-o", "x", "--html", "y"}, "", 2, "give one of -o DIR"},
		{[]string{"render", "--html", "-"}, "", 1, "no sentences"},
		{[]string{"render", "--html", "-"}, "1\ta\t_\t_\t_\t_\t2\tdep\t_\t_\n\n", 1, "<stdin>:1"},
		{[]string{"render", "--html", "-", "/nonexistent.conllu"}, "", 1, "/nonexistent.conllu"},
	} {
		code, _, stderr := runCmd(t, tc.stdin, tc.args...)
		if code != tc.code || !strings.Contains(stderr, tc.want) {
			t.Errorf("%q: exit status %d, stderr %q; want %d and %q", tc.args, code, stderr, tc.code, tc.want)
		}
	}
}
