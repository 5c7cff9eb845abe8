package morph

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/transparse/transparse/parser/conllu"
)

// LemmaCase is the set of XPOS tags whose capitalized words keep their
// capital in the lemma ("Holocaust" NNP, lemma "Holocaust"; "Contemporary"
// NNP as part of a name), learnt from a treebank: the tags of which at
// least lemmaCaseMinCount capitalized words were seen and at least
// lemmaCaseMinShare of them have a capitalized lemma. The lemmatizer's
// rules lowercase a capitalized word they reach through its lowercased
// form; for such tags its first letter is given back. A treebank without
// XPOS is keyed by UPOS instead (tagOf). Immutable.
type LemmaCase struct {
	xpos []string // sorted
}

// The least evidence for a tag of LemmaCase.
const (
	lemmaCaseMinCount = 20
	lemmaCaseMinShare = 0.95
)

// firstUpper reports whether s begins with an upper-case letter.
func firstUpper(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsUpper(r)
}

// TrainLemmaCase learns the tags from the FORM, XPOS and LEMMA of sents;
// nil when no tag qualifies.
func TrainLemmaCase(sents []*conllu.Sentence) *LemmaCase {
	type count struct{ all, kept int }
	counts := map[string]*count{}
	for _, s := range sents {
		for i := range s.Words {
			w := &s.Words[i]
			x := tagOf(w)
			if x == "" || conllu.Absent(w.Lemma) || !firstUpper(w.Form) {
				continue
			}
			c := counts[x]
			if c == nil {
				c = new(count)
				counts[x] = c
			}
			c.all++
			if firstUpper(w.Lemma) {
				c.kept++
			}
		}
	}
	lc := &LemmaCase{}
	for x, c := range counts {
		if c.all >= lemmaCaseMinCount && float64(c.kept) >= lemmaCaseMinShare*float64(c.all) {
			lc.xpos = append(lc.xpos, x)
		}
	}
	if len(lc.xpos) == 0 {
		return nil
	}
	slices.Sort(lc.xpos)
	return lc
}

// Tags returns the tags, sorted. The slice must not be modified.
func (lc *LemmaCase) Tags() []string { return lc.xpos }

// lemmaCaseFromData decodes the tags LemmaCase.Tags gave.
func lemmaCaseFromData(xpos []string) (*LemmaCase, error) {
	for i, x := range xpos {
		if x == "" || (i > 0 && xpos[i-1] >= x) {
			return nil, fmt.Errorf("lemma case tag %d of %d: empty or out of order", i+1, len(xpos))
		}
	}
	return &LemmaCase{xpos: slices.Clone(xpos)}, nil
}

// recase returns lemma with the first letter of form when w's XPOS is one
// of lc's, form begins with a capital and lemma with the same letter in
// lower case; lemma otherwise. It returns a part of the form where it
// can, else the string novel keeps for it.
func (lc *LemmaCase) recase(w *conllu.Word, lemma string, novel *novelLemmas) string {
	if lemma == "" || !firstUpper(w.Form) {
		return lemma
	}
	if _, ok := slices.BinarySearch(lc.xpos, tagOf(w)); !ok {
		return lemma
	}
	r, n := utf8.DecodeRuneInString(w.Form)
	l, m := utf8.DecodeRuneInString(lemma)
	if unicode.IsUpper(l) || unicode.ToLower(r) != l {
		return lemma
	}
	if rest := lemma[m:]; strings.HasPrefix(w.Form[n:], rest) {
		return w.Form[:n+len(rest)]
	}
	var b [64]byte
	return novel.get(append(append(b[:0], w.Form[:n]...), lemma[m:]...))
}

// HasLemmaCase reports whether the lemmatizer gives capitals back
// (SetLemmaCase).
func (l *Lemmatizer) HasLemmaCase() bool { return l.c.lemmaCase != nil }

// SetLemmaCase makes lc (nil: none) the tags whose capitalized words keep
// their capital in the lemmas l predicts. Not safe while l is in use.
func (l *Lemmatizer) SetLemmaCase(lc *LemmaCase) { l.c.lemmaCase = lc }
