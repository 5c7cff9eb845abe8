package tagger

import (
	"math/bits"
	"strings"

	"github.com/transparse/transparse/parser/conllu"
)

// The columns a Tagger can predict.
const (
	UPOS = "UPOS"
	XPOS = "XPOS"
)

// ClassifierName is the modelfmt.Classifier name of the tagger for a
// column: "tagger.upos" or "tagger.xpos".
func ClassifierName(column string) string { return "tagger." + strings.ToLower(column) }

// Column returns the column the tagger predicts (UPOS or XPOS).
func (t *Tagger) Column() string {
	if t.column == "" {
		return UPOS
	}
	return t.column
}

// columnOf returns a pointer to the column's value in w.
func columnOf(w *conllu.Word, column string) *string {
	if column == XPOS {
		return &w.XPOS
	}
	return &w.UPOS
}

// columnFromName returns the column of a classifier name, or "".
func columnFromName(name string) string {
	for _, c := range []string{UPOS, XPOS} {
		if name == ClassifierName(c) {
			return c
		}
	}
	return ""
}

// AmbiguityClass returns a hash of the set of tags the tagger's dictionary
// gives form (from the exact form, else the lowercased form), computed from
// the tag names so that taggers with different tag ids agree; 0 when form
// is not in the dictionary. Parsers use it as a feature that does not
// depend on the tagger's choice. An Analysis computes it for every word
// of a sentence.
func (t *Tagger) AmbiguityClass(form string) uint64 {
	w := analyze(form)
	t.dict.amb(&w)
	return t.ambiguityHash(w.amb)
}

// ambiguityHash returns the hash AmbiguityClass gives the tag set amb (0
// for the empty set): FNV-1a over the names of the tags in amb, in tag id
// order, each followed by the byte 0xff.
func (t *Tagger) ambiguityHash(amb uint64) uint64 {
	if amb == 0 {
		return 0
	}
	h := uint64(0x9ae16a3b2f90404f)
	for ; amb != 0; amb &= amb - 1 {
		id := bits.TrailingZeros64(amb)
		if id >= len(t.tags) {
			break
		}
		tag := t.tags[id]
		for i := 0; i < len(tag); i++ {
			h = (h ^ uint64(tag[i])) * fnvPrime
		}
		h = (h ^ 0xff) * fnvPrime
	}
	return h
}
