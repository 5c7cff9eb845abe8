package main

/*
#cgo CFLAGS: -I${SRCDIR}/../include -std=gnu11 -Wall
#include "internal.h"
*/
import "C"

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/transparse/transparse/internal/freelist"
	"github.com/transparse/transparse/parser"
	"github.com/transparse/transparse/parser/conllu"
)

// The header's limits are the parser's (compile-time check: a negative
// constant converted to uint does not compile).
const (
	_ = uint(C.TP_MAX_WORDS - parser.MaxWords)
	_ = uint(parser.MaxWords - C.TP_MAX_WORDS)
	_ = uint(C.TP_MAX_TOKEN_BYTES - parser.MaxTokenBytes)
	_ = uint(parser.MaxTokenBytes - C.TP_MAX_TOKEN_BYTES)
	_ = uint(C.TP_MAX_BEAM - parser.MaxBeam)
	_ = uint(parser.MaxBeam - C.TP_MAX_BEAM)
)

// The Go entry points below are called only by shim.c, which has already
// refused calls from a forked child. Each returns a status code and, on
// failure, stores a malloc'd message in *msg. Named results let recoverTo
// turn a panic into TP_ERR_INTERNAL.

//export tpgo_model_load
func tpgo_model_load(path *C.char, out *C.uintptr_t, msg **C.char) (rc C.int) {
	const fn = "tp_model_load"
	defer recoverTo(fn, msg, &rc)
	return finish(fn, msg, modelLoad(path, out), C.TP_ERR_INTERNAL)
}

func modelLoad(path *C.char, out *C.uintptr_t) error {
	if path == nil {
		return argErr("path is NULL")
	}
	if out == nil {
		return argErr("model is NULL")
	}
	p := C.GoString(path)
	defer loading()()
	m, err := parser.Load(p)
	if err != nil {
		if classify(err, C.TP_ERR_INTERNAL) == C.TP_ERR_IO && !strings.Contains(err.Error(), p) {
			return fmt.Errorf("%s: %w", p, err)
		}
		return err
	}
	h, err := register(m)
	if err != nil {
		return err
	}
	*out = C.uintptr_t(h)
	return nil
}

//export tpgo_model_load_from_memory
func tpgo_model_load_from_memory(data unsafe.Pointer, size C.size_t, out *C.uintptr_t, msg **C.char) (rc C.int) {
	const fn = "tp_model_load_from_memory"
	defer recoverTo(fn, msg, &rc)
	return finish(fn, msg, modelLoadFromMemory(data, size, out), C.TP_ERR_INTERNAL)
}

func modelLoadFromMemory(data unsafe.Pointer, size C.size_t, out *C.uintptr_t) error {
	if data == nil {
		return argErr("data is NULL")
	}
	if out == nil {
		return argErr("model is NULL")
	}
	if uint64(size) > math.MaxInt {
		return argErr("size %d is too large", uint64(size))
	}
	defer loading()()
	// The caller's bytes are read in place: parser.LoadBytes does not
	// retain its input (modelfmt.Decode decompresses into a buffer of its
	// own), so the caller may free data when the call returns.
	b := []byte{}
	if size > 0 {
		b = unsafe.Slice((*byte)(data), int(size))
	}
	m, err := parser.LoadBytes(b)
	if err != nil {
		return err
	}
	h, err := register(m)
	if err != nil {
		return err
	}
	*out = C.uintptr_t(h)
	return nil
}

//export tpgo_model_free
func tpgo_model_free(h C.uintptr_t, msg **C.char) (rc C.int) {
	const fn = "tp_model_free"
	defer recoverTo(fn, msg, &rc)
	err := release(h)
	if err == nil {
		returnMemory()
	}
	return finish(fn, msg, err, C.TP_ERR_INTERNAL)
}

//export tpgo_model_card_json
func tpgo_model_card_json(h C.uintptr_t, out **C.char, msg **C.char) (rc C.int) {
	const fn = "tp_model_card_json"
	defer recoverTo(fn, msg, &rc)
	return finish(fn, msg, modelCardJSON(h, out), C.TP_ERR_INTERNAL)
}

func modelCardJSON(h C.uintptr_t, out **C.char) error {
	if h == 0 {
		return argErr("model is NULL")
	}
	if out == nil {
		return argErr("json is NULL")
	}
	e, err := acquire(h)
	if err != nil {
		return err
	}
	defer e.mu.RUnlock()
	js, err := cardJSON(e.model.Card())
	if err != nil {
		return err
	}
	cs := cString(js)
	if cs == nil {
		return errNoMem
	}
	*out = cs
	return nil
}

