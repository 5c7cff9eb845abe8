package conllu

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
)

// columns names the ten CoNLL-U columns, for error messages.
var columns = [10]string{"ID", "FORM", "LEMMA", "UPOS", "XPOS", "FEATS", "HEAD", "DEPREL", "DEPS", "MISC"}

// Reader reads CoNLL-U sentences from a stream, checking them as it goes.
//
// It reports as an *Error: a line that is not valid UTF-8, contains a
// carriage return (other than in a "\r\n" terminator), is longer than
// MaxLineLength, contains a NUL byte, or has only spaces and tabs; a token line without exactly
// ten tab-separated columns, or with an empty column; an ID that is not an
// integer, a range (3-4) or a decimal (8.1) written without sign or leading
// zeros; word IDs that do not run 1, 2, 3, ...; a multiword range that is
// empty or reversed, is not placed just before its first word, overlaps the
// previous range or ends after the last word; an empty node that is not
// numbered i.1, i.2, ... right after word i (and before a multiword line
// that follows word i); a HEAD that is not a number, is negative, is larger
// than the number of words or is the word itself; a sentence whose HEADs are
// partly "_" and partly numbers; HEADs that form a cycle (the message names
// its words); a comment line after a token line; and a sentence without any
// word (only comments, or only empty nodes). A sentence whose HEADs are all
// "_" is valid: it is unannotated input for the parser. Reader does not
// require a single root (see CheckTree), nor check the other columns. A
// sentence over one of the limits of a sentence (MaxWords, MaxComments,
// ...) gives an *Error with LimitExceeded at the line that goes over it.
//
// Reader is lenient in a few ways that do not lose information: the last
// sentence need not be followed by a blank line, blank lines between
// sentences may be repeated, lines may end in "\r\n", and a UTF-8 byte order
// mark at the start is skipped. Input without these reads back byte for
// byte when written with Write.
type Reader struct {
	lr    lineReader
	err   error // final error (io.EOF, read error, over-long line)
	skip  bool  // skip the rest of a malformed sentence
	first int   // line number of the current sentence's first line

	// Per-sentence state.
	words     []Word // the words of the sentence being read
	wordLines []int  // line number of each word
	mwEnds    []int  // last word of each multiword range
	mwLines   []int  // line number of each multiword range
	mwStart   int    // start of the last multiword range, 0 if none
	emptyMaj  int    // major part of the last empty node ID, -1 if none
	emptyMin  int    // minor part of the last empty node ID
	headKind  byte   // 0 unknown, '_' unannotated, '0' numeric
	headLine  int    // line of the first word, that set headKind
	marks     []byte // scratch for findCycle

	keep bool   // keep the lines of the current sentence in raw
	raw  []byte // its lines so far, each followed by "\n" (KeepLines)

	size sentenceSize // what the limits count (limits.go)
	over bool         // the current sentence went over a limit
}

// KeepLines makes r keep the lines of the sentence it is reading, so that
// after an *Error SkipRest can return the malformed sentence verbatim (the
// keep-going mode of a document parse copies it through). Call it before
// the first Next.
func (r *Reader) KeepLines() { r.keep = true }

// SkipRest reads the rest of the sentence that Next rejected last, up to
// and including its blank line, and returns every non-blank line of that
// sentence as read (with KeepLines; without it, nil), each followed by
// "\n". For a sentence refused for going over a limit (an *Error with
// LimitExceeded) it returns instead the sentence's comments and a comment
// line (DroppedComment) naming the lines that are not returned: the rest
// of such a sentence is read and counted, never kept. It returns the final
// error of the input if there is one (a line longer than MaxLineLength,
// an error of the underlying reader; io.EOF is not an error here). The
// next call of Next reads the sentence after it.
func (r *Reader) SkipRest() ([]byte, error) {
	if r.skip {
		r.skip = false
		last := r.lr.n
		for {
			line, err := r.lr.next()
			if err != nil {
				r.err = err
				break
			}
			if len(line) == 0 {
				break
			}
			last = r.lr.n
			if !r.over {
				r.addRaw(line)
			}
		}
		if r.over && r.keep {
			r.raw = r.dropped(last)
		}
	}
	if r.err != nil && r.err != io.EOF {
		return nil, r.err
	}
	return r.raw, nil
}

func (r *Reader) addRaw(line []byte) {
	if r.keep {
		r.raw = append(append(r.raw, line...), '\n')
	}
}

// NewReader returns a Reader that reads CoNLL-U from r. name is used in
// error messages (typically the file name; it may be empty).
func NewReader(r io.Reader, name string) *Reader {
	return &Reader{lr: newLineReader(r, name)}
}

