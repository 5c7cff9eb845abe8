package parser

import (
	"bytes"
	"errors"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/transparse/transparse/parser/conllu"
)

// A small document for the hostile-input tests: a sentence with DEPS,
// MISC, an empty node and a multiword token filled in.
const filledDoc = "# sent_id = a\n# text = I don't see.\n" +
	"1\tI\tI\tPRON\tPRP\tCase=Nom\t3\tnsubj\t3:nsubj|3.1:nsubj\tSpaceAfter=No\n" +
	"2-3\tdon't\t_\t_\t_\t_\t_\t_\t_\t_\n" +
	"2\tdo\tdo\tAUX\tVBP\tMood=Ind\t3\taux\t3:aux\t_\n" +
	"3\tn't\tnot\tPART\tRB\t_\t0\troot\t0:root\tGloss=x\n" +
	"3.1\tsee\tsee\tVERB\tVB\tVerbForm=Inf\t_\t_\t0:root\tCopyOf=3\n" +
	"4\t.\t.\tPUNCT\t.\t_\t3\tpunct\t3:punct\tSpaceAfter=No\n\n"

// Predicted output carries no stale input annotation: DEPS of every parsed
// word is "_", MISC, comments and the multiword token pass through; the
// given LEMMA, UPOS, XPOS and FEATS are kept, and with NoTags they are
// what the same forms parsed as plain tokens get (predicted, or "_" where
// the model has no component for a column); the empty node, a node of the
// enhanced graph only, is left out.
func testOutputHasNoGoldAnnotation(t *testing.T, m *Model) {
	in, err := conllu.ReadAll(strings.NewReader(filledDoc), "in")
	if err != nil {
		t.Fatal(err)
	}
	var forms []string
	for _, w := range in[0].Words {
		forms = append(forms, w.Form)
	}
	var plainOut bytes.Buffer
	if _, err := m.ParseDocument(strings.NewReader(strings.Join(forms, " ")+"\n"), &plainOut, DocOptions{Name: "tokens", Input: InputTokens}); err != nil {
		t.Fatal(err)
	}
	plain, err := conllu.ReadAll(&plainOut, "tokens")
	if err != nil {
		t.Fatal(err)
	}
	for _, noTags := range []bool{false, true} {
		var out bytes.Buffer
		if _, err := m.ParseDocument(strings.NewReader(filledDoc), &out, DocOptions{Name: "doc", NoTags: noTags}); err != nil {
			t.Fatal(err)
		}
		sents, err := conllu.ReadAll(&out, "out")
		if err != nil || len(sents) != 1 {
			t.Fatalf("output: %v, %d sentences", err, len(sents))
		}
		s := sents[0]
		if strings.Join(s.Comments, "\n") != strings.Join(in[0].Comments, "\n") {
			t.Errorf("comments %q, want %q", s.Comments, in[0].Comments)
		}
		for i, w := range s.Words {
			if w.Deps != "_" {
				t.Errorf("noTags %v: word %d DEPS %q, want _", noTags, i+1, w.Deps)
			}
			if w.Misc != in[0].Words[i].Misc {
				t.Errorf("word %d MISC %q, want %q", i+1, w.Misc, in[0].Words[i].Misc)
			}
			want := in[0].Words[i] // given: kept
			if noTags {
				want = plain[0].Words[i] // from plain tokens
			}
			got := [4]string{w.Lemma, w.UPOS, w.XPOS, w.Feats}
			if exp := [4]string{want.Lemma, want.UPOS, want.XPOS, want.Feats}; got != exp {
				t.Errorf("noTags %v: word %d LEMMA, UPOS, XPOS, FEATS %q, want %q", noTags, i+1, got, exp)
			}
			if w.UPOS == "_" {
				t.Errorf("noTags %v: word %d has no UPOS", noTags, i+1)
			}
		}
		if s.Multiword[0].Text != in[0].Multiword[0].Text {
			t.Errorf("multiword line %q changed", s.Multiword[0].Text)
		}
		if len(in[0].Empty) != 1 || len(s.Empty) != 0 {
			t.Errorf("noTags %v: empty nodes %v of %v", noTags, s.Empty, in[0].Empty)
		}
	}
}

