// Package modelfmt reads and writes transparse model files: the container
// (magic, format version, document length, snappy framing-format stream),
// the msgpack document inside it (Model, Card, Classifier), the rules a
// document must follow, and little-endian blob helpers for weights.
//
// It knows bytes, not parsing: the meaning of a Classifier's Params and
// Blobs belongs to the package named by its Layout.
//
// Decoding is safe on untrusted input: a truncated, damaged or hostile file
// gives an *Error (wrapping ErrNotModel, ErrNewerVersion or ErrCorrupt),
// never a panic or a hang, and memory grows only with the data that has
// arrived (at most 64 times the bytes read, plus 1 MiB), whatever the header
// declares and whether the input is a file, a pipe or a device. The byte layout, schema and compatibility rules are
// described in docs/model-format.md.
package modelfmt