//export tpgo_model_default_beam
func tpgo_model_default_beam(h C.uintptr_t, out *C.int, msg **C.char) (rc C.int) {
	const fn = "tp_model_default_beam"
	defer recoverTo(fn, msg, &rc)
	return finish(fn, msg, modelDefaultBeam(h, out), C.TP_ERR_INTERNAL)
}

func modelDefaultBeam(h C.uintptr_t, out *C.int) error {
	if h == 0 {
		return argErr("model is NULL")
	}
	if out == nil {
		return argErr("width is NULL")
	}
	e, err := acquire(h)
	if err != nil {
		return err
	}
	defer e.mu.RUnlock()
	*out = C.int(e.model.DefaultBeam())
	return nil
}

// tpgo_model_strings is tp_model_deprels (which 0), tp_model_upos_tags (1)
// and tp_model_xpos_tags (2).
//
//export tpgo_model_strings
func tpgo_model_strings(h C.uintptr_t, which C.int, out ***C.char, n *C.size_t, msg **C.char) (rc C.int) {
	fn, outName := "tp_model_deprels", "labels"
	switch which {
	case 1:
		fn, outName = "tp_model_upos_tags", "tags"
	case 2:
		fn, outName = "tp_model_xpos_tags", "tags"
	}
	defer recoverTo(fn, msg, &rc)
	return finish(fn, msg, modelStrings(h, which, outName, out, n), C.TP_ERR_INTERNAL)
}

func modelStrings(h C.uintptr_t, which C.int, outName string, out ***C.char, n *C.size_t) error {
	if h == 0 {
		return argErr("model is NULL")
	}
	if out == nil {
		return argErr("%s is NULL", outName)
	}
	if n == nil {
		return argErr("n is NULL")
	}
	e, err := acquire(h)
	if err != nil {
		return err
	}
	defer e.mu.RUnlock()
	switch which {
	case 0:
		*out, *n = e.deprels.arr, C.size_t(e.deprels.n)
	case 1:
		*out, *n = e.upos.arr, C.size_t(e.upos.n)
	default:
		// The XPOS strings start with "_" (interned for results).
		if e.xpos.n > 1 {
			*out = (**C.char)(unsafe.Add(unsafe.Pointer(e.xpos.arr), unsafe.Sizeof((*C.char)(nil))))
			*n = C.size_t(e.xpos.n - 1)
		}
	}
	return nil
}

//export tpgo_parse
func tpgo_parse(h C.uintptr_t, forms **C.char, n C.size_t, tags *C.tp_tags, out **C.tp_result, msg **C.char) (rc C.int) {
	const fn = "tp_parse"
	defer recoverTo(fn, msg, &rc)
	return finish(fn, msg, parse(h, forms, n, tags, nil, out), C.TP_ERR_INTERNAL)
}

//export tpgo_parse_with
func tpgo_parse_with(h C.uintptr_t, forms **C.char, n C.size_t, tags *C.tp_tags, opts *C.tp_parse_options, out **C.tp_result, msg **C.char) (rc C.int) {
	const fn = "tp_parse_with"
	defer recoverTo(fn, msg, &rc)
	return finish(fn, msg, parse(h, forms, n, tags, opts, out), C.TP_ERR_INTERNAL)
}

// maxOptionsSize bounds tp_parse_options.size: the bytes past the members
// this library knows are read (they must be 0).
const maxOptionsSize = 4096

// callOptions are the parse options of a call as the caller gave them:
// given is false for a NULL tp_parse_options (the greedy parser, as the
// functions without options).
type callOptions struct {
	opt   parser.Options
	given bool
	// spaceAfter is tp_parse_options.space_after (nil: not given): one
	// byte per word of the call, 0 for SpaceAfter=No.
	spaceAfter *C.uchar
}

