package segment

import (
	"errors"
	"io"
	"unicode/utf8"
)

// Window sizes of EachReader: it reads about readWindow bytes at a time
// and fails when maxWindow bytes hold no place to cut.
const (
	readWindow = 1 << 20
	maxWindow  = 16 << 20
)

// ErrNoCut is returned by EachReader for more than 16 MiB of input
// without whitespace or two adjacent ASCII characters, where the stream
// could be cut into windows.
var ErrNoCut = errors.New("segment: 16 MiB of input without a place to cut it into windows")

// EachReader is Each over a stream: it reads r in windows of about 1 MiB
// and calls fn with each sentence, the current window text and the
// offset base of text in the stream. Token offsets are offsets in the
// stream: a token is text[Start-base:End-base]; text also holds the
// whitespace since the end of the previous sentence's last token unless
// it is longer than 1 MiB (then base is past that end). Memory stays
// bounded whatever the size of the input. The sentences are those of
// Each on the whole input, except where a window has to end without
// whitespace after a run: inside whitespace longer than a window (a
// blank line split there may be missed) or inside a run (cut there, as
// at MaxRunBytes). Invalid UTF-8 gives an *InvalidUTF8Error with the
// offset in the stream; a read error is returned as is.
func (m *Model) EachReader(r io.Reader, fn func(s *Sentence, text []byte, base int) error) error {
	sc := m.NewScanner(r)
	for {
		s, text, base, err := sc.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if err := fn(s, text, base); err != nil {
			return err
		}
	}
}

// Scanner is EachReader in pull form: each call to Next returns the next
// sentence. Memory is bounded as EachReader's: the window and the
// sentences segmented in it. A Scanner is not safe for concurrent use.
type Scanner struct {
	// SentencePerLine, set before the first call to Next, makes every
	// line break end a sentence and no other place but MaxTokens: the
	// segmenter then decides tokens and multiword tokens only.
	SentencePerLine bool

	p       *proc
	r       io.Reader
	buf     []byte
	fed     bool     // buf has been fed and not yet compacted
	queue   []queued // the sentences of the current window
	toks    []Token  // their tokens
	qi      int      // queue[qi:] are not yet returned
	sent    Sentence // the sentence Next returned last
	err     error    // io.EOF or the error that ends the input
	at, cps int      // CodePoints: cps code points precede byte offset at
}

// queued is a sentence of Scanner's queue: its tokens are toks[a:b].
type queued struct {
	a, b        int
	newPar, cut bool
}

// NewScanner returns a Scanner of the text read from r.
func (m *Model) NewScanner(r io.Reader) *Scanner {
	s := &Scanner{r: r, buf: make([]byte, 0, 2*readWindow)}
	s.p = &proc{m: m, newPar: true, state: -1}
	s.p.fn = func(t *Sentence) error {
		a := len(s.toks)
		s.toks = append(s.toks, t.Tokens...)
		s.queue = append(s.queue, queued{a: a, b: len(s.toks), newPar: t.NewPar, cut: t.Cut})
		return nil
	}
	return s
}

// Next returns the next sentence, the window text and the offset base of
// text in the stream, as EachReader passes them to its function; the
// sentence and text are valid until the next call. At the end of the
// input it returns io.EOF with the last window: text then ends with the
// last byte of the input and holds the whitespace after the last token
// unless it is longer than 1 MiB. Errors are EachReader's; an error or
// io.EOF is final.
func (s *Scanner) Next() (*Sentence, []byte, int, error) {
	for s.qi == len(s.queue) {
		if s.err != nil {
			return nil, s.p.text, s.p.base, s.err
		}
		s.queue, s.toks, s.qi = s.queue[:0], s.toks[:0], 0
		s.err = s.step()
	}
	q := s.queue[s.qi]
	s.qi++
	s.sent = Sentence{Tokens: s.toks[q.a:q.b:q.b], NewPar: q.newPar, Cut: q.cut}
	return &s.sent, s.p.text, s.p.base, nil
}

// step reads and segments the next window; at the end of the input it
// ends the last sentence and returns io.EOF.
func (s *Scanner) step() error {
	p := s.p
	p.perLine = s.SentencePerLine
	if s.fed {
		s.buf = p.compact(s.buf)
		s.fed = false
	}
	for {
		buf := s.buf
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := io.ReadAtLeast(s.r, buf[len(buf):cap(buf)], min(readWindow, cap(buf)-len(buf)))
		buf = buf[:len(buf)+n]
		s.buf = buf
		eof := err == io.EOF || err == io.ErrUnexpectedEOF
		if err != nil && !eof {
			return err
		}
		limit := len(buf)
		if !eof {
			if limit = cutPoint(buf, p.pos); limit < 0 {
				if len(buf) >= maxWindow {
					return ErrNoCut
				}
				continue
			}
		}
		if err := checkUTF8(buf[p.pos:limit]); err != nil {
			err.(*InvalidUTF8Error).Offset += p.base + p.pos
			return err
		}
		p.text, s.fed = buf, true
		if err := p.feed(limit); err != nil {
			return err
		}
		if !eof {
			return nil
		}
		if err := p.flush(); err != nil {
			return err
		}
		return io.EOF
	}
}

// CodePoints returns the number of Unicode code points of the input
// before the byte offset off, an offset into the text that Next returned
// last (base <= off <= base+len(text)). It costs the code points between
// off and the offset of the previous call when off is not smaller, and
// those between base and off otherwise.
func (s *Scanner) CodePoints(off int) int {
	p := s.p
	if s.at < p.base || off < s.at {
		s.at, s.cps = p.base, p.runes
	}
	s.cps += utf8.RuneCount(p.text[s.at-p.base : off-p.base])
	s.at = off
	return s.cps
}

// cutPoint returns the last place after from where the window may end,
// between two ASCII characters followed by ASCII: best where whitespace
// starts after a run; else inside whitespace (not inside "\r\n"); else
// inside a run (which is cut there); -1 when there is none.
func cutPoint(buf []byte, from int) int {
	inSpace, inRun := -1, -1
	for c := len(buf) - 2; c > from; c-- {
		a, b := buf[c-1], buf[c]
		if a >= utf8.RuneSelf || b >= utf8.RuneSelf || buf[c+1] >= utf8.RuneSelf || a == '\r' {
			continue
		}
		sa, sb := asciiClass(a) == clsSpace, asciiClass(b) == clsSpace
		switch {
		case !sa && sb:
			return c
		case sa && sb && inSpace < 0:
			inSpace = c
		case !sa && !sb && inRun < 0:
			inRun = c
		}
	}
	if inSpace >= 0 {
		return inSpace
	}
	return inRun
}

// compact drops the bytes of buf that no later sentence needs and shifts
// the offsets that point into it.
func (p *proc) compact(buf []byte) []byte {
	keep := p.pos
	if p.pos-p.lastEnd <= readWindow {
		keep = min(keep, p.lastEnd)
	}
	if len(p.pending) > 0 {
		keep = min(keep, p.pending[0].start)
	}
	if keep == 0 {
		return buf
	}
	p.runes += utf8.RuneCount(buf[:keep])
	n := copy(buf, buf[keep:])
	for i := range p.pending {
		p.pending[i].start -= keep
		p.pending[i].end -= keep
	}
	p.pos -= keep
	p.lastEnd -= keep
	p.base += keep
	return buf[:n]
}
