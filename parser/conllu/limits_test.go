package conllu

import (
	"errors"
	"io"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"
)

// wordLines is an endless sentence: "# sent_id = big", then word lines
// 1, 2, 3, ... up to n, then a blank line and a short sentence; made as
// it is read, so that the test itself holds none of it.
type wordLines struct {
	n, next int
	buf     []byte // buf[pos:] is left to read
	pos     int
}

func (w *wordLines) Read(p []byte) (int, error) {
	if w.pos == len(w.buf) {
		w.buf, w.pos = w.buf[:0], 0
		for len(w.buf) < 4096 && w.next <= w.n+1 {
			switch {
			case w.next == 0:
				w.buf = append(w.buf, "# sent_id = big\n"...)
			case w.next <= w.n:
				w.buf = append(strconv.AppendInt(w.buf, int64(w.next), 10), "\tw\t_\t_\t_\t_\t_\t_\t_\t_\n"...)
			default:
				w.buf = append(w.buf, "\n# sent_id = after\n1\tok\t_\t_\t_\t_\t_\t_\t_\t_\n\n"...)
			}
			w.next++
		}
		if len(w.buf) == 0 {
			return 0, io.EOF
		}
	}
	k := copy(p, w.buf[w.pos:])
	w.pos += k
	return k, nil
}

// allocated returns the bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// A sentence of a million words is refused at its word MaxWords+2, as it
// is read: its memory is bounded by the limits, not by its length. In
// keep-going use, SkipRest returns its comments and a comment naming the
// lines dropped, and the next sentence reads.
func TestHostileReaderWordLimit(t *testing.T) {
	const n = 1000000
	r := NewReader(&wordLines{n: n}, "big")
	r.KeepLines()
	var err error
	var raw []byte
	alloc := allocated(func() {
		_, err = r.Next()
		if err == nil {
			return
		}
		raw, _ = r.SkipRest()
	})
	var ce *Error
	if !errors.As(err, &ce) || !ce.LimitExceeded || ce.Error() != "conllu: big:10003: sentence has more than 10001 words (the limit is 10000)" {
		t.Fatalf("Next: %v", err)
	}
	if alloc > 32<<20 {
		t.Errorf("reading the sentence allocated %d MB", alloc>>20)
	}
	want := "# sent_id = big\n" + DroppedComment + "lines 2-1000001 of big (1000000 token lines) not copied: the sentence is over a limit of the reader\n"
	if string(raw) != want {
		t.Errorf("SkipRest = %q, want %q", raw, want)
	}
	if s, err := r.Next(); err != nil || s.Words[0].Form != "ok" || r.SentenceLine() != 1000003 {
		t.Errorf("after it: %v, line %d", err, r.SentenceLine())
	}
	// One word over the parser's limit still reads (the parser names it).
	s, err := NewReader(&wordLines{n: MaxWords + 1}, "x").Next()
	if err != nil || len(s.Words) != MaxWords+1 {
		t.Errorf("MaxWords+1 words: %v", err)
	}
}

// Comments, empty nodes and the bytes of a sentence are limited too.
func TestHostileReaderLimits(t *testing.T) {
	word := "1\tw\t_\t_\t_\t_\t_\t_\t_\t_\n"
	big := "# " + strings.Repeat("c", MaxLineLength-2) + "\n"
	var empty strings.Builder
	empty.WriteString(word)
	for i := 1; i <= MaxEmptyNodes+1; i++ {
		empty.WriteString("1." + strconv.Itoa(i) + "\t_\t_\t_\t_\t_\t_\t_\t_\t_\n")
	}
	var wide strings.Builder
	for i := 1; i <= 40; i++ {
		wide.WriteString(strconv.Itoa(i) + "\tw\t_\t_\t_\t_\t_\t_\t_\t" + strings.Repeat("m", MaxLineLength-30) + "\n")
	}
	for _, c := range []struct{ name, doc, msg string }{
		{"comment lines", strings.Repeat("# c\n", MaxComments+1) + word, ":1001: sentence has more than 1000 comment lines"},
		{"comment bytes", strings.Repeat(big, 5) + word, ":5: sentence has more than 4194304 bytes of comments"},
		{"empty nodes", empty.String(), ":10002: sentence has more than 10000 empty nodes"},
		{"sentence bytes", wide.String(), ":33: sentence is longer than 33554432 bytes"},
	} {
		_, err := NewReader(strings.NewReader(c.doc+"\n"+word), "f").Next()
		var ce *Error
		if !errors.As(err, &ce) || !ce.LimitExceeded || !strings.Contains(err.Error(), "f"+c.msg) {
			t.Errorf("%s: %v; want %q", c.name, err, c.msg)
		}
	}
}

// A line of pre-tokenized text with more tokens than a sentence can have
// is refused without making its words.
func TestHostileTokenLimit(t *testing.T) {
	line := strings.Repeat("w ", 200000) + "\nok .\n"
	tr := NewTokenReader(strings.NewReader(line), "t")
	var err error
	alloc := allocated(func() { _, err = tr.Next() })
	var ce *Error
	if !errors.As(err, &ce) || !ce.LimitExceeded || err.Error() != "conllu: t:1: line has more than 10001 tokens; a sentence has at most 10000 words" {
		t.Fatalf("Next: %v", err)
	}
	if alloc > 4<<20 {
		t.Errorf("allocated %d MB", alloc>>20)
	}
	if s, err := tr.Next(); err != nil || len(s.Words) != 2 {
		t.Errorf("after it: %v", err)
	}
}

// A lone carriage return ends a line of pre-tokenized text; "\r\n" is
// one line end, also when a read ends between its two bytes.
func TestHostileTokensCR(t *testing.T) {
	doc := "a b\rc\r\nd e f\r\rg\r"
	for _, r := range []io.Reader{strings.NewReader(doc), iotest.OneByteReader(strings.NewReader(doc))} {
		tr := NewTokenReader(r, "t")
		var got []string
		var lines []int
		for {
			s, err := tr.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			var forms []string
			for _, w := range s.Words {
				forms = append(forms, w.Form)
			}
			got = append(got, strings.Join(forms, " "))
			lines = append(lines, tr.LineNumber())
		}
		if strings.Join(got, "|") != "a b|c|d e f|g" || !slices.Equal(lines, []int{1, 2, 3, 5}) {
			t.Errorf("sentences %q at lines %v", got, lines)
		}
	}
}