// parseOptions translates the caller's options (nil: none given),
// checking their size; resolve checks the values against the model.
func parseOptions(o *C.tp_parse_options) (callOptions, error) {
	if o == nil {
		return callOptions{}, nil
	}
	const known = C.sizeof_tp_parse_options
	// The first version's struct ends before space_after.
	first := uint64(unsafe.Offsetof(o.space_after))
	size := uint64(o.size)
	if size < first {
		return callOptions{}, argErr("options->size is %d, less than sizeof(tp_parse_options) (%d): set it with TP_PARSE_OPTIONS_INIT", size, known)
	}
	if size > maxOptionsSize {
		return callOptions{}, argErr("options->size is %d, more than %d", size, maxOptionsSize)
	}
	if size > known {
		for i, b := range unsafe.Slice((*byte)(unsafe.Add(unsafe.Pointer(o), known)), size-known) {
			if b != 0 {
				return callOptions{}, argErr("options has a nonzero byte at offset %d, past the members this library knows (sizeof(tp_parse_options) is %d)", known+uint64(i), known)
			}
		}
	}
	opt := parser.Options{Beam: int(o.beam), KBest: int(o.kbest), Confidence: o.confidence != 0, Temperature: float64(o.temperature)}
	co := callOptions{opt: opt, given: true}
	if size >= known {
		co.spaceAfter = o.space_after
	}
	return co, nil
}

// noSpaceAfter is the MISC of a word the caller's space_after marks as
// followed directly by the next word.
const noSpaceAfter = "SpaceAfter=No"

// setSpacing gives the n words the MISC that co.spaceAfter says (none
// when it was not given).
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

// noSpacing refuses the space_after option in a function whose input is
// a document (CoNLL-U gives spacing in MISC; the tokens format has none).
func (co callOptions) noSpacing() error {
	if co.spaceAfter != nil {
		return argErr("options->space_after is for tp_parse_with and tp_parse_batch_with; a document gives spacing in MISC (SpaceAfter=No)")
	}
	return nil
}

// resolve returns the options to parse with on m: none given are the
// greedy parser; given ones as given (a beam of 0 is the model's default
// width), checked.
func (c callOptions) resolve(m *parser.Model) (parser.Options, error) {
	if !c.given {
		return greedy, nil
	}
	return c.opt, m.CheckOptions(&c.opt)
}

// greedy are the options of the functions without tp_parse_options: the
// greedy parser.
var greedy = parser.Options{Beam: 1}

// callScratch is the Go memory of one tp_parse call: the words handed to
// the parser and the bytes of every string of the call. It is reused
// through callScratches, so that a long run of calls makes no garbage (the
// parser itself allocates nothing per sentence) and the resident memory of
// the host stays flat instead of growing by the garbage collector's
// headroom, which is as large as the model.
//
// The strings of the words are views of text (see goToken), valid until the
// scratch is reused: the parser does not keep the strings of the words it
// parses (it hashes them), and buildResult copies the ones it returns.
type callScratch struct {
	words []conllu.Word
	text  []byte
	// The interned C strings of the words' deprel, UPOS, XPOS, LEMMA and
	// FEATS (nil when not in the model's tables), resultCols per word:
	// buildResult looks each up once.
	interned []*C.char
	ex       resultExtras // of the *_with calls, every sentence
}

// resultExtras are what a tp_result holds besides the trees written into
// the words, collected sentence by sentence: the confidences of every
// word (none unless asked) and each sentence's k best trees.
type resultExtras struct {
	conf  []float64
	trees [][]parser.ScoredTree // per sentence; nil unless asked
	nt    int                   // the most trees of a sentence
}

func (ex *resultExtras) reset() {
	ex.conf, ex.trees, ex.nt = ex.conf[:0], ex.trees[:0], 0
}

// add appends the confidences and trees of the sentence parsed into r.
// With copyTrees, the trees are copied (r is reused by the next sentence
// of a batch); else they are r's and valid until its reuse.
func (ex *resultExtras) add(r *parser.Result, copyTrees bool) {
	ex.conf = append(ex.conf, r.Confidence...)
	if r.Trees == nil {
		return
	}
	ts := r.Trees
	if copyTrees {
		ts = make([]parser.ScoredTree, len(r.Trees))
		for j, t := range r.Trees {
			ts[j] = parser.ScoredTree{Head: slices.Clone(t.Head), Deprel: slices.Clone(t.Deprel), Score: t.Score}
		}
	}
	ex.trees = append(ex.trees, ts)
	ex.nt = max(ex.nt, len(ts))
}

var callScratches freelist.List[callScratch] // kept across GCs

// maxBatchWords is TP_MAX_BATCH_WORDS: the Go memory of a batch is about
// 200 bytes per word.
const maxBatchWords = C.TP_MAX_BATCH_WORDS

// keepWords is the most words a scratch keeps room for when it goes back
// to callScratches (a tp_parse call needs at most parser.MaxWords).
const keepWords = 4 * parser.MaxWords

