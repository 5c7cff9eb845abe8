package conllu

import (
	"io"
	"strings"
	"testing"
)

func TestNULRefused(t *testing.T) {
	r := NewReader(strings.NewReader("1\ta\t_\t_\t_\t_\t_\t_\t_\t_\n\n\n1\tb\x00\t_\t_\t_\t_\t_\t_\t_\t_\n\n1\tc\t_\t_\t_\t_\t_\t_\t_\t_\n"), "f")
	if _, err := r.Next(); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Next(); err == nil || err.Error() != "conllu: f:4: line contains a NUL byte at byte 4" {
		t.Errorf("CoNLL-U: %v", err)
	}
	if s, err := r.Next(); err != nil || s.Words[0].Form != "c" {
		t.Errorf("after the error: %v", err)
	}
	tr := NewTokenReader(strings.NewReader("a\n\x00b\nc\n"), "t")
	tr.Next()
	if _, err := tr.Next(); err == nil || err.Error() != "conllu: t:2: line contains a NUL byte at byte 1" {
		t.Errorf("tokens: %v", err)
	}
	if s, err := tr.Next(); err != nil || s.Words[0].Form != "c" {
		t.Errorf("after the error: %v", err)
	}
}

func TestQuote(t *testing.T) {
	for in, want := range map[string]string{
		"abc":                    `"abc"`,
		strings.Repeat("x", 40):  `"` + strings.Repeat("x", 40) + `"`,
		strings.Repeat("x", 41):  `"` + strings.Repeat("x", 40) + `"…`,
		strings.Repeat("é", 30):  `"` + strings.Repeat("é", 20) + `"…`,
		"a\tb":                   `"a\tb"`,
		strings.Repeat("y", 1e6): `"` + strings.Repeat("y", 40) + `"…`,
	} {
		if got := Quote(in); got != want {
			t.Errorf("Quote(%.20q) = %s, want %s", in, got, want)
		}
	}
	// A long ID is quoted short.
	_, err := ReadAll(strings.NewReader(strings.Repeat("9", 5000)+"x\ta\t_\t_\t_\t_\t_\t_\t_\t_\n"), "f")
	if err == nil || len(err.Error()) > 200 {
		t.Errorf("error of %d bytes", len(err.Error()))
	}
}

// SkipRest returns the malformed sentence's lines as read, comments
// included, and the next Next goes on after it.
func TestSkipRest(t *testing.T) {
	bad := "# sent_id = b\n1\tx\t_\t_\t_\t_\t_\t_\t_\t_\n2\ty\n3\tz\t_\t_\t_\t_\t_\t_\t_\t_\n"
	doc := "\n\n" + bad + "\n\n1\tok\t_\t_\t_\t_\t_\t_\t_\t_\n"
	r := NewReader(strings.NewReader(doc), "f")
	r.KeepLines()
	if _, err := r.Next(); err == nil || !strings.Contains(err.Error(), "f:5:") {
		t.Fatalf("Next: %v", err)
	}
	raw, err := r.SkipRest()
	if err != nil || string(raw) != bad {
		t.Fatalf("SkipRest = %q, %v; want %q", raw, err, bad)
	}
	if s, err := r.Next(); err != nil || s.Words[0].Form != "ok" || r.SentenceLine() != 9 {
		t.Fatalf("after: %v, line %d", err, r.SentenceLine())
	}
	if _, err := r.Next(); err != io.EOF {
		t.Fatalf("end: %v", err)
	}
	// A final error is returned by SkipRest.
	r = NewReader(strings.NewReader("1\tx\n"+strings.Repeat("z", MaxLineLength+1)+"\n"), "f")
	r.KeepLines()
	r.Next()
	if _, err := r.SkipRest(); err == nil || !strings.Contains(err.Error(), "longer than") {
		t.Fatalf("SkipRest after a long line: %v", err)
	}
}

// StripTags blanks the tag columns of empty nodes too, without changing a
// sentence that shares them.
func TestStripTagsEmptyNodes(t *testing.T) {
	s := &Sentence{Words: []Word{{ID: 1, Form: "a", Lemma: "a", UPOS: "X", XPOS: "x", Feats: "F=1", Head: 0, Deprel: "root"}},
		Empty: []RawLine{{Before: 2, Text: "1.1\tb\tb\tY\ty\tG=2\t_\t_\t0:root\tM=1"}}}
	c := *s
	c.Words = append([]Word(nil), s.Words...)
	c.StripTags()
	if c.Empty[0].Text != "1.1\tb\t_\t_\t_\t_\t_\t_\t0:root\tM=1" || c.Words[0].Lemma != "_" {
		t.Errorf("stripped: %+v", c)
	}
	if s.Empty[0].Text != "1.1\tb\tb\tY\ty\tG=2\t_\t_\t0:root\tM=1" || s.Words[0].Lemma != "a" {
		t.Errorf("original changed: %+v", s)
	}
}
