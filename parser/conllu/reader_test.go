package conllu

import (
	"errors"
	"io"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// tok returns a token line with the given ID, FORM and HEAD.
func tok(id, form, head string) string {
	return id + "\t" + form + "\t" + strings.ToLower(form) + "\tX\t_\t_\t" + head + "\tdep\t_\t_\n"
}

// word returns the Word that tok(id, form, head) reads as.
func word(id int, form string, head int) Word {
	return Word{ID: id, Form: form, Lemma: strings.ToLower(form), UPOS: "X", XPOS: "_", Feats: "_",
		Head: head, Deprel: "dep", Deps: "_", Misc: "_"}
}

func TestReadSentence(t *testing.T) {
	in := "# sent_id = s1\n# text = I can't.\n" +
		tok("1", "I", "2") +
		tok("2-3", "can't", "_") +
		tok("2", "ca", "0") +
		tok("3", "n't", "2") +
		tok("3.1", "elided", "_") +
		tok("4", ".", "2") +
		tok("4.1", "end", "_") +
		"\n" +
		tok("0.1", "before", "_") +
		tok("1", "Hi", "_") +
		"\n"
	sents, err := ReadAll(strings.NewReader(in), "t.conllu")
	if err != nil {
		t.Fatal(err)
	}
	want := []*Sentence{{
		Comments:  []string{"# sent_id = s1", "# text = I can't."},
		Words:     []Word{word(1, "I", 2), word(2, "ca", 0), word(3, "n't", 2), word(4, ".", 2)},
		Multiword: []RawLine{{Before: 2, Text: strings.TrimSuffix(tok("2-3", "can't", "_"), "\n")}},
		Empty: []RawLine{
			{Before: 4, Text: strings.TrimSuffix(tok("3.1", "elided", "_"), "\n")},
			{Before: 5, Text: strings.TrimSuffix(tok("4.1", "end", "_"), "\n")},
		},
	}, {
		Words: []Word{word(1, "Hi", -1)},
		Empty: []RawLine{{Before: 1, Text: strings.TrimSuffix(tok("0.1", "before", "_"), "\n")}},
	}}
	if !reflect.DeepEqual(sents, want) {
		t.Fatalf("got  %#v\nwant %#v", sents, want)
	}
	if got := sents[0].SentID(); got != "s1" {
		t.Errorf("SentID = %q", got)
	}
	if got := sents[0].Heads(); !reflect.DeepEqual(got, []int{2, 0, 2, 2}) {
		t.Errorf("Heads = %v", got)
	}
	// Writing gives the input back.
	var b strings.Builder
	for _, s := range sents {
		if err := Write(&b, s); err != nil {
			t.Fatal(err)
		}
	}
	if b.String() != in {
		t.Errorf("round trip:\n got %q\nwant %q", b.String(), in)
	}
}

// TestReadLenient checks input that is accepted although not canonical.
func TestReadLenient(t *testing.T) {
	one := tok("1", "A", "0")
	canonical := one + "\n"
	for _, tc := range []struct{ name, in string }{
		{"no final blank line", one},
		{"no final newline", strings.TrimSuffix(one, "\n")},
		{"extra blank lines", "\n\n" + one + "\n\n\n"},
		{"CRLF", strings.ReplaceAll(one+"\n", "\n", "\r\n")},
		{"CRLF without final newline", strings.ReplaceAll(one, "\n", "\r\n")},
		{"byte order mark", "\uFEFF" + one + "\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sents, err := ReadAll(strings.NewReader(tc.in), "")
			if err != nil {
				t.Fatal(err)
			}
			if len(sents) != 1 || Format(sents[0]) != canonical {
				t.Fatalf("got %d sentences %#v", len(sents), sents)
			}
		})
	}
	sents, err := ReadAll(strings.NewReader(""), "")
	if err != nil || len(sents) != 0 {
		t.Errorf("empty input: %v, %v", sents, err)
	}
}

