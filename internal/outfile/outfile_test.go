package outfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestGuard(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.txt")
	other := filepath.Join(dir, "other.txt")
	for _, p := range []string{in, other} {
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	link, hard := filepath.Join(dir, "link"), filepath.Join(dir, "hard")
	if err := os.Symlink("in.txt", link); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(in, hard); err != nil {
		t.Fatal(err)
	}
	var g Guard
	g.Add("-", "", in, filepath.Join(dir, "missing"))
	for _, out := range []string{in, link, hard} {
		if err := g.Check(out); err == nil || !strings.Contains(err.Error(), "refusing to write over it") {
			t.Errorf("Check(%s) = %v; want a refusal", out, err)
		}
	}
	for _, out := range []string{other, filepath.Join(dir, "new"), "-", ""} {
		if err := g.Check(out); err != nil {
			t.Errorf("Check(%s) = %v", out, err)
		}
	}
	if err := g.CheckEntry(link); err != nil {
		t.Errorf("CheckEntry(link) = %v; a link is replaced, not followed", err)
	}
	if err := g.CheckEntry(hard); err == nil {
		t.Error("CheckEntry(hard link): no error")
	}
}

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target")
	link := filepath.Join(dir, "link")
	if err := os.WriteFile(target, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("target", link); err != nil {
		t.Fatal(err)
	}
	// A failed write leaves the old file and no temporary file.
	boom := errors.New("boom")
	if err := Write(link, func(w io.Writer) error { io.WriteString(w, "partial"); return boom }); err != boom {
		t.Fatalf("Write = %v, want boom", err)
	}
	if got, _ := os.ReadFile(target); string(got) != "old" {
		t.Errorf("after a failed write: %q", got)
	}
	// Write follows the link and keeps the permissions.
	if err := Write(link, func(w io.Writer) error { _, err := io.WriteString(w, "new"); return err }); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(target)
	if got, _ := os.ReadFile(target); string(got) != "new" || err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("after Write: %q, %v, %v", got, fi, err)
	}
	// Replace replaces the link itself.
	if err := Replace(link, func(w io.Writer) error { _, err := io.WriteString(w, "mine"); return err }); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(target); string(got) != "new" {
		t.Errorf("Replace wrote through the link: %q", got)
	}
	if fi, err := os.Lstat(link); err != nil || !fi.Mode().IsRegular() {
		t.Errorf("after Replace the link is %v, %v", fi, err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("%d files left, want 2 (no temporary files)", len(entries))
	}
	if err := Write(dir, func(io.Writer) error { return nil }); err == nil {
		t.Error("Write(directory): no error")
	}
	if err := CheckWritable(filepath.Join(dir, "no", "such")); err == nil {
		t.Error("CheckWritable in a missing directory: no error")
	}
	if err := CheckWritable(filepath.Join(dir, "new")); err != nil {
		t.Errorf("CheckWritable: %v", err)
	}
}

// A device or a pipe reached through /proc's links (/dev/stdout) is
// written in place.
func TestWriteDevice(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	path := "/proc/self/fd/" + strconv.Itoa(int(w.Fd()))
	if _, err := os.Stat(path); err != nil {
		w.Close()
		t.Skip(err)
	}
	if err := CheckWritable(path); err != nil {
		t.Errorf("CheckWritable: %v", err)
	}
	err = Write(path, func(w io.Writer) error { _, err := io.WriteString(w, "through the pipe"); return err })
	w.Close()
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := io.ReadAll(r); string(got) != "through the pipe" {
		t.Errorf("read %q", got)
	}
}
