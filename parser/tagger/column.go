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
