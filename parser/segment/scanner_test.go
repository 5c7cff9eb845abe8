package segment

import (
	"io"
	"strings"
	"testing"
	"unicode/utf8"
)

// scanAll returns the sentences of a Scanner over text, read in chunks of
// n bytes, as the strings of their tokens, with the code-point offsets of
// each token checked against the text.
func scanAll(t *testing.T, m *Model, text string, n int, perLine bool) [][]string {
	t.Helper()
	sc := m.NewScanner(&chunkReader{[]byte(text), n})
	sc.SentencePerLine = perLine
	var out [][]string
	at, cps := 0, 0 // cps code points precede byte offset at
	for {
		s, win, base, err := sc.Next()
		if err == io.EOF {
			if base+len(win) != len(text) {
				t.Fatalf("at io.EOF the text ends at %d, the input at %d", base+len(win), len(text))
			}
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		var toks []string
		for _, tk := range s.Tokens {
			toks = append(toks, string(win[tk.Start-base:tk.End-base]))
			cps += utf8.RuneCountInString(text[at:tk.Start])
			at = tk.Start
			if got := sc.CodePoints(tk.Start); got != cps {
				t.Fatalf("CodePoints(%d) = %d, want %d", tk.Start, got, cps)
			}
		}
		out = append(out, toks)
	}
}

// Scanner gives the sentences of Segment; with SentencePerLine exactly
// one sentence a non-blank line, whatever the sentence decision says;
// CodePoints counts code points across windows.
func TestScanner(t *testing.T) {
	m := smallModel(t)
	line := "Ça va. Très bien, merci! Et toi? "
	text := strings.Repeat(line+"\n", 40000) + "\n\nLast line. Two sentences?"
	want, err := m.Segment([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	got := scanAll(t, m, text, 70001, false)
	if len(got) != len(want) {
		t.Fatalf("Scanner: %d sentences, Segment %d", len(got), len(want))
	}
	lines := scanAll(t, m, text, 70001, true)
	if len(lines) != 40001 || strings.Join(lines[0], " ") != "Ça va . Très bien , merci ! Et toi ?" || len(lines[40000]) != 6 {
		t.Fatalf("SentencePerLine: %d sentences, the first %q, the last %q", len(lines), lines[0], lines[len(lines)-1])
	}
}
