package modelfmt

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"sync"

	"github.com/golang/snappy"

	"github.com/transparse/transparse/internal/hugepage"
)

// Decode decodes the model file held in data. It is safe on untrusted
// input: it never panics or hangs, and memory grows only as data arrives
// (the document buffer never holds more than the stream has produced and
// at most 64 times the bytes read so far; decoded values are proportional
// to the document and limited by MaxObjects). Every error is an *Error
// wrapping ErrNotModel, ErrNewerVersion or ErrCorrupt (see Error for the
// messages).
//
// data is not retained. The blobs of the returned Model are sub-slices of
// one buffer that holds the decompressed document.
func Decode(data []byte) (*Model, error) {
	return decodeFrom(&memSource{data}, "")
}

// ReadFile reads and decodes the model file at path (see Decode). The file
// is read as a stream, within the same bounds whatever it is: a regular
// file, a pipe or a device. The magic and the version are checked on the
// first 12 bytes, and no more is read than the header's document length
// allows (the longest stream a writer produces for it, plus at most
// MaxPadding bytes of padding chunks). Memory use is the decompressed
// document plus small fixed buffers. Errors carry path.
func ReadFile(path string) (*Model, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, &Error{Path: path, Offset: -1, Err: fmt.Errorf("open: %w", unwrapPathError(err))}
	}
	defer f.Close()
	br := bufReaders.Get().(*bufio.Reader)
	br.Reset(f)
	defer func() {
		br.Reset(nil)
		bufReaders.Put(br)
	}()
	return decodeFrom(&readerSource{br}, path)
}

// bufReaders recycles the read buffers of ReadFile: for small models their
// allocation is much of the cost of a load.
var bufReaders = sync.Pool{New: func() any { return bufio.NewReaderSize(nil, bufSize) }}

// bufSize is the read buffer of ReadFile; it holds the largest chunk.
const bufSize = 1 << 17

// source yields the bytes of a model file in order.
type source interface {
	// next returns the next n bytes (n <= bufSize), valid until the next
	// call. At the end of the input it returns the bytes left, fewer than
	// n, with io.EOF; on a read error, the bytes read and the error.
	next(n int) ([]byte, error)
	// skip discards the next n bytes and returns how many it discarded.
	skip(n int) (int, error)
}

// memSource is a source over bytes in memory.
type memSource struct{ b []byte }

func (s *memSource) next(n int) ([]byte, error) {
	if n > len(s.b) {
		b := s.b
		s.b = nil
		return b, io.EOF
	}
	b := s.b[:n:n]
	s.b = s.b[n:]
	return b, nil
}

func (s *memSource) skip(n int) (int, error) {
	b, err := s.next(n)
	return len(b), err
}

// readerSource is a source over a buffered reader.
type readerSource struct{ r *bufio.Reader }

func (s *readerSource) next(n int) ([]byte, error) {
	b, err := s.r.Peek(n)
	s.r.Discard(len(b))
	if err != nil && len(b) == n { // not expected: Peek gave all of it
		err = nil
	}
	return b, err
}

func (s *readerSource) skip(n int) (int, error) { return s.r.Discard(n) }

// Snappy framing-format limits, as enforced by github.com/golang/snappy.
const (
	maxBlockSize = 65536 // decoded bytes per chunk
	maxChunkLen  = 76494 // chunk body: MaxEncodedLen(65536) + 4-byte checksum
)

// MaxPadding is the most padding (and other skippable chunks) a stream
// may hold beyond the longest stream a writer produces for its document:
// it bounds how much of an endless input (a pipe, a device) is read.
const MaxPadding = 1 << 20

// maxStreamLen is the longest snappy framing stream a conforming writer
// produces for d bytes: the stream identifier, then one chunk per 64 KiB,
// each at most the worst-case snappy encoding of 64 KiB plus 8 bytes.
func maxStreamLen(d int64) int64 {
	return 10 + (d+maxBlockSize-1)/maxBlockSize*(maxChunkLen+4)
}

// maxLive bounds the document buffers alive at once (the one being
// filled and, while it grows, the one it replaces) to this many times the
// stream bytes read so far (plus the first buffer, firstDocCap): the
// memory bound of the header (include/transparse.h). A full buffer holds
// at most 64/3 times the bytes read (maxExpansion), so doubling it always
// stays within the bound.
const maxLive = 64