func TestReadErrors(t *testing.T) {
	a, b, c := tok("1", "A", "2"), tok("2", "B", "0"), tok("3", "C", "2")
	for _, tc := range []struct {
		name string
		in   string
		line int
		msg  string
	}{
		{"too few columns", a + "2\tB\t_\n", 2, "line has 3 columns, want 10 (separated by tabs)"},
		{"too many columns", strings.TrimSuffix(a, "\n") + "\tx\n", 1, "line has 11 columns, want 10 (separated by tabs)"},
		{"spaces not tabs", "# c\n1 A a X _ _ 0 root _ _\n", 2, "line has 1 columns, want 10 (separated by tabs)"},
		{"empty column", "1\tA\t\tX\t_\t_\t0\troot\t_\t_\n", 1, "column 3 (LEMMA) is empty"},
		{"empty last column", "1\tA\ta\tX\t_\t_\t0\troot\t_\t\n", 1, "column 10 (MISC) is empty"},
		{"ID not a number", "# c\n" + tok("x", "A", "0"), 2, `ID "x" is not a number; want an integer, a range (3-4) or a decimal (8.1)`},
		{"ID leading zero", tok("01", "A", "0"), 1, `ID "01" has a leading zero; want an integer, a range (3-4) or a decimal (8.1)`},
		{"ID negative", tok("-1", "A", "0"), 1, `multiword ID "-1" is not a range of two word IDs like 3-4`},
		{"ID zero", tok("0", "A", "_"), 1, "word ID 0 should be 1; word IDs must run 1, 2, 3, ..."},
		{"ID not starting at 1", tok("2", "A", "0"), 1, "word ID 2 should be 1; word IDs must run 1, 2, 3, ..."},
		{"ID gap", a + tok("3", "C", "0"), 2, "word ID 3 should be 2; word IDs must run 1, 2, 3, ..."},
		{"ID repeated", a + tok("1", "C", "0"), 2, "word ID 1 should be 2; word IDs must run 1, 2, 3, ..."},
		{"range not numbers", a + tok("2-x", "BC", "_"), 2, `multiword ID "2-x" is not a range of two word IDs like 3-4`},
		{"range reversed", a + tok("2-2", "BC", "_"), 2, "multiword range 2-2 is invalid: its end must be greater than its start"},
		{"range misplaced", a + tok("3-4", "CD", "_") + b, 2, "multiword range 3-4 should start at word 2, the word that follows it"},
		{"range after its start", a + b + tok("2-3", "BC", "_"), 3, "multiword range 2-3 should start at word 3, the word that follows it"},
		{"range overlap", tok("1-2", "AB", "_") + a + tok("2-3", "BC", "_") + b + c, 3, "multiword range 2-3 overlaps the previous range, which ends at word 2"},
		{"range past end", a + b + tok("3-4", "CD", "_") + tok("3", "C", "2") + "\n", 3, "multiword range 3-4 ends after the last word 3"},
		{"decimal bad", a + tok("1.x", "E", "_") + b, 2, `empty node ID "1.x" is not a decimal like 8.1`},
		{"decimal zero", a + tok("1.0", "E", "_") + b, 2, `empty node ID "1.0" is not a decimal like 8.1`},
		{"decimal misplaced", a + tok("2.1", "E", "_") + b, 2, "empty node 2.1 should follow word 2, but follows word 1"},
		{"decimal skips", a + tok("1.1", "E", "_") + tok("1.3", "E", "_") + b, 3, "empty node 1.3 should be 1.2"},
		{"decimal after range", a + tok("2-3", "BC", "_") + tok("1.1", "E", "_") + b + c, 3, "empty node 1.1 should come before multiword range 2-3"},
		{"HEAD not a number", a + tok("2", "B", "x"), 2, `HEAD "x" is not a number`},
		{"HEAD leading zero", a + tok("2", "B", "00"), 2, `HEAD "00" has a leading zero`},
		{"HEAD negative", a + tok("2", "B", "-1"), 2, "HEAD -1 is out of range: it is negative"},
		{"HEAD too large", a + b + tok("3", "C", "4") + tok("4", "D", "5") + "\n", 4, "HEAD 5 is out of range: the sentence has 4 words"},
		{"self-loop", a + tok("2", "B", "2"), 2, "HEAD 2 is the word itself"},
		{"cycle", tok("1", "A", "0") + tok("2", "B", "4") + tok("3", "C", "2") + tok("4", "D", "3") + "\n", 2,
			`HEADs form a cycle: 2 "B" -> 4 "D" -> 3 "C" -> 2 "B"`},
		{"cycle without root", tok("1", "A", "2") + tok("2", "B", "3") + tok("3", "C", "1"), 1,
			`HEADs form a cycle: 1 "A" -> 2 "B" -> 3 "C" -> 1 "A"`},
		{"mixed heads, _ later", a + tok("2", "B", "_"), 2, `HEAD is "_" but the HEAD of word 1 (line 1) is a number; a sentence needs all HEADs or none`},
		{"mixed heads, number later", "# c\n" + tok("1", "A", "_") + tok("2", "B", "0"), 3, `HEAD 0 is a number but the HEAD of word 1 (line 2) is "_"; a sentence needs all HEADs or none`},
		{"invalid UTF-8", a + tok("2", "B\xff", "0"), 2, "invalid UTF-8 at byte 4"},
		{"invalid UTF-8 in comment", "# ok\n# \xc3(\n" + a, 2, "invalid UTF-8 at byte 3"},
		{"carriage return inside", a + tok("2", "B\rb", "0"), 2, "line contains a carriage return"},
		{"comment after tokens", a + "# late\n" + b, 2, "comment line after token lines; comments must come before the first token line of a sentence"},
		{"comments without tokens", a + b + "\n# c1\n# c2\n\n" + a, 4, "sentence has no words (no token line with an integer ID)"},
		{"comments at end", a + b + "\n# trailing", 4, "sentence has no words (no token line with an integer ID)"},
		{"only an empty node", tok("0.1", "E", "_") + "\n", 1, "sentence has no words (no token line with an integer ID)"},
		{"whitespace line", a + b + " \t\n" + a + b, 3, "line contains only whitespace; a blank line must be empty"},
		{"line too long", a + b + "\n# " + strings.Repeat("x", MaxLineLength) + "\n", 4, "line is longer than 1048576 bytes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadAll(strings.NewReader(tc.in), "t.conllu")
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("err = %v (%T), want *Error", err, err)
			}
			if e.File != "t.conllu" || e.Line != tc.line || e.Msg != tc.msg {
				t.Errorf("got  %s:%d: %s\nwant %s:%d: %s", e.File, e.Line, e.Msg, "t.conllu", tc.line, tc.msg)
			}
		})
	}
}

