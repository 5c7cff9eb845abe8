package segment

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/transparse/transparse/internal/testenv"
	"github.com/transparse/transparse/parser/conllu"
)

// bundledSegmenter decodes the segmenter part of the bundled model.
func bundledSegmenter(t *testing.T) *Model {
	t.Helper()
	for _, c := range testenv.BundledDoc(t).Classifiers {
		if c.Name != "segmenter" {
			continue
		}
		b, err := c.Blob("model")
		if err != nil {
			t.Fatal(err)
		}
		m, err := Decode(b)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	t.Fatal("the bundled model has no segmenter")
	return nil
}

// tokensLines renders sentences as "transparse tokenize --output tokens"
// does: a sentence a line, its words separated by spaces.
func tokensLines(text []byte, sents []Sentence) []byte {
	var b bytes.Buffer
	for _, s := range sents {
		for i, tk := range s.Tokens {
			if i > 0 {
				b.WriteByte(' ')
			}
			if tk.Words != nil {
				b.WriteString(strings.Join(tk.Words, " "))
			} else {
				b.Write(text[tk.Start:tk.End])
			}
		}
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// TestBundledSegmenterUnchanged segments the raw text of the EWT dev
// slice as one line (every sentence boundary decided by the model) with
// the bundled model's segmenter, stored without SentFeatures, and
// compares it with testdata/bundled-en_ewt-dev-slice.tokens, written
// by "transparse tokenize --output tokens" with the code that stored the
// model: a stored model keeps segmenting as it did.
func TestBundledSegmenterUnchanged(t *testing.T) {
	m := bundledSegmenter(t)
	if m.SentFeatures != 0 {
		t.Fatalf("the bundled segmenter has SentFeatures %d, want 0", m.SentFeatures)
	}
	gold, err := conllu.ReadFile(testenv.Fixture(t, "en_ewt-dev-slice.conllu"))
	if err != nil {
		t.Fatal(err)
	}
	text := []byte(strings.Join(strings.Fields(UDText(gold)), " ") + "\n")
	sents, err := m.Segment(text)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("testdata/bundled-en_ewt-dev-slice.tokens")
	if err != nil {
		t.Fatal(err)
	}
	got := tokensLines(text, sents)
	if !bytes.Equal(got, want) {
		gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
		for i := 0; i < min(len(gl), len(wl)); i++ {
			if gl[i] != wl[i] {
				t.Fatalf("line %d differs:\n got %q\nwant %q", i+1, gl[i], wl[i])
			}
		}
		t.Fatalf("%d lines, want %d", len(gl), len(wl))
	}
}
