package conllu

import (
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Write writes s to w in CoNLL-U: its comments, then its token lines in file
// order (the multiword lines with Before == i just before word i, the empty
// nodes with Before == i before those), then one blank line. A HEAD of -1 is
// written as "_", and so is an empty ("") column.
//
// Write returns an *Error, and writes nothing, if s cannot be written so
// that it reads back: it has no words; Words[i].ID != i+1; a HEAD is below -1
// or above the number of words; a column contains a tab, newline or carriage
// return; a comment does not start with '#' or has a line break; or a raw
// line is empty, starts with '#', has a line break, or has a Before out of
// range or out of order. Otherwise it returns the error of w, if any.
func Write(w io.Writer, s *Sentence) error {
	b, err := appendSentence(nil, s)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

// Format returns s as Write would write it, or "" if Write would refuse it.
func Format(s *Sentence) string {
	b, err := appendSentence(nil, s)
	if err != nil {
		return ""
	}
	return string(b)
}

// WriteAll writes the sentences to w one after the other, as Write does, in
// few large writes. If a sentence cannot be written it writes the sentences
// before it and returns an *Error naming the sentence by its index (0-based).
func WriteAll(w io.Writer, sents []*Sentence) error {
	const chunk = 64 << 10
	var b []byte
	for i, s := range sents {
		var err error
		n := len(b)
		b, err = appendSentence(b, s)
		if err != nil {
			if _, werr := w.Write(b[:n]); werr != nil {
				return werr
			}
			e := err.(*Error)
			e.Msg = "sentence " + strconv.Itoa(i) + ": " + e.Msg
			return e
		}
		if len(b) >= chunk {
			if _, err := w.Write(b); err != nil {
				return err
			}
			b = b[:0]
		}
	}
	if len(b) > 0 {
		_, err := w.Write(b)
		return err
	}
	return nil
}

// appendSentence appends s in CoNLL-U to b. On error it returns b unchanged
// in length (the appended bytes are garbage beyond len) and an *Error.
func appendSentence(b []byte, s *Sentence) ([]byte, error) {
	b0 := b
	fail := func(format string, args ...any) ([]byte, error) {
		return b0, &Error{Msg: fmt.Sprintf(format, args...)}
	}
	n := len(s.Words)
	if n == 0 {
		return fail("sentence has no words")
	}
	for _, c := range s.Comments {
		if !strings.HasPrefix(c, "#") || strings.ContainsAny(c, "\n\r") {
			return fail("comment %s does not start with '#' or contains a line break", Quote(c))
		}
		b = append(b, c...)
		b = append(b, '\n')
	}
	raw := func(b []byte, l RawLine) ([]byte, bool) {
		if l.Text == "" || l.Text[0] == '#' || strings.ContainsAny(l.Text, "\n\r") {
			return b, false
		}
		b = append(b, l.Text...)
		return append(b, '\n'), true
	}
	mi, ei := 0, 0
	var ok bool
	for i := 1; i <= n+1; i++ {
		for ; ei < len(s.Empty) && s.Empty[ei].Before == i; ei++ {
			if b, ok = raw(b, s.Empty[ei]); !ok {
				return fail("empty node line %s is empty, starts with '#' or contains a line break", Quote(s.Empty[ei].Text))
			}
		}
		if i > n {
			break
		}
		for ; mi < len(s.Multiword) && s.Multiword[mi].Before == i; mi++ {
			if b, ok = raw(b, s.Multiword[mi]); !ok {
				return fail("multiword line %s is empty, starts with '#' or contains a line break", Quote(s.Multiword[mi].Text))
			}
		}
		w := &s.Words[i-1]
		if w.ID != i {
			return fail("word %d has ID %d", i, w.ID)
		}
		b = strconv.AppendInt(b, int64(i), 10)
		for c, v := range [...]string{w.Form, w.Lemma, w.UPOS, w.XPOS, w.Feats} {
			if b, ok = appendColumn(b, v); !ok {
				return fail("word %d: %s %s contains a tab or line break", i, columns[c+1], Quote(v))
			}
		}
		b = append(b, '\t')
		switch {
		case w.Head == -1:
			b = append(b, '_')
		case w.Head < -1 || w.Head > n:
			return fail("word %d: HEAD %d is out of range: the sentence has %d words", i, w.Head, n)
		default:
			b = strconv.AppendInt(b, int64(w.Head), 10)
		}
		for c, v := range [...]string{w.Deprel, w.Deps, w.Misc} {
			if b, ok = appendColumn(b, v); !ok {
				return fail("word %d: %s %s contains a tab or line break", i, columns[c+7], Quote(v))
			}
		}
		b = append(b, '\n')
	}
	if mi < len(s.Multiword) {
		return fail("multiword line %s: Before %d is out of range or out of order", Quote(s.Multiword[mi].Text), s.Multiword[mi].Before)
	}
	if ei < len(s.Empty) {
		return fail("empty node line %s: Before %d is out of range or out of order", Quote(s.Empty[ei].Text), s.Empty[ei].Before)
	}
	return append(b, '\n'), nil
}

// appendColumn appends a tab and v ("_" if v is empty). It reports false if
// v contains a tab or line break.
func appendColumn(b []byte, v string) ([]byte, bool) {
	b = append(b, '\t')
	if v == "" {
		return append(b, '_'), true
	}
	for i := 0; i < len(v); i++ {
		if c := v[i]; c == '\t' || c == '\n' || c == '\r' {
			return b, false
		}
	}
	return append(b, v...), true
}