// firstDocCap is the capacity of the document buffer before any data has
// arrived.
const firstDocCap = 256 << 10

// versionDecoders holds, for every format version this library reads
// (the index), the function that reads what follows the magic and version.
// To add version N+1: write decodeVN1, add it here, raise FormatVersion.
var versionDecoders = [...]func(src source, hdr []byte, path string) (*Model, error){
	1: decodeV1,
	2: decodeV2,
}

// decodeFrom decodes the model file src holds.
func decodeFrom(src source, path string) (*Model, error) {
	var buf [headerSizeV1]byte
	b, err := src.next(headerSizeV1)
	if err != nil && err != io.EOF {
		return nil, &Error{Path: path, Offset: -1, Err: fmt.Errorf("read: %w", unwrapPathError(err))}
	}
	hdr := buf[:copy(buf[:], b)]
	if len(hdr) < len(Magic) || string(hdr[:len(Magic)]) != Magic {
		if len(hdr) >= 4 && len(hdr) < len(Magic) && string(hdr) == Magic[:len(hdr)] {
			return nil, newError(path, int64(len(hdr)), "header", kindCorrupt,
				"truncated: input ends after %d bytes, inside the magic", len(hdr))
		}
		return nil, newError(path, 0, "header", kindNotModel, "not a transparse model (%s)", describeStart(hdr))
	}
	if len(hdr) < SniffLen {
		return nil, newError(path, int64(len(hdr)), "header", kindCorrupt,
			"truncated: input ends after %d bytes, inside the header", len(hdr))
	}
	version := binary.LittleEndian.Uint32(hdr[len(Magic):])
	switch {
	case version == 0:
		return nil, newError(path, int64(len(Magic)), "header", kindCorrupt,
			"corrupt at byte %d (format version 0 does not exist)", len(Magic))
	case version > FormatVersion || int(version) >= len(versionDecoders) || versionDecoders[version] == nil:
		return nil, newError(path, int64(len(Magic)), "header", kindNewer,
			"made by a newer transparse (format version %d; this library reads versions up to %d)", version, FormatVersion)
	}
	return versionDecoders[version](src, hdr, path)
}

// decodeV1 reads a version 1 file: after magic and version, the document
// length (uint64 LE) and the snappy framing-format stream of the document.
func decodeV1(src source, hdr []byte, path string) (*Model, error) {
	return decodeStream(src, hdr, path, false)
}

// decodeV2 reads a version 2 file: the container of version 1, whose
// classifiers may also have Huffman-coded blobs ("coded_blobs", see
// coding.go).
func decodeV2(src source, hdr []byte, path string) (*Model, error) {
	return decodeStream(src, hdr, path, true)
}

// decodeStream reads the header fields after the version and the snappy
// stream of a version 1 or 2 file; coded tells whether the document may
// hold coded blobs.
func decodeStream(src source, hdr []byte, path string, coded bool) (*Model, error) {
	if len(hdr) < headerSizeV1 {
		return nil, newError(path, int64(len(hdr)), "header", kindCorrupt,
			"truncated: input ends after %d bytes, inside the %d-byte header", len(hdr), headerSizeV1)
	}
	docLen := binary.LittleEndian.Uint64(hdr[SniffLen:])
	if docLen > MaxDocumentSize {
		return nil, newError(path, SniffLen, "header", kindCorrupt,
			"corrupt at byte %d (header says the document is %d bytes; the limit is %d)", SniffLen, docLen, MaxDocumentSize)
	}
	doc, err := readStream(src, int(docLen), path)
	if err != nil {
		return nil, err
	}
	return decodeDocument(doc, path, coded)
}

