package main

/*
#include "internal.h"
*/
import "C"

import (
	"fmt"
	"io"
	"sync"
	"unsafe"

	"github.com/transparse/transparse/parser"
)

// docOptions translates a tp_doc_options (nil: the defaults) into the
// parser's options and whether the input is pre-tokenized text.
func docOptions(o *C.tp_doc_options) (parser.DocOptions, bool, error) {
	d := parser.DocOptions{Name: "text"}
	if o == nil {
		return d, false, nil
	}
	tokens := false
	switch o.format {
	case C.TP_FORMAT_CONLLU:
	case C.TP_FORMAT_TOKENS:
		tokens = true
	default:
		return d, false, argErr("options->format is %d: want TP_FORMAT_CONLLU or TP_FORMAT_TOKENS", int(o.format))
	}
	switch o.on_error {
	case C.TP_ON_ERROR_STOP:
	case C.TP_ON_ERROR_SKIP:
		d.OnError = parser.SkipOnError
	default:
		return d, false, argErr("options->on_error is %d: want TP_ON_ERROR_STOP or TP_ON_ERROR_SKIP", int(o.on_error))
	}
	if o.threads < 0 {
		return d, false, argErr("options->threads is %d: want 0 or more", int(o.threads))
	}
	d.NoTags = o.no_tags != 0
	d.Workers = int(o.threads)
	return d, tokens, nil
}

// withName is the name of the entry point: name, or name + "_with" (the
// one that takes tp_parse_options) when with is not 0.
func withName(name string, with C.int) string {
	if with != 0 {
		return name + "_with"
	}
	return name
}

// docParseOptions is docOptions and the parse options popts (nil: the
// greedy parser), which resolve puts in DocOptions.Parse.
func docParseOptions(o *C.tp_doc_options, popts *C.tp_parse_options) (parser.DocOptions, callOptions, bool, error) {
	d, tokens, err := docOptions(o)
	var co callOptions
	if err == nil {
		co, err = parseOptions(popts)
	}
	if err == nil {
		err = co.noSpacing()
	}
	return d, co, tokens, err
}

// tpgo_parse_document is tp_parse_document and, with is not 0,
// tp_parse_document_with (popts: its parse options).
//
//export tpgo_parse_document
func tpgo_parse_document(h C.uintptr_t, text *C.char, n C.size_t, opts *C.tp_doc_options, popts *C.tp_parse_options, with C.int,
	out **C.char, outLen *C.size_t, skipped *C.size_t, msg **C.char) (rc C.int) {
	fn := withName("tp_parse_document", with)
	defer recoverTo(fn, msg, &rc)
	o, co, tokens, err := docParseOptions(opts, popts)
	if err != nil {
		return finish(fn, msg, err, C.TP_ERR_INTERNAL)
	}
	var st parser.DocStats
	err = parseText(h, text, n, out, outLen, func(m *parser.Model, r io.Reader, w io.Writer) error {
		var err error
		if o.Parse, err = co.resolve(m); err != nil {
			return err
		}
		if tokens {
			o.Input = parser.InputTokens
		}
		st, err = m.ParseDocument(r, w, o)
		return err
	})
	if err == nil && skipped != nil {
		*skipped = C.size_t(st.Skipped)
	}
	return finish(fn, msg, err, C.TP_ERR_INPUT)
}

// A tp_stream* is an integer handle, as a tp_model* is (handles.go), a key
// of streams.
var streams sync.Map // uintptr -> *streamEntry

// streamEntry is one open stream.
type streamEntry struct {
	// mu is held by every call on the stream; a second thread's call
	// finds it held (TryLock) and is refused.
	mu    sync.Mutex
	model C.uintptr_t
	st    *parser.Stream
	buf   unsafe.Pointer // malloc'd: the sentence returned last, NUL-terminated
	cap   int
}

// cReader reads from a tp_read_fn.
type cReader struct {
	read C.tp_read_fn
	ctx  unsafe.Pointer
}

func (r *cReader) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	// p holds no Go pointers, so C may write into it during the call.
	n := C.tp__call_read(r.read, r.ctx, (*C.char)(unsafe.Pointer(&p[0])), C.size_t(len(p)))
	switch {
	case n == 0:
		return 0, io.EOF
	case n < 0:
		return 0, &apiError{C.TP_ERR_IO, fmt.Sprintf("the read callback failed (returned %d)", int64(n))}
	case int64(n) > int64(len(p)):
		return 0, &apiError{C.TP_ERR_IO, fmt.Sprintf("the read callback returned %d, more than the %d bytes asked", int64(n), len(p))}
	}
	return int(n), nil
}

