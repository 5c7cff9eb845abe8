package tagger

import (
	"slices"

	"github.com/transparse/transparse/parser/conllu"
	"github.com/transparse/transparse/parser/form"
)

// Analysis is the form analysis of one sentence for a model's taggers and
// its parser: each word's spelling (hashes of its form, lowercased form,
// prefixes, suffixes and shape), its dictionary keys (the form, the
// lowercased form and the lowercased bigrams with its neighbours) with
// their tag sets in each tagger's dictionary, and its ambiguity classes.
// Analyze computes it once per sentence; the taggers tag from it
// (TagAnalyzed) and the parser's features read Words. When the two taggers
// share their dictionary (as PairFromDocument loads them), each key is
// looked up once for both.
//
// An Analysis is working memory to reuse from sentence to sentence: it
// does not allocate once it has grown. It is not safe for concurrent use;
// the taggers it was made with are.
type Analysis struct {
	// Words holds the analysis of word i of the sentence: the hashes of its
	// form (form.Of) and its ambiguity classes (AmbiguityClass) in the
	// UPOS and XPOS taggers' dictionaries, 0 for a column without tagger.
	Words   []form.Word
	taggers [2]*Tagger    // UPOS, XPOS; nil where none
	ws      [2][]wordInfo // each tagger's view of the words (see prepare)
	keys    []uint64      // four dictionary keys per word (see prepare)
	masks   [2][]uint64   // their tag sets in each tagger's dictionary
	sink    uint32        // the dictionaries' touching loads
}

// slot is the index of column's tagger in an Analysis: 0 UPOS, 1 XPOS.
func slot(column string) int {
	if column == XPOS {
		return 1
	}
	return 0
}

// Analyze analyzes words (one sentence; only Form is read) for the taggers
// upos and xpos, of the UPOS and XPOS columns; either may be nil. It
// panics if a tagger is not of its column.
func (a *Analysis) Analyze(words []conllu.Word, upos, xpos *Tagger) {
	if (upos != nil && slot(upos.column) != 0) || (xpos != nil && slot(xpos.column) != 1) {
		panic("tagger: Analyze with a tagger in the wrong column")
	}
	n := len(words)
	a.taggers = [2]*Tagger{upos, xpos}
	a.Words = slices.Grow(a.Words[:0], n)[:n]
	prepare(&a.ws[0], &a.keys, a.Words, words)
	if xpos != nil {
		a.ws[1] = append(a.ws[1][:0], a.ws[0]...)
	}
	for k, t := range a.taggers {
		if t != nil {
			a.masks[k] = slices.Grow(a.masks[k][:0], len(a.keys))[:len(a.keys)]
		}
	}
	if upos.sharesDict(xpos) {
		m0, m1 := a.masks[0], a.masks[1]
		if upos.dict.col == 1 {
			m0, m1 = m1, m0
		}
		a.sink += upos.dict.lookupAll2(a.keys, m0, m1)
	} else {
		for k, t := range a.taggers {
			if t != nil {
				a.sink += t.dict.lookupAll(a.keys, a.masks[k])
			}
		}
	}
	for k, t := range a.taggers {
		if t == nil {
			for i := range a.Words {
				a.Words[i].Amb[k] = 0
			}
			continue
		}
		ws := a.ws[k]
		setAmbs(ws, a.masks[k], n)
		for i := range a.Words {
			a.Words[i].Amb[k] = t.ambiguityHash(ws[i+2].amb)
		}
	}
}
