package conllu

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/transparse/transparse/internal/testenv"
)

// udDir holds the shared Universal Dependencies treebanks (testenv.UDDir).
var udDir = testenv.UDDir()

func udFiles(t testing.TB) []string {
	t.Helper()
	return testenv.UDFiles(t, "*.conllu")
}

// TestRoundTripUD reads and writes back every shared treebank file and
// requires the exact bytes.
func TestRoundTripUD(t *testing.T) {
	files := udFiles(t)
	have := map[string]bool{}
	for _, path := range files {
		have[filepath.Base(path)] = true
	}
	for _, tb := range []string{"en_ewt", "tr_imst", "hu_szeged", "fr_sequoia"} {
		for _, part := range []string{"train", "dev", "test"} {
			if name := tb + "-ud-" + part + ".conllu"; !have[name] {
				t.Errorf("%s is missing from %s", name, udDir)
			}
		}
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			t.Parallel()
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			sents, err := ReadAll(bytes.NewReader(data), filepath.Base(path))
			if err != nil {
				t.Fatal(err)
			}
			if want := bytes.Count(data, []byte("\n\n")); len(sents) != want {
				t.Errorf("read %d sentences, file has %d blank lines", len(sents), want)
			}

			var out bytes.Buffer
			if err := WriteAll(&out, sents); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(data, out.Bytes()) {
				in, got := strings.Split(string(data), "\n"), strings.Split(out.String(), "\n")
				for i := 0; i < len(in) && i < len(got); i++ {
					if in[i] != got[i] {
						t.Fatalf("line %d differs:\n in: %q\nout: %q", i+1, in[i], got[i])
					}
				}
				t.Fatalf("lengths differ: %d lines in, %d out", len(in), len(got))
			}

			// Annotated UD sentences are trees with IDs 1..n.
			for _, s := range sents {
				if err := s.CheckTree(); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

func TestReadFile(t *testing.T) {
	udFiles(t)
	sents, err := ReadFile(filepath.Join(udDir, "hu_szeged-ud-test.conllu"))
	if err != nil {
		t.Fatal(err)
	}
	if len(sents) != 449 {
		t.Errorf("got %d sentences, want 449", len(sents))
	}
	if got := sents[0].SentID(); got != "test-1" {
		t.Errorf("SentID = %q, want test-1", got)
	}
	if got := sents[0].Words[0].Form; got != "Az" {
		t.Errorf("first form = %q, want Az", got)
	}

	_, err = ReadFile(filepath.Join(t.TempDir(), "missing.conllu"))
	if !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: err = %v, want ErrNotExist", err)
	}
}

func BenchmarkRead(b *testing.B) {
	data := readEWTDev(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ReadAll(bytes.NewReader(data), "dev"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkWrite(b *testing.B) {
	data := readEWTDev(b)
	sents, err := ReadAll(bytes.NewReader(data), "dev")
	if err != nil {
		b.Fatal(err)
	}
	var out bytes.Buffer
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		out.Reset()
		if err := WriteAll(&out, sents); err != nil {
			b.Fatal(err)
		}
	}
}

func readEWTDev(b *testing.B) []byte {
	data, err := os.ReadFile(testenv.UDFile(b, "en_ewt-ud-dev.conllu"))
	if err != nil {
		b.Fatal(err)
	}
	return data
}
