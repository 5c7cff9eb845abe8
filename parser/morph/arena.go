package morph

import (
	"unicode"
	"unicode/utf8"
	"unsafe"
)

// arena holds the strings a component makes while it annotates one
// sentence (lowercased and recased forms), so that annotating makes no
// garbage. Its strings share its buffer: they stay valid until the next
// reset, and must never reach a caller.
type arena struct{ b []byte }

func (a *arena) reset() { a.b = a.b[:0] }

// str returns a string of the bytes appended to the arena since start.
func (a *arena) str(start int) string {
	if len(a.b) == start {
		return ""
	}
	return unsafe.String(&a.b[start], len(a.b)-start)
}

// lower returns strings.ToLower(s), in the arena when it differs from s.
func (a *arena) lower(s string) string {
	if isLowerASCII(s) {
		return s
	}
	start := len(a.b)
	for _, r := range s {
		a.b = utf8.AppendRune(a.b, unicode.ToLower(r))
	}
	if l := a.str(start); l != s {
		return l
	}
	a.b = a.b[:start]
	return s
}

// cased returns applyCase(s, c), in the arena when it differs from s.
func (a *arena) cased(s string, c Casing) string {
	switch c {
	case Lower:
		return a.lower(s)
	case Upper:
		if isUpperASCII(s) {
			return s
		}
		start := len(a.b)
		for _, r := range s {
			a.b = utf8.AppendRune(a.b, unicode.ToUpper(r))
		}
		return a.str(start)
	case Title:
		r, n := utf8.DecodeRuneInString(s)
		if n == 0 {
			return s
		}
		start := len(a.b)
		a.b = utf8.AppendRune(a.b, unicode.ToUpper(r))
		for _, r := range s[n:] {
			a.b = utf8.AppendRune(a.b, unicode.ToLower(r))
		}
		return a.str(start)
	}
	return s
}

// isLowerASCII reports whether s is ASCII without capitals: its own
// strings.ToLower.
func isLowerASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= utf8.RuneSelf || 'A' <= c && c <= 'Z' {
			return false
		}
	}
	return true
}

// isUpperASCII reports whether s is ASCII without small letters: its own
// strings.ToUpper.
func isUpperASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= utf8.RuneSelf || 'a' <= c && c <= 'z' {
			return false
		}
	}
	return true
}