// Next reads the next sentence. At the end of the input it returns io.EOF.
//
// Malformed input gives an *Error naming the line. After such an error Next
// may be called again: it skips the rest of the malformed sentence and goes
// on with the next one. A line longer than MaxLineLength and errors of the
// underlying reader are final: every later call returns the same error.
func (r *Reader) Next() (*Sentence, error) {
	r.SkipRest() // sets r.err at the end of the input
	if r.err != nil {
		return nil, r.err
	}
	var s *Sentence
	r.raw = r.raw[:0]
	for {
		line, err := r.lr.next()
		if err == io.EOF && s != nil {
			r.err = io.EOF
			return r.finish(s)
		}
		if err != nil {
			r.err = err
			return nil, err
		}
		if len(line) == 0 {
			if s == nil {
				continue // repeated blank line
			}
			return r.finish(s)
		}
		r.addRaw(line)
		if onlySpace(line) {
			// Probably meant as a separator: end the sentence here.
			return nil, r.lr.errorf("line contains only whitespace; a blank line must be empty")
		}
		if s == nil {
			s = &Sentence{}
			r.reset()
		}
		if err := r.parseLine(s, line); err != nil {
			r.skip = true
			return nil, err
		}
	}
}

// SentenceLine returns the number (1-based) of the first line, comment or
// token, of the sentence Next returned or rejected last; 0 before the first.
func (r *Reader) SentenceLine() int { return r.first }

func (r *Reader) reset() {
	r.first = r.lr.n
	r.size = sentenceSize{}
	r.over = false
	r.wordLines = r.wordLines[:0]
	r.mwEnds = r.mwEnds[:0]
	r.mwLines = r.mwLines[:0]
	r.mwStart = 0
	r.emptyMaj, r.emptyMin = -1, 0
	r.headKind, r.headLine = 0, 0
}

func onlySpace(line []byte) bool {
	for _, c := range line {
		if c != ' ' && c != '\t' {
			return false
		}
	}
	return true
}

// parseLine adds a non-blank line to s.
func (r *Reader) parseLine(s *Sentence, line []byte) error {
	lr := &r.lr
	if err := lr.checkText(line); err != nil {
		return err
	}
	if bytes.IndexByte(line, '\r') >= 0 {
		return lr.errorf("line contains a carriage return")
	}
	if err := r.checkLimits(s, line); err != nil {
		return err
	}
	if line[0] == '#' {
		if len(s.Words)+len(s.Multiword)+len(s.Empty) > 0 {
			return lr.errorf("comment line after token lines; comments must come before the first token line of a sentence")
		}
		s.Comments = append(s.Comments, string(line))
		return nil
	}

	text := string(line)
	var f [10]string
	if n := split(text, &f); n != 10 {
		return lr.errorf("line has %d columns, want 10 (separated by tabs)", n)
	}
	for i, v := range f {
		if v == "" {
			return lr.errorf("column %d (%s) is empty", i+1, columns[i])
		}
	}
	id := f[0]
	if i := strings.IndexByte(id, '-'); i >= 0 {
		return r.multiword(s, text, id[:i], id[i+1:])
	}
	if i := strings.IndexByte(id, '.'); i >= 0 {
		return r.empty(s, text, id[:i], id[i+1:])
	}

	v, err := parseUint(id)
	if err != "" {
		return lr.errorf("ID %s %s; want an integer, a range (3-4) or a decimal (8.1)", Quote(id), err)
	}
	want := len(s.Words) + 1
	if v != want {
		return lr.errorf("word ID %d should be %d; word IDs must run 1, 2, 3, ...", v, want)
	}

	head := -1
	if f[6] != "_" {
		h := f[6]
		neg := h[0] == '-' && len(h) > 1
		if neg {
			h = h[1:]
		}
		v, err := parseUint(h)
		switch {
		case err != "":
			return lr.errorf("HEAD %s %s", Quote(f[6]), err)
		case neg:
			return lr.errorf("HEAD %s is out of range: it is negative", f[6])
		case v == want:
			return lr.errorf("HEAD %d is the word itself", v)
		}
		head = v
	}
	hk := byte('0')
	if head == -1 {
		hk = '_'
	}
	switch r.headKind {
	case 0:
		r.headKind, r.headLine = hk, lr.n
	case hk:
	case '_':
		return lr.errorf("HEAD %s is a number but the HEAD of word 1 (line %d) is \"_\"; a sentence needs all HEADs or none", f[6], r.headLine)
	default:
		return lr.errorf("HEAD is \"_\" but the HEAD of word 1 (line %d) is a number; a sentence needs all HEADs or none", r.headLine)
	}

	// Words grow in r.words, reused from sentence to sentence; finish
	// copies them out.
	r.words = append(r.words[:len(s.Words)], Word{
		ID:     v,
		Form:   f[1],
		Lemma:  f[2],
		UPOS:   f[3],
		XPOS:   f[4],
		Feats:  f[5],
		Head:   head,
		Deprel: f[7],
		Deps:   f[8],
		Misc:   f[9],
	})
	s.Words = r.words
	r.wordLines = append(r.wordLines, lr.n)
	return nil
}