func parse(h C.uintptr_t, forms **C.char, n C.size_t, tags *C.tp_tags, opts *C.tp_parse_options, out **C.tp_result) error {
	// Cheap argument checks first, in argument order; the handle is looked
	// up last so that the lock is held only around the parse.
	if h == 0 {
		return argErr("model is NULL")
	}
	if forms == nil {
		return argErr("forms is NULL")
	}
	if out == nil {
		return argErr("result is NULL")
	}
	if n == 0 {
		return inputErr("n_words is 0")
	}
	if uint64(n) > parser.MaxWords {
		return inputErr("n_words is %d, more than TP_MAX_WORDS (%d)", uint64(n), parser.MaxWords)
	}
	opt, err := parseOptions(opts)
	if err != nil {
		return err
	}
	one := [2]C.size_t{0, n}
	return parseSentences(h, forms, tags, one[:], nil, opt, out)
}

// parseSentences reads the words of forms and tags (offs[len(offs)-1] of
// each; see readWords, which names bad elements with where), parses
// sentence k = words offs[k] to offs[k+1]-1 (numbered from 1) with the
// model of h with the options co and stores one result for all of them
// in *out. For a batch (where not nil), the error of a sentence the
// parser refuses names it.
func parseSentences(h C.uintptr_t, forms **C.char, tags *C.tp_tags, offs []C.size_t, where func(int) string,
	co callOptions, out **C.tp_result) error {
	sc := callScratches.Get()
	if sc == nil {
		sc = new(callScratch)
	}
	defer func() { // after buildResult has copied the result
		// A scratch grown by a large batch is left to the collector.
		if cap(sc.words) <= keepWords && cap(sc.interned) <= resultCols*keepWords {
			callScratches.Put(sc)
		}
	}()
	n := len(offs) - 1
	if err := sc.readWords(forms, int(offs[n]), tags, where); err != nil {
		return err
	}
	words := sc.words
	co.setSpacing(words)
	if n > 1 {
		for k := range n {
			for i := range words[offs[k]:offs[k+1]] {
				words[int(offs[k])+i].ID = i + 1
			}
		}
	}

	e, err := acquire(h)
	if err != nil {
		return err
	}
	defer e.mu.RUnlock()
	opt, err := co.resolve(e.model)
	if err != nil {
		return err
	}
	ex := &sc.ex
	ex.reset()
	for k := range n {
		ws := words[offs[k]:offs[k+1]]
		res, err := e.model.Parse(ws, &opt)
		if err != nil {
			if where != nil { // a batch: name the sentence
				return fmt.Errorf("sentence %d: %w", k, err)
			}
			return err
		}
		if res != nil {
			ex.add(res, false)
		}
	}
	r, err := sc.buildResult(e, words, offs, ex)
	if err != nil {
		return err
	}
	*out = r
	return nil
}

// readWords reads n words (forms and the optional tags, arrays of n
// elements) into sc.words, numbered 1..n, checking each string (see
// goToken); errors name the element by its index in the arrays, followed
// by where(index) when where is not nil.
func (sc *callScratch) readWords(forms **C.char, n int, tags *C.tp_tags, where func(int) string) error {
	sc.text = sc.text[:0]
	sc.words = slices.Grow(sc.words[:0], n)[:n]
	words := sc.words
	for i, f := range unsafe.Slice(forms, n) {
		if f == nil {
			return at(argErr("forms[%d] is NULL", i), i, where)
		}
		s, err := sc.goToken(f, "forms", i)
		if err != nil {
			return at(err, i, where)
		}
		if s == "" {
			return at(inputErr("forms[%d] is empty", i), i, where)
		}
		words[i] = conllu.Word{ID: i + 1, Form: s, Lemma: "_", UPOS: "_", XPOS: "_",
			Feats: "_", Head: -1, Deprel: "_", Deps: "_", Misc: "_"}
	}
	if tags == nil {
		return nil
	}
	cols := []struct {
		name string
		arr  **C.char
		set  func(w *conllu.Word, v string)
	}{
		{"tags->upos", tags.upos, func(w *conllu.Word, v string) { w.UPOS = v }},
		{"tags->xpos", tags.xpos, func(w *conllu.Word, v string) { w.XPOS = v }},
		{"tags->feats", tags.feats, func(w *conllu.Word, v string) { w.Feats = v }},
		{"tags->lemma", tags.lemma, func(w *conllu.Word, v string) { w.Lemma = v }},
	}
	for _, col := range cols {
		if col.arr == nil {
			continue
		}
		for i, t := range unsafe.Slice(col.arr, n) {
			if t == nil {
				continue // absent for this word
			}
			s, err := sc.goToken(t, col.name, i)
			if err != nil {
				return at(err, i, where)
			}
			if s != "" {
				col.set(&words[i], s)
			}
		}
	}
	return nil
}

