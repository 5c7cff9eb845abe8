package modelfmt

// This file reads the msgpack document. It does not use the msgpack
// library's reflection decoder: that decoder preallocates slices to the
// length an array header declares (an 18-byte document declaring 2,000,000
// classifiers makes it allocate 384 MB), which hostile input must not be
// able to do. Instead the whole document is first walked once by
// scanDocument, which checks every declared length against the bytes that
// remain, the nesting depth and the object count without allocating, and
// then decoded by the typed functions below, which allocate only for data
// that is really there. Blobs are not copied: they are sub-slices of the
// decompressed document.

import (
	"fmt"
	"math"
	"strconv"
)

// docError is a problem found at a byte offset of the document.
type docError struct {
	off     int
	path    string // field path, e.g. classifiers[1].blobs["w"]
	msg     string
	invalid bool // the bytes decode, but break a rule of the schema
}

func (e *docError) Error() string {
	if e.path == "" {
		return e.msg
	}
	return e.path + ": " + e.msg
}

// inField prefixes seg (a field name, or an index like `[3]`) to the field
// path of a *docError and returns err.
func inField(err error, seg string) error {
	de, ok := err.(*docError)
	if !ok {
		return err
	}
	switch {
	case de.path == "":
		de.path = seg
	case de.path[0] == '[':
		de.path = seg + de.path
	default:
		de.path = seg + "." + de.path
	}
	return err
}

// typeName names the msgpack type that begins with byte c, for messages.
func typeName(c byte) string {
	switch {
	case c <= 0x7f || c >= 0xe0:
		return "an integer"
	case c <= 0x8f:
		return "a map"
	case c <= 0x9f:
		return "an array"
	case c <= 0xbf:
		return "a string"
	}
	switch c {
	case 0xc0:
		return "nil"
	case 0xc1:
		return "the invalid byte 0xc1"
	case 0xc2, 0xc3:
		return "a bool"
	case 0xc4, 0xc5, 0xc6:
		return "binary"
	case 0xc7, 0xc8, 0xc9, 0xd4, 0xd5, 0xd6, 0xd7, 0xd8:
		return "an extension value"
	case 0xca, 0xcb:
		return "a float"
	case 0xd9, 0xda, 0xdb:
		return "a string"
	case 0xdc, 0xdd:
		return "an array"
	case 0xde, 0xdf:
		return "a map"
	}
	return "an integer" // 0xcc-0xd3
}

// scanDocument checks that b is exactly one well-formed msgpack object
// within the limits (MaxDepth, MaxObjects, every declared length no larger
// than the bytes left), without allocating.
func scanDocument(b []byte) error {
	if len(b) == 0 {
		return &docError{msg: "empty document"}
	}
	objects := 0
	end, err := skipObject(b, 0, &objects)
	if err != nil {
		return err
	}
	if end != len(b) {
		return &docError{off: end, msg: fmt.Sprintf("%d bytes of trailing data after the document", len(b)-end)}
	}
	return nil
}