// readStream reads the snappy framing-format stream of a docLen-byte
// document from src (which starts at file offset headerSizeV1), checking
// every chunk as it arrives, and returns the document. The document
// buffer grows with the data (see maxLive), so a header that declares more
// than the stream holds costs nothing.
func readStream(src source, docLen int, path string) ([]byte, error) {
	pos := int64(headerSizeV1)
	r := &streamReader{src: src, path: path, docLen: docLen, pos: pos,
		limit: pos + maxStreamLen(int64(docLen)) + MaxPadding,
		doc:   make([]byte, 0, docCap(docLen, firstDocCap))}
	for first := true; ; first = false {
		typ, n, end, err := r.chunkHeader(first)
		if err != nil {
			return nil, err
		}
		if end {
			return r.doc, nil
		}
		if typ >= 0x80 && typ != 0xff { // padding or a reserved skippable chunk
			k, err := src.skip(n)
			if k < n {
				if err != nil && err != io.EOF {
					return nil, r.readErr(err)
				}
				return nil, r.ended(r.pos+4+int64(k), "input ends inside a snappy chunk, after %d of its %d bytes", k, n)
			}
			r.pos += 4 + int64(n)
			continue
		}
		body, err := src.next(n)
		if len(body) < n {
			if err != nil && err != io.EOF {
				return nil, r.readErr(err)
			}
			return nil, r.ended(r.pos+4+int64(len(body)), "input ends inside a snappy chunk, after %d of its %d bytes", len(body), n)
		}
		if typ == 0xff {
			if string(body) != "sNaPpY" {
				return nil, r.corrupt(r.pos, "bad snappy stream identifier")
			}
			r.pos += 4 + int64(n)
			continue
		}
		if err := r.appendData(typ, body); err != nil {
			return nil, err
		}
	}
}

// streamReader is the state of readStream: the file offset pos of the
// next chunk, the largest offset the stream may reach, and the document
// read so far.
type streamReader struct {
	src    source
	path   string
	docLen int
	pos    int64
	limit  int64
	doc    []byte
}

// corrupt is the error for a stream corrupt at file offset off.
func (r *streamReader) corrupt(off int64, format string, args ...any) error {
	return newError(r.path, off, "stream", kindCorrupt, "corrupt at byte %d (%s)", off, fmt.Sprintf(format, args...))
}

// ended is the error for input that ends inside a chunk, at file offset
// end: truncated if the document is not complete, corrupt otherwise.
func (r *streamReader) ended(end int64, format string, args ...any) error {
	if len(r.doc) < r.docLen {
		return truncated(r.path, end, len(r.doc), r.docLen)
	}
	return r.corrupt(r.pos, format, args...)
}

// readErr is the error for a failed read.
func (r *streamReader) readErr(err error) error {
	return &Error{Path: r.path, Offset: -1, Err: fmt.Errorf("read: %w", unwrapPathError(err))}
}

// chunkHeader reads and checks the header of the next chunk (the first of
// the stream if first) and returns its type and length, or end true at
// the end of a complete stream.
func (r *streamReader) chunkHeader(first bool) (typ byte, n int, end bool, err error) {
	h, err := r.src.next(4)
	switch {
	case err != nil && err != io.EOF:
		return 0, 0, false, r.readErr(err)
	case len(h) == 0: // the end of the stream
		if len(r.doc) < r.docLen {
			return 0, 0, false, truncated(r.path, r.pos, len(r.doc), r.docLen)
		}
		return 0, 0, true, nil
	case len(h) < 4:
		return 0, 0, false, r.ended(r.pos+int64(len(h)), "input ends inside a snappy chunk header, after %d of its 4 bytes", len(h))
	}
	typ = h[0]
	n = int(h[1]) | int(h[2])<<8 | int(h[3])<<16
	switch {
	case first && typ != 0xff:
		return 0, 0, false, r.corrupt(r.pos, "stream does not start with a snappy stream identifier")
	case typ >= 0x02 && typ <= 0x7f:
		return 0, 0, false, r.corrupt(r.pos, "snappy chunk of reserved type 0x%02x", typ)
	case n > maxChunkLen:
		return 0, 0, false, r.corrupt(r.pos, "snappy chunk of %d bytes, more than the %d allowed", n, maxChunkLen)
	case r.pos+4+int64(n) > r.limit:
		return 0, 0, false, r.corrupt(r.pos, "the stream is longer than the %d bytes a %d-byte document can take, with %d bytes of padding",
			r.limit-headerSizeV1, r.docLen, MaxPadding)
	}
	return typ, n, false, nil
}

