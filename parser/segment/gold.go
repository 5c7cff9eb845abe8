package segment

import (
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

// UDText returns the raw text of a treebank the way UD's conllu_to_text.pl
// (UniversalDependencies/tools) makes the .txt files: each sentence is its
// tokens' forms with a space after every token without SpaceAfter=No;
// sentences follow one another in a paragraph; a "# newpar" or "# newdoc"
// comment starts a new paragraph, written after an empty line; lines are
// broken at whitespace after at most 80 characters (a word longer than
// that gets a line of its own). A treebank without "# newpar" and
// "# newdoc" is therefore one paragraph. Unlike the script, a paragraph
// break inside a sentence (NewPar=Yes in MISC) is not honoured: the
// segmenter's gold sentences never span paragraphs.
func UDText(sents []*conllu.Sentence) string {
	var out, buf strings.Builder
	start := true
	for _, s := range sents {
		g := tokensOf(s)
		if g.NewPar && !start {
			if buf.Len() > 0 {
				out.WriteString(buf.String())
				out.WriteByte('\n')
				buf.Reset()
			}
			out.WriteByte('\n')
		}
		noBreak := false
		for _, t := range g.Tokens {
			buf.WriteString(t.Form)
			noBreak = !t.SpaceAfter
			if t.SpaceAfter {
				buf.WriteByte(' ')
			}
		}
		rest := wrapLines(&out, []rune(buf.String()), 80, noBreak)
		buf.Reset()
		buf.WriteString(string(rest))
		start = false
	}
	if buf.Len() > 0 {
		out.WriteString(buf.String())
		out.WriteByte('\n')
	}
	return out.String()
}

// wrapLines writes the complete lines of buf to out as print_lines_from_buffer
// of conllu_to_text.pl does, and returns the rest.
func wrapLines(out *strings.Builder, buf []rune, limit int, noBreak bool) []rune {
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
		if last > 0 {
			out.WriteString(string(buf[:last]))
			out.WriteByte('\n')
			buf = buf[last+1:]
			continue
		}
		if noBreak {
			break
		}
		out.WriteString(string(buf))
		out.WriteByte('\n')
		buf = buf[:0]
	}
	return buf
}
