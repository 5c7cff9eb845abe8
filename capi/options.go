package main

/*
#include "internal.h"
*/
import "C"

import (
	"fmt"
	"unsafe"

	"github.com/transparse/transparse/parser"
	"github.com/transparse/transparse/parser/conllu"
)

// maxOptionsSize bounds tp_options.size: the bytes past the members this
// library knows are read (they must be 0).
const maxOptionsSize = 4096

// callOptions are a call's tp_options as the caller gave them (the
// defaults for NULL), translated.
type callOptions struct {
	parse parser.Options // beam 0: the model's default width
	// spaceAfter is tp_options.space_after (nil: not given): one byte per
	// word of the call, 0 for SpaceAfter=No.
	spaceAfter *C.uchar
	// The document members (doc.Name and doc.Parse are set by docOptions).
	doc parser.DocOptions
}

// readOptions translates the caller's options (nil: the defaults),
// checking their size and the document members; check checks the
// parse members against the model.
func readOptions(o *C.tp_options) (callOptions, error) {
	if o == nil {
		return callOptions{}, nil
	}
	if err := checkSize(o); err != nil {
		return callOptions{}, err
	}
	co := callOptions{
		parse:      parser.Options{Beam: int(o.beam), KBest: int(o.kbest), Confidence: o.confidence != 0, Temperature: float64(o.temperature)},
		spaceAfter: o.space_after,
	}
	switch o.input {
	case C.TP_INPUT_CONLLU:
	case C.TP_INPUT_TOKENS:
		co.doc.Input = parser.InputTokens
	case C.TP_INPUT_TEXT:
		co.doc.Input = parser.InputText
	default:
		return co, argErr("options->input is %d: want TP_INPUT_CONLLU, TP_INPUT_TOKENS or TP_INPUT_TEXT", int(o.input))
	}
	switch o.on_error {
	case C.TP_ON_ERROR_STOP:
	case C.TP_ON_ERROR_SKIP:
		co.doc.OnError = parser.SkipOnError
	default:
		return co, argErr("options->on_error is %d: want TP_ON_ERROR_STOP or TP_ON_ERROR_SKIP", int(o.on_error))
	}
	if o.threads < 0 {
		return co, argErr("options->threads is %d: want 0 or more", int(o.threads))
	}
	co.doc.NoTags = o.no_tags != 0
	co.doc.Workers = int(o.threads)
	if uint64(o.size) == size020 { // a 0.2.0 struct: the members of raw text are 0
		return co, nil
	}
	switch o.ranges {
	case C.TP_RANGES_NONE:
	case C.TP_RANGES_BYTES:
		co.doc.Ranges = parser.RangesBytes
	case C.TP_RANGES_CODEPOINTS:
		co.doc.Ranges = parser.RangesCodePoints
	default:
		return co, argErr("options->ranges is %d: want TP_RANGES_NONE, TP_RANGES_BYTES or TP_RANGES_CODEPOINTS", int(o.ranges))
	}
	co.doc.Presegmented = o.presegmented != 0
	co.doc.TokenizeOnly = o.tokenize_only != 0
	if uint64(o.size) >= offsetAccurate+uint64(unsafe.Sizeof(o.accurate)) {
		co.parse.Accurate = o.accurate != 0
	}
	return co, nil
}

// size020 is the size of the tp_options of version 0.2.0, the smallest
// accepted: the struct up to its first member of raw text.
const size020 = uint64(unsafe.Offsetof(C.tp_options{}.presegmented))

// offsetAccurate is the offset of tp_options.accurate; size030 is the
// size of the struct without it (up to tokenize_only, padded to the
// struct's alignment): where the struct of 0.3.0 had tail padding (LP64)
// it is this version's size, else (ILP32) smaller and accepted too, with
// accurate 0.
const (
	offsetAccurate = uint64(unsafe.Offsetof(C.tp_options{}.accurate))
	optionsAlign   = uint64(unsafe.Alignof(C.tp_options{}))
	size030        = (offsetAccurate + optionsAlign - 1) / optionsAlign * optionsAlign
)

// checkSize refuses an options->size other than that of the 0.2.0 struct
// (size020, the smallest accepted) or of the struct without accurate
// (size030) below this version's struct, or above maxOptionsSize, and
// nonzero bytes past the members this library knows.
func checkSize(o *C.tp_options) error {
	const known = C.sizeof_tp_options
	size := uint64(o.size)
	if size < size020 {
		return argErr("options->size is %d, less than %d (the size of tp_options of version 0.2.0, the smallest accepted): initialise options with TP_OPTIONS_INIT", size, size020)
	}
	if size > size020 && size < known && size != size030 {
		want := fmt.Sprintf("%d (version 0.2.0)", size020)
		if size030 < known {
			want += fmt.Sprintf(", %d (without accurate)", size030)
		}
		return argErr("options->size is %d: want %s or sizeof(tp_options) (%d): initialise options with TP_OPTIONS_INIT", size, want, known)
	}
	if size > maxOptionsSize {
		return argErr("options->size is %d, more than %d", size, maxOptionsSize)
	}
	if size < known {
		return nil
	}
	for i, b := range unsafe.Slice((*byte)(unsafe.Add(unsafe.Pointer(o), known)), size-known) {
		if b != 0 {
			return argErr("options has a nonzero byte at offset %d, past the members this library knows (sizeof(tp_options) is %d)", known+uint64(i), known)
		}
	}
	return nil
}

// noSpaceAfter is the MISC of a word the caller's space_after marks as
// followed directly by the next word.
const noSpaceAfter = "SpaceAfter=No"

// setSpacing gives the words the MISC that co.spaceAfter says (none when
// it was not given).
func (co callOptions) setSpacing(words []conllu.Word) {
	if co.spaceAfter == nil {
		return
	}
	for i, b := range unsafe.Slice(co.spaceAfter, len(words)) {
		if b == 0 {
			words[i].Misc = noSpaceAfter
		}
	}
}

// checkDocument refuses the sentence-only member space_after in a function
// whose input is a document (CoNLL-U gives spacing in MISC; the tokens
// input has none).
func (co callOptions) checkDocument() error {
	if co.spaceAfter != nil {
		return argErr("options->space_after is for tp_parse and tp_parse_batch; a document gives spacing in MISC (SpaceAfter=No)")
	}
	return nil
}
