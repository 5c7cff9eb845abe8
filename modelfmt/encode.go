package modelfmt

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"syscall"

	"github.com/golang/snappy"
	"github.com/vmihailenco/msgpack/v5"

	"github.com/transparse/transparse/internal/outfile"
)

// Validate checks the rules every Model must follow: System is not empty,
// every Classifier has a Name and a Layout, with no two Classifiers
// sharing a Name, every string is valid UTF-8 without control characters,
// and the labels of a string table or a classifier's classes are unique
// (see strings.go). It returns nil or an *Error wrapping ErrInvalid whose
// Section names the offending field, for example "classifiers[1].layout".
// Encode and Decode apply the same rules.
func (m *Model) Validate() error {
	if m == nil {
		return newError("", -1, "", kindInvalid, "invalid model (nil)")
	}
	if field, problem := check(m); problem != "" {
		return newError("", -1, field, kindInvalid, "invalid model (%s: %s)", field, problem)
	}
	return nil
}

// check returns the field path and the problem of the first rule m breaks,
// or two empty strings.
func check(m *Model) (field, problem string) {
	if m.System == "" {
		return "system", "missing or empty"
	}
	if f, p := stringsProblem(m); p != "" {
		return f, p
	}
	seen := make(map[string]int, len(m.Classifiers))
	for i := range m.Classifiers {
		c := &m.Classifiers[i]
		if f, p := checkClassifier(c); p != "" {
			return fmt.Sprintf("classifiers[%d].%s", i, f), p
		}
		if j, dup := seen[c.Name]; dup {
			return fmt.Sprintf("classifiers[%d].name", i), fmt.Sprintf("%q is also the name of classifiers[%d]", c.Name, j)
		}
		seen[c.Name] = i
	}
	return "", ""
}

// checkClassifier is the part of check that concerns one Classifier; the
// decoder applies it to each Classifier as soon as it is read.
func checkClassifier(c *Classifier) (field, problem string) {
	if c.Name == "" {
		return "name", "missing or empty"
	}
	if c.Layout == "" {
		return "layout", "missing or empty"
	}
	return classifierStringsProblem(c)
}

// Encode writes m to w as a model file: header, then the snappy-compressed
// msgpack document. The document is deterministic: the same Model always
// gives the same bytes (map keys are written in sorted order). Encode first
// checks m with Validate and the format's limits (MaxDocumentSize,
// MaxObjects, MaxDepth), so everything it writes can be decoded.
func Encode(w io.Writer, m *Model) error {
	doc, err := marshalDoc(m)
	if err != nil {
		return err
	}
	return writeContainer(w, doc)
}