// NUL bytes in CoNLL-U or token text are refused with their line and byte.
func testNULRefused(t *testing.T, m *Model) {
	doc := "1\tI\t_\t_\t_\t_\t_\t_\t_\t_\n\n\n1\ta\x00b\t_\t_\t_\t_\t_\t_\t_\t_\n"
	if _, err := m.ParseDocument(strings.NewReader(doc), io.Discard, DocOptions{Name: "doc"}); err == nil ||
		!strings.Contains(err.Error(), "doc:4: line contains a NUL byte at byte 4") {
		t.Errorf("CoNLL-U: %v", err)
	}
	if _, err := m.ParseDocument(strings.NewReader("I see\n\nyou\x00 too\n"), io.Discard, DocOptions{Name: "tok", Input: InputTokens}); err == nil ||
		!strings.Contains(err.Error(), "tok:3: line contains a NUL byte at byte 4") {
		t.Errorf("tokens: %v", err)
	}
	words := []conllu.Word{{Form: "a\x00b", UPOS: "_", XPOS: "_", Lemma: "_", Feats: "_", Head: -1}}
	if _, err := m.Parse(words, nil); err == nil || !errors.Is(err, ErrInput) {
		t.Errorf("Parse: %v", err)
	}
}

// A token of a megabyte gives a short message that quotes its beginning.
func testLongTokenShortMessage(t *testing.T, m *Model) {
	tok := strings.Repeat("x", 1000000)
	doc := "1\t" + tok + "\t_\t_\t_\t_\t_\t_\t_\t_\n\n"
	_, err := m.ParseDocument(strings.NewReader(doc), io.Discard, DocOptions{Name: "doc"})
	if err == nil || len(err.Error()) > 300 || !strings.Contains(err.Error(), `"xxxxxxxxxx`) ||
		!strings.Contains(err.Error(), "doc:1:") {
		t.Errorf("error of %d bytes: %.300s", len(err.Error()), err)
	}
}

// Line numbers are exact with repeated blank lines, with and without
// NoTags.
func testErrorLineWithBlankLines(t *testing.T, m *Model) {
	good := "1\ta\t_\t_\t_\t_\t_\t_\t_\t_\n"
	doc := good + "\n\n\n\n" + good + "\n\n\n" + "1\t" + strings.Repeat("y", 2000) + "\t_\t_\t_\t_\t_\t_\t_\t_\n\n"
	for _, noTags := range []bool{false, true} {
		_, err := m.ParseDocument(strings.NewReader(doc), io.Discard, DocOptions{Name: "doc", NoTags: noTags, Workers: 2})
		if err == nil || !strings.HasPrefix(err.Error(), "doc:10: sentence starting") {
			t.Errorf("noTags %v: %v", noTags, err)
		}
	}
}

