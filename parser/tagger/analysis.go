package tagger

import (
	"math"
	"math/bits"
	"slices"

	"github.com/transparse/transparse/internal/top2"
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
	guess   guessScratch  // the guessers' lookups
	// scores and classes hold, for each tagger that tagged the words
	// (TagAnalyzed) since Analyze, its final scores of each word
	// (len(tags) per word) and its class of each word; empty otherwise.
	scores  [2][]float32
	classes [2][]int32
}

// slot is the index of column's tagger in an Analysis: 0 UPOS, 1 XPOS.
func slot(column string) int {
	if column == XPOS {
		return 1
	}
	return 0
}

// Analyze analyzes words (one sentence; only Form is read, and Misc when a
// tagger reads spacing) for the taggers upos and xpos, of the UPOS and
// XPOS columns; either may be nil. It panics if a tagger is not of its
// column.
func (a *Analysis) Analyze(words []conllu.Word, upos, xpos *Tagger) {
	if (upos != nil && slot(upos.column) != 0) || (xpos != nil && slot(xpos.column) != 1) {
		panic("tagger: Analyze with a tagger in the wrong column")
	}
	n := len(words)
	a.taggers = [2]*Tagger{upos, xpos}
	a.classes[0], a.classes[1] = a.classes[0][:0], a.classes[1][:0]
	a.Words = slices.Grow(a.Words[:0], n)[:n]
	prepare(&a.ws[0], &a.keys, a.Words, words)
	if (upos != nil && upos.spacing) || (xpos != nil && xpos.spacing) {
		setSpacing(a.ws[0], words, false)
	}
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
	a.guess.shared, a.guess.prev = upos.sharesDict(xpos), a.guess.prev[:0]
	for k, t := range a.taggers {
		if t == nil {
			for i := range a.Words {
				a.Words[i].Amb[k] = 0
				if k == 0 {
					a.Words[i].Cluster = 0
				}
			}
			continue
		}
		ws := a.ws[k]
		setAmbs(ws, a.masks[k], n)
		setRoots(ws, words, &t.dict)
		if t.guess != nil {
			a.sink += t.guess.set(ws, words, &t.dict, nil, &a.guess)
		}
		if t.clusters != nil {
			t.clusters.set(ws, n)
		}
		for i := range a.Words {
			a.Words[i].Amb[k] = t.ambiguityHash(ws[i+2].amb)
			if k == 0 {
				// 0 without clusters: prepare analyzed the words afresh.
				a.Words[i].Cluster = ws[i+2].clu &^ (cluLowered | cluNone)
			}
		}
	}
}

// Margin returns the margin between the best two final scores of word i
// (0-based) in the tagger of column (UPOS or XPOS) that tagged the words
// of a since Analyze (TagAnalyzed), or +Inf when that tagger did not tag
// them (or i is out of range). A word the tagger was sure of without
// scoring its tags has a margin of at least the largest score's.
func (a *Analysis) Margin(column string, i int) float32 {
	k := slot(column)
	n := len(a.classes[k])
	if i < 0 || i >= n || a.taggers[k] == nil {
		return float32(math.Inf(1))
	}
	nt := len(a.scores[k]) / n
	m1, m2 := top2.Of(a.scores[k][i*nt : (i+1)*nt])
	return m1 - m2
}

// Reconcile makes the UPOS and XPOS of the words a pair seen in the
// training data wherever the taggers' predictions are not one: of the
// pairs seen, such a word gets the one whose two tags' final scores sum
// highest (its UPOS and XPOS scores are on comparable scales, both from
// averaged perceptrons trained alike). Both taggers must have tagged the
// words from a (TagAnalyzed), after a analyzed them, and the XPOS tagger
// must hold the pairs of its training data for the UPOS tagger's tag set
// (an XPOS tagger trained on data with UPOS does).
// Otherwise, Reconcile does nothing. Only the words i with free[i] true
// are changed (all of them when free is nil): callers that keep given
// tags leave out the words with one. It returns the number of words
// changed. It does not allocate.
func (a *Analysis) Reconcile(words []conllu.Word, free []bool) (changed int) {
	u, x := a.taggers[0], a.taggers[1]
	n := len(words)
	if u == nil || x == nil || !x.pairsFit(u) || len(a.classes[0]) != n || len(a.classes[1]) != n ||
		(free != nil && len(free) != n) {
		return 0
	}
	nu, nx := len(u.tags), len(x.tags)
	for i := range words {
		cu, cx := a.classes[0][i], a.classes[1][i]
		if (free != nil && !free[i]) || x.pairs[cx]&(1<<cu) != 0 || x.pairs[cx] == 0 {
			continue
		}
		su, sx := a.scores[0][i*nu:(i+1)*nu], a.scores[1][i*nx:(i+1)*nx]
		best := float32(math.Inf(-1))
		bu, bx := cu, cx
		for j, m := range x.pairs {
			for ; m != 0; m &= m - 1 {
				k := bits.TrailingZeros64(m)
				if s := su[k] + sx[j]; s > best {
					best, bu, bx = s, int32(k), int32(j)
				}
			}
		}
		if bu == cu && bx == cx {
			continue
		}
		changed++
		a.classes[0][i], a.classes[1][i] = bu, bx
		words[i].UPOS, words[i].XPOS = u.tags[bu], x.tags[bx]
	}
	return changed
}
