package conllu

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The MISC attributes that record the whitespace of the text a sentence
// was segmented from (as UDPipe 1 writes them). RebuildText reads them.
const (
	// SpaceAfterNo marks a token that no whitespace follows.
	SpaceAfterNo = "SpaceAfter=No"
	// SpacesAfter is the whitespace after a token when it is not exactly
	// one space (EscapeSpaces).
	SpacesAfter = "SpacesAfter"
	// SpacesBefore is the whitespace before the first token of a text.
	SpacesBefore = "SpacesBefore"
)

// EscapeSpaces returns s, a run of whitespace, as the value of a
// SpacesAfter or SpacesBefore attribute: a space is written "\s", a tab
// "\t", a carriage return "\r", a line feed "\n", "|" "\p" and "\" "\\"
// (UDPipe 1's escapes); any other character that a MISC column cannot
// hold safely or visibly, a control or format character (Unicode
// categories Cc and Cf: "\v", "\f", U+0085, the byte order mark U+FEFF,
// ...), as "\u" and four upper-case hexadecimal digits ("\u000B",
// "\uFEFF"); every other character, such as NBSP or U+2028, as itself.
func EscapeSpaces(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch r {
		case ' ':
			b.WriteString(`\s`)
		case '\t':
			b.WriteString(`\t`)
		case '\r':
			b.WriteString(`\r`)
		case '\n':
			b.WriteString(`\n`)
		case '|':
			b.WriteString(`\p`)
		case '\\':
			b.WriteString(`\\`)
		default:
			if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
				fmt.Fprintf(&b, `\u%04X`, r)
			} else {
				b.WriteRune(r)
			}
		}
	}
	return b.String()
}

// UnescapeSpaces undoes EscapeSpaces. A backslash not followed by one of
// the escapes gives an error.
func UnescapeSpaces(v string) (string, error) {
	if !strings.Contains(v, `\`) {
		return v, nil
	}
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		if i+1 == len(v) {
			return "", fmt.Errorf("escape %s: a backslash at the end", Quote(v))
		}
		i++
		switch v[i] {
		case 's':
			b.WriteByte(' ')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'n':
			b.WriteByte('\n')
		case 'p':
			b.WriteByte('|')
		case '\\':
			b.WriteByte('\\')
		case 'u':
			n, err := strconv.ParseUint(v[i+1:min(i+5, len(v))], 16, 32)
			if err != nil || i+5 > len(v) || !utf8.ValidRune(rune(n)) {
				return "", fmt.Errorf("escape %s: \\u needs four hexadecimal digits of a code point", Quote(v))
			}
			b.WriteRune(rune(n))
			i += 4
		default:
			return "", fmt.Errorf("escape %s: unknown escape \\%c", Quote(v), v[i])
		}
	}
	return b.String(), nil
}

// RebuildText returns the text that sents were segmented from, from the
// forms of their surface tokens and the whitespace recorded in MISC (of
// the multiword-token line for a multiword token, of the word otherwise):
// SpacesBefore before a token, then its form, then SpacesAfter after it,
// or nothing with SpaceAfter=No, or else one space. For the output of a
// raw-text parse (parser.InputText) this is the input byte for byte. A
// malformed SpacesAfter or SpacesBefore value gives an *Error naming the
// sentence (0-based) and the token (1-based).
func RebuildText(sents []*Sentence) (string, error) {
	var b strings.Builder
	for si, s := range sents {
		for ti, t := range s.surfaceTokens() {
			fail := func(err error) (string, error) {
				return "", &Error{Msg: fmt.Sprintf("sentence %d: token %d: %v", si, ti+1, err)}
			}
			before, after, noSpace := "", " ", false
			for item := range strings.SplitSeq(t.misc, "|") {
				k, v, _ := strings.Cut(item, "=")
				var err error
				switch {
				case item == SpaceAfterNo:
					noSpace = true
				case k == SpacesAfter:
					after, err = UnescapeSpaces(v)
				case k == SpacesBefore:
					before, err = UnescapeSpaces(v)
				}
				if err != nil {
					return fail(err)
				}
			}
			if noSpace {
				after = ""
			}
			b.WriteString(before)
			b.WriteString(t.form)
			b.WriteString(after)
		}
	}
	return b.String(), nil
}

// surfaceToken is a token of the text: a multiword token or a word
// outside one.
type surfaceToken struct {
	form, misc string
}

// surfaceTokens returns the tokens of s in order: each multiword-token
// line (ID "a-b" with a <= b within the sentence) with the words it
// spans, and each word outside them.
func (s *Sentence) surfaceTokens() []surfaceToken {
	var out []surfaceToken
	mw := 0
	for i := 0; i < len(s.Words); i++ {
		for mw < len(s.Multiword) && s.Multiword[mw].Before < i+1 {
			mw++
		}
		if mw < len(s.Multiword) && s.Multiword[mw].Before == i+1 {
			f := strings.Split(s.Multiword[mw].Text, "\t")
			mw++
			a, z, _ := strings.Cut(f[0], "-")
			lo, err1 := strconv.Atoi(a)
			hi, err2 := strconv.Atoi(z)
			if len(f) == 10 && err1 == nil && err2 == nil && lo == i+1 && hi >= lo && hi <= len(s.Words) {
				out = append(out, surfaceToken{form: f[1], misc: f[9]})
				i = hi - 1
				continue
			}
		}
		out = append(out, surfaceToken{form: s.Words[i].Form, misc: s.Words[i].Misc})
	}
	return out
}
