package conllu

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// readAllLenient reads sentences until io.EOF or a final error, going on
// after errors about one sentence. It returns the sentences read without
// error and checks the properties every error must have.
func readAllLenient(t *testing.T, data []byte) []*Sentence {
	t.Helper()
	lines := bytes.Count(data, []byte("\n")) + 1
	r := NewReader(bytes.NewReader(data), "fuzz")
	var out []*Sentence
	for calls := 0; ; calls++ {
		if calls > lines+1 {
			t.Fatalf("Next called %d times for %d lines without EOF", calls, lines)
		}
		s, err := r.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v is %T, want *Error", err, err)
			}
			if e.File != "fuzz" || e.Line < 1 || e.Line > lines {
				t.Fatalf("error %v: line %d not in 1..%d", err, e.Line, lines)
			}
			if strings.Contains(e.Msg, "longer than") {
				return out
			}
			continue
		}
		if s == nil || len(s.Words) == 0 {
			t.Fatalf("Next returned %#v without error", s)
		}
		out = append(out, s)
	}
}

func FuzzReader(f *testing.F) {
	f.Add([]byte(tok("1", "A", "0") + "\n"))
	f.Add([]byte("# sent_id = 1\n# text = I can't\n" + tok("1", "I", "2") + tok("2-3", "can't", "_") +
		tok("2", "ca", "0") + tok("3", "n't", "2") + tok("3.1", "x", "_") + "\n" + tok("1", "B", "_")))
	f.Add([]byte(tok("1", "A", "2") + tok("2", "B", "3") + tok("3", "C", "1") + "\n\n" + tok("1", "D", "x")))
	f.Add([]byte("\r\n\r\n# c\r\n" + tok("0.1", "E", "_") + tok("1", "A", "_") + tok("1.1", "E", "_") + "# late\n"))
	f.Add([]byte("1\t\t\n \t\n1-1\t_\n\xff\n"))
	if data, err := os.ReadFile(filepath.Join(udDir, "en_ewt-ud-dev.conllu")); err == nil {
		f.Add(data[:4096])
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		sents := readAllLenient(t, data)
		for _, s := range sents {
			text := Format(s)
			if text == "" {
				t.Fatalf("Format refused a sentence that was read: %#v", s)
			}
			back, err := ReadAll(strings.NewReader(text), "")
			if err != nil {
				t.Fatalf("reading back %q: %v", text, err)
			}
			if len(back) != 1 || !reflect.DeepEqual(back[0], s) {
				t.Fatalf("read back differs:\n%#v\n%#v", s, back)
			}
		}
		// A well-formed file reads back byte for byte.
		if all, err := ReadAll(bytes.NewReader(data), ""); err == nil && len(all) > 0 {
			var b bytes.Buffer
			if err := WriteAll(&b, all); err != nil {
				t.Fatal(err)
			}
			if canonical(data) && !bytes.Equal(b.Bytes(), data) {
				t.Fatalf("round trip:\n in %q\nout %q", data, b.Bytes())
			}
		}
	})
}

// canonical reports whether data avoids what the reader accepts leniently:
// it ends in exactly one blank line, has no repeated or leading blank line,
// no '\r' and no byte order mark.
func canonical(data []byte) bool {
	return bytes.HasSuffix(data, []byte("\n\n")) && !bytes.HasSuffix(data, []byte("\n\n\n")) &&
		!bytes.Contains(data, []byte("\n\n\n")) && !bytes.HasPrefix(data, []byte("\n")) &&
		!bytes.ContainsRune(data, '\r') && !bytes.HasPrefix(data, []byte("\uFEFF"))
}

func FuzzTokenReader(f *testing.F) {
	f.Add([]byte("The cat sat .\n\nOn the\tmat\r\n"))
	f.Add([]byte("\uFEFF# _ \u00a0 \v\f\n\xff\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		// A line ends at "\n", "\r\n" or a lone '\r'.
		ends := bytes.ReplaceAll(bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n")), []byte("\r"), []byte("\n"))
		lines := bytes.Count(ends, []byte("\n")) + 1
		r := NewTokenReader(bytes.NewReader(data), "fuzz")
		for calls := 0; ; calls++ {
			if calls > lines+1 {
				t.Fatalf("Next called %d times for %d lines without EOF", calls, lines)
			}
			s, err := r.Next()
			if err == io.EOF {
				return
			}
			if err != nil {
				var e *Error
				if !errors.As(err, &e) || e.Line < 1 || e.Line > lines {
					t.Fatalf("bad error %v (%T)", err, err)
				}
				if strings.Contains(e.Msg, "longer than") {
					return
				}
				continue
			}
			if len(s.Words) == 0 {
				t.Fatal("sentence without words")
			}
			for i, w := range s.Words {
				if w.Form == "" || strings.ContainsAny(w.Form, " \t\r\n\v\f") || w != blankWord(i+1, w.Form) {
					t.Fatalf("bad word %#v", w)
				}
			}
			// Every sentence is valid CoNLL-U input for the parser.
			text := Format(s)
			back, err := ReadAll(strings.NewReader(text), "")
			if err != nil || len(back) != 1 || !reflect.DeepEqual(back[0], s) {
				t.Fatalf("CoNLL-U round trip of %q: %v", text, err)
			}
		}
	})
}
