package conllu

import "io"

// TokenReader reads pre-tokenized text: one sentence per line, tokens
// separated by spaces or tabs (also '\v' and '\f'; other Unicode spaces
// belong to the token). Lines end in "\n", "\r\n" or a lone "\r" (old
// Mac OS text). Blank lines are skipped.
type TokenReader struct {
	lr   lineReader
	err  error // final error
	keep bool
	raw  []byte // the last line read (KeepLines)
}

// LineNumber returns the number (1-based) of the last line Next read.
func (t *TokenReader) LineNumber() int { return t.lr.n }

// KeepLines makes t keep a copy of each line it reads, for Line.
func (t *TokenReader) KeepLines() { t.keep = true }

// Line returns the last line Next read (the one in error after an *Error)
// followed by "\n", with KeepLines; otherwise, and after a final error,
// it is empty. It is valid until the next call of Next.
func (t *TokenReader) Line() []byte { return t.raw }

// NewTokenReader returns a TokenReader that reads from r. name is used in
// error messages (it may be empty).
func NewTokenReader(r io.Reader, name string) *TokenReader {
	return &TokenReader{lr: newLineReader(&crReader{r: r}, name)}
}

// crReader turns each lone "\r" of r into "\n" and keeps "\r\n" as it
// is, so that a lone "\r" ends a line.
type crReader struct {
	r      io.Reader
	skipLF bool // the last read ended in a '\r' made '\n': drop a '\n' that follows
}

func (c *crReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	if n > 0 && c.skipLF {
		c.skipLF = false
		if p[0] == '\n' {
			n = copy(p, p[1:n])
		}
	}
	for i := 0; i < n; i++ {
		if p[i] != '\r' {
			continue
		}
		switch {
		case i+1 == n:
			p[i], c.skipLF = '\n', true
		case p[i+1] != '\n':
			p[i] = '\n'
		}
	}
	return n, err
}

// Next returns the sentence of the next non-blank line, made as FromForms
// makes it. At the end of the input it returns io.EOF.
//
// A line that is not valid UTF-8 or contains a NUL byte gives an *Error
// naming the line and byte, and a line of more than MaxWords+1 tokens an
// *Error with LimitExceeded (counted as read: no word of it is made); Next
// may be called again to go on with the next line. A line longer than MaxLineLength
// (an *Error) and errors of the underlying reader are final: every later
// call returns the same error.
func (t *TokenReader) Next() (*Sentence, error) {
	if t.err != nil {
		return nil, t.err
	}
	for {
		t.raw = t.raw[:0]
		line, err := t.lr.next()
		if err != nil {
			t.err = err
			return nil, err
		}
		if t.keep {
			t.raw = append(append(t.raw[:0], line...), '\n')
		}
		if err := t.lr.checkText(line); err != nil {
			return nil, err
		}
		n := 0
		for i := 0; i < len(line); {
			for i < len(line) && isSep(line[i]) {
				i++
			}
			if i < len(line) {
				n++
			}
			if n > MaxWords+1 {
				e := t.lr.errorf("line has more than %d tokens; a sentence has at most %d words", MaxWords+1, MaxWords)
				e.LimitExceeded = true
				return nil, e
			}
			for i < len(line) && !isSep(line[i]) {
				i++
			}
		}
		if n == 0 {
			continue
		}
		text := string(line)
		s := &Sentence{Words: make([]Word, 0, n)}
		for i := 0; i < len(text); {
			for i < len(text) && isSep(text[i]) {
				i++
			}
			j := i
			for j < len(text) && !isSep(text[j]) {
				j++
			}
			if j > i {
				s.Words = append(s.Words, blankWord(len(s.Words)+1, text[i:j]))
			}
			i = j
		}
		return s, nil
	}
}

func isSep(c byte) bool {
	return c == ' ' || c == '\t' || c == '\v' || c == '\f'
}

// blankWord returns word id with the given form and every other column "_".
func blankWord(id int, form string) Word {
	return Word{ID: id, Form: form, Lemma: "_", UPOS: "_", XPOS: "_", Feats: "_",
		Head: -1, Deprel: "_", Deps: "_", Misc: "_"}
}

// FromForms returns an unannotated sentence of the given word forms: word i+1
// has Form forms[i], Head -1 and "_" in every other column. The forms are
// not checked; Write refuses forms with tabs or line breaks.
func FromForms(forms []string) *Sentence {
	s := &Sentence{Words: make([]Word, len(forms))}
	for i, f := range forms {
		s.Words[i] = blankWord(i+1, f)
	}
	return s
}
