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
	"math"
	"slices"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/transparse/transparse/internal/freelist"
	"github.com/transparse/transparse/parser"
	"github.com/transparse/transparse/parser/conllu"
	"github.com/transparse/transparse/render"
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
	_ = uint(C.TP_MAX_DOC_COMMENTS - conllu.MaxComments)
	_ = uint(conllu.MaxComments - C.TP_MAX_DOC_COMMENTS)
	_ = uint(C.TP_MAX_DOC_COMMENT_BYTES - conllu.MaxCommentBytes)
	_ = uint(conllu.MaxCommentBytes - C.TP_MAX_DOC_COMMENT_BYTES)
	_ = uint(C.TP_MAX_DOC_SENTENCE_BYTES - conllu.MaxSentenceBytes)
	_ = uint(conllu.MaxSentenceBytes - C.TP_MAX_DOC_SENTENCE_BYTES)
	_ = uint(C.TP_MAX_SVG_WORDS - render.MaxWords)
	_ = uint(render.MaxWords - C.TP_MAX_SVG_WORDS)
	_ = uint(C.TP_MAX_WORDS - conllu.MaxWords)
	_ = uint(conllu.MaxWords - C.TP_MAX_WORDS)
)

// The Go entry points below are called only by shim.c, which has already
// refused calls from a forked child. Each returns a status code and, on
// failure, stores a malloc'd message in *msg (see call).

//export tpgo_model_load
func tpgo_model_load(path *C.char, out *C.uintptr_t, msg **C.char) C.int {
	return call("tp_model_load", msg, C.TP_ERR_INTERNAL, func() error { return modelLoad(path, out) })
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
	return registerTo(m, out)
}

// registerTo registers m (see register) and stores its handle in *out.
func registerTo(m *parser.Model, out *C.uintptr_t) error {
	h, err := register(m)
	if err != nil {
		return err
	}
	*out = C.uintptr_t(h)
	return nil
}

//export tpgo_model_load_from_memory
func tpgo_model_load_from_memory(data unsafe.Pointer, size C.size_t, out *C.uintptr_t, msg **C.char) C.int {
	return call("tp_model_load_from_memory", msg, C.TP_ERR_INTERNAL, func() error { return modelLoadFromMemory(data, size, out) })
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
	return registerTo(m, out)
}

//export tpgo_model_free
func tpgo_model_free(h C.uintptr_t, msg **C.char) C.int {
	return call("tp_model_free", msg, C.TP_ERR_INTERNAL, func() error {
		err := release(h)
		if err == nil {
			returnMemory()
		}
		return err
	})
}

//export tpgo_model_card_json
func tpgo_model_card_json(h C.uintptr_t, out **C.char, msg **C.char) C.int {
	return call("tp_model_card_json", msg, C.TP_ERR_INTERNAL, func() error {
		if h == 0 {
			return argErr("model is NULL")
		}
		if out == nil {
			return argErr("json is NULL")
		}
		return withModel(h, func(e *modelEntry) error {
			js, err := cardJSON(e.model.Card())
			if err != nil {
				return err
			}
			if *out = cString(js); *out == nil {
				return errNoMem
			}
			return nil
		})
	})
}

//export tpgo_model_default_beam
func tpgo_model_default_beam(h C.uintptr_t, out *C.int, msg **C.char) C.int {
	return call("tp_model_default_beam", msg, C.TP_ERR_INTERNAL, func() error {
		if h == 0 {
			return argErr("model is NULL")
		}
		if out == nil {
			return argErr("width is NULL")
		}
		return withModel(h, func(e *modelEntry) error {
			*out = C.int(e.model.DefaultBeam())
			return nil
		})
	})
}