// at appends where(i) to the message of err, an *apiError about element i
// of the arrays of a call; other errors, or a nil where, leave err as it is.
func at(err error, i int, where func(int) string) error {
	var ae *apiError
	if where == nil || !errors.As(err, &ae) {
		return err
	}
	return &apiError{ae.code, ae.msg + where(i)}
}

// tpgo_parse_batch is tp_parse_batch and, with is not 0,
// tp_parse_batch_with (opts: its parse options).
//
//export tpgo_parse_batch
func tpgo_parse_batch(h C.uintptr_t, forms **C.char, offsets *C.size_t, n C.size_t, tags *C.tp_tags, opts *C.tp_parse_options,
	with C.int, out **C.tp_result, msg **C.char) (rc C.int) {
	fn := withName("tp_parse_batch", with)
	defer recoverTo(fn, msg, &rc)
	return finish(fn, msg, parseBatch(h, forms, offsets, n, tags, opts, out), C.TP_ERR_INTERNAL)
}

func parseBatch(h C.uintptr_t, forms **C.char, offsets *C.size_t, n C.size_t, tags *C.tp_tags, opts *C.tp_parse_options, out **C.tp_result) error {
	if h == 0 {
		return argErr("model is NULL")
	}
	if forms == nil {
		return argErr("forms is NULL")
	}
	if offsets == nil {
		return argErr("offsets is NULL")
	}
	if out == nil {
		return argErr("result is NULL")
	}
	if n == 0 {
		return inputErr("n_sentences is 0")
	}
	co, err := parseOptions(opts)
	if err != nil {
		return err
	}
	// The offsets are read before the forms they index: check them all.
	if uint64(n) > maxBatchWords {
		return inputErr("n_sentences is %d, more than TP_MAX_BATCH_WORDS (%d)", uint64(n), maxBatchWords)
	}
	offs := unsafe.Slice(offsets, int(n)+1)
	if offs[0] != 0 {
		return inputErr("offsets[0] is %d, not 0", uint64(offs[0]))
	}
	for k := 0; k < int(n); k++ {
		if uint64(offs[k+1]) > maxBatchWords {
			return inputErr("offsets[%d] is %d: more than TP_MAX_BATCH_WORDS (%d) words in the batch", k+1, uint64(offs[k+1]), maxBatchWords)
		}
		if offs[k+1] <= offs[k] {
			return inputErr("sentence %d has 0 words (offsets[%d] = %d, offsets[%d] = %d)", k, k+1, uint64(offs[k+1]), k, uint64(offs[k]))
		}
		if l := uint64(offs[k+1] - offs[k]); l > parser.MaxWords {
			return inputErr("sentence %d has %d words, more than TP_MAX_WORDS (%d)", k, l, parser.MaxWords)
		}
	}
	// Errors say which sentence and word an element of the flat arrays is.
	where := func(i int) string {
		k, _ := slices.BinarySearch(offs, C.size_t(i+1))
		k-- // the last sentence starting at or before i
		return fmt.Sprintf(" (sentence %d, word %d)", k, i-int(offs[k])+1)
	}
	return parseSentences(h, forms, tags, offs, where, co, out)
}

// goToken copies the C string p (a word form or tag) into sc.text, reading
// at most MaxTokenBytes+1 bytes of it, and returns it as a string that views
// sc.text (valid until sc is reused; if text grows, earlier strings keep the
// old array alive). It checks what parser.CheckWords checks of every value
// (length, UTF-8, no tab or line break), so that the error names the C
// argument. name and i name the argument in errors.
//
// One Go loop finds the end and notes non-ASCII bytes and tabs or line
// breaks: a cgo call to strnlen per token costs more than the scan, and
// UTF-8 is checked only for strings with non-ASCII bytes.
func (sc *callScratch) goToken(p *C.char, name string, i int) (string, error) {
	base := unsafe.Pointer(p)
	var high, ctl bool
	l := 0
	for ; l <= parser.MaxTokenBytes; l++ {
		b := *(*byte)(unsafe.Add(base, l))
		if b < 0x20 {
			if b == 0 {
				break
			}
			ctl = ctl || b == '\t' || b == '\n' || b == '\r'
		}
		high = high || b >= 0x80
	}
	if l > parser.MaxTokenBytes {
		return "", inputErr("%s[%d] is longer than TP_MAX_TOKEN_BYTES (%d bytes)", name, i, parser.MaxTokenBytes)
	}
	if l == 0 {
		return "", nil
	}
	off := len(sc.text)
	sc.text = append(sc.text, unsafe.Slice((*byte)(base), l)...)
	s := unsafe.String(&sc.text[off], l)
	if high && !utf8.ValidString(s) {
		return "", inputErr("%s[%d] is not valid UTF-8", name, i)
	}
	if ctl {
		return "", inputErr("%s[%d] contains a tab or line break", name, i)
	}
	return s, nil
}

