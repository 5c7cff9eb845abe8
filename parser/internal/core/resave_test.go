package core

import (
	"bytes"
	"github.com/transparse/transparse/modelfmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/transparse/transparse/internal/testenv"
)

// Saving the loaded bundled model gives back its file byte for byte: the
// model file format and its encoding are stable across load and save.
func TestResaveBundledModel(t *testing.T) {
	m := testModel(t)
	want, err := os.ReadFile(testenv.ModelPath())
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "resaved.tpm")
	if err := modelfmt.WriteFile(out, m.Document()); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("saved %d bytes that differ from the %d of %s", len(got), len(want), testenv.ModelPath())
	}
}