// tpgo_model_strings is tp_model_deprels (which 0), tp_model_upos_tags (1)
// and tp_model_xpos_tags (2).
//
//export tpgo_model_strings
func tpgo_model_strings(h C.uintptr_t, which C.int, out ***C.char, n *C.size_t, msg **C.char) C.int {
	fn, outName := "tp_model_deprels", "labels"
	switch which {
	case 1:
		fn, outName = "tp_model_upos_tags", "tags"
	case 2:
		fn, outName = "tp_model_xpos_tags", "tags"
	}
	return call(fn, msg, C.TP_ERR_INTERNAL, func() error { return modelStrings(h, which, outName, out, n) })
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
	return withModel(h, func(e *modelEntry) error {
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
	})
}

//export tpgo_parse
func tpgo_parse(h C.uintptr_t, forms **C.char, n C.size_t, tags *C.tp_tags, opts *C.tp_options, out **C.tp_result, msg **C.char) C.int {
	return call("tp_parse", msg, C.TP_ERR_INTERNAL, func() error { return parse(h, forms, n, tags, opts, out) })
}

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
	ex       resultExtras // the confidences and trees asked for, every sentence
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

// add appends the confidences and trees of a sentence's result r (nil:
// none were asked for).
func (ex *resultExtras) add(r *parser.Result) {
	if r == nil {
		return
	}
	ex.conf = append(ex.conf, r.Confidence...)
	if r.Trees == nil {
		return
	}
	ex.trees = append(ex.trees, r.Trees)
	ex.nt = max(ex.nt, len(r.Trees))
}

var callScratches freelist.List[callScratch] // kept across GCs

// maxBatchWords is TP_MAX_BATCH_WORDS: the Go memory of a batch is about
// 200 bytes per word.
const maxBatchWords = C.TP_MAX_BATCH_WORDS

// keepWords is the most words a scratch keeps room for when it goes back
// to callScratches (a tp_parse call needs at most parser.MaxWords).
const keepWords = 4 * parser.MaxWords

func parse(h C.uintptr_t, forms **C.char, n C.size_t, tags *C.tp_tags, opts *C.tp_options, out **C.tp_result) error {
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
	co, err := readOptions(opts)
	if err != nil {
		return err
	}
	one := [2]C.size_t{0, n}
	return parseSentences(h, forms, tags, one[:], nil, &co, out)
}

