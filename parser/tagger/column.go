package tagger

import (
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
// depend on the tagger's choice.
func (t *Tagger) AmbiguityClass(form string) uint64 {
	w := analyze(form)
	t.dict.amb(&w)
	if w.amb == 0 {
		return 0
	}
	h := uint64(0x9ae16a3b2f90404f)
	for id, tag := range t.tags {
		if w.amb&(1<<uint(id)) != 0 {
			for i := 0; i < len(tag); i++ {
				h = (h ^ uint64(tag[i])) * fnvPrime
			}
			h = (h ^ 0xff) * fnvPrime
		}
	}
	return h
}