// Marshal returns the bytes of the model file for m (see Encode).
func Marshal(m *Model) ([]byte, error) {
	doc, err := marshalDoc(m)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	buf.Grow(headerSizeV1 + len(doc) + len(doc)/64 + 64)
	if err := writeContainer(&buf, doc); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// WriteFile writes m to the file path (see Encode). It writes a temporary
// file in the same directory, syncs it and renames it over path, so that
// path holds either the old file or the complete new one, never a part.
// An existing file keeps its permission bits; a new one gets 0644.
//
// path must be a regular file, a path that does not exist yet, or a
// symbolic link to one of these: a link is written through, the file it
// points to (after every link in the chain) is replaced atomically and the
// link itself is left as it is. Anything else at path (a directory, a
// device such as /dev/null, a FIFO, a socket) is refused before anything is
// written, with an *Error that names it (see ResolveSavePath).
func WriteFile(path string, m *Model) (err error) {
	target, err := ResolveSavePath(path)
	if err != nil {
		return err
	}
	doc, err := marshalDoc(m)
	if err != nil {
		return withPath(err, path)
	}
	var encErr error
	err = outfile.Replace(target, func(w io.Writer) error {
		encErr = writeContainer(w, doc)
		return encErr
	})
	if encErr != nil {
		return withPath(encErr, path)
	}
	if pe, ok := err.(*fs.PathError); ok {
		return &Error{Path: path, Offset: -1, Err: fmt.Errorf("%s: %w", pe.Op, pe.Err)}
	}
	return err
}

// maxLinks is the longest chain of symbolic links ResolveSavePath follows
// (the Linux limit).
const maxLinks = 40

// ResolveSavePath returns the file WriteFile(path, ...) replaces: path
// itself when it is a regular file or does not exist, or, when it is a
// symbolic link, the file at the end of its chain of links (which may not
// exist yet). It returns the *Error WriteFile would give when path, or the
// end of its links, is not a regular file, for example
//
//	modelfmt: /dev/null: is a character device, not a regular file; a model is only saved to a regular file or a new path
//
// Checking an output path with it before long work (training) finds such a
// mistake early. It only inspects the file system; it writes nothing.
func ResolveSavePath(path string) (string, error) {
	p := path
	for links := 0; ; links++ {
		fi, err := os.Lstat(p)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return p, nil
		case err != nil:
			return "", &Error{Path: path, Offset: -1, Err: fmt.Errorf("stat: %w", unwrapPathError(err))}
		case fi.Mode().IsRegular():
			return p, nil
		case fi.Mode()&fs.ModeSymlink == 0:
			what := "is " + describeMode(fi.Mode())
			if p != path {
				what = fmt.Sprintf("links to %s, which %s", p, what)
			}
			return "", &Error{Path: path, Offset: -1, Err: fmt.Errorf(
				"%s, not a regular file; a model is only saved to a regular file or a new path", what)}
		case links == maxLinks:
			return "", &Error{Path: path, Offset: -1, Err: fmt.Errorf("stat: %w", syscall.ELOOP)}
		}
		target, err := os.Readlink(p)
		if err != nil {
			return "", &Error{Path: path, Offset: -1, Err: fmt.Errorf("readlink: %w", unwrapPathError(err))}
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(p), target)
		}
		p = target
	}
}

// describeMode names the kind of a file that is neither regular nor a
// symbolic link.
func describeMode(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return "a special file"
}

// withPath sets the Path of an *Error and returns it.
func withPath(err error, path string) error {
	if e, ok := err.(*Error); ok {
		e.Path = path
	}
	return err
}

// unwrapPathError drops the *fs.PathError layer (whose path the *Error
// already carries), keeping the underlying error for errors.Is.
func unwrapPathError(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	if le, ok := err.(*os.LinkError); ok {
		return le.Err
	}
	return err
}

// writeContainer writes the version 1 header and the snappy framing-format
// stream of doc.
func writeContainer(w io.Writer, doc []byte) error {
	var hdr [headerSizeV1]byte
	copy(hdr[:], Magic)
	binary.LittleEndian.PutUint32(hdr[len(Magic):], FormatVersion)
	binary.LittleEndian.PutUint64(hdr[SniffLen:], uint64(len(doc)))
	wrap := func(err error) error {
		return &Error{Offset: -1, Err: fmt.Errorf("write: %w", err)}
	}
	if _, err := w.Write(hdr[:]); err != nil {
		return wrap(err)
	}
	sw := snappy.NewBufferedWriter(w)
	if _, err := sw.Write(doc); err != nil {
		return wrap(err)
	}
	if err := sw.Close(); err != nil { // Close flushes; it does not close w
		return wrap(err)
	}
	return nil
}

// marshalDoc validates m and returns its msgpack document.
func marshalDoc(m *Model) ([]byte, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	blobBytes := 0
	for i := range m.Classifiers {
		for _, b := range m.Classifiers[i].Blobs {
			blobBytes += len(b)
		}
	}
	if blobBytes > MaxDocumentSize {
		return nil, newError("", -1, "classifiers", kindInvalid,
			"invalid model (blobs hold %d bytes; a document may hold at most %d)", blobBytes, MaxDocumentSize)
	}
	var buf bytes.Buffer
	buf.Grow(blobBytes + 64<<10)
	e := &encoder{e: msgpack.NewEncoder(&buf)}
	e.model(m)
	if e.err != nil {
		return nil, &Error{Offset: -1, Err: fmt.Errorf("encode msgpack: %w", e.err)}
	}
	doc := buf.Bytes()
	if len(doc) > MaxDocumentSize {
		return nil, newError("", -1, "document", kindInvalid,
			"invalid model (its document would be %d bytes; the limit is %d)", len(doc), MaxDocumentSize)
	}
	if err := scanDocument(doc); err != nil {
		return nil, newError("", -1, "document", kindInvalid, "invalid model (%v)", err)
	}
	return doc, nil
}

