package modelfmt

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"sync"

	"github.com/golang/snappy"

	"github.com/transparse/transparse/internal/hugepage"
)

// Decode decodes the model file held in data. It is safe on untrusted
// input: it never panics or hangs, and it checks sizes before allocating,
// so memory stays bounded (the document may be at most 22 times the size of
// the compressed stream and at most MaxDocumentSize; decoded values are
// proportional to the document and limited by MaxObjects). Every error is
// an *Error wrapping ErrNotModel, ErrNewerVersion or ErrCorrupt (see Error
// for the messages).
//
// data is not retained. The blobs of the returned Model are sub-slices of
// one buffer that holds the decompressed document.
func Decode(data []byte) (*Model, error) {
	return decodeFrom(bytes.NewReader(data), int64(len(data)), "")
}

// ReadFile reads and decodes the model file at path (see Decode). The file
// is read as a stream: memory use is the decompressed document plus small
// fixed buffers, whatever the file's size. Errors carry path.
func ReadFile(path string) (*Model, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, &Error{Path: path, Offset: -1, Err: fmt.Errorf("open: %w", unwrapPathError(err))}
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, &Error{Path: path, Offset: -1, Err: fmt.Errorf("stat: %w", unwrapPathError(err))}
	}
	if fi.Mode().IsRegular() {
		return decodeFrom(f, fi.Size(), path)
	}
	// A pipe or device: read it whole, up to the largest size a model
	// file can have.
	limit := int64(headerSizeV1) + maxStreamLen(MaxDocumentSize)
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, &Error{Path: path, Offset: -1, Err: fmt.Errorf("read: %w", unwrapPathError(err))}
	}
	if int64(len(data)) > limit {
		return nil, newError(path, limit, "stream", kindCorrupt,
			"corrupt (input is longer than the %d bytes any model file can have)", limit)
	}
	return decodeFrom(bytes.NewReader(data), int64(len(data)), path)
}

// maxStreamLen is the longest snappy framing stream a conforming writer
// produces for d bytes: the stream identifier, then one chunk per 64 KiB,
// each at most the worst-case snappy encoding of 64 KiB plus 8 bytes.
func maxStreamLen(d int64) int64 {
	return 10 + (d+maxBlockSize-1)/maxBlockSize*(maxChunkLen+4)
}

// Snappy framing-format limits, as enforced by github.com/golang/snappy.
const (
	maxBlockSize = 65536 // decoded bytes per chunk
	maxChunkLen  = 76494 // chunk body: MaxEncodedLen(65536) + 4-byte checksum
)

// versionDecoders holds, for every format version this library reads
// (the index), the function that reads what follows the magic and version.
// To add version N+1: write decodeVN1, add it here, raise FormatVersion.
var versionDecoders = [...]func(ra io.ReaderAt, size int64, hdr []byte, path string) (*Model, error){
	1: decodeV1,
	2: decodeV2,
}

// decodeFrom decodes the size bytes of ra.
func decodeFrom(ra io.ReaderAt, size int64, path string) (*Model, error) {
	var buf [headerSizeV1]byte
	hdr := buf[:min(size, headerSizeV1)]
	n, err := ra.ReadAt(hdr, 0)
	if err != nil && err != io.EOF {
		return nil, &Error{Path: path, Offset: -1, Err: fmt.Errorf("read: %w", unwrapPathError(err))}
	}
	hdr = hdr[:n]
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
	return versionDecoders[version](ra, size, hdr, path)
}

// decodeV1 reads a version 1 file: after magic and version, the document
// length (uint64 LE) and the snappy framing-format stream of the document.
func decodeV1(ra io.ReaderAt, size int64, hdr []byte, path string) (*Model, error) {
	return decodeStream(ra, size, hdr, path, false)
}

// decodeV2 reads a version 2 file: the container of version 1, whose
// classifiers may also have Huffman-coded blobs ("coded_blobs", see
// coding.go).
func decodeV2(ra io.ReaderAt, size int64, hdr []byte, path string) (*Model, error) {
	return decodeStream(ra, size, hdr, path, true)
}

