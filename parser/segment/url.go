package segment

import (
	"bytes"
	"slices"
)

// findURL finds a URL, an e-mail address or a file name in a run:
// run[a:b] is kept as one token, and the parts of the run before and
// after it are tokenized on their own. A URL starts with a scheme
// ("http://", "https://", "ftp://") or "www." after a character that is
// not a letter or digit and runs to the end of the run; an e-mail address
// is local@domain with a dot in the domain; a file name is letters,
// digits, '_' and '-' with one of the extensions in fileExtensions.
// Closing punctuation at the end of the run is not part of them.
func findURL(v runView) (a, b int, ok bool) {
	run := v.run
	s := v.text[run[0].s:run[len(run)-1].e]
	lo, hi := urlSpan(s)
	if lo < 0 {
		lo, hi = emailSpan(s)
	}
	if lo < 0 {
		lo, hi = fileSpan(s)
	}
	if lo < 0 {
		return 0, 0, false
	}
	a, b = -1, -1
	for j, c := range run {
		if c.s-run[0].s == lo {
			a = j
		}
		if c.e-run[0].s == hi {
			b = j + 1
		}
	}
	return a, b, a >= 0 && b > a
}

// urlSpan returns the bytes [lo, hi) of the URL in s, or -1.
func urlSpan(s []byte) (lo, hi int) {
	lo = -1
	if k := bytes.Index(s, []byte("://")); k > 0 {
		i := k
		for i > 0 && isLetter(s[i-1]) {
			i--
		}
		if scheme := bytes.ToLower(s[i:k]); string(scheme) == "http" || string(scheme) == "https" || string(scheme) == "ftp" {
			lo = i
		}
	}
	if lo < 0 {
		for k := 0; k+4 < len(s); k++ {
			if (k == 0 || !isAlnum(s[k-1])) && bytes.EqualFold(s[k:k+4], []byte("www.")) {
				lo = k
				break
			}
		}
	}
	if lo < 0 {
		return -1, -1
	}
	hi = len(s)
	for hi > lo && isClosing(s[hi-1]) {
		hi--
	}
	if hi-lo < 6 {
		return -1, -1
	}
	return lo, hi
}

// emailSpan returns the bytes [lo, hi) of the e-mail address in s, or -1.
func emailSpan(s []byte) (lo, hi int) {
	at := bytes.IndexByte(s, '@')
	if at < 1 {
		return -1, -1
	}
	lo = at
	for lo > 0 && isLocal(s[lo-1]) {
		lo--
	}
	hi = at + 1
	for hi < len(s) && (isAlnum(s[hi]) || s[hi] == '.' || s[hi] == '-') {
		hi++
	}
	for hi > at+1 && (s[hi-1] == '.' || s[hi-1] == '-') {
		hi--
	}
	dom := s[at+1 : hi]
	if lo == at || bytes.IndexByte(dom, '.') < 1 {
		return -1, -1
	}
	return lo, hi
}

// fileExtensions are the extensions that make a file name (lower case).
var fileExtensions = []string{"pdf", "doc", "docx", "xls", "xlsx", "ppt", "pptx", "txt", "htm", "html",
	"jpg", "jpeg", "gif", "png", "zip", "csv", "xml", "mp3", "wav", "exe", "rtf"}

// fileSpan returns the bytes [lo, hi) of a file name that ends s (before
// closing punctuation), or -1.
func fileSpan(s []byte) (lo, hi int) {
	hi = len(s)
	for hi > 0 && isClosing(s[hi-1]) {
		hi--
	}
	dot := bytes.LastIndexByte(s[:hi], '.')
	if dot < 1 || !slices.Contains(fileExtensions, string(bytes.ToLower(s[dot+1:hi]))) {
		return -1, -1
	}
	lo = dot
	for lo > 0 && (isAlnum(s[lo-1]) || s[lo-1] == '_' || s[lo-1] == '-') {
		lo--
	}
	if lo == dot {
		return -1, -1
	}
	return lo, hi
}

func isLocal(c byte) bool {
	return isAlnum(c) || c == '.' || c == '_' || c == '%' || c == '+' || c == '-'
}

func isClosing(c byte) bool {
	return c == ')' || c == ']' || c == '>' || c == '"' || c == '\'' || c == '.' || c == ',' ||
		c == ';' || c == ':' || c == '!' || c == '?'
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func isAlnum(c byte) bool { return isLetter(c) || c >= '0' && c <= '9' }