// resultCols is the number of string columns of a tp_result: deprels, upos,
// xpos, lemma, feats.
const resultCols = 5

// buildResult allocates a tp_result as one malloc'd block, laid out as
//
//	tp_result | int32 heads[n] | char *deprels[n] | char *upos[n] | char *xpos[n]
//	          | char *lemma[n] | char *feats[n] | double confidence[n or 0]
//	          | double tree_scores[t*s] | char *tree_deprels[t*n]
//	          | int32 tree_heads[t*n] | strings
//
// with the confidences and the trees of ex (the *_with calls), s being
// the number of sentences (offs: sentence k is words offs[k] to
// offs[k+1]-1) and t the most trees of a sentence: tree j of sentence k
// is at tree_scores[j*s+k] and, for its word i, at tree_heads[j*n+offs[k]+i]
// (a sentence with fewer trees has score -Inf, heads -1 and deprels "_"
// there). strings holds the labels and tags that are not in the model's
// string tables (for example a UPOS tag the caller gave that the tagger
// does not know) and every LEMMA and FEATS other than "_" (the model has
// no table of those). tp_result_free is free(3).
func (sc *callScratch) buildResult(e *modelEntry, words []conllu.Word, offs []C.size_t, ex *resultExtras) (*C.tp_result, error) {
	n := uintptr(len(words))
	conf, trees := ex.conf, ex.trees
	nt, ns := uintptr(ex.nt), uintptr(len(offs)-1)
	const pz = unsafe.Sizeof((*C.char)(nil))
	align := func(x uintptr) uintptr { return (x + 7) &^ 7 }

	// An absent LEMMA or FEATS is the XPOS table's "_" (its first entry).
	blank := e.xpos.index["_"]
	sc.interned = slices.Grow(sc.interned[:0], resultCols*len(words))[:resultCols*len(words)]
	in := sc.interned
	extra := uintptr(0)
	for i := range words {
		w := &words[i]
		for k, x := range [resultCols]struct {
			t *cStrings // nil: LEMMA or FEATS
			s string
		}{{&e.deprels, w.Deprel}, {&e.upos, w.UPOS}, {&e.xpos, w.XPOS}, {nil, w.Lemma}, {nil, w.Feats}} {
			var cs *C.char
			switch {
			case x.t != nil:
				cs = x.t.index[x.s]
			case conllu.Absent(x.s):
				cs = blank
			}
			if cs == nil {
				extra += uintptr(len(x.s)) + 1
			}
			in[resultCols*i+k] = cs
		}
	}
	// The trees' deprels: interned, or copied with the strings.
	for _, ts := range trees {
		for _, t := range ts {
			for _, d := range t.Deprel {
				if e.deprels.index[d] == nil {
					extra += uintptr(len(d)) + 1
				}
			}
		}
	}
	headsOff := align(unsafe.Sizeof(C.tp_result{}))
	deprelsOff := align(headsOff + 4*n)
	uposOff := deprelsOff + pz*n
	xposOff := uposOff + pz*n
	lemmaOff := xposOff + pz*n
	featsOff := lemmaOff + pz*n
	confOff := featsOff + pz*n
	scoresOff := confOff + 8*uintptr(len(conf))
	treeDeprelsOff := scoresOff + 8*nt*ns
	treeHeadsOff := treeDeprelsOff + pz*nt*n
	strOff := treeHeadsOff + 4*nt*n
	block := C.tp__alloc(C.size_t(strOff + extra))
	if block == nil {
		return nil, errNoMem
	}

	heads := unsafe.Slice((*C.int32_t)(unsafe.Add(block, headsOff)), n)
	deprels := unsafe.Slice((**C.char)(unsafe.Add(block, deprelsOff)), n)
	upos := unsafe.Slice((**C.char)(unsafe.Add(block, uposOff)), n)
	xpos := unsafe.Slice((**C.char)(unsafe.Add(block, xposOff)), n)
	lemma := unsafe.Slice((**C.char)(unsafe.Add(block, lemmaOff)), n)
	feats := unsafe.Slice((**C.char)(unsafe.Add(block, featsOff)), n)
	strs := unsafe.Slice((*byte)(unsafe.Add(block, strOff)), extra)
	// intern returns the interned string cs, or a copy of s in strs.
	intern := func(cs *C.char, s string) *C.char {
		if cs != nil {
			return cs
		}
		p := (*C.char)(unsafe.Pointer(&strs[0]))
		copy(strs, s)
		strs[len(s)] = 0
		strs = strs[len(s)+1:]
		return p
	}
	for i := range words {
		w, in := &words[i], in[resultCols*i:]
		heads[i] = C.int32_t(w.Head)
		deprels[i] = intern(in[0], w.Deprel)
		upos[i] = intern(in[1], w.UPOS)
		xpos[i] = intern(in[2], w.XPOS)
		lemma[i] = intern(in[3], w.Lemma)
		feats[i] = intern(in[4], w.Feats)
	}
	r := (*C.tp_result)(block)
	*r = C.tp_result{}
	if len(conf) > 0 {
		c := unsafe.Slice((*C.double)(unsafe.Add(block, confOff)), n)
		for i, x := range conf {
			c[i] = C.double(x)
		}
		r.confidence = &c[0]
	}
	if nt > 0 {
		scores := unsafe.Slice((*C.double)(unsafe.Add(block, scoresOff)), nt*ns)
		th := unsafe.Slice((*C.int32_t)(unsafe.Add(block, treeHeadsOff)), nt*n)
		td := unsafe.Slice((**C.char)(unsafe.Add(block, treeDeprelsOff)), nt*n)
		for k, ts := range trees {
			off := uintptr(offs[k])
			for j := range nt {
				scores[j*ns+uintptr(k)] = C.double(math.Inf(-1))
				for i := off; i < uintptr(offs[k+1]); i++ {
					th[j*n+i], td[j*n+i] = -1, blank
				}
			}
			for j, t := range ts {
				scores[uintptr(j)*ns+uintptr(k)] = C.double(t.Score)
				for i := range t.Head {
					th[uintptr(j)*n+off+uintptr(i)] = C.int32_t(t.Head[i])
					td[uintptr(j)*n+off+uintptr(i)] = intern(e.deprels.index[t.Deprel[i]], t.Deprel[i])
				}
			}
		}
		r.n_trees = C.size_t(nt)
		r.tree_scores = &scores[0]
		r.tree_heads = &th[0]
		r.tree_deprels = &td[0]
	}
	r.n_words = C.size_t(n)
	r.heads = &heads[0]
	r.deprels = &deprels[0]
	r.upos = &upos[0]
	r.xpos = &xpos[0]
	r.lemma = &lemma[0]
	r.feats = &feats[0]
	return r, nil
}

