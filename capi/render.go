package main

/*
#include "internal.h"
*/
import "C"

import (
	"bytes"
	"io"
	"math"
	"unsafe"

	"github.com/transparse/transparse/parser/conllu"
	"github.com/transparse/transparse/render"
)

//export tpgo_render_svg
func tpgo_render_svg(text *C.char, n C.size_t, out **C.char, outLen *C.size_t, msg **C.char) C.int {
	// The caller's text is the only input.
	return call("tp_render_svg", msg, C.TP_ERR_INPUT, func() error { return renderSVG(text, n, out, outLen) })
}

func renderSVG(text *C.char, n C.size_t, out **C.char, outLen *C.size_t) error {
	if text == nil {
		return argErr("text is NULL")
	}
	if out == nil {
		return argErr("out_svg is NULL")
	}
	if uint64(n) > math.MaxInt {
		return argErr("len %d is too large", uint64(n))
	}
	in := unsafe.Slice((*byte)(unsafe.Pointer(text)), int(n))
	r := conllu.NewReader(bytes.NewReader(in), "text")
	s, err := r.Next()
	if err == io.EOF {
		return inputErr("text has no sentence")
	}
	if err != nil {
		return err
	}
	if _, err := r.Next(); err != io.EOF {
		if err == nil {
			return inputErr("text has more than one sentence (line %d starts the second); render one at a time", r.SentenceLine())
		}
		return err
	}
	var buf bytes.Buffer
	if err := render.SVG(&buf, s); err != nil {
		return err
	}
	return putText(out, outLen, buf.Bytes())
}