// skipObject returns the offset just past the msgpack object that starts at
// off in b. It walks nested arrays and maps iteratively (no recursion, so
// no stack growth) and fails when a declared length, count or depth cannot
// be right. *objects counts the objects read so far, across calls.
func skipObject(b []byte, off int, objects *int) (int, error) {
	var stack [MaxDepth]uint64 // objects left in each enclosing container
	depth := 0
	left := uint64(1)     // objects left at the current level
	declared := uint64(1) // objects declared and not yet read, all levels
	for {
		for left == 0 {
			if depth == 0 {
				return off, nil
			}
			depth--
			left = stack[depth]
		}
		left--
		declared--
		*objects++

		start := off
		if off >= len(b) {
			return off, &docError{off: off, msg: "document ends in the middle of an object"}
		}
		var h objectHeader
		var err error
		if h, off, err = readHeader(b, off); err != nil {
			return start, err
		}
		payload, children, what := h.payload, h.children, h.what
		rest := uint64(len(b) - off)
		if payload > rest {
			if what == "" {
				return start, &docError{off: start, msg: "document ends inside a number"}
			}
			return start, &docError{off: start, msg: fmt.Sprintf("%s of %d bytes, but only %d bytes are left", what, payload, rest)}
		}
		off += int(payload)
		if children == 0 {
			continue
		}
		rest = uint64(len(b) - off)
		if declared+children > rest {
			unit, count := "elements", children
			if what == "map" {
				unit, count = "entries", children/2
			}
			return start, &docError{off: start, msg: fmt.Sprintf("%s of %d %s cannot fit in the %d bytes left", what, count, unit, rest)}
		}
		declared += children
		if uint64(*objects)+declared > MaxObjects {
			return start, &docError{off: start, msg: fmt.Sprintf("more than %d objects", MaxObjects)}
		}
		if depth == MaxDepth {
			return start, &docError{off: start, msg: fmt.Sprintf("arrays and maps nested more than %d deep", MaxDepth)}
		}
		stack[depth] = left
		depth++
		left = children
	}
}

// objectHeader is what the header of a msgpack object declares: the bytes
// of data after it, the objects nested in it (keys and values of a map),
// and what the object is, for errors ("" for nil, booleans and numbers).
type objectHeader struct {
	payload, children uint64
	what              string
}

// readHeader decodes the header of the msgpack object at b[off:] (off <
// len(b)) and returns it and the offset just past it; it fails on an
// invalid type byte or a truncated length field.
func readHeader(b []byte, off int) (objectHeader, int, error) {
	var h objectHeader
	start := off
	c := b[off]
	off++
	lenBytes := 0 // size of a big-endian length field
	switch {
	case c <= 0x7f || c >= 0xe0 || c == 0xc0 || c == 0xc2 || c == 0xc3:
	case c <= 0x8f:
		h.children = 2 * uint64(c&0x0f)
		h.what = "map"
	case c <= 0x9f:
		h.children = uint64(c & 0x0f)
		h.what = "array"
	case c <= 0xbf:
		h.payload = uint64(c & 0x1f)
		h.what = "string"
	case c == 0xc1:
		return h, start, &docError{off: start, msg: "invalid msgpack byte 0xc1"}
	case c == 0xc4 || c == 0xd9:
		lenBytes = 1
	case c == 0xc5 || c == 0xda || c == 0xdc || c == 0xde:
		lenBytes = 2
	case c == 0xc6 || c == 0xdb || c == 0xdd || c == 0xdf:
		lenBytes = 4
	case c == 0xc7:
		lenBytes, h.payload = 1, 1
	case c == 0xc8:
		lenBytes, h.payload = 2, 1
	case c == 0xc9:
		lenBytes, h.payload = 4, 1
	case c == 0xca:
		h.payload = 4
	case c == 0xcb:
		h.payload = 8
	case c >= 0xcc && c <= 0xd3:
		h.payload = 1 << ((c - 0xcc) & 3)
	case c >= 0xd4 && c <= 0xd8:
		h.payload, h.what = 1+1<<(c-0xd4), "extension value"
	}
	if lenBytes == 0 {
		return h, off, nil
	}
	if len(b)-off < lenBytes {
		return h, start, &docError{off: start, msg: "document ends inside a length field"}
	}
	var n uint64
	for _, x := range b[off : off+lenBytes] {
		n = n<<8 | uint64(x)
	}
	off += lenBytes
	switch c {
	case 0xdc, 0xdd:
		h.children, h.what = n, "array"
	case 0xde, 0xdf:
		h.children, h.what = 2*n, "map"
	case 0xc4, 0xc5, 0xc6:
		h.payload, h.what = n, "binary value"
	case 0xd9, 0xda, 0xdb:
		h.payload, h.what = n, "string"
	default:
		h.payload, h.what = h.payload+n, "extension value"
	}
	return h, off, nil
}

