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
	p := &proc{m: m, newPar: true, state: -1}
	p.fn = func(s *Sentence) error { return fn(s, p.text, p.base) }
	buf := make([]byte, 0, 2*readWindow)
	for eof := false; !eof; {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := io.ReadAtLeast(r, buf[len(buf):cap(buf)], min(readWindow, cap(buf)-len(buf)))
		buf = buf[:len(buf)+n]
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			eof = true
		} else if err != nil {
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
		p.text = buf
		if err := p.feed(limit); err != nil {
			return err
		}
		buf = p.compact(buf)
	}
	p.text = buf
	return p.flush()
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