//export tpgo_parse_conllu
func tpgo_parse_conllu(h C.uintptr_t, text *C.char, n C.size_t, out **C.char, outLen *C.size_t, msg **C.char) (rc C.int) {
	const fn = "tp_parse_conllu"
	defer recoverTo(fn, msg, &rc)
	// The caller's text is the only input: an error the parser does not
	// classify is about that text.
	return finish(fn, msg, parseCoNLLU(h, text, n, out, outLen), C.TP_ERR_INPUT)
}

func parseCoNLLU(h C.uintptr_t, text *C.char, n C.size_t, out **C.char, outLen *C.size_t) error {
	return parseText(h, text, n, out, outLen, func(m *parser.Model, r io.Reader, w io.Writer) error {
		_, err := m.ParseDocument(r, w, parser.DocOptions{Name: "text", Parse: greedy})
		return err
	})
}

//export tpgo_parse_conllu_with
func tpgo_parse_conllu_with(h C.uintptr_t, text *C.char, n C.size_t, opts *C.tp_parse_options, out **C.char, outLen *C.size_t, msg **C.char) (rc C.int) {
	const fn = "tp_parse_conllu_with"
	defer recoverTo(fn, msg, &rc)
	return finish(fn, msg, parseTextWith(h, text, n, opts, out, outLen, false), C.TP_ERR_INPUT)
}

