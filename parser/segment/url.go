package segment

import "bytes"

// findURL finds a URL or an e-mail address in a run: run[a:b] is kept as
// one token; the punctuation clusters before a and after b are tokens of
// their own. A URL starts with a scheme ("http://", "https://", "ftp://")
// or "www."; an e-mail address is local@domain with a dot in the domain.
// Opening brackets and quotes before it and closing punctuation after it
// are not part of it.
func findURL(v runView) (a, b int, ok bool) {
	run := v.run
	for a < len(run) && isOpening(v.text[run[a].s]) {
		a++
	}
	b = len(run)
	for b > a && isClosing(v.text[run[b-1].s]) {
		b--
	}
	if b-a < 5 {
		return 0, 0, false
	}
	s := v.text[run[a].s:run[b-1].e]
	if hasPrefixFold(s, "http://") || hasPrefixFold(s, "https://") || hasPrefixFold(s, "ftp://") ||
		(hasPrefixFold(s, "www.") && len(s) > 6) || isEmail(s) {
		return a, b, true
	}
	return 0, 0, false
}

func isOpening(c byte) bool { return c == '(' || c == '[' || c == '<' || c == '"' || c == '\'' }

func isClosing(c byte) bool {
	return c == ')' || c == ']' || c == '>' || c == '"' || c == '\'' || c == '.' || c == ',' ||
		c == ';' || c == ':' || c == '!' || c == '?'
}

func hasPrefixFold(s []byte, prefix string) bool {
	return len(s) >= len(prefix) && bytes.EqualFold(s[:len(prefix)], []byte(prefix))
}

func isEmail(s []byte) bool {
	at := bytes.IndexByte(s, '@')
	if at < 1 || bytes.IndexByte(s[at+1:], '@') >= 0 {
		return false
	}
	for _, c := range s[:at] {
		if !(isAlnum(c) || c == '.' || c == '_' || c == '%' || c == '+' || c == '-') {
			return false
		}
	}
	dom := s[at+1:]
	dot := bytes.LastIndexByte(dom, '.')
	if dot < 1 || dot == len(dom)-1 {
		return false
	}
	for _, c := range dom {
		if !(isAlnum(c) || c == '.' || c == '-') {
			return false
		}
	}
	return true
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}
