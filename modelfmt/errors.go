package modelfmt

import (
	"errors"
	"fmt"
)

// Sentinel errors. Every error returned by this package is an *Error whose
// chain contains exactly the sentinels that apply; test with errors.Is.
var (
	// ErrNotModel means the input does not start with Magic: it is not a
	// transparse model at all (or not even the start of one).
	ErrNotModel = errors.New("not a transparse model")

	// ErrNewerVersion means the input is a transparse model written in a
	// format version newer than FormatVersion. The message names both
	// versions; a newer transparse is needed to read it.
	ErrNewerVersion = errors.New("made by a newer transparse")

	// ErrCorrupt means the input is a transparse model of a known format
	// version whose bytes cannot be used: truncated, damaged (checksum
	// mismatch, bad msgpack), over a size limit, or a document that fails
	// validation.
	ErrCorrupt = errors.New("corrupt model")

	// ErrInvalid means a Model breaks a rule of the schema (for example an
	// empty System or a Classifier without a Name). Encode returns it for
	// the Model it is given; Decode returns it, together with ErrCorrupt,
	// for a document that decodes but breaks a rule.
	ErrInvalid = errors.New("invalid model")
)

// Error is the error type of this package. Its message has the form
//
//	modelfmt: <path>: <what went wrong>
//
// (the path part is left out when Path is empty), for example
//
//	modelfmt: model.tpm: not a transparse model (first bytes 7f454c4602010100...)
//	modelfmt: model.tpm: made by a newer transparse (format version 3; this library reads versions up to 2)
//	modelfmt: model.tpm: corrupt at byte 1234 (snappy chunk checksum mismatch)
//	modelfmt: model.tpm: truncated: 4096 of 52110 bytes of document (the input ends early)
//	modelfmt: model.tpm: corrupt document at byte 77 (classifiers[0].blobs: expected a map, found a string)
type Error struct {
	// Path is the file the error is about; empty for Decode and Encode.
	Path string
	// Offset is the byte offset of the problem, or -1 when there is no
	// single place to point at. For the sections "header" and "stream" it
	// counts bytes of the file; for document sections it counts bytes of
	// the decompressed msgpack document.
	Offset int64
	// Section says which part of the file or document the problem is in:
	// "header", "stream", "document", a document field path such as
	// "classifiers[1].layout", "blob", or "" for I/O errors.
	Section string
	// Err is the underlying error. Its chain holds the sentinel errors
	// (ErrNotModel, ErrNewerVersion, ErrCorrupt, ErrInvalid) that apply, or
	// an I/O error from the operating system.
	Err error
}

// Error returns "modelfmt: <path>: <message>".
func (e *Error) Error() string {
	msg := "<nil>"
	if e.Err != nil {
		msg = e.Err.Error()
	}
	if e.Path == "" {
		return "modelfmt: " + msg
	}
	return "modelfmt: " + e.Path + ": " + msg
}

// Unwrap returns e.Err, so that errors.Is and errors.As see the sentinels
// and OS errors behind an *Error.
func (e *Error) Unwrap() error { return e.Err }

// reason is an error message that belongs to one or more sentinel kinds.
type reason struct {
	msg   string
	kinds []error
}

func (r *reason) Error() string   { return r.msg }
func (r *reason) Unwrap() []error { return r.kinds }

// newError returns an *Error whose Err is a reason of the given kinds.
func newError(path string, off int64, section string, kinds []error, format string, args ...any) *Error {
	return &Error{
		Path:    path,
		Offset:  off,
		Section: section,
		Err:     &reason{msg: fmt.Sprintf(format, args...), kinds: kinds},
	}
}

var (
	kindNotModel = []error{ErrNotModel}
	kindNewer    = []error{ErrNewerVersion}
	kindCorrupt  = []error{ErrCorrupt}
	kindInvalid  = []error{ErrInvalid}
	kindBadDoc   = []error{ErrCorrupt, ErrInvalid}
)