// reader decodes typed values from a document that scanDocument accepted.
// Every read is still bounds-checked, so a reader never panics on any
// input.
type reader struct {
	b   []byte
	off int
	// codedOK tells whether classifiers may have "coded_blobs" (format
	// version 2 on); coded collects them, one list per classifier.
	codedOK bool
	coded   [][]namedBlob
}

func (r *reader) failAt(off int, format string, args ...any) error {
	return &docError{off: off, msg: fmt.Sprintf(format, args...)}
}

func (r *reader) next() (byte, error) {
	if r.off >= len(r.b) {
		return 0, r.failAt(r.off, "document ends in the middle of an object")
	}
	c := r.b[r.off]
	r.off++
	return c, nil
}

// take returns the next n bytes.
func (r *reader) take(n uint64) ([]byte, error) {
	if n > uint64(len(r.b)-r.off) {
		return nil, r.failAt(r.off, "%d bytes needed, only %d left", n, len(r.b)-r.off)
	}
	p := r.b[r.off : r.off+int(n) : r.off+int(n)]
	r.off += int(n)
	return p, nil
}

// uintBE reads an n-byte big-endian unsigned integer.
func (r *reader) uintBE(n uint64) (uint64, error) {
	p, err := r.take(n)
	if err != nil {
		return 0, err
	}
	var v uint64
	for _, x := range p {
		v = v<<8 | uint64(x)
	}
	return v, nil
}

func (r *reader) skip() error {
	var objects int
	end, err := skipObject(r.b, r.off, &objects)
	if err != nil {
		return err
	}
	r.off = end
	return nil
}

// containerLen reads a map (isMap) or array header. A nil reads as isNil.
func (r *reader) containerLen(isMap bool) (n int, isNil bool, err error) {
	start := r.off
	c, err := r.next()
	if err != nil {
		return 0, false, err
	}
	var k uint64
	switch {
	case c == 0xc0:
		return 0, true, nil
	case isMap && c >= 0x80 && c <= 0x8f, !isMap && c >= 0x90 && c <= 0x9f:
		k = uint64(c & 0x0f)
	case isMap && c == 0xde, !isMap && c == 0xdc:
		k, err = r.uintBE(2)
	case isMap && c == 0xdf, !isMap && c == 0xdd:
		k, err = r.uintBE(4)
	default:
		want := "an array"
		if isMap {
			want = "a map"
		}
		return 0, false, r.failAt(start, "expected %s, found %s", want, typeName(c))
	}
	if err != nil {
		return 0, false, err
	}
	need, what := k, "array of %d elements"
	if isMap {
		need, what = 2*k, "map of %d entries"
	}
	if need > uint64(len(r.b)-r.off) {
		return 0, false, r.failAt(start, what+" cannot fit in the %d bytes left", k, len(r.b)-r.off)
	}
	return int(k), false, nil
}

// raw reads a string or binary value and returns its bytes, a sub-slice of
// the document. A nil reads as a nil slice.
func (r *reader) raw(want string) ([]byte, error) {
	start := r.off
	c, err := r.next()
	if err != nil {
		return nil, err
	}
	var n uint64
	switch {
	case c >= 0xa0 && c <= 0xbf:
		n = uint64(c & 0x1f)
	case c == 0xd9 || c == 0xc4:
		n, err = r.uintBE(1)
	case c == 0xda || c == 0xc5:
		n, err = r.uintBE(2)
	case c == 0xdb || c == 0xc6:
		n, err = r.uintBE(4)
	case c == 0xc0:
		return nil, nil
	default:
		return nil, r.failAt(start, "expected %s, found %s", want, typeName(c))
	}
	if err != nil {
		return nil, err
	}
	if n > uint64(len(r.b)-r.off) {
		return nil, r.failAt(start, "%s of %d bytes, but only %d bytes are left", want[2:], n, len(r.b)-r.off)
	}
	return r.take(n)
}

func (r *reader) str() (string, error) {
	p, err := r.raw("a string")
	return string(p), err
}

// bin reads a binary (or string) value without copying it.
func (r *reader) bin() ([]byte, error) {
	return r.raw("a binary value")
}