// appendData checks the body of a data chunk of type typ (0x00 compressed,
// 0x01 uncompressed) at pos, a checksum and the data, and appends the data
// to the document.
func (r *streamReader) appendData(typ byte, body []byte) error {
	n := len(body)
	if n < 4 {
		return r.corrupt(r.pos, "snappy chunk too short to hold its checksum")
	}
	data := body[4:]
	dn := len(data)
	if typ == 0x00 {
		var err error
		if dn, err = snappy.DecodedLen(data); err != nil {
			return r.corrupt(r.pos, "invalid snappy block length")
		}
		if dn > maxBlockSize {
			return r.corrupt(r.pos, "snappy chunk decodes to %d bytes, more than the %d allowed", dn, maxBlockSize)
		}
	} else if dn > maxBlockSize {
		return r.corrupt(r.pos, "uncompressed snappy chunk of %d bytes, more than the %d allowed", dn, maxBlockSize)
	}
	if dn > r.docLen-len(r.doc) {
		return r.corrupt(r.pos, "the stream holds more than the %d bytes of document the header declares: this chunk goes beyond them", r.docLen)
	}
	r.pos += 4 + int64(n)
	r.doc = grow(r.doc, dn, r.docLen, r.pos-headerSizeV1)
	dst := r.doc[len(r.doc) : len(r.doc)+dn]
	if typ == 0x00 {
		if _, err := snappy.Decode(dst, data); err != nil {
			return r.corrupt(r.pos-4-int64(n), "invalid snappy block")
		}
	} else {
		copy(dst, data)
	}
	if maskedCRC(dst) != binary.LittleEndian.Uint32(body) {
		return r.corrupt(r.pos-4-int64(n), "snappy chunk checksum mismatch")
	}
	r.doc = r.doc[:len(r.doc)+dn]
	return nil
}

// truncated is the error for a stream that ends after got of the docLen
// bytes of document; end is the file offset where the input ends.
func truncated(path string, end int64, got, docLen int) error {
	return newError(path, end, "stream", kindCorrupt,
		"truncated: %d of %d bytes of document (the input ends early)", got, docLen)
}

// grow returns doc with room for n more bytes, growing it with the data:
// straight to docLen when that is within maxLive times the read stream
// bytes (an honest header), else by doubling, so that a header declaring
// far more than the stream holds costs at most twice what arrives. Its
// capacities are docLen divided by powers of two (rounded up), so that the
// last step ends at docLen.
func grow(doc []byte, n, docLen int, read int64) []byte {
	need := len(doc) + n
	if need <= cap(doc) {
		return doc
	}
	allowed := 2 * int64(cap(doc))
	if int64(docLen) <= maxLive*read-int64(cap(doc)) {
		allowed = int64(docLen)
	}
	grown := make([]byte, len(doc), max(docCap(docLen, allowed), need))
	hugepage.Advise(grown)
	copy(grown, doc)
	return grown
}

// docCap returns the largest docLen / 2^k (rounded up) that is at most
// allowed, or 1.
func docCap(docLen int, allowed int64) int {
	c := int64(docLen)
	for k := 1; c > allowed && k < 32; k++ {
		c = (int64(docLen) + 1<<k - 1) >> k
	}
	return int(c)
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// maskedCRC is the checksum of the snappy framing format: CRC-32C, masked.
func maskedCRC(b []byte) uint32 {
	c := crc32.Checksum(b, castagnoli)
	return (c>>15 | c<<17) + 0xa282ead8
}

// decodeDocument checks and decodes the msgpack document, and decodes its
// coded blobs if codedOK (version 2 on).
func decodeDocument(doc []byte, path string, codedOK bool) (*Model, error) {
	err := scanDocument(doc)
	var m *Model
	var coded [][]namedBlob
	if err == nil {
		m, coded, err = decodeModel(doc, codedOK)
	}
	if err != nil {
		de, ok := err.(*docError)
		if !ok { // not expected: every failure of the reader is a *docError
			return nil, newError(path, -1, "document", kindCorrupt, "corrupt document (%v)", err)
		}
		kinds, section := kindCorrupt, de.path
		if de.invalid {
			kinds = kindBadDoc
		}
		if section == "" {
			section = "document"
		}
		return nil, newError(path, int64(de.off), section, kinds, "corrupt document at byte %d (%v)", de.off, de)
	}
	if field, problem := check(m); problem != "" {
		return nil, newError(path, -1, field, kindBadDoc, "corrupt document (%s: %s)", field, problem)
	}
	if err := decodeCodedBlobs(m, coded); err != nil {
		return nil, withPath(err, path)
	}
	return m, nil
}
