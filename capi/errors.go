package main

/*
#include "internal.h"
*/
import "C"

import (
	"errors"
	"fmt"
	"io/fs"
	"runtime/debug"
	"strings"
	"syscall"

	"github.com/transparse/transparse/modelfmt"
	"github.com/transparse/transparse/parser"
)

// apiError is an error whose status code capi already knows (argument
// checks, allocation failures).
type apiError struct {
	code C.int
	msg  string
}

func (e *apiError) Error() string { return e.msg }

func argErr(format string, a ...any) error {
	return &apiError{C.TP_ERR_ARGUMENT, fmt.Sprintf(format, a...)}
}

func inputErr(format string, a ...any) error {
	return &apiError{C.TP_ERR_INPUT, fmt.Sprintf(format, a...)}
}

var errNoMem = &apiError{C.TP_ERR_NOMEM, "out of memory"}

// errFreed is the error for a handle that is not in the table.
var errFreed = &apiError{C.TP_ERR_ARGUMENT, "model handle was freed or is invalid"}

// classify maps an error to a status code. def is the code for errors that
// carry no known sentinel: TP_ERR_INTERNAL where only a bug can explain
// them, TP_ERR_INPUT where the caller's data is the only thing that can be
// wrong.
func classify(err error, def C.int) C.int {
	var ae *apiError
	var pe *fs.PathError
	var errno syscall.Errno
	var me *modelfmt.Error
	switch {
	case errors.As(err, &ae):
		return ae.code
	case errors.Is(err, parser.ErrInput):
		return C.TP_ERR_INPUT
	case errors.Is(err, parser.ErrOptions):
		return C.TP_ERR_ARGUMENT
	case errors.Is(err, modelfmt.ErrNewerVersion):
		return C.TP_ERR_MODEL_VERSION
	case errors.Is(err, modelfmt.ErrNotModel), errors.Is(err, modelfmt.ErrCorrupt):
		return C.TP_ERR_MODEL_FORMAT
	case errors.As(err, &pe), errors.As(err, &errno),
		errors.Is(err, fs.ErrNotExist), errors.Is(err, fs.ErrPermission):
		return C.TP_ERR_IO
	case errors.As(err, &me) && !errors.Is(err, modelfmt.ErrInvalid):
		// A modelfmt error's chain holds either the sentinels above or an
		// I/O error from the operating system (modelfmt.Error docs).
		return C.TP_ERR_IO
	}
	return def
}

// finish converts the outcome of an entry point into a status code and,
// when msg is not nil, a malloc'd message "fn: err".
func finish(fn string, msg **C.char, err error, def C.int) C.int {
	if err == nil {
		return C.TP_OK
	}
	code := classify(err, def)
	setMsg(msg, fn+": "+err.Error())
	return code
}

// call runs the body f of the entry point fn and returns its status code
// (def for an error classify does not know, see classify), storing the
// message in *msg; a panic in f becomes TP_ERR_INTERNAL.
func call(fn string, msg **C.char, def C.int, f func() error) (rc C.int) {
	defer recoverTo(fn, msg, &rc)
	return finish(fn, msg, f(), def)
}

// recoverTo turns a panic in an entry point into TP_ERR_INTERNAL. Use as
// `defer recoverTo(fn, msg, &rc)` with a named result rc.
func recoverTo(fn string, msg **C.char, rc *C.int) {
	r := recover()
	if r == nil {
		return
	}
	*rc = C.TP_ERR_INTERNAL
	setMsg(msg, fmt.Sprintf("%s: internal error (please report this bug): panic: %v\n%s",
		fn, r, trimStack(debug.Stack())))
}

// trimStack drops the frames of the panic machinery itself.
func trimStack(stack []byte) string {
	s := string(stack)
	if i := strings.Index(s, "panic("); i >= 0 {
		if j := strings.Index(s[i:], "\n"); j >= 0 {
			// skip "panic(...)" line and its file:line line
			rest := s[i+j+1:]
			if k := strings.Index(rest, "\n"); k >= 0 {
				return rest[k+1:]
			}
		}
	}
	return s
}

func setMsg(msg **C.char, s string) {
	if msg == nil {
		return
	}
	if *msg != nil { // never leak a message set earlier
		C.free(ptr(*msg))
	}
	*msg = cString(s)
}

// status is a tp_status value; the alias lets tests, which cannot import
// "C", name the type.
type status = C.int

// Status codes under Go names, for code (and tests) that cannot import "C".
const (
	codeOK           = C.TP_OK
	codeArgument     = C.TP_ERR_ARGUMENT
	codeInput        = C.TP_ERR_INPUT
	codeIO           = C.TP_ERR_IO
	codeModelFormat  = C.TP_ERR_MODEL_FORMAT
	codeModelVersion = C.TP_ERR_MODEL_VERSION
	codeFork         = C.TP_ERR_FORK
	codeNoMem        = C.TP_ERR_NOMEM
	codeInternal     = C.TP_ERR_INTERNAL
)
