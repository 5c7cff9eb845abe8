// Package conllu reads and writes CoNLL-U, the Universal Dependencies file
// format (https://universaldependencies.org/format.html).
//
// A file is a sequence of sentences; each sentence is comment lines followed
// by token lines of ten tab-separated columns and ends with a blank line.
// Multiword-token lines (ID "1-2") and empty nodes (ID "8.1") are kept
// verbatim so that reading then writing a file reproduces it byte for byte.
//
// Reader reads and checks CoNLL-U; Write, Format and WriteAll write it.
// TokenReader and FromForms make unannotated sentences from pre-tokenized
// text; RebuildText gives back the text that sentences were segmented from,
// from the whitespace recorded in MISC. Malformed input gives an *Error
// that names the file and line.
package conllu

import "strings"

// Word is one syntactic word (a token line with an integer ID).
//
// String fields hold the column text as it appears in the file, except that
// the CoNLL-U placeholder "_" is kept as "_" so that writing reproduces the
// input. Parser code treats "" and "_" alike as "absent" (see Absent).
type Word struct {
	ID     int    // 1-based position in the sentence
	Form   string // FORM
	Lemma  string // LEMMA
	UPOS   string // universal part-of-speech tag
	XPOS   string // language-specific part-of-speech tag
	Feats  string // FEATS, "Feat=Val|Feat=Val" or "_"
	Head   int    // HEAD: 0 for the root, -1 when the column is "_"
	Deprel string // DEPREL
	Deps   string // DEPS (enhanced dependencies), kept verbatim
	Misc   string // MISC, kept verbatim
}

// NoSpaceAfter reports whether misc (a MISC column) has the item
// SpaceAfter=No: in the text, no space follows the word's token.
func NoSpaceAfter(misc string) bool {
	for item := range strings.SplitSeq(misc, "|") {
		if item == "SpaceAfter=No" {
			return true
		}
	}
	return false
}

// Absent reports whether a column value carries no information ("" or "_").
func Absent(v string) bool { return v == "" || v == "_" }

// Sentence is one CoNLL-U sentence.
type Sentence struct {
	// Comments are the comment lines before the first token, each with its
	// leading '#', without the line terminator.
	Comments []string
	// Words are the syntactic words; Words[i].ID == i+1.
	Words []Word
	// Multiword holds multiword-token lines ("3-4 ..."), verbatim.
	Multiword []RawLine
	// Empty holds empty-node lines ("8.1 ..."), verbatim.
	Empty []RawLine
}

// RawLine is a token line that is not a syntactic word, kept verbatim
// (without its line terminator). Before is the ID of the word it precedes in
// the file: a multiword token 3-4 has Before == 3; an empty node 8.1 that
// follows word 8 has Before == 9 (or len(Words)+1 at the end of the sentence).
// Lines with the same Before keep their relative order; empty nodes come
// before a multiword line with the same Before, as in a valid file.
type RawLine struct {
	Before int
	Text   string
}
