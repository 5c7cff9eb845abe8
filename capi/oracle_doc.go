package main

/*
#include "internal.h"
*/
import "C"

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"unsafe"

	"github.com/transparse/transparse/parser/conllu"
	"github.com/transparse/transparse/parser/transition"
)

// docOracle is the static oracle of every sentence of a document, flat.
type docOracle struct {
	words   []int // per sentence
	inClass []bool
	offsets []int // len(words)+1
	classes []int32
}

// oracleDocument reads the CoNLL-U document in and runs e's static oracle
// on every sentence in the system's class.
func oracleDocument(e *systemEntry, in []byte) (*docOracle, error) {
	r := conllu.NewReader(bytes.NewReader(in), "text")
	out := &docOracle{offsets: []int{0}}
	for k := 1; ; k++ {
		s, err := r.Next()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, inputErr("%v", err)
		}
		where := fmt.Sprintf("text:%d: sentence %d", r.SentenceLine(), k)
		g, err := e.goldOfWords(s.Words)
		if err != nil {
			return nil, inputErr("%s: %v", where, err)
		}
		in := e.classes.Sys.InClass(g)
		if in {
			seq, err := transition.OracleClasses(e.classes, g)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", where, err)
			}
			out.classes = append(out.classes, seq...)
		}
		out.words = append(out.words, len(s.Words))
		out.inClass = append(out.inClass, in)
		out.offsets = append(out.offsets, len(out.classes))
	}
}

// goldOfWords is the gold tree of a sentence's words (goldTree), their
// deprels looked up among the system's (the base ones with a
// pseudo-projective encoding).
func (e *systemEntry) goldOfWords(words []conllu.Word) (*transition.Gold, error) {
	if len(words) > maxEngineWords {
		return nil, fmt.Errorf("%d words; at most %d", len(words), maxEngineWords)
	}
	h := make([]int32, len(words)+1)
	l := make([]int32, len(words)+1)
	h[0], l[0] = transition.None, transition.None
	for i, w := range words {
		d, ok := e.index[w.Deprel]
		if !ok || int(d) >= e.base {
			return nil, fmt.Errorf("word %d has deprel %q, not one of the system's", i+1, w.Deprel)
		}
		h[i+1], l[i+1] = int32(w.Head), d
	}
	return e.goldTree(h, l)
}

// put copies o into one malloc'd tp_oracle_doc block: the struct, then
// n_words and offsets (size_t), classes (int32_t), in_class (uint8_t).
func (o *docOracle) put() *C.tp_oracle_doc {
	const sz = unsafe.Sizeof(C.size_t(0))
	ns, nc := uintptr(len(o.words)), uintptr(len(o.classes))
	words := (unsafe.Sizeof(C.tp_oracle_doc{}) + 7) &^ 7
	offsets := words + sz*ns
	classes := offsets + sz*(ns+1)
	inClass := classes + 4*nc
	block := C.tp__alloc(C.size_t(inClass + ns))
	if block == nil {
		return nil
	}
	r := (*C.tp_oracle_doc)(block)
	r.n_sentences = C.size_t(ns)
	w := unsafe.Slice((*C.size_t)(unsafe.Add(block, words)), ns)
	off := unsafe.Slice((*C.size_t)(unsafe.Add(block, offsets)), ns+1)
	cl := unsafe.Slice((*C.int32_t)(unsafe.Add(block, classes)), nc)
	ic := unsafe.Slice((*C.uint8_t)(unsafe.Add(block, inClass)), ns)
	for i := range o.words {
		w[i], off[i], ic[i] = C.size_t(o.words[i]), C.size_t(o.offsets[i]), 0
		if o.inClass[i] {
			ic[i] = 1
		}
	}
	off[ns] = C.size_t(o.offsets[ns])
	for i, k := range o.classes {
		cl[i] = C.int32_t(k)
	}
	r.n_words, r.offsets = (*C.size_t)(unsafe.Add(block, words)), &off[0]
	r.classes, r.in_class = (*C.int32_t)(unsafe.Add(block, classes)), (*C.uint8_t)(unsafe.Add(block, inClass))
	return r
}

//export tpgo_system_oracle_document
func tpgo_system_oracle_document(h C.uintptr_t, text *C.char, n C.size_t, out **C.tp_oracle_doc, msg **C.char) C.int {
	return call("tp_system_oracle_document", msg, C.TP_ERR_INTERNAL, func() error {
		e, err := systemOf(h)
		if err != nil {
			return err
		}
		if out == nil || (text == nil && n > 0) {
			return argErr("text or result is NULL")
		}
		if uint64(n) > math.MaxInt {
			return argErr("len %d is too large", uint64(n))
		}
		var in []byte
		if n > 0 {
			in = unsafe.Slice((*byte)(unsafe.Pointer(text)), int(n))
		}
		o, err := oracleDocument(e, in)
		if err != nil {
			return err
		}
		if *out = o.put(); *out == nil {
			return errNoMem
		}
		return nil
	})
}
