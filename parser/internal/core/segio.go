package core

import (
	"fmt"

	"github.com/transparse/transparse/modelfmt"
	"github.com/transparse/transparse/parser/segment"
)

// The segmenter part of a model file: a classifier entry of its own
// layout whose one blob is segment.Model.Encode's msgpack
// (docs/model-format.md, "The segmenter").
const (
	segName   = "segmenter"
	segLayout = "segment-msgpack/v1"
	segBlob   = "model"
)

// addSegmenter appends the segmenter part of seg to doc, if seg is not
// nil.
func addSegmenter(doc *modelfmt.Model, seg *segment.Model) {
	if seg == nil {
		return
	}
	b, err := seg.Encode()
	if err != nil {
		// msgpack encodes a struct of numbers, strings and slices
		// without error: this is a bug, not bad input.
		panic(fmt.Sprintf("core: encoding the segmenter: %v", err))
	}
	doc.Classifiers = append(doc.Classifiers, modelfmt.Classifier{Name: segName, Layout: segLayout,
		Blobs: map[string][]byte{segBlob: b}})
}

// readSegmenter decodes the segmenter part of a model file, nil when it
// has none. A damaged part gives an error wrapping modelfmt.ErrCorrupt.
func readSegmenter(byName map[string]*modelfmt.Classifier) (*segment.Model, error) {
	c := byName[segName]
	if c == nil {
		return nil, nil
	}
	if c.Layout != segLayout {
		return nil, corrupt("classifier %q: layout %q, want %q", segName, c.Layout, segLayout)
	}
	b, err := c.Blob(segBlob)
	if err != nil {
		return nil, err
	}
	seg, err := segment.Decode(b)
	if err != nil {
		return nil, corrupt("classifier %q: %v", segName, err)
	}
	return seg, nil
}
