package segment

import (
	"regexp"
	"strings"
	"unicode"

	"github.com/transparse/transparse/parser/conllu"
)

// goldToken is one surface token of a treebank sentence.
type goldToken struct {
	Form       string
	Words      []string // the words of a multiword token; nil for a single word
	SpaceAfter bool
}

// goldSentence is a treebank sentence as the segmenter sees it.
type goldSentence struct {
	Tokens []goldToken
	NewPar bool // a "# newpar" or "# newdoc" comment precedes it
}

// tokensOf returns the surface tokens of s: multiword-token lines with
// their words, and the words outside them. SpaceAfter=No is read from the
// multiword-token line for a multiword token, from the word otherwise.
func tokensOf(s *conllu.Sentence) goldSentence {
	var g goldSentence
	for _, c := range s.Comments {
		t := strings.TrimSpace(strings.TrimPrefix(c, "#"))
		if isMarker(t, "newpar") || isMarker(t, "newdoc") {
			g.NewPar = true
		}
	}
	mw := 0
	for i := 0; i < len(s.Words); i++ {
		if mw < len(s.Multiword) && s.Multiword[mw].Before == i+1 {
			f := strings.Split(s.Multiword[mw].Text, "\t")
			mw++
			if len(f) == 10 {
				lo, hi, ok := rangeOf(f[0])
				if ok && lo == i+1 && hi <= len(s.Words) {
					t := goldToken{Form: f[1], SpaceAfter: !conllu.NoSpaceAfter(f[9])}
					for _, w := range s.Words[lo-1 : hi] {
						t.Words = append(t.Words, w.Form)
					}
					g.Tokens = append(g.Tokens, t)
					i = hi - 1
					continue
				}
			}
		}
		w := s.Words[i]
		g.Tokens = append(g.Tokens, goldToken{Form: w.Form, SpaceAfter: !conllu.NoSpaceAfter(w.Misc)})
	}
	return g
}

func isMarker(comment, name string) bool {
	rest, ok := strings.CutPrefix(comment, name)
	return ok && (rest == "" || rest[0] == ' ' || rest[0] == '\t' || rest[0] == '=')
}

// rangeOf parses a multiword-token ID "a-b".
func rangeOf(id string) (lo, hi int, ok bool) {
	a, b, found := strings.Cut(id, "-")
	if !found {
		return 0, 0, false
	}
	lo, hi = atoi(a), atoi(b)
	return lo, hi, lo > 0 && hi > lo
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' || n > 1e6 {
			return -1
		}
		n = n*10 + int(c-'0')
	}
	if s == "" {
		return -1
	}
	return n
}

// UDText returns the raw text of a treebank the way UD's own .txt files
// are made (conllu_to_text.pl of UniversalDependencies/tools), exactly as
// scripts/ud_text.py makes it: each sentence is its "# text" line (its
// tokens' forms, with a space after every token without SpaceAfter=No,
// when it has none); the sentences of a paragraph are joined by a space; a
// "# newpar" or "# newdoc" comment starts a new paragraph, written after
// an empty line (a treebank with neither is one paragraph); the text is
// broken into lines at the last whitespace within 80 characters (a longer
// word gets a line of its own).
func UDText(sents []*conllu.Sentence) string {
	var out strings.Builder
	var buf []rune
	for i, s := range sents {
		text, newPar := sentenceText(s)
		if newPar && i > 0 {
			if len(buf) > 0 {
				out.WriteString(string(buf))
				out.WriteByte('\n')
				buf = buf[:0]
			}
			out.WriteByte('\n')
		}
		if len(buf) > 0 {
			buf = append(buf, ' ')
		}
		buf = wrapLines(&out, append(buf, []rune(text)...), 80)
	}
	if len(buf) > 0 {
		out.WriteString(string(buf))
		out.WriteByte('\n')
	}
	return out.String()
}

// The comments UDText reads, as conllu_to_text.pl matches them.
var (
	textComment   = regexp.MustCompile(`^#\s*text\s*=\s*(.+)$`)
	markerComment = regexp.MustCompile(`(?i)^#\s*new(par|doc)(\s|$)`)
)

// sentenceText returns the text of s for UDText and whether s starts a
// paragraph.
func sentenceText(s *conllu.Sentence) (string, bool) {
	text, found, newPar := "", false, false
	for _, c := range s.Comments {
		if m := textComment.FindStringSubmatch(c); m != nil {
			text, found = m[1], true
		} else if markerComment.MatchString(c) {
			newPar = true
		}
	}
	if !found {
		var b strings.Builder
		for _, t := range tokensOf(s).Tokens {
			b.WriteString(t.Form)
			if t.SpaceAfter {
				b.WriteByte(' ')
			}
		}
		text = strings.TrimRightFunc(b.String(), unicode.IsSpace)
	}
	return text, newPar
}

// wrapLines writes the complete lines of buf to out as conllu_to_text.pl
// does and returns the rest: while buf has limit characters or more, the
// line ends at its last whitespace within limit characters (or, with none
// there, at its first whitespace after them); a buffer without whitespace
// is written whole.
func wrapLines(out *strings.Builder, buf []rune, limit int) []rune {
	for len(buf) >= limit {
		last := -1
		for i, c := range buf {
			if i > limit && last >= 0 {
				break
			}
			if unicode.IsSpace(c) {
				last = i
			}
		}
		if last <= 0 {
			out.WriteString(string(buf))
			out.WriteByte('\n')
			return buf[:0]
		}
		out.WriteString(string(buf[:last]))
		out.WriteByte('\n')
		buf = buf[last+1:]
	}
	return buf
}
