package conllu

import (
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
)

func forms(s *Sentence) []string {
	var f []string
	for _, w := range s.Words {
		f = append(f, w.Form)
	}
	return f
}

func TestTokenReader(t *testing.T) {
	in := "\uFEFFThe cat  sat .\n" +
		"\n" +
		"   \t \n" +
		"\tTabs\tand  spaces\t\n" +
		"CRLF line\r\n" +
		"no\u00a0break space, # and _\n" +
		"last"
	r := NewTokenReader(strings.NewReader(in), "tok.txt")
	var got [][]string
	for {
		s, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		for i, w := range s.Words {
			if w != blankWord(i+1, w.Form) {
				t.Errorf("word %d = %#v", i+1, w)
			}
		}
		got = append(got, forms(s))
	}
	want := [][]string{
		{"The", "cat", "sat", "."},
		{"Tabs", "and", "spaces"},
		{"CRLF", "line"},
		{"no\u00a0break", "space,", "#", "and", "_"},
		{"last"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
	if _, err := r.Next(); err != io.EOF {
		t.Errorf("after EOF: %v", err)
	}
}

func TestTokenReaderErrors(t *testing.T) {
	in := "good line\n\nbad \xff byte\nafter\n" + strings.Repeat("x", MaxLineLength+1) + "\nnever\n"
	r := NewTokenReader(strings.NewReader(in), "tok.txt")
	var got []string
	for i := 0; i < 10; i++ {
		s, err := r.Next()
		if err == io.EOF {
			t.Fatal("unexpected EOF")
		}
		var e *Error
		if errors.As(err, &e) {
			got = append(got, err.Error())
			if strings.Contains(e.Msg, "longer") {
				break
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, strings.Join(forms(s), " "))
	}
	want := []string{
		"good line",
		"conllu: tok.txt:3: invalid UTF-8 at byte 5",
		"after",
		"conllu: tok.txt:5: line is longer than 1048576 bytes",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
	_, err1 := r.Next()
	if err1 == nil || err1.Error() != want[3] {
		t.Errorf("over-long line should stay the error, got %v", err1)
	}
}

func TestFromForms(t *testing.T) {
	s := FromForms([]string{"a", "b"})
	want := &Sentence{Words: []Word{blankWord(1, "a"), blankWord(2, "b")}}
	if !reflect.DeepEqual(s, want) {
		t.Errorf("got %#v", s)
	}
	if s.Words[1].Head != -1 || s.Words[1].Lemma != "_" || s.Words[1].ID != 2 {
		t.Errorf("word 2 = %#v", s.Words[1])
	}
	if got := len(FromForms(nil).Words); got != 0 {
		t.Errorf("FromForms(nil) has %d words", got)
	}
}
