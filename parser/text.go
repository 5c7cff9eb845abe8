package parser

import "fmt"

// Ranges is the unit of the TokenRange attribute that DocOptions.Ranges
// asks for with InputText.
type Ranges int

const (
	// RangesNone adds no TokenRange.
	RangesNone Ranges = iota
	// RangesBytes gives TokenRange in bytes of the UTF-8 input.
	RangesBytes
	// RangesCodePoints gives TokenRange in Unicode code points (a
	// Python str index, for example).
	RangesCodePoints
)

// String returns "none", "bytes" or "codepoints".
func (r Ranges) String() string {
	switch r {
	case RangesNone:
		return "none"
	case RangesBytes:
		return "bytes"
	case RangesCodePoints:
		return "codepoints"
	}
	return fmt.Sprintf("Ranges(%d)", int(r))
}

// HasSegmenter reports whether m has a segmenter (parser/segment), which
// InputText needs. A model trained without one (train.Options) or before
// segmenters were part of models has none.
func (m *Model) HasSegmenter() bool { return false }

// errNoText is returned for InputText until raw-text input is
// implemented.
var errNoText = fmt.Errorf("%w: input format InputText is not implemented yet", ErrOptions)
