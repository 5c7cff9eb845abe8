package segment

import (
	"unicode"
	"unicode/utf8"

	"github.com/rivo/uniseg"
)

// cluster is one extended grapheme cluster of the input: bytes [s, e).
type cluster struct {
	s, e int
	cls  byte
}

// Character classes of a cluster, from its first code point: ASCII
// punctuation and symbols stand for themselves; letters, digits and the
// rest fall into the classes below.
const (
	clsLower  = 'a'
	clsUpper  = 'A'
	clsLetter = 'l' // a letter without case
	clsDigit  = '0'
	clsSpace  = ' '
	clsPunct  = 'p' // non-ASCII punctuation
	clsSymbol = 's'
	clsMark   = 'm'
	clsCtrl   = 'c'
	clsOther  = 'o'
	clsNone   = '$' // outside the run or the paragraph
)

// nextCluster returns the end of the grapheme cluster that starts at i,
// its class and whether it is whitespace (every code point is). text must
// be valid UTF-8.
func nextCluster(text []byte, i int, state *int) (end int, cls byte, space bool) {
	c := text[i]
	if c < utf8.RuneSelf && (i+1 == len(text) || text[i+1] < utf8.RuneSelf) && !(c == '\r' && i+1 < len(text) && text[i+1] == '\n') {
		*state = -1
		cls = asciiClass(c)
		return i + 1, cls, cls == clsSpace
	}
	if r, size := utf8.DecodeRune(text[i:]); simple(r) {
		if j := i + size; j == len(text) || text[j] < utf8.RuneSelf && text[j] != '\r' {
			*state = -1
			return j, runeClass(r), unicode.IsSpace(r)
		} else if r2, _ := utf8.DecodeRune(text[j:]); simple(r2) {
			*state = -1
			return j, runeClass(r), unicode.IsSpace(r)
		}
	}
	cl, _, _, st := uniseg.Step(text[i:], *state)
	*state = st
	end = i + len(cl)
	r, _ := utf8.DecodeRune(cl)
	cls = runeClass(r)
	space = true
	for _, r := range string(cl) {
		if !unicode.IsSpace(r) {
			space = false
			break
		}
	}
	return end, cls, space
}

func asciiClass(c byte) byte {
	switch {
	case c >= 'a' && c <= 'z':
		return clsLower
	case c >= 'A' && c <= 'Z':
		return clsUpper
	case c >= '0' && c <= '9':
		return clsDigit
	case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f':
		return clsSpace
	case c < 0x20 || c == 0x7f:
		return clsCtrl
	}
	return c
}

func runeClass(r rune) byte {
	if r < utf8.RuneSelf {
		return asciiClass(byte(r))
	}
	switch {
	case unicode.IsSpace(r):
		return clsSpace
	case unicode.IsUpper(r):
		return clsUpper
	case unicode.IsLower(r):
		return clsLower
	case unicode.IsLetter(r):
		return clsLetter
	case unicode.IsDigit(r):
		return clsDigit
	case unicode.IsMark(r):
		return clsMark
	case unicode.IsPunct(r):
		return clsPunct
	case unicode.IsSymbol(r):
		return clsSymbol
	case unicode.IsControl(r):
		return clsCtrl
	}
	return clsOther
}

func isLetterCls(c byte) bool {
	return c == clsLower || c == clsUpper || c == clsLetter || c == clsMark
}

// lineBreaks counts the line breaks in the whitespace text[s:e]: "\r\n"
// counts once; "\n", "\r", "\v", "\f", U+0085 and U+2028 count; U+2029
// (PARAGRAPH SEPARATOR) counts twice, a blank line by itself.
func lineBreaks(text []byte, s, e int) int {
	n := 0
	for i := s; i < e; {
		c := text[i]
		if c < utf8.RuneSelf {
			if c == '\n' || c == '\v' || c == '\f' || (c == '\r' && (i+1 == e || text[i+1] != '\n')) {
				n++
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(text[i:e])
		switch r {
		case 0x85, 0x2028:
			n++
		case 0x2029:
			n += 2
		}
		i += size
	}
	return n
}

// lowerInto appends the lower case of p to dst, code point by code point
// (so the number of code points is kept).
func lowerInto(dst, p []byte) []byte {
	for i := 0; i < len(p); {
		c := p[i]
		if c < utf8.RuneSelf {
			if c >= 'A' && c <= 'Z' {
				c += 'a' - 'A'
			}
			dst = append(dst, c)
			i++
			continue
		}
		r, size := utf8.DecodeRune(p[i:])
		dst = utf8.AppendRune(dst, unicode.ToLower(r))
		i += size
	}
	return dst
}

// simple reports whether r is a Latin, Greek or Cyrillic character (not a
// combining mark) from the ranges where a grapheme cluster boundary
// always falls between two such characters, or before ASCII: none of them
// is a prepend, regional indicator, Hangul, extend or spacing mark
// character. The cluster of such a character followed by one of them or
// by ASCII is the character alone, without asking uniseg.
func simple(r rune) bool {
	return r >= 0xA0 && r < 0x300 || r >= 0x370 && r < 0x483 || r >= 0x48A && r < 0x530
}