// parseSentences reads the words of forms and tags (offs[len(offs)-1] of
// each; see readWords, which names bad elements with where), parses
// sentence k = words offs[k] to offs[k+1]-1 (numbered from 1) with the
// model of h with the options co and stores one result for all of them
// in *out. For a batch (where not nil), the error of a sentence the
// parser refuses names it.
func parseSentences(h C.uintptr_t, forms **C.char, tags *C.tp_tags, offs []C.size_t, where func(int) string,
	co *callOptions, out **C.tp_result) error {
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
	return withModel(h, func(e *modelEntry) error {
		if err := co.check(e.model); err != nil {
			return err
		}
		ex := &sc.ex
		ex.reset()
		for k := range n {
			res, err := parseWords(e.model, words[offs[k]:offs[k+1]], &co.parse)
			if err != nil {
				if where != nil { // a batch: name the sentence
					return fmt.Errorf("sentence %d: %w", k, err)
				}
				return err
			}
			ex.add(res)
		}
		r, err := sc.buildResult(e, words, offs, ex)
		if err == nil {
			*out = r
		}
		return err
	})
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

//export tpgo_parse_batch
func tpgo_parse_batch(h C.uintptr_t, forms **C.char, offsets *C.size_t, n C.size_t, tags *C.tp_tags, opts *C.tp_options,
	out **C.tp_result, msg **C.char) C.int {
	return call("tp_parse_batch", msg, C.TP_ERR_INTERNAL, func() error { return parseBatch(h, forms, offsets, n, tags, opts, out) })
}

func parseBatch(h C.uintptr_t, forms **C.char, offsets *C.size_t, n C.size_t, tags *C.tp_tags, opts *C.tp_options, out **C.tp_result) error {
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
	co, err := readOptions(opts)
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
	return parseSentences(h, forms, tags, offs, where, &co, out)
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
// with the confidences and the trees of ex, s being the number of
// sentences (offs: sentence k is words offs[k] to offs[k+1]-1) and t the
// most trees of a sentence (see putTrees). strings holds the labels and
// tags that are not in the model's string tables (for example a UPOS tag
// the caller gave that the tagger does not know) and every LEMMA and FEATS
// other than "_" (the model has no table of those). tp_result_free is
// free(3).
func (sc *callScratch) buildResult(e *modelEntry, words []conllu.Word, offs []C.size_t, ex *resultExtras) (*C.tp_result, error) {
	n := uintptr(len(words))
	extra := sc.internWords(e, words) + treeBytes(e, ex.trees)
	l := layoutResult(n, uintptr(len(ex.conf)), uintptr(ex.nt), uintptr(len(offs)-1))
	block := C.tp__alloc(C.size_t(l.strs + extra))
	if block == nil {
		return nil, errNoMem
	}
	strs := cArena(unsafe.Slice((*byte)(unsafe.Add(block, l.strs)), extra))
	heads := unsafe.Slice((*C.int32_t)(unsafe.Add(block, l.heads)), n)
	cols := unsafe.Slice((**C.char)(unsafe.Add(block, l.cols)), resultCols*n)
	for i := range words {
		w, in := &words[i], sc.interned[resultCols*i:]
		heads[i] = C.int32_t(w.Head)
		for k, s := range [resultCols]string{w.Deprel, w.UPOS, w.XPOS, w.Lemma, w.Feats} {
			cols[uintptr(k)*n+uintptr(i)] = strs.put(in[k], s)
		}
	}
	r := (*C.tp_result)(block)
	*r = C.tp_result{n_words: C.size_t(n), heads: &heads[0], deprels: &cols[0], upos: &cols[n],
		xpos: &cols[2*n], lemma: &cols[3*n], feats: &cols[4*n]}
	if len(ex.conf) > 0 {
		c := unsafe.Slice((*C.double)(unsafe.Add(block, l.conf)), n)
		for i, x := range ex.conf {
			c[i] = C.double(x)
		}
		r.confidence = &c[0]
	}
	if ex.nt > 0 {
		putTrees(r, block, l, e, offs, ex, &strs)
	}
	return r, nil
}

// internWords looks up the deprel, UPOS, XPOS, LEMMA and FEATS of every
// word in the model's string tables into sc.interned (nil: not there) and
// returns the bytes the strings not found take as C strings.
func (sc *callScratch) internWords(e *modelEntry, words []conllu.Word) uintptr {
	// An absent LEMMA or FEATS is the XPOS table's "_" (its first entry).
	blank := e.xpos.index["_"]
	sc.interned = slices.Grow(sc.interned[:0], resultCols*len(words))[:resultCols*len(words)]
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
			sc.interned[resultCols*i+k] = cs
		}
	}
	return extra
}

// treeBytes is the bytes the trees' deprels that are not in the model's
// table take as C strings.
func treeBytes(e *modelEntry, trees [][]parser.ScoredTree) uintptr {
	extra := uintptr(0)
	for _, ts := range trees {
		for _, t := range ts {
			for _, d := range t.Deprel {
				if e.deprels.index[d] == nil {
					extra += uintptr(len(d)) + 1
				}
			}
		}
	}
	return extra
}

// resultLayout holds the byte offsets, in a tp_result block, of its arrays
// (cols: the resultCols string columns, one after the other) and of its
// strings.
type resultLayout struct {
	heads, cols, conf, scores, treeDeprels, treeHeads, strs uintptr
}

// layoutResult lays out a block for n words, nconf confidences and nt
// trees of each of ns sentences.
func layoutResult(n, nconf, nt, ns uintptr) resultLayout {
	const pz = unsafe.Sizeof((*C.char)(nil))
	var l resultLayout
	l.heads = (unsafe.Sizeof(C.tp_result{}) + 7) &^ 7
	l.cols = (l.heads + 4*n + 7) &^ 7
	l.conf = l.cols + resultCols*pz*n
	l.scores = l.conf + 8*nconf
	l.treeDeprels = l.scores + 8*nt*ns
	l.treeHeads = l.treeDeprels + pz*nt*n
	l.strs = l.treeHeads + 4*nt*n
	return l
}