// encoder writes the document with the msgpack library's primitives, in
// the order of the struct fields and with sorted map keys. The first error
// sticks and turns later calls into no-ops.
type encoder struct {
	e   *msgpack.Encoder
	err error
}

func (e *encoder) do(err error) {
	if e.err == nil {
		e.err = err
	}
}

func (e *encoder) str(s string) { e.do(e.e.EncodeString(s)) }

func (e *encoder) mapLen(n int, isNil bool) bool {
	if isNil {
		e.do(e.e.EncodeNil())
		return false
	}
	e.do(e.e.EncodeMapLen(n))
	return true
}

func (e *encoder) model(m *Model) {
	e.mapLen(6, false)
	e.str("card")
	e.card(&m.Card)
	e.str("system")
	e.str(m.System)
	e.str("system_options")
	e.stringMap(m.SystemOptions)
	e.str("strings")
	if e.mapLen(len(m.Strings), m.Strings == nil) {
		for _, k := range slices.Sorted(maps.Keys(m.Strings)) {
			e.str(k)
			e.strings(m.Strings[k])
		}
	}
	e.str("params")
	e.intMap(m.Params)
	e.str("classifiers")
	if m.Classifiers == nil {
		e.do(e.e.EncodeNil())
	} else {
		e.do(e.e.EncodeArrayLen(len(m.Classifiers)))
		for i := range m.Classifiers {
			e.classifier(&m.Classifiers[i])
		}
	}
}

func (e *encoder) card(c *Card) {
	e.mapLen(8, false)
	e.str("name")
	e.str(c.Name)
	e.str("treebank")
	e.str(c.Treebank)
	e.str("system")
	e.str(c.System)
	e.str("options")
	e.stringMap(c.Options)
	e.str("trained_at")
	e.str(c.TrainedAt)
	e.str("version")
	e.str(c.Version)
	e.str("scores")
	if e.mapLen(len(c.Scores), c.Scores == nil) {
		for _, k := range slices.Sorted(maps.Keys(c.Scores)) {
			e.str(k)
			e.do(e.e.EncodeFloat64(c.Scores[k]))
		}
	}
	e.str("notes")
	e.str(c.Notes)
}

func (e *encoder) classifier(c *Classifier) {
	e.mapLen(7, false)
	e.str("name")
	e.str(c.Name)
	e.str("templates")
	e.strings(c.Templates)
	e.str("classes")
	e.strings(c.Classes)
	e.str("layout")
	e.str(c.Layout)
	e.str("params")
	e.intMap(c.Params)
	// Blobs that Huffman coding makes smaller than snappy would go to
	// coded_blobs (see coding.go), the others to blobs.
	names := slices.Sorted(maps.Keys(c.Blobs))
	coded := make([][]byte, len(names))
	nc := 0
	for i, k := range names {
		if coded[i] = codeBlob(c.Blobs[k]); coded[i] != nil {
			nc++
		}
	}
	e.str("blobs")
	if e.mapLen(len(names)-nc, c.Blobs == nil) {
		for i, k := range names {
			if coded[i] == nil {
				e.str(k)
				e.do(e.e.EncodeBytes(c.Blobs[k]))
			}
		}
	}
	e.str("coded_blobs")
	e.mapLen(nc, false)
	for i, k := range names {
		if coded[i] != nil {
			e.str(k)
			e.do(e.e.EncodeBytes(coded[i]))
		}
	}
}

func (e *encoder) strings(ss []string) {
	if ss == nil {
		e.do(e.e.EncodeNil())
		return
	}
	e.do(e.e.EncodeArrayLen(len(ss)))
	for _, s := range ss {
		e.str(s)
	}
}

func (e *encoder) stringMap(m map[string]string) {
	if e.mapLen(len(m), m == nil) {
		for _, k := range slices.Sorted(maps.Keys(m)) {
			e.str(k)
			e.str(m[k])
		}
	}
}

func (e *encoder) intMap(m map[string]int64) {
	if e.mapLen(len(m), m == nil) {
		for _, k := range slices.Sorted(maps.Keys(m)) {
			e.str(k)
			e.do(e.e.EncodeInt(m[k]))
		}
	}
}