// decodeStream reads the header fields after the version and the snappy
// stream of a version 1 or 2 file; coded tells whether the document may
// hold coded blobs.
func decodeStream(ra io.ReaderAt, size int64, hdr []byte, path string, coded bool) (*Model, error) {
	if len(hdr) < headerSizeV1 {
		return nil, newError(path, int64(len(hdr)), "header", kindCorrupt,
			"truncated: input ends after %d bytes, inside the %d-byte header", len(hdr), headerSizeV1)
	}
	docLen := binary.LittleEndian.Uint64(hdr[SniffLen:])
	streamLen := size - headerSizeV1
	if docLen > MaxDocumentSize {
		return nil, newError(path, SniffLen, "header", kindCorrupt,
			"corrupt at byte %d (header says the document is %d bytes; the limit is %d)", SniffLen, docLen, MaxDocumentSize)
	}
	if most := maxExpansion * uint64(streamLen); docLen > most {
		return nil, newError(path, SniffLen, "header", kindCorrupt,
			"corrupt at byte %d (header says %d bytes of document, but the %d-byte stream after it cannot hold more than %d)",
			SniffLen, docLen, streamLen, most)
	}

	var src io.Reader = io.NewSectionReader(ra, headerSizeV1, streamLen)
	if _, ok := ra.(*os.File); ok {
		src = bufio.NewReaderSize(src, 1<<16)
	}
	sr := snappyReaders.Get().(*snappy.Reader)
	sr.Reset(src)
	defer func() {
		sr.Reset(nil)
		snappyReaders.Put(sr)
	}()
	doc := make([]byte, docLen) // bounded by the checks above
	hugepage.Advise(doc)
	got, err := io.ReadFull(sr, doc)
	if err != nil {
		return nil, streamError(err, ra, size, docLen, got, path)
	}
	// The stream must end where the document does.
	var one [1]byte
	switch k, err := sr.Read(one[:]); {
	case k > 0:
		off := excessChunk(ra, headerSizeV1, size, docLen)
		return nil, newError(path, off, "stream", kindCorrupt,
			"corrupt at byte %d (the stream holds more than the %d bytes of document the header declares: this chunk goes beyond them)", off, docLen)
	case err != io.EOF:
		return nil, streamError(err, ra, size, docLen, got, path)
	}
	return decodeDocument(doc, path, coded)
}

// snappyReaders recycles snappy readers, which hold 140 KB of buffers:
// for small models that is most of the cost of a Decode.
var snappyReaders = sync.Pool{New: func() any { return snappy.NewReader(nil) }}

// streamError turns an error of the snappy reader into an *Error, finding
// the chunk at fault.
func streamError(err error, ra io.ReaderAt, size int64, docLen uint64, got int, path string) error {
	truncated := func() error {
		return newError(path, size, "stream", kindCorrupt,
			"truncated: header says %d bytes of document, stream ended after %d", docLen, got)
	}
	switch {
	case err == io.EOF || err == io.ErrUnexpectedEOF:
		return truncated()
	case errors.Is(err, snappy.ErrCorrupt) || errors.Is(err, snappy.ErrUnsupported) || errors.Is(err, snappy.ErrTooLarge):
		off, msg, isTrunc := diagnoseStream(ra, headerSizeV1, size)
		switch {
		case isTrunc && uint64(got) < docLen:
			return truncated()
		case off < 0:
			return newError(path, -1, "stream", kindCorrupt, "corrupt stream (%v)", err)
		}
		return newError(path, off, "stream", kindCorrupt, "corrupt at byte %d (%s)", off, msg)
	}
	return &Error{Path: path, Offset: -1, Err: fmt.Errorf("read: %w", unwrapPathError(err))}
}