// tpgo_stream_open is tp_stream_open and, with is not 0,
// tp_stream_open_with (popts: its parse options).
//
//export tpgo_stream_open
func tpgo_stream_open(h C.uintptr_t, read C.tp_read_fn, ctx unsafe.Pointer, opts *C.tp_doc_options, popts *C.tp_parse_options,
	with C.int, out *C.uintptr_t, msg **C.char) (rc C.int) {
	fn := withName("tp_stream_open", with)
	defer recoverTo(fn, msg, &rc)
	return finish(fn, msg, streamOpen(h, read, ctx, opts, popts, out), C.TP_ERR_INTERNAL)
}

func streamOpen(h C.uintptr_t, read C.tp_read_fn, ctx unsafe.Pointer, opts *C.tp_doc_options, popts *C.tp_parse_options, out *C.uintptr_t) error {
	if h == 0 {
		return argErr("model is NULL")
	}
	if read == nil {
		return argErr("read is NULL")
	}
	if out == nil {
		return argErr("stream is NULL")
	}
	o, co, tokens, err := docParseOptions(opts, popts)
	if err != nil {
		return err
	}
	e, err := acquire(h)
	if err != nil {
		return err
	}
	defer e.mu.RUnlock()
	if o.Parse, err = co.resolve(e.model); err != nil {
		return err
	}
	if tokens {
		o.Input = parser.InputTokens
	}
	st := e.model.NewStream(&cReader{read: read, ctx: ctx}, o)
	hs := lastHandle.Add(1)
	streams.Store(hs, &streamEntry{model: h, st: st})
	*out = C.uintptr_t(hs)
	return nil
}

// lockStream finds the stream of handle hs and locks it; the caller must
// unlock it.
func lockStream(hs C.uintptr_t) (*streamEntry, error) {
	if hs == 0 {
		return nil, argErr("stream is NULL")
	}
	v, ok := streams.Load(uintptr(hs))
	if !ok {
		return nil, argErr("stream handle was freed or is invalid")
	}
	e := v.(*streamEntry)
	if !e.mu.TryLock() {
		return nil, argErr("stream is in use by another thread")
	}
	if e.st == nil { // freed while this call looked it up
		e.mu.Unlock()
		return nil, argErr("stream handle was freed or is invalid")
	}
	return e, nil
}

//export tpgo_stream_next
func tpgo_stream_next(hs C.uintptr_t, sentence **C.char, n *C.size_t, msg **C.char) (rc C.int) {
	const fn = "tp_stream_next"
	defer recoverTo(fn, msg, &rc)
	return finish(fn, msg, streamNext(hs, sentence, n), C.TP_ERR_INPUT)
}

func streamNext(hs C.uintptr_t, sentence **C.char, n *C.size_t) error {
	if sentence == nil {
		return argErr("sentence is NULL")
	}
	e, err := lockStream(hs)
	if err != nil {
		return err
	}
	defer e.mu.Unlock()
	me, err := acquire(e.model)
	if err != nil {
		return err
	}
	defer me.mu.RUnlock()
	b, err := e.st.Next()
	if err == io.EOF {
		return nil // *sentence stays NULL (shim.c)
	}
	if err != nil {
		return err
	}
	if len(b)+1 > e.cap {
		size := max(len(b)+1, 2*e.cap, 4096)
		p := C.realloc(e.buf, C.size_t(size))
		if p == nil {
			return errNoMem
		}
		e.buf, e.cap = p, size
	}
	dst := unsafe.Slice((*byte)(e.buf), len(b)+1)
	copy(dst, b)
	dst[len(b)] = 0
	*sentence = (*C.char)(e.buf)
	if n != nil {
		*n = C.size_t(len(b))
	}
	return nil
}

//export tpgo_stream_stats
func tpgo_stream_stats(hs C.uintptr_t, sentences, skipped *C.size_t, msg **C.char) (rc C.int) {
	const fn = "tp_stream_stats"
	defer recoverTo(fn, msg, &rc)
	e, err := lockStream(hs)
	if err == nil {
		st := e.st.Stats()
		e.mu.Unlock()
		if sentences != nil {
			*sentences = C.size_t(st.Sentences)
		}
		if skipped != nil {
			*skipped = C.size_t(st.Skipped)
		}
	}
	return finish(fn, msg, err, C.TP_ERR_INTERNAL)
}

//export tpgo_stream_free
func tpgo_stream_free(hs C.uintptr_t, msg **C.char) (rc C.int) {
	const fn = "tp_stream_free"
	defer recoverTo(fn, msg, &rc)
	e, err := lockStream(hs)
	if err == nil {
		streams.Delete(uintptr(hs))
		C.free(e.buf)
		e.buf, e.cap, e.st = nil, 0, nil
		e.mu.Unlock()
	}
	return finish(fn, msg, err, C.TP_ERR_INTERNAL)
}