//export tpgo_parse_tokens_with
func tpgo_parse_tokens_with(h C.uintptr_t, text *C.char, n C.size_t, opts *C.tp_parse_options, out **C.char, outLen *C.size_t, msg **C.char) (rc C.int) {
	const fn = "tp_parse_tokens_with"
	defer recoverTo(fn, msg, &rc)
	return finish(fn, msg, parseTextWith(h, text, n, opts, out, outLen, true), C.TP_ERR_INPUT)
}

// parseTextWith is parseText of CoNLL-U (tokens false) or pre-tokenized
// text with the caller's parse options.
func parseTextWith(h C.uintptr_t, text *C.char, n C.size_t, opts *C.tp_parse_options, out **C.char, outLen *C.size_t, tokens bool) error {
	if h == 0 {
		return argErr("model is NULL")
	}
	if text == nil {
		return argErr("text is NULL")
	}
	co, err := parseOptions(opts)
	if err == nil {
		err = co.noSpacing()
	}
	if err != nil {
		return err
	}
	return parseText(h, text, n, out, outLen, func(m *parser.Model, r io.Reader, w io.Writer) error {
		opt, err := co.resolve(m)
		if err != nil {
			return err
		}
		o := parser.DocOptions{Name: "text", Parse: opt}
		if tokens {
			o.Input = parser.InputTokens
		}
		_, err = m.ParseDocument(r, w, o)
		return err
	})
}

//export tpgo_parse_tokens
func tpgo_parse_tokens(h C.uintptr_t, text *C.char, n C.size_t, out **C.char, outLen *C.size_t, msg **C.char) (rc C.int) {
	const fn = "tp_parse_tokens"
	defer recoverTo(fn, msg, &rc)
	return finish(fn, msg, parseText(h, text, n, out, outLen, func(m *parser.Model, r io.Reader, w io.Writer) error {
		_, err := m.ParseDocument(r, w, parser.DocOptions{Name: "text", Input: parser.InputTokens, Parse: greedy})
		return err
	}), C.TP_ERR_INPUT)
}

// parseText runs a whole-document parse (CoNLL-U or pre-tokenized text) on
// a copy of the caller's n bytes and returns the CoNLL-U it writes as a
// malloc'd string.
func parseText(h C.uintptr_t, text *C.char, n C.size_t, out **C.char, outLen *C.size_t,
	run func(m *parser.Model, r io.Reader, w io.Writer) error) error {
	if h == 0 {
		return argErr("model is NULL")
	}
	if text == nil {
		return argErr("text is NULL")
	}
	if out == nil {
		return argErr("out_text is NULL")
	}
	if uint64(n) > math.MaxInt {
		return argErr("len %d is too large", uint64(n))
	}
	e, err := acquire(h)
	if err != nil {
		return err
	}
	defer e.mu.RUnlock()
	// The caller's text is read in place: the parse is written to buf
	// before the call returns, and nothing keeps a view of the text.
	in := unsafe.Slice((*byte)(unsafe.Pointer(text)), int(n))
	var buf bytes.Buffer
	if err := run(e.model, bytes.NewReader(in), &buf); err != nil {
		return err
	}
	return putText(out, outLen, buf.Bytes())
}

// putText hands b to the caller as a malloc'd NUL-terminated string in
// *out, with its length in *outLen when outLen is not nil.
func putText(out **C.char, outLen *C.size_t, b []byte) error {
	cs := cBytes(b)
	if cs == nil {
		return errNoMem
	}
	*out = cs
	if outLen != nil {
		*outLen = C.size_t(len(b))
	}
	return nil
}

// cString copies s into a malloc'd NUL-terminated string; nil if out of
// memory.
func cString(s string) *C.char {
	p := C.tp__alloc(C.size_t(len(s)) + 1)
	if p == nil {
		return nil
	}
	b := unsafe.Slice((*byte)(p), len(s)+1)
	copy(b, s)
	b[len(s)] = 0
	return (*C.char)(p)
}

func cBytes(s []byte) *C.char {
	p := C.tp__alloc(C.size_t(len(s)) + 1)
	if p == nil {
		return nil
	}
	b := unsafe.Slice((*byte)(p), len(s)+1)
	copy(b, s)
	b[len(s)] = 0
	return (*C.char)(p)
}

func ptr[T any](p *T) unsafe.Pointer { return unsafe.Pointer(p) }