// diagnoseStream walks the snappy framing-format chunks in bytes
// [start, end) of ra, checking them as the snappy reader does, and returns
// the file offset of the first bad chunk and what is wrong with it;
// truncated tells whether the problem is that the input ends inside a
// chunk. It returns off < 0 if it finds nothing wrong. It runs only after
// the snappy reader has failed, and allocates at most two chunk buffers.
func diagnoseStream(ra io.ReaderAt, start, end int64) (off int64, msg string, truncated bool) {
	var hdr [4]byte
	var body, decoded []byte
	for pos, first := start, true; pos < end; first = false {
		if end-pos < 4 {
			return pos, fmt.Sprintf("input ends inside a snappy chunk header, after %d of its 4 bytes", end-pos), true
		}
		if _, err := ra.ReadAt(hdr[:], pos); err != nil {
			return pos, fmt.Sprintf("read error: %v", err), false
		}
		typ := hdr[0]
		n := int64(hdr[1]) | int64(hdr[2])<<8 | int64(hdr[3])<<16
		switch {
		case first && typ != 0xff:
			return pos, "stream does not start with a snappy stream identifier", false
		case typ >= 0x02 && typ <= 0x7f:
			return pos, fmt.Sprintf("snappy chunk of reserved type 0x%02x", typ), false
		case n > maxChunkLen:
			return pos, fmt.Sprintf("snappy chunk of %d bytes, more than the %d allowed", n, maxChunkLen), false
		case end-pos-4 < n:
			return pos, fmt.Sprintf("input ends inside a snappy chunk, after %d of its %d bytes", end-pos-4, n), true
		}
		if body == nil {
			body = make([]byte, maxChunkLen)
		}
		b := body[:n]
		if _, err := ra.ReadAt(b, pos+4); err != nil {
			return pos, fmt.Sprintf("read error: %v", err), false
		}
		switch typ {
		case 0xff:
			if string(b) != "sNaPpY" {
				return pos, "bad snappy stream identifier", false
			}
		case 0x00, 0x01:
			if n < 4 {
				return pos, "snappy chunk too short to hold its checksum", false
			}
			data := b[4:]
			if typ == 0x00 {
				dn, err := snappy.DecodedLen(data)
				if err != nil {
					return pos, "invalid snappy block length", false
				}
				if dn > maxBlockSize {
					return pos, fmt.Sprintf("snappy chunk decodes to %d bytes, more than the %d allowed", dn, maxBlockSize), false
				}
				if decoded == nil {
					decoded = make([]byte, maxBlockSize)
				}
				if data, err = snappy.Decode(decoded, data); err != nil {
					return pos, "invalid snappy block", false
				}
			} else if len(data) > maxBlockSize {
				return pos, fmt.Sprintf("uncompressed snappy chunk of %d bytes, more than the %d allowed", len(data), maxBlockSize), false
			}
			if maskedCRC(data) != binary.LittleEndian.Uint32(b) {
				return pos, "snappy chunk checksum mismatch", false
			}
		}
		pos += 4 + n
	}
	return -1, "", false
}

// excessChunk returns the file offset of the first data chunk of the valid
// snappy stream in bytes [start, end) of ra whose data goes beyond the
// first docLen bytes of document (or start if it finds none). It reads
// only chunk headers and the length prefixes of compressed blocks.
func excessChunk(ra io.ReaderAt, start, end int64, docLen uint64) int64 {
	var hdr [4 + 4 + binary.MaxVarintLen32]byte
	total := uint64(0)
	for pos := start; pos+4 <= end; {
		k, _ := ra.ReadAt(hdr[:min(int64(len(hdr)), end-pos)], pos)
		if k < 4 {
			break
		}
		typ := hdr[0]
		n := int64(hdr[1]) | int64(hdr[2])<<8 | int64(hdr[3])<<16
		switch typ {
		case 0x00: // compressed: checksum, then the block's decoded length
			dn, err := snappy.DecodedLen(hdr[8:k])
			if err != nil || k < 8 {
				return pos
			}
			total += uint64(dn)
		case 0x01: // uncompressed: checksum, then the data
			total += uint64(max(n-4, 0))
		}
		if total > docLen {
			return pos
		}
		pos += 4 + n
	}
	return start
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
