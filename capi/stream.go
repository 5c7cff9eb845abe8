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

// cReader reads from a tp_read_fn, the callback of stream (a handle) on
// model.
type cReader struct {
	read          C.tp_read_fn
	ctx           unsafe.Pointer
	stream, model C.uintptr_t
}

func (r *cReader) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	// p holds no Go pointers, so C may write into it during the call.
	n := C.tp__call_read(r.read, r.ctx, (*C.char)(unsafe.Pointer(&p[0])), C.size_t(len(p)), r.stream, r.model)
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

//export tpgo_stream_open
func tpgo_stream_open(h C.uintptr_t, read C.tp_read_fn, ctx unsafe.Pointer, opts *C.tp_options, out *C.uintptr_t, msg **C.char) C.int {
	return call("tp_stream_open", msg, C.TP_ERR_INTERNAL, func() error { return streamOpen(h, read, ctx, opts, out) })
}

func streamOpen(h C.uintptr_t, read C.tp_read_fn, ctx unsafe.Pointer, opts *C.tp_options, out *C.uintptr_t) error {
	if h == 0 {
		return argErr("model is NULL")
	}
	if read == nil {
		return argErr("read is NULL")
	}
	if out == nil {
		return argErr("stream is NULL")
	}
	co, err := readOptions(opts)
	if err == nil {
		err = co.checkDocument()
	}
	if err != nil {
		return err
	}
	return withModel(h, func(e *modelEntry) error {
		hs := lastHandle.Add(1)
		st, err := newStream(e.model, &cReader{read: read, ctx: ctx, stream: C.uintptr_t(hs), model: h}, &co)
		if err != nil {
			return err
		}
		streams.Store(hs, &streamEntry{model: h, st: st})
		*out = C.uintptr_t(hs)
		return nil
	})
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
func tpgo_stream_next(hs C.uintptr_t, sentence **C.char, n *C.size_t, msg **C.char) C.int {
	return call("tp_stream_next", msg, C.TP_ERR_INPUT, func() error { return streamNext(hs, sentence, n) })
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
	if C.tp__reading_model_is(e.model) != 0 { // another stream's callback (shim.c checks this one)
		return argErr("called from inside the read callback (tp_read_fn) of a stream on the same model; " +
			"no tp_ call may use that model until the callback returns")
	}
	var b []byte
	err = withModel(e.model, func(*modelEntry) error {
		var err error
		b, err = e.st.Next()
		return err
	})
	if err == io.EOF {
		return nil // *sentence stays NULL (shim.c)
	}
	if err != nil {
		return err
	}
	return e.put(b, sentence, n)
}

// put copies b, NUL-terminated, into the stream's buffer (grown as
// needed) and points *sentence at it, with its length in *n when n is
// not nil.
func (e *streamEntry) put(b []byte, sentence **C.char, n *C.size_t) error {
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
func tpgo_stream_stats(hs C.uintptr_t, sentences, skipped *C.size_t, msg **C.char) C.int {
	return call("tp_stream_stats", msg, C.TP_ERR_INTERNAL, func() error {
		e, err := lockStream(hs)
		if err != nil {
			return err
		}
		st := e.st.Stats()
		e.mu.Unlock()
		if sentences != nil {
			*sentences = C.size_t(st.Sentences)
		}
		if skipped != nil {
			*skipped = C.size_t(st.Skipped)
		}
		return nil
	})
}

//export tpgo_stream_free
func tpgo_stream_free(hs C.uintptr_t, msg **C.char) C.int {
	return call("tp_stream_free", msg, C.TP_ERR_INTERNAL, func() error {
		e, err := lockStream(hs)
		if err != nil {
			return err
		}
		streams.Delete(uintptr(hs))
		C.free(e.buf)
		e.buf, e.cap, e.st = nil, 0, nil
		e.mu.Unlock()
		return nil
	})
}
