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
// minAbs must be finite and not negative (else an error); one above every
// weight drops them all.
func Prune(c *modelfmt.Classifier, minAbs float32) (*modelfmt.Classifier, error) {
	if err := CheckMinAbs(minAbs); err != nil {
		return nil, fmt.Errorf("linear: Prune: %w", err)
	}
	if _, err := FromClassifier(c); err != nil {
		return nil, err
	}
	q, err := int16Weights(c)
	if err != nil {
		return nil, errors.New("linear: Prune: only int16 classifiers can be pruned")
	}
	scale := math.Float32frombits(uint32(c.Params["scale_bits"]))
	// Saturated: every int16 weight is below a threshold of 1<<16 steps,
	// and the conversion to int of a larger float is undefined.
	minQ := int(min(math.Ceil(float64(minAbs)/float64(scale)), 1<<16))
	out := keepWeights(c, q, func(v int16) bool { return int(v) >= minQ || -int(v) >= minQ })
	if _, err := FromClassifier(out); err != nil {
		return nil, fmt.Errorf("linear: Prune: %w", err)
	}
	return out, nil
}

// CheckMinAbs returns an error unless minAbs is a pruning threshold: a
// finite number, 0 or more.
func CheckMinAbs(minAbs float32) error {
	if math.IsNaN(float64(minAbs)) || math.IsInf(float64(minAbs), 0) || minAbs < 0 {
		return fmt.Errorf("min_abs %g: want a finite number, 0 or more", minAbs)
	}
	return nil
}

// RoundWeights returns a copy of the encoded Int16 classifier c whose
// weights are rounded to bits bits (2..16, sign included): the largest
// absolute weight becomes 2^(bits-1)-1 steps of a new scale, the post-hoc
// form of FreezeOptions.WeightBits. Weights that round to 0 are dropped,
// and features left with none. A classifier whose weights already take at
// most bits bits is returned unchanged (a copy). c is validated first and
// not modified; other params and blobs are kept.
func RoundWeights(c *modelfmt.Classifier, bits int) (*modelfmt.Classifier, error) {
	if bits < 2 || bits > 16 {
		return nil, fmt.Errorf("linear: RoundWeights: %d bits, want 2..16", bits)
	}
	if _, err := FromClassifier(c); err != nil {
		return nil, err
	}
	q, err := int16Weights(c)
	if err != nil {
		return nil, errors.New("linear: RoundWeights: only int16 classifiers can be rounded")
	}
	maxQ := 0
	for _, v := range q {
		maxQ = max(maxQ, int(v), -int(v))
	}
	top := 1<<(bits-1) - 1
	if maxQ <= top {
		return cloneClassifier(c), nil
	}
	// v steps of scale become v*top/maxQ steps of scale*maxQ/top.
	ratio := float64(top) / float64(maxQ)
	for i, v := range q {
		q[i] = int16(math.Round(float64(v) * ratio))
	}
	out := keepWeights(c, q, func(v int16) bool { return v != 0 })
	scale := math.Float32frombits(uint32(c.Params["scale_bits"]))
	out.Params["scale_bits"] = int64(math.Float32bits(scale * float32(maxQ) / float32(top)))
	if _, err := FromClassifier(out); err != nil {
		return nil, fmt.Errorf("linear: RoundWeights: %w", err)
	}
	return out, nil
}

// keepWeights returns a copy of c with the weights q (one per entry of c,
// in order) where keep is true, and without the features left with none.
func keepWeights(c *modelfmt.Classifier, q []int16, keep func(int16) bool) *modelfmt.Classifier {
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
			if keep(q[e]) {
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
	return out
}
