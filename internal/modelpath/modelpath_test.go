package modelpath

import (
	"os"
	"path/filepath"
	"testing"
)

func touch(t *testing.T, path string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestFindOrder adds the candidates from the last to the first and checks
// that each new one wins over those already there.
func TestFindOrder(t *testing.T) {
	root := t.TempDir()
	lib := filepath.Join(root, "prefix", "lib")
	data := filepath.Join(root, "data")
	if err := os.MkdirAll(lib, 0o755); err != nil {
		t.Fatal(err)
	}
	old := DataDir
	DataDir = data
	t.Cleanup(func() { DataDir = old })

	if got := Find("", lib); got != "" {
		t.Fatalf("Find with no model = %q, want \"\"", got)
	}
	for _, want := range []string{
		filepath.Join(root, "prefix", "models", File),
		filepath.Join(data, "models", File),
		filepath.Join(root, "prefix", "share", "transparse", "models", File),
		filepath.Join(lib, "models", File),
	} {
		touch(t, want)
		if got := Find("", lib); got != want {
			t.Errorf("Find = %q, want %q", got, want)
		}
	}
	if got := Find("elsewhere.tpm", lib); got != "elsewhere.tpm" {
		t.Errorf("Find with env = %q, want the env value", got)
	}
	// A directory named like the model is not a model.
	if err := os.MkdirAll(filepath.Join(root, "other", "models", File), 0o755); err != nil {
		t.Fatal(err)
	}
	DataDir = ""
	if got := Find("", filepath.Join(root, "other", "bin")); got != "" {
		t.Errorf("Find found a directory: %q", got)
	}
}

func TestDirResolvesLinks(t *testing.T) {
	root := t.TempDir()
	target := touch(t, filepath.Join(root, "real", "libtransparse.so.0"))
	link := filepath.Join(root, "link.so")
	if err := os.Symlink(target, link); err != nil {
		t.Skip("no symlinks:", err)
	}
	want, _ := filepath.EvalSymlinks(filepath.Join(root, "real"))
	if got := Dir(link); got != want {
		t.Errorf("Dir(%q) = %q, want %q", link, got, want)
	}
}
