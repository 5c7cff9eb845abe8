package parser

import (
	"slices"

	"github.com/transparse/transparse/parser/conllu"
	"github.com/transparse/transparse/parser/feature"
	"github.com/transparse/transparse/parser/tagger"
)

// Taggers predicts the tags a sentence lacks, so that plain tokens can be
// parsed: UPOS, and XPOS when the model has an XPOS tagger (treebanks with
// XPOS). Immutable and safe for concurrent use.
type Taggers struct {
	UPOS *tagger.Tagger
	XPOS *tagger.Tagger // nil when the treebank has no XPOS
}

// Fill predicts UPOS and XPOS for the words where they are absent ("" or
// "_"); given values are kept.
func (t Taggers) Fill(words []conllu.Word) {
	var sc tagScratch
	t.fill(words, &sc)
}

// AmbiguityClasses returns the ambiguity classes of form in the UPOS and
// XPOS taggers' dictionaries (0 where unknown or there is no tagger).
func (t Taggers) AmbiguityClasses(form string) (a, ax uint64) {
	if t.UPOS != nil {
		a = t.UPOS.AmbiguityClass(form)
	}
	if t.XPOS != nil {
		ax = t.XPOS.AmbiguityClass(form)
	}
	return a, ax
}

// Ambiguity writes the ambiguity classes of the words' forms into the A and
// AX values of w (node i+1 for word i), after feature.FillWords.
func (t Taggers) Ambiguity(words []conllu.Word, w *feature.Words) {
	for i := range words {
		v := &w.Values[i+1]
		v[feature.A], v[feature.AX] = t.AmbiguityClasses(words[i].Form)
	}
}

// tagScratch is per-call memory for Taggers.fill.
type tagScratch struct {
	amb   [2][]uint64 // UPOS and XPOS ambiguity class per word
	given []string
}

// fill is Fill that also writes each form's ambiguity classes (UPOS, XPOS)
// to sc.amb from the taggers' own analysis of the form, without allocating
// once sc has grown.
func (t Taggers) fill(words []conllu.Word, sc *tagScratch) {
	if t.UPOS != nil && t.XPOS != nil && allAbsent(words) {
		// Plain tokens: both taggers at once (they share the analysis
		// of the words and, in a model file, their dictionary).
		n := len(words)
		for k := range sc.amb {
			sc.amb[k] = slices.Grow(sc.amb[k][:0], n)[:n]
		}
		tagger.TagPair(t.UPOS, t.XPOS, words, sc.amb[0], sc.amb[1])
		return
	}
	fillAmb(t.UPOS, words, &sc.amb[0], &sc.given, func(w *conllu.Word) *string { return &w.UPOS })
	fillAmb(t.XPOS, words, &sc.amb[1], &sc.given, func(w *conllu.Word) *string { return &w.XPOS })
}

// allAbsent reports whether no word has a UPOS or an XPOS.
func allAbsent(words []conllu.Word) bool {
	for i := range words {
		if !conllu.Absent(words[i].UPOS) || !conllu.Absent(words[i].XPOS) {
			return false
		}
	}
	return true
}

func fillAmb(tg *tagger.Tagger, words []conllu.Word, amb *[]uint64, given *[]string, col func(*conllu.Word) *string) {
	n := len(words)
	if cap(*amb) < n {
		*amb = make([]uint64, n)
	}
	a := (*amb)[:n]
	*amb = a
	if tg == nil {
		clear(a)
		return
	}
	missing := 0
	for i := range words {
		if conllu.Absent(*col(&words[i])) {
			missing++
		}
	}
	if missing == 0 {
		for i := range words {
			a[i] = tg.AmbiguityClass(words[i].Form)
		}
		return
	}
	if missing == n {
		tg.TagWithAmbiguity(words, a)
		return
	}
	if cap(*given) < n {
		*given = make([]string, n)
	}
	g := (*given)[:n]
	for i := range words {
		g[i] = *col(&words[i])
	}
	tg.TagWithAmbiguity(words, a)
	for i := range words {
		if !conllu.Absent(g[i]) {
			*col(&words[i]) = g[i]
		}
	}
}