func (r *reader) int64() (int64, error) {
	start := r.off
	c, err := r.next()
	if err != nil {
		return 0, err
	}
	switch {
	case c <= 0x7f:
		return int64(c), nil
	case c >= 0xe0:
		return int64(int8(c)), nil
	case c == 0xc0:
		return 0, nil
	case c >= 0xcc && c <= 0xcf:
		v, err := r.uintBE(1 << (c - 0xcc))
		if err == nil && v > math.MaxInt64 {
			return 0, r.failAt(start, "integer %d is out of range", v)
		}
		return int64(v), err
	case c >= 0xd0 && c <= 0xd3:
		size := uint64(1) << (c - 0xd0)
		v, err := r.uintBE(size)
		shift := 64 - 8*size
		return int64(v<<shift) >> shift, err // sign-extend
	}
	return 0, r.failAt(start, "expected an integer, found %s", typeName(c))
}

func (r *reader) float64() (float64, error) {
	start := r.off
	if r.off < len(r.b) {
		switch c := r.b[r.off]; c {
		case 0xca:
			r.off++
			v, err := r.uintBE(4)
			return float64(math.Float32frombits(uint32(v))), err
		case 0xcb:
			r.off++
			v, err := r.uintBE(8)
			return math.Float64frombits(v), err
		case 0xcf:
			r.off++
			v, err := r.uintBE(8)
			return float64(v), err
		}
	}
	v, err := r.int64()
	if err != nil {
		if de, ok := err.(*docError); ok && de.off == start && start < len(r.b) {
			de.msg = "expected a number, found " + typeName(r.b[start])
		}
	}
	return float64(v), err
}

// mapHint caps the size hint given to make(map) so that a map's memory is
// paid for by entries that are really decoded (keys may repeat).
func mapHint(n int) int { return min(n, 1024) }

// decodeModel decodes the document; with codedOK (format version 2 on) it
// also returns the coded blobs of each classifier, still coded.
func decodeModel(doc []byte, codedOK bool) (*Model, [][]namedBlob, error) {
	r := &reader{b: doc, codedOK: codedOK}
	m, err := r.model()
	return m, r.coded, err
}

func (r *reader) model() (*Model, error) {
	n, isNil, err := r.containerLen(true)
	if err != nil {
		return nil, err
	}
	if isNil {
		return nil, r.failAt(0, "document is nil, expected a map")
	}
	m := new(Model)
	for range n {
		key, err := r.raw("a string")
		if err != nil {
			return nil, err
		}
		switch string(key) {
		case "card":
			err = decodeCard(r, &m.Card)
		case "system":
			m.System, err = r.str()
		case "system_options":
			m.SystemOptions, err = decodeStringMap(r)
		case "strings":
			m.Strings, err = decodeStringTables(r)
		case "params":
			m.Params, err = decodeIntMap(r)
		case "classifiers":
			m.Classifiers, err = decodeClassifiers(r)
		default:
			err = r.skip() // a field added by a newer writer
		}
		if err != nil {
			return nil, inField(err, string(key))
		}
	}
	if r.off != len(r.b) {
		return nil, r.failAt(r.off, "%d bytes of trailing data after the document", len(r.b)-r.off)
	}
	return m, nil
}

func decodeCard(r *reader, c *Card) error {
	n, _, err := r.containerLen(true)
	if err != nil {
		return err
	}
	for range n {
		key, err := r.raw("a string")
		if err != nil {
			return err
		}
		switch string(key) {
		case "name":
			c.Name, err = r.str()
		case "treebank":
			c.Treebank, err = r.str()
		case "system":
			c.System, err = r.str()
		case "options":
			c.Options, err = decodeStringMap(r)
		case "trained_at":
			c.TrainedAt, err = r.str()
		case "version":
			c.Version, err = r.str()
		case "scores":
			c.Scores, err = decodeFloatMap(r)
		case "notes":
			c.Notes, err = r.str()
		default:
			err = r.skip()
		}
		if err != nil {
			return inField(err, string(key))
		}
	}
	return nil
}