// SkipOnError copies malformed and rejected sentences through with a
// comment naming the error and goes on, with any number of workers and
// through Stream; StopOnError stops at the first.
func testSkipOnError(t *testing.T, m *Model) {
	good := "# sent_id = g\n1\tHello\t_\t_\t_\t_\t_\t_\t_\t_\n2\t!\t_\t_\t_\t_\t_\t_\t_\t_\n\n"
	malformed := "# sent_id = bad\n1\tx\t_\t_\t_\t_\t_\t_\t_\n2\ty\t_\t_\t_\t_\t_\t_\t_\t_\n\n"
	long := "# sent_id = long\n" + strings.Repeat("1\tw\t_\t_\t_\t_\t_\t_\t_\t_\n", 1)
	for i := 2; i <= MaxWords+1; i++ {
		long += strconv.Itoa(i) + "\tw\t_\t_\t_\t_\t_\t_\t_\t_\n"
	}
	long += "\n"
	doc := good + malformed + good + long + good
	var stop bytes.Buffer
	st, err := m.ParseDocument(strings.NewReader(doc), &stop, DocOptions{Name: "doc"})
	if err == nil || !strings.Contains(err.Error(), "doc:6: line has 9 columns") || st.Sentences != 1 {
		t.Fatalf("stop: %v, %+v", err, st)
	}
	var want []byte
	for _, workers := range []int{1, 3} {
		var out bytes.Buffer
		st, err := m.ParseDocument(strings.NewReader(doc), &out, DocOptions{Name: "doc", OnError: SkipOnError, Workers: workers})
		if err != nil || st.Sentences != 5 || st.Skipped != 2 {
			t.Fatalf("skip, %d workers: %v, %+v", workers, err, st)
		}
		if want == nil {
			want = out.Bytes()
		} else if !bytes.Equal(out.Bytes(), want) {
			t.Fatalf("skip, %d workers: output differs from one worker's", workers)
		}
	}
	text := string(want)
	for _, s := range []string{
		ErrorComment + "conllu: doc:6: line has 9 columns, want 10 (separated by tabs)\n# sent_id = bad\n1\tx\t_",
		"# sent_id = long\n" + ErrorComment + "doc:13: sentence long: invalid input: sentence has 10001 words",
	} {
		if !strings.Contains(text, s) {
			t.Errorf("skip output lacks %q", s)
		}
	}
	if n := strings.Count(text, "\t0\troot\t"); n != 3 {
		t.Errorf("%d parsed sentences, want 3", n)
	}
	// The copied-through rejected sentence reads back as the input.
	sents, err := conllu.ReadAll(strings.NewReader(text[strings.Index(text, "# sent_id = long"):]), "x")
	if err != nil || len(sents[0].Words) != MaxWords+1 || sents[0].Words[0].Head != -1 {
		t.Errorf("copied-through sentence: %v", err)
	}
	// Stream returns the same sentences.
	sm := m.NewStream(strings.NewReader(doc), DocOptions{Name: "doc", OnError: SkipOnError})
	var got bytes.Buffer
	for {
		b, err := sm.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got.Write(b)
	}
	if !bytes.Equal(got.Bytes(), want) || sm.Stats() != (DocStats{Sentences: 5, Skipped: 2}) {
		t.Errorf("Stream: output equal %v, stats %+v", bytes.Equal(got.Bytes(), want), sm.Stats())
	}
	// Tokens: a bad line and a rejected sentence.
	var tout bytes.Buffer
	tdoc := "a b\n\xff\nc\n" + strings.Repeat("w ", MaxWords+1) + "\nd .\n"
	tst, err := m.ParseDocument(strings.NewReader(tdoc), &tout, DocOptions{Name: "tok", Input: InputTokens, OnError: SkipOnError})
	if err != nil || tst != (DocStats{Sentences: 5, Skipped: 2}) {
		t.Fatalf("tokens skip: %v %+v", err, tst)
	}
	for _, s := range []string{
		"# sent_id = 2\n" + ErrorComment + "conllu: tok:2: invalid UTF-8 at byte 1\n",
		"# sent_id = 4\n# text = w w",
		ErrorComment + "tok:4: sentence 4: invalid input: sentence has 10001 words",
		"# sent_id = 5\n",
	} {
		if !strings.Contains(tout.String(), s) {
			t.Errorf("tokens skip output lacks %q", s)
		}
	}
	// A final error (a line over the limit) still ends the parse.
	over := good + "1\t" + strings.Repeat("z", conllu.MaxLineLength) + "\n" + good
	if _, err := m.ParseDocument(strings.NewReader(over), io.Discard, DocOptions{Name: "doc", OnError: SkipOnError}); err == nil {
		t.Error("skip: over-long line accepted")
	}
}

// The hostile-input tests of document parsing share one model load (they
// run under the race detector too).
func TestHostileDocuments(t *testing.T) {
	m := testModel(t)
	for _, c := range []struct {
		name string
		run  func(*testing.T, *Model)
	}{
		{"OutputHasNoGoldAnnotation", testOutputHasNoGoldAnnotation},
		{"NULRefused", testNULRefused},
		{"LongTokenShortMessage", testLongTokenShortMessage},
		{"ErrorLineWithBlankLines", testErrorLineWithBlankLines},
		{"SkipOnError", testSkipOnError},
	} {
		t.Run(c.name, func(t *testing.T) { c.run(t, m) })
	}
}
