package parser

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"unicode/utf8"
)

// ReplacedComment starts the comment of a sentence of InputText read
// with SkipOnError whose text held invalid UTF-8: each byte that does not
// start a valid UTF-8 sequence was replaced by U+FFFD, and the comment
// lists the bytes replaced and their offsets in the input, e.g.
// "# transparse_replaced = invalid UTF-8 replaced by U+FFFD: 0xff at byte
// offset 5, 0xc3 at byte offset 9". It lists at most MaxReplacedListed
// bytes, then how many more there were.
const ReplacedComment = "# transparse_replaced = "

// MaxReplacedListed is the most replaced bytes that one ReplacedComment
// lists by value and offset.
const MaxReplacedListed = 64

// replacement is one invalid byte replaced by U+FFFD: its value and its
// byte offsets in the input and in the text with the replacements.
type replacement struct {
	in, out int
	b       byte
}

// replacingReader reads UTF-8 text from r with each byte that does not
// start a valid UTF-8 sequence replaced by U+FFFD (three bytes), and
// records each replacement. A sequence cut by the end of one read of r
// is completed by the next.
type replacingReader struct {
	r       io.Reader
	buf     []byte // what one read of r fills
	raw     []byte // read from r, not yet decoded
	rawOff  int    // input offset of raw[0]
	out     []byte // decoded; out[pos:] not yet returned
	pos     int
	decoded int   // bytes decoded so far (the output offset of the end of out)
	eof     error // r's final error, once seen
	reps    []replacement
	dropped int // replacements before reps[0], forgotten by comment
}

const replacementBytes = len(string(utf8.RuneError)) // 3

func newReplacingReader(r io.Reader) *replacingReader { return &replacingReader{r: r} }

func (rr *replacingReader) Read(p []byte) (int, error) {
	for rr.pos == len(rr.out) {
		rr.out, rr.pos = rr.out[:0], 0
		if rr.eof != nil && len(rr.raw) == 0 {
			return 0, rr.eof
		}
		if rr.eof == nil {
			if rr.buf == nil {
				rr.buf = make([]byte, 32<<10)
			}
			n, err := rr.r.Read(rr.buf)
			rr.raw = append(rr.raw, rr.buf[:n]...)
			if err != nil {
				rr.eof = err
			}
		}
		rr.decode()
	}
	n := copy(p, rr.out[rr.pos:])
	rr.pos += n
	return n, nil
}

// decode moves the decodable bytes of raw to out (empty), keeping an
// incomplete sequence at its end until more is read or r has ended.
func (rr *replacingReader) decode() {
	i, start := 0, len(rr.out)
	for i < len(rr.raw) {
		c := rr.raw[i]
		if c < utf8.RuneSelf { // a run of ASCII at once
			j := i + 1
			for j < len(rr.raw) && rr.raw[j] < utf8.RuneSelf {
				j++
			}
			rr.out = append(rr.out, rr.raw[i:j]...)
			i = j
			continue
		}
		if rr.eof == nil && !utf8.FullRune(rr.raw[i:]) {
			break
		}
		r, size := utf8.DecodeRune(rr.raw[i:])
		if r == utf8.RuneError && size == 1 {
			rr.reps = append(rr.reps, replacement{in: rr.rawOff + i, out: rr.decoded + len(rr.out) - start, b: c})
			rr.out = append(rr.out, string(utf8.RuneError)...)
		} else {
			rr.out = append(rr.out, rr.raw[i:i+size]...)
		}
		i += size
	}
	rr.decoded += len(rr.out) - start
	rr.rawOff += i
	rr.raw = append(rr.raw[:0], rr.raw[i:]...)
}

// inputOffset returns the input offset of the byte at output offset x.
func (rr *replacingReader) inputOffset(x int) int {
	n := rr.dropped + sort.Search(len(rr.reps), func(i int) bool { return rr.reps[i].out >= x })
	return x - n*(replacementBytes-1)
}

// comment returns the ReplacedComment of the replacements before output
// offset end (the end of a sentence: those of the sentences before it
// are gone) and their number (0, and no comment, for none), and forgets
// them.
func (rr *replacingReader) comment(end int) (string, int) {
	n := sort.Search(len(rr.reps), func(i int) bool { return rr.reps[i].out >= end })
	var sb strings.Builder
	if n > 0 {
		sb.WriteString(ReplacedComment + "invalid UTF-8 replaced by U+FFFD: ")
		for k, rep := range rr.reps[:min(n, MaxReplacedListed)] {
			if k > 0 {
				sb.WriteString(", ")
			}
			fmt.Fprintf(&sb, "0x%02x at byte offset %d", rep.b, rep.in)
		}
		if more := n - MaxReplacedListed; more > 0 {
			fmt.Fprintf(&sb, ", and %d more", more)
		}
	}
	rr.dropped += n
	rr.reps = append(rr.reps[:0], rr.reps[n:]...)
	return sb.String(), n
}
