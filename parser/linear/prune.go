package linear

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/transparse/transparse/modelfmt"
)

// Prune returns a copy of the encoded classifier c (layout Layout, int16
// weights) without the weights whose absolute value is below minAbs and
// without the features left with no weight: the post-hoc form of
// FreezeOptions.MinAbs (weights stay in the classifier's layout: Layout
// with precision 16, or LayoutCodebook). Fewer features make a smaller file and a smaller
// scoring table (fewer cache misses per lookup), at some cost in accuracy
// that the caller measures. c is validated first (FromClassifier) and not
// modified; other params and blobs (a tagger's dictionary) are kept.
func Prune(c *modelfmt.Classifier, minAbs float32) (*modelfmt.Classifier, error) {
	if _, err := FromClassifier(c); err != nil {
		return nil, err
	}
	q, err := int16Weights(c)
	if err != nil {
		return nil, errors.New("linear: Prune: only int16 classifiers can be pruned")
	}
	scale := math.Float32frombits(uint32(c.Params["scale_bits"]))
	minQ := int(math.Ceil(float64(minAbs / scale)))
	cb := 1
	if c.Params["classes"] > 256 {
		cb = 2
	}
	keyBlob, countBlob := c.Blobs["keys"], c.Blobs["counts"]
	classBlob := c.Blobs["classes"]
	var keys, counts, classes []byte
	var weights []int16
	var prev, key, kept uint64
	features := int64(0)
	e := 0
	kat, cat := 0, 0
	for f := int64(0); f < c.Params["features"]; f++ {
		d, next := uvarint(keyBlob, kat)
		kat = next
		key += d
		n, next := uvarint(countBlob, cat)
		cat = next
		start := len(weights)
		for j := 0; j < int(n); j++ {
			if abs := int(q[e]); abs >= minQ || -abs >= minQ {
				classes = append(classes, classBlob[cb*e:cb*e+cb]...)
				weights = append(weights, q[e])
			}
			e++
		}
		if m := len(weights) - start; m > 0 {
			keys = binary.AppendUvarint(keys, key-prev)
			prev = key
			counts = binary.AppendUvarint(counts, uint64(m))
			kept += uint64(m)
			features++
		}
	}
	out := cloneClassifier(c)
	out.Params["features"] = features
	out.Params["entries"] = int64(kept)
	out.Blobs["keys"], out.Blobs["counts"] = keys, counts
	out.Blobs["classes"] = classes
	setInt16Weights(out, weights)
	if _, err := FromClassifier(out); err != nil {
		return nil, fmt.Errorf("linear: Prune: %w", err)
	}
	return out, nil
}
