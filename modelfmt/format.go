package modelfmt

import (
	"bytes"
	"encoding/binary"
	"fmt"
)

// Magic is the first 8 bytes of every model file, in the style of PNG's
// signature: a non-ASCII first byte (0x89, so the file is never taken for
// text and 7-bit transfers are detected), the letters "TPM", then CR LF,
// Ctrl-Z and LF, which detect line-ending conversion and DOS-style
// truncation. Model files conventionally end in ".tpm".
const Magic = "\x89TPM\r\n\x1a\n"

// FormatVersion is the container format version that Encode writes and the
// newest version Decode reads. Decode reads every version from 1 up to
// FormatVersion and refuses newer ones with ErrNewerVersion.
const FormatVersion = 2

// SniffLen is the number of leading bytes Sniff needs: the magic and the
// format version.
const SniffLen = 8 + 4 // len(Magic) + 4

// Limits that bound the work and memory spent on any input, trusted or not.
// Encode refuses to write a model that exceeds them, so every file it
// writes can be read back.
const (
	// MaxDocumentSize is the largest msgpack document, in bytes, that a
	// model file may declare (2 GiB - 1).
	MaxDocumentSize = 1<<31 - 1

	// MaxObjects is the largest number of msgpack objects (every string,
	// number, blob, array, map, key and value counts as one) a document may
	// hold. Weights belong in blobs, which count as one object each.
	MaxObjects = 1 << 24

	// MaxDepth is the deepest nesting of msgpack arrays and maps a
	// document may have. The schema itself nests 4 deep.
	MaxDepth = 64
)

// headerSizeV1 is the size of the version 1 header: magic, version (uint32
// LE), document length (uint64 LE).
const headerSizeV1 = SniffLen + 8

// maxExpansion bounds how many bytes of document a snappy framing-format
// stream can decode to, per byte of stream. The densest snappy element is a
// 2-byte-offset copy: 3 bytes that produce up to 64 bytes, so a block never
// decodes to more than 64/3 ≈ 21.34 times its size (a block must also begin
// with a literal, and every chunk adds 8 bytes of header and checksum, which
// only lowers the ratio). 22 is therefore a safe integer bound.
const maxExpansion = 22

// Sniff reports whether prefix starts like a transparse model file and, if
// so, the format version it declares. It needs at least SniffLen bytes; it
// does not check that the version is one this library can read (compare
// the result with FormatVersion).
func Sniff(prefix []byte) (version uint32, ok bool) {
	if len(prefix) < SniffLen || string(prefix[:len(Magic)]) != Magic {
		return 0, false
	}
	return binary.LittleEndian.Uint32(prefix[8:]), true
}

// knownSignatures names a few formats people mistake for model files, so
// that "not a transparse model" can say what the input looks like.
var knownSignatures = []struct {
	prefix, name string
}{
	{"\x7fELF", "an ELF executable or library"},
	{"\x89PNG\r\n\x1a\n", "a PNG image"},
	{"\x1f\x8b", "gzip data"},
	{"PK\x03\x04", "a zip archive"},
	{"\x28\xb5\x2f\xfd", "zstd data"},
	{"\xff\x06\x00\x00sNaPpY", "a bare snappy stream without the model header"},
}

// describeStart describes the first bytes of a non-model input.
func describeStart(b []byte) string {
	if len(b) == 0 {
		return "empty input"
	}
	n := min(len(b), 8)
	s := fmt.Sprintf("first bytes %x", b[:n])
	if len(b) > n {
		s += "..."
	}
	for _, sig := range knownSignatures {
		if bytes.HasPrefix(b, []byte(sig.prefix)) {
			s += "; looks like " + sig.name
			break
		}
	}
	return s
}