// multiword adds a multiword-token line with ID a-b.
func (r *Reader) multiword(s *Sentence, text, a, b string) error {
	lr := &r.lr
	start, err1 := parseUint(a)
	end, err2 := parseUint(b)
	if err1 != "" || err2 != "" {
		return lr.errorf("multiword ID %s is not a range of two word IDs like 3-4", Quote(a+"-"+b))
	}
	if end <= start {
		return lr.errorf("multiword range %d-%d is invalid: its end must be greater than its start", start, end)
	}
	next := len(s.Words) + 1
	if start != next {
		return lr.errorf("multiword range %d-%d should start at word %d, the word that follows it", start, end, next)
	}
	if k := len(r.mwEnds); k > 0 && start <= r.mwEnds[k-1] {
		return lr.errorf("multiword range %d-%d overlaps the previous range, which ends at word %d", start, end, r.mwEnds[k-1])
	}
	s.Multiword = append(s.Multiword, RawLine{Before: start, Text: text})
	r.mwEnds = append(r.mwEnds, end)
	r.mwLines = append(r.mwLines, lr.n)
	r.mwStart = start
	return nil
}

// empty adds an empty-node line with ID maj.min.
func (r *Reader) empty(s *Sentence, text, maj, min string) error {
	lr := &r.lr
	i, err1 := parseUint(maj)
	j, err2 := parseUint(min)
	if err1 != "" || err2 != "" || j == 0 {
		return lr.errorf("empty node ID %s is not a decimal like 8.1", Quote(maj+"."+min))
	}
	n := len(s.Words)
	if i != n {
		return lr.errorf("empty node %d.%d should follow word %d, but follows word %d", i, j, i, n)
	}
	if r.mwStart == n+1 {
		return lr.errorf("empty node %d.%d should come before multiword range %d-%d", i, j, r.mwStart, r.mwEnds[len(r.mwEnds)-1])
	}
	want := 1
	if r.emptyMaj == i {
		want = r.emptyMin + 1
	}
	if j != want {
		return lr.errorf("empty node %d.%d should be %d.%d", i, j, i, want)
	}
	r.emptyMaj, r.emptyMin = i, j
	s.Empty = append(s.Empty, RawLine{Before: i + 1, Text: text})
	return nil
}

// finish checks what can only be checked at the end of a sentence.
func (r *Reader) finish(s *Sentence) (*Sentence, error) {
	n := len(s.Words)
	at := func(line int, format string, args ...any) error {
		return &Error{File: r.lr.name, Line: line, Msg: fmt.Sprintf(format, args...)}
	}
	if n == 0 {
		return nil, at(r.first, "sentence has no words (no token line with an integer ID)")
	}
	for i, end := range r.mwEnds {
		if end > n {
			return nil, at(r.mwLines[i], "multiword range %d-%d ends after the last word %d", s.Multiword[i].Before, end, n)
		}
	}
	s.Words = slices.Clone(s.Words)
	if r.headKind != '0' {
		return s, nil
	}
	for i := range s.Words {
		if h := s.Words[i].Head; h > n {
			return nil, at(r.wordLines[i], "HEAD %d is out of range: the sentence has %d words", h, n)
		}
	}
	if c := findCycle(s.Words, &r.marks); c != nil {
		return nil, at(r.wordLines[c[0]-1], "HEADs form a cycle: %s", cycleString(s.Words, c))
	}
	return s, nil
}

// split splits a tab-separated line into f and returns the number of
// columns, which may be more than len(f).
func split(line string, f *[10]string) int {
	n := 0
	for {
		i := strings.IndexByte(line, '\t')
		if i < 0 {
			if n < len(f) {
				f[n] = line
			}
			return n + 1
		}
		if n < len(f) {
			f[n] = line[:i]
		}
		n++
		line = line[i+1:]
	}
}

// parseUint parses a non-negative decimal integer written without a sign or
// leading zeros. On failure it returns a reason ("is not a number" or "has a
// leading zero").
func parseUint(s string) (int, string) {
	if s == "" || len(s) > 18 {
		return 0, "is not a number"
	}
	v := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, "is not a number"
		}
		v = v*10 + int(c-'0')
	}
	if s[0] == '0' && len(s) > 1 {
		return 0, "has a leading zero"
	}
	return v, ""
}

// ReadAll reads every sentence from r. name is used in error messages. It
// stops at the first error and returns it, an *Error for malformed input.
func ReadAll(r io.Reader, name string) ([]*Sentence, error) {
	rd := NewReader(r, name)
	var out []*Sentence
	for {
		s, err := rd.Next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
}

// ReadFile reads every sentence of the CoNLL-U file at path, naming the file
// by path in error messages. It returns the error of opening the file, or
// the first error of ReadAll.
func ReadFile(path string) ([]*Sentence, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadAll(f, path)
}