func TestErrorString(t *testing.T) {
	in := "# c\n" + tok("1", "A", "x")
	_, err := ReadAll(strings.NewReader(in), "en.conllu")
	if got, want := err.Error(), `conllu: en.conllu:2: HEAD "x" is not a number`; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	_, err = ReadAll(strings.NewReader(in), "")
	if got, want := err.Error(), `conllu: line 2: HEAD "x" is not a number`; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got, want := (&Error{File: "f", Msg: "m"}).Error(), "conllu: f: m"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got, want := (&Error{Msg: "m"}).Error(), "conllu: m"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestReadResume checks that Next goes on after a malformed sentence.
func TestReadResume(t *testing.T) {
	in := tok("1", "A", "0") + "\n" + // line 1-2: good
		tok("1", "B", "x") + tok("2", "C", "1") + "# junk\n\n" + // 3-6: error on line 3, rest skipped
		tok("1", "D", "2") + tok("2", "E", "0") + "\n" + // 7-9: good
		tok("1", "F", "2") + tok("2", "G", "1") + "\n" + // 10-12: cycle
		"\n  \n" + // 13-14: whitespace line
		tok("1", "H", "_") // 15: good, no final blank line
	r := NewReader(strings.NewReader(in), "r")
	var got []string
	for {
		s, err := r.Next()
		if err == io.EOF {
			break
		}
		if e := (*Error)(nil); errors.As(err, &e) {
			got = append(got, "line "+strconv.Itoa(e.Line))
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, s.Words[0].Form)
	}
	want := []string{"A", "line 3", "D", "line 10", "line 14", "H"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if _, err := r.Next(); err != io.EOF {
		t.Errorf("after EOF: %v", err)
	}
}

// TestReadFinalErrors checks that an over-long line and read errors stop the
// reader for good.
func TestReadFinalErrors(t *testing.T) {
	in := tok("1", "A", "0") + "\n" + strings.Repeat("x", MaxLineLength+1) + "\n" + tok("1", "B", "0")
	r := NewReader(strings.NewReader(in), "")
	if _, err := r.Next(); err != nil {
		t.Fatal(err)
	}
	_, err1 := r.Next()
	_, err2 := r.Next()
	if err1 == nil || err1 != err2 {
		t.Errorf("errors %v then %v, want the same error twice", err1, err2)
	}

	boom := errors.New("boom")
	r = NewReader(io.MultiReader(strings.NewReader(tok("1", "A", "0")), errReader{boom}), "f")
	_, err := r.Next()
	if !errors.Is(err, boom) || err.Error() != "conllu: f: reading line 2: boom" {
		t.Errorf("err = %v", err)
	}
	if _, err2 := r.Next(); err2 != err {
		t.Errorf("second err = %v", err2)
	}
}

type errReader struct{ err error }

func (r errReader) Read([]byte) (int, error) { return 0, r.err }

// TestLongLine checks that lines longer than the bufio buffer but within
// MaxLineLength are read whole.
func TestLongLine(t *testing.T) {
	prefix := "1\tA\ta\tX\t_\t_\t0\troot\t_\t"
	misc := strings.Repeat("m", MaxLineLength-len(prefix))
	line := prefix + misc
	if len(line) != MaxLineLength {
		t.Fatalf("test line has %d bytes", len(line))
	}
	for _, end := range []string{"\n\n", "\r\n\r\n", ""} {
		sents, err := ReadAll(strings.NewReader(line+end), "")
		if err != nil {
			t.Fatalf("%q: %v", end, err)
		}
		if sents[0].Words[0].Misc != misc {
			t.Errorf("%q: MISC has %d bytes", end, len(sents[0].Words[0].Misc))
		}
	}
}

func TestCheckTree(t *testing.T) {
	mk := func(heads ...int) *Sentence {
		s := &Sentence{Comments: []string{"# sent_id = x7"}}
		for i, h := range heads {
			s.Words = append(s.Words, word(i+1, string(rune('A'+i)), h))
		}
		return s
	}
	for _, tc := range []struct {
		name string
		s    *Sentence
		msg  string // "" for no error
	}{
		{"tree", mk(2, 0, 2), ""},
		{"single word", mk(0), ""},
		{"no words", &Sentence{}, "sentence has no words"},
		{"no head", mk(2, 0, -1), `sentence x7: word 3 "C" has no HEAD`},
		{"unannotated", mk(-1, -1), `sentence x7: word 1 "A" has no HEAD`},
		{"out of range", mk(0, 3), "sentence x7: HEAD 3 of word 2 is out of range: the sentence has 2 words"},
		{"negative", mk(0, -2), "sentence x7: HEAD -2 of word 2 is out of range: the sentence has 2 words"},
		{"two roots", mk(0, 1, 0), "sentence x7: words 1 and 3 both have HEAD 0; a tree has one root"},
		{"self-loop", mk(0, 2), `sentence x7: HEADs form a cycle: 2 "B" -> 2 "B"`},
		{"cycle", mk(0, 3, 4, 2), `sentence x7: HEADs form a cycle: 2 "B" -> 3 "C" -> 4 "D" -> 2 "B"`},
		{"cycle, no root", mk(3, 1, 2), `sentence x7: HEADs form a cycle: 1 "A" -> 3 "C" -> 2 "B" -> 1 "A"`},
		{"bad ID", &Sentence{Words: []Word{word(2, "A", 0)}}, "word 1 has ID 2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.s.CheckTree()
			if tc.msg == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			var e *Error
			if !errors.As(err, &e) || e.Msg != tc.msg || e.Line != 0 {
				t.Errorf("err = %#v, want Msg %q", err, tc.msg)
			}
		})
	}
}

// SentenceLine gives the first line of each sentence, comment or token,
// past repeated blank lines, also for a sentence Next rejects.
func TestSentenceLine(t *testing.T) {
	text := "# a\n1\tx\t_\t_\t_\t_\t0\troot\t_\t_\n\n\n\n1\ty\t_\t_\t_\t_\t0\troot\t_\t_\n\n# c\n# d\n1\tbad\n\n1\tz\t_\t_\t_\t_\t0\troot\t_\t_\n"
	r := NewReader(strings.NewReader(text), "t")
	if r.SentenceLine() != 0 {
		t.Fatalf("SentenceLine before Next = %d", r.SentenceLine())
	}
	for _, want := range []struct {
		line int
		bad  bool
	}{{1, false}, {6, false}, {8, true}, {12, false}} {
		_, err := r.Next()
		if (err != nil) != want.bad || r.SentenceLine() != want.line {
			t.Fatalf("Next: error %v, SentenceLine %d; want error %v, line %d", err, r.SentenceLine(), want.bad, want.line)
		}
	}
	if _, err := r.Next(); err != io.EOF {
		t.Fatalf("after the last sentence: %v", err)
	}
}

// NoSpaceAfter finds SpaceAfter=No as a whole item of MISC, anywhere in
// it, and nothing else.
func TestNoSpaceAfter(t *testing.T) {
	for misc, want := range map[string]bool{
		"SpaceAfter=No": true, "A=B|SpaceAfter=No": true, "SpaceAfter=No|A=B": true, "A=1|SpaceAfter=No|B=2": true,
		"_": false, "": false, "SpaceAfter=Yes": false, "XSpaceAfter=No": false, "SpaceAfter=Nope": false,
		"SpaceAfter=No_": false, "A=SpaceAfter=No": false, "SpacesAfter=\\n": false, "spaceafter=no": false,
	} {
		if got := NoSpaceAfter(misc); got != want {
			t.Errorf("NoSpaceAfter(%q) = %v, want %v", misc, got, want)
		}
	}
}
