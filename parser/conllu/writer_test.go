package conllu

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// constructed is a sentence built in code, with every kind of line.
func constructed() *Sentence {
	return &Sentence{
		Comments: []string{"# sent_id = golden-1", "# text = Don't stop."},
		Words: []Word{
			{ID: 1, Form: "Do", Lemma: "do", UPOS: "AUX", XPOS: "VBP", Feats: "Mood=Ind|Tense=Pres", Head: 3, Deprel: "aux", Deps: "3:aux", Misc: "_"},
			{ID: 2, Form: "n't", Lemma: "not", UPOS: "PART", XPOS: "RB", Feats: "_", Head: 3, Deprel: "advmod", Deps: "3:advmod", Misc: "_"},
			{ID: 3, Form: "stop", Lemma: "stop", UPOS: "VERB", XPOS: "VB", Feats: "VerbForm=Inf", Head: 0, Deprel: "root", Deps: "0:root", Misc: "SpaceAfter=No"},
			// Empty strings are written as "_".
			{ID: 4, Form: ".", Lemma: ".", UPOS: "PUNCT", XPOS: "", Feats: "", Head: 3, Deprel: "punct", Deps: "", Misc: ""},
		},
		Multiword: []RawLine{{Before: 1, Text: "1-2\tDon't\t_\t_\t_\t_\t_\t_\t_\t_"}},
		Empty: []RawLine{
			{Before: 4, Text: "3.1\tstop\tstop\tVERB\tVB\t_\t_\t_\t0:root\tCopyOf=3"},
			{Before: 5, Text: "4.1\tend\tend\tX\t_\t_\t_\t_\t3:dep\t_"},
		},
	}
}

func TestWriteGolden(t *testing.T) {
	var b bytes.Buffer
	if err := Write(&b, constructed()); err != nil {
		t.Fatal(err)
	}
	if err := Write(&b, FromForms([]string{"Hello", "world", "!"})); err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "write.golden.conllu")
	if *update {
		if err := os.WriteFile(golden, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if b.String() != string(want) {
		t.Errorf("got:\n%s\nwant:\n%s", b.String(), want)
	}

	// The golden file reads back, and writes back unchanged.
	sents, err := ReadAll(bytes.NewReader(want), golden)
	if err != nil {
		t.Fatal(err)
	}
	var again bytes.Buffer
	if err := WriteAll(&again, sents); err != nil {
		t.Fatal(err)
	}
	if again.String() != string(want) {
		t.Errorf("read and written again:\n%s", again.String())
	}
	if got := Format(sents[1]); got != "1\tHello\t_\t_\t_\t_\t_\t_\t_\t_\n2\tworld\t_\t_\t_\t_\t_\t_\t_\t_\n3\t!\t_\t_\t_\t_\t_\t_\t_\t_\n\n" {
		t.Errorf("Format = %q", got)
	}
}

func TestWriteErrors(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(s *Sentence)
		msg    string
	}{
		{"no words", func(s *Sentence) { s.Words = nil }, "sentence has no words"},
		{"bad ID", func(s *Sentence) { s.Words[1].ID = 7 }, "word 2 has ID 7"},
		{"tab in FORM", func(s *Sentence) { s.Words[0].Form = "a\tb" }, `word 1: FORM "a\tb" contains a tab or line break`},
		{"newline in MISC", func(s *Sentence) { s.Words[3].Misc = "x\n" }, `word 4: MISC "x\n" contains a tab or line break`},
		{"CR in DEPREL", func(s *Sentence) { s.Words[3].Deprel = "x\r" }, `word 4: DEPREL "x\r" contains a tab or line break`},
		{"HEAD too large", func(s *Sentence) { s.Words[0].Head = 5 }, "word 1: HEAD 5 is out of range: the sentence has 4 words"},
		{"HEAD negative", func(s *Sentence) { s.Words[0].Head = -2 }, "word 1: HEAD -2 is out of range: the sentence has 4 words"},
		{"comment without #", func(s *Sentence) { s.Comments[0] = "sent_id = 1" }, `comment "sent_id = 1" does not start with '#' or contains a line break`},
		{"comment with newline", func(s *Sentence) { s.Comments[0] = "# a\n1" }, `comment "# a\n1" does not start with '#' or contains a line break`},
		{"empty raw line", func(s *Sentence) { s.Multiword[0].Text = "" }, `multiword line "" is empty, starts with '#' or contains a line break`},
		{"raw line comment", func(s *Sentence) { s.Empty[0].Text = "# x" }, `empty node line "# x" is empty, starts with '#' or contains a line break`},
		{"multiword past end", func(s *Sentence) { s.Multiword[0].Before = 5 }, "multiword line \"1-2\\tDon't\\t_\\t_\\t_\\t_\\t_\\t_\\t_\\t_\": Before 5 is out of range or out of order"},
		{"empty out of order", func(s *Sentence) { s.Empty[0], s.Empty[1] = s.Empty[1], s.Empty[0] }, `empty node line "3.1\tstop\tstop\tVERB\tVB\t_\t_\t_\t0:root\tCopyO"…: Before 4 is out of range or out of order`},
		{"empty before start", func(s *Sentence) { s.Empty[0].Before = 0 }, `empty node line "3.1\tstop\tstop\tVERB\tVB\t_\t_\t_\t0:root\tCopyO"…: Before 0 is out of range or out of order`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := constructed()
			tc.change(s)
			var b bytes.Buffer
			err := Write(&b, s)
			var e *Error
			if !errors.As(err, &e) || e.Msg != tc.msg {
				t.Fatalf("err = %v\nwant Msg %q", err, tc.msg)
			}
			if b.Len() != 0 {
				t.Errorf("Write wrote %q", b.String())
			}
			if got := Format(s); got != "" {
				t.Errorf("Format = %q, want \"\"", got)
			}
		})
	}
}

func TestWriteAllError(t *testing.T) {
	good := FromForms([]string{"a"})
	bad := FromForms([]string{"b\tc"})
	var b strings.Builder
	err := WriteAll(&b, []*Sentence{good, good, bad, good})
	if err == nil || err.Error() != `conllu: sentence 2: word 1: FORM "b\tc" contains a tab or line break` {
		t.Errorf("err = %v", err)
	}
	if want := strings.Repeat(Format(good), 2); b.String() != want {
		t.Errorf("wrote %q, want %q", b.String(), want)
	}
}

type failWriter struct{ err error }

func (w failWriter) Write([]byte) (int, error) { return 0, w.err }

func TestWriteWriterError(t *testing.T) {
	boom := errors.New("boom")
	if err := Write(failWriter{boom}, constructed()); err != boom {
		t.Errorf("Write: %v", err)
	}
	if err := WriteAll(failWriter{boom}, []*Sentence{constructed()}); err != boom {
		t.Errorf("WriteAll: %v", err)
	}
}

// TestWriteAllLarge checks WriteAll across its internal chunks.
func TestWriteAllLarge(t *testing.T) {
	var sents []*Sentence
	var want strings.Builder
	for i := 0; i < 5000; i++ {
		s := constructed()
		sents = append(sents, s)
		want.WriteString(Format(s))
	}
	var b strings.Builder
	if err := WriteAll(&b, sents); err != nil {
		t.Fatal(err)
	}
	if b.String() != want.String() {
		t.Error("WriteAll differs from Format")
	}
}