func decodeClassifiers(r *reader) ([]Classifier, error) {
	n, isNil, err := r.containerLen(false)
	if err != nil || isNil {
		return nil, err
	}
	r.coded = nil
	// Grown by append: each element must pass validation before the next
	// is decoded, so memory is paid for by real classifiers.
	cs := make([]Classifier, 0, min(n, 16))
	for i := range n {
		start := r.off
		var c Classifier
		var coded map[string][]byte
		err := decodeClassifier(r, &c, &coded)
		if err == nil {
			if field, problem := checkClassifier(&c); problem != "" {
				err = &docError{off: start, path: field, msg: problem, invalid: true}
			}
		}
		named := sortedNamed(coded)
		if err == nil {
			for _, nb := range named {
				if _, dup := c.Blobs[nb.name]; dup {
					err = &docError{off: start, path: "coded_blobs" + keySeg(nb.name), msg: "also in blobs", invalid: true}
					break
				}
			}
		}
		if err != nil {
			return nil, inField(err, "["+strconv.Itoa(i)+"]")
		}
		cs = append(cs, c)
		if r.codedOK {
			r.coded = append(r.coded, named)
		}
	}
	return cs, nil
}

// decodeClassifier decodes a classifier; its "coded_blobs" (read only
// when r.codedOK, else skipped like any unknown key) go to *coded.
func decodeClassifier(r *reader, c *Classifier, coded *map[string][]byte) error {
	n, _, err := r.containerLen(true)
	if err != nil {
		return err
	}
	for range n {
		key, err := r.raw("a string")
		if err != nil {
			return err
		}
		switch string(key) {
		case "name":
			c.Name, err = r.str()
		case "templates":
			c.Templates, err = decodeStrings(r)
		case "classes":
			c.Classes, err = decodeStrings(r)
		case "layout":
			c.Layout, err = r.str()
		case "params":
			c.Params, err = decodeIntMap(r)
		case "blobs":
			c.Blobs, err = decodeBlobMap(r)
		case "coded_blobs":
			if r.codedOK {
				*coded, err = decodeBlobMap(r)
			} else {
				err = r.skip()
			}
		default:
			err = r.skip()
		}
		if err != nil {
			return inField(err, string(key))
		}
	}
	return nil
}

func decodeStrings(r *reader) ([]string, error) {
	n, isNil, err := r.containerLen(false)
	if err != nil || isNil {
		return nil, err
	}
	// n is exact and paid for: every element takes at least one byte of
	// the document, which scanDocument has checked.
	ss := make([]string, n)
	for i := range ss {
		if ss[i], err = r.str(); err != nil {
			return nil, inField(err, "["+strconv.Itoa(i)+"]")
		}
	}
	return ss, nil
}

func keySeg(k string) string { return "[" + strconv.Quote(k) + "]" }

// decodeMap decodes a msgpack map with string keys, reading each value
// with value.
func decodeMap[V any](r *reader, value func(*reader) (V, error)) (map[string]V, error) {
	n, isNil, err := r.containerLen(true)
	if err != nil || isNil {
		return nil, err
	}
	m := make(map[string]V, mapHint(n))
	for range n {
		k, err := r.str()
		if err != nil {
			return nil, err
		}
		if m[k], err = value(r); err != nil {
			return nil, inField(err, keySeg(k))
		}
	}
	return m, nil
}

func decodeStringMap(r *reader) (map[string]string, error) { return decodeMap(r, (*reader).str) }

func decodeStringTables(r *reader) (map[string][]string, error) { return decodeMap(r, decodeStrings) }

func decodeIntMap(r *reader) (map[string]int64, error) { return decodeMap(r, (*reader).int64) }

func decodeFloatMap(r *reader) (map[string]float64, error) { return decodeMap(r, (*reader).float64) }

func decodeBlobMap(r *reader) (map[string][]byte, error) { return decodeMap(r, (*reader).bin) }