// putTrees writes the k best trees of ex into the block of r: tree j of
// sentence k is at tree_scores[j*s+k] and, for its word i, at
// tree_heads[j*n+offs[k]+i] (a sentence with fewer trees has score -Inf,
// heads -1 and deprels "_" there).
func putTrees(r *C.tp_result, block unsafe.Pointer, l resultLayout, e *modelEntry, offs []C.size_t, ex *resultExtras, strs *cArena) {
	n, nt, ns := uintptr(r.n_words), uintptr(ex.nt), uintptr(len(offs)-1)
	blank := e.xpos.index["_"]
	scores := unsafe.Slice((*C.double)(unsafe.Add(block, l.scores)), nt*ns)
	th := unsafe.Slice((*C.int32_t)(unsafe.Add(block, l.treeHeads)), nt*n)
	td := unsafe.Slice((**C.char)(unsafe.Add(block, l.treeDeprels)), nt*n)
	for k, ts := range ex.trees {
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
				td[uintptr(j)*n+off+uintptr(i)] = strs.put(e.deprels.index[t.Deprel[i]], t.Deprel[i])
			}
		}
	}
	r.n_trees = C.size_t(nt)
	r.tree_scores = &scores[0]
	r.tree_heads = &th[0]
	r.tree_deprels = &td[0]
}

// cArena hands out C strings from the string area of a result block.
type cArena []byte

// put returns the interned string cs, or, when cs is nil, a NUL-terminated
// copy of s taken from the arena.
func (a *cArena) put(cs *C.char, s string) *C.char {
	if cs != nil {
		return cs
	}
	p := (*C.char)(unsafe.Pointer(&(*a)[0]))
	copy(*a, s)
	(*a)[len(s)] = 0
	*a = (*a)[len(s)+1:]
	return p
}

// tpgo_parse_document is tp_parse_document.
//
//export tpgo_parse_document
func tpgo_parse_document(h C.uintptr_t, text *C.char, n C.size_t, opts *C.tp_options,
	out **C.char, outLen *C.size_t, skipped *C.size_t, msg **C.char) C.int {
	// The caller's text is the only input: an error the parser does not
	// classify is about that text.
	return call("tp_parse_document", msg, C.TP_ERR_INPUT, func() error {
		co, err := readOptions(opts)
		if err == nil {
			err = co.checkDocument()
		}
		if err != nil {
			return err
		}
		st, err := parseText(h, text, n, out, outLen, &co)
		if err == nil && skipped != nil {
			*skipped = C.size_t(st.Skipped)
		}
		return err
	})
}

// parseText parses a document (see parseDocument) on a view of the
// caller's n bytes and returns the CoNLL-U it writes as a malloc'd string.
func parseText(h C.uintptr_t, text *C.char, n C.size_t, out **C.char, outLen *C.size_t, co *callOptions) (parser.DocStats, error) {
	var st parser.DocStats
	if h == 0 {
		return st, argErr("model is NULL")
	}
	if text == nil {
		return st, argErr("text is NULL")
	}
	if out == nil {
		return st, argErr("out_text is NULL")
	}
	if uint64(n) > math.MaxInt {
		return st, argErr("len %d is too large", uint64(n))
	}
	err := withModel(h, func(e *modelEntry) error {
		// The caller's text is read in place: the parse is written to buf
		// before the call returns, and nothing keeps a view of the text.
		in := unsafe.Slice((*byte)(unsafe.Pointer(text)), int(n))
		var buf bytes.Buffer
		var err error
		if st, err = parseDocument(e.model, bytes.NewReader(in), &buf, co); err != nil {
			return err
		}
		return putText(out, outLen, buf.Bytes())
	})
	return st, err
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
	return cBytes(unsafe.Slice(unsafe.StringData(s), len(s)))
}

// cBytes copies s into a malloc'd NUL-terminated string; nil if out of
// memory.
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
