package linear

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/transparse/transparse/modelfmt"
)

// MaxLevels is the largest codebook an Int16 model can be stored with in
// one byte per weight (layout LayoutCodebook).
const MaxLevels = 256

// codebook returns at most levels int16 values (sorted, none 0 or
// -32768) to round the weights q to: for each sign, levels spaced evenly
// in log|q| from the smallest to the largest magnitude (so every weight
// keeps the same relative precision), the levels shared between the signs
// in proportion to their counts. When q has at most levels distinct
// values, they are the codebook.
//
// Even relative precision matters: on the EWT parser, 256 levels placed by
// least squares (k-means, which spends them where weights are dense, on
// small magnitudes) cost 0.4 dev LAS, k-means on log|q| 0.7, even log
// spacing 0.07.
func codebook(q []int16, levels int) []int16 {
	var hist [1 << 16]uint32
	for _, v := range q {
		hist[uint16(v)]++
	}
	var neg, pos []cell // distinct values with their counts, ascending
	nNeg, nPos := 0, 0
	for v := -32767; v <= 32767; v++ {
		if n := hist[uint16(int16(v))]; n > 0 && v != 0 {
			if v < 0 {
				neg = append(neg, cell{v, n})
				nNeg += int(n)
			} else {
				pos = append(pos, cell{v, n})
				nPos += int(n)
			}
		}
	}
	if len(neg)+len(pos) <= levels {
		book := make([]int16, 0, len(neg)+len(pos))
		for _, c := range append(neg, pos...) {
			book = append(book, int16(c.v))
		}
		return book
	}
	kNeg := 0
	if nNeg > 0 {
		kNeg = max(1, min(levels-1, int(math.Round(float64(levels)*float64(nNeg)/float64(nNeg+nPos)))))
	}
	if nPos == 0 {
		kNeg = levels
	}
	book := geometric(neg, kNeg)
	return append(book, geometric(pos, levels-kNeg)...)
}

// geometric returns at most k levels spaced evenly in log|v| between the
// smallest and the largest |v| of the sorted same-sign cells, ascending.
func geometric(cells []cell, k int) []int16 {
	if len(cells) == 0 || k <= 0 {
		return nil
	}
	lo, hi := math.Abs(float64(cells[0].v)), math.Abs(float64(cells[len(cells)-1].v))
	sign := 1.0
	if cells[0].v < 0 {
		sign = -1
		lo, hi = hi, lo
	}
	out := make([]int16, 0, k)
	for j := range k {
		a := lo
		if k > 1 {
			a = lo * math.Pow(hi/lo, float64(j)/float64(k-1))
		}
		out = append(out, int16(sign*math.Round(a)))
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// cell is one distinct weight value and how many weights have it.
type cell struct {
	v int
	n uint32
}

// roundTo replaces every weight of q by the nearest value of the sorted
// codebook book.
func roundTo(q []int16, book []int16) {
	for i, v := range q {
		j, _ := slices.BinarySearch(book, v)
		switch {
		case j == len(book):
			j--
		case j > 0 && int(v)-int(book[j-1]) <= int(book[j])-int(v):
			j--
		}
		q[i] = book[j]
	}
}

// codes returns the codebook index of every weight of q (each of which
// must be in book), or nil if book has more than MaxLevels values.
func codes(q []int16, book []int16) []byte {
	if len(book) > MaxLevels {
		return nil
	}
	out := make([]byte, len(q))
	for i, v := range q {
		j, _ := slices.BinarySearch(book, v)
		out[i] = byte(j)
	}
	return out
}

// distinct returns the sorted distinct values of q, or nil if there are
// more than MaxLevels of them.
func distinct(q []int16) []int16 {
	var seen [1 << 16 / 64]uint64
	n := 0
	for _, v := range q {
		u := uint16(v)
		if seen[u/64]&(1<<(u%64)) == 0 {
			if n++; n > MaxLevels {
				return nil
			}
			seen[u/64] |= 1 << (u % 64)
		}
	}
	out := make([]int16, 0, n)
	for u := range 1 << 16 {
		if seen[u/64]&(1<<(u%64)) != 0 {
			out = append(out, int16(uint16(u)))
		}
	}
	slices.Sort(out)
	return out
}

// decodeCodes expands the one-byte codes of a LayoutCodebook classifier into
// int16 LE weights (the Layout format), checking the codebook and the codes.
func decodeCodes(codeBlob, bookBlob []byte) ([]byte, error) {
	if len(bookBlob) == 0 || len(bookBlob)%2 != 0 || len(bookBlob) > 2*MaxLevels {
		return nil, fmt.Errorf(`blob "codebook" has %d bytes, want 2..%d, even`, len(bookBlob), 2*MaxLevels)
	}
	var book [MaxLevels][2]byte
	n := len(bookBlob) / 2
	for i := range n {
		q := binary.LittleEndian.Uint16(bookBlob[2*i:])
		if q == 0 || q == 0x8000 {
			return nil, fmt.Errorf(`blob "codebook": level %d: invalid quantized weight %d`, i, int16(q))
		}
		book[i] = [2]byte{bookBlob[2*i], bookBlob[2*i+1]}
	}
	out := make([]byte, 2*len(codeBlob))
	for i, c := range codeBlob {
		if int(c) >= n {
			return nil, fmt.Errorf(`blob "weights": entry %d: code %d, codebook has %d levels`, i, c, n)
		}
		out[2*i], out[2*i+1] = book[c][0], book[c][1]
	}
	return out, nil
}

// int16Weights returns the quantized weights of a valid Int16 classifier
// (layout Layout with precision 16, or LayoutCodebook).
func int16Weights(c *modelfmt.Classifier) ([]int16, error) {
	w := c.Blobs["weights"]
	if c.Layout == LayoutCodebook {
		var err error
		if w, err = decodeCodes(w, c.Blobs["codebook"]); err != nil {
			return nil, err
		}
	} else if c.Params["precision"] != 16 {
		return nil, errors.New("not an int16 classifier")
	}
	q := make([]int16, len(w)/2)
	for i := range q {
		q[i] = int16(binary.LittleEndian.Uint16(w[2*i:]))
	}
	return q, nil
}

// setInt16Weights stores q as the weights of c: one byte per weight with
// a codebook (LayoutCodebook) when q has at most MaxLevels distinct
// values, else int16 LE (Layout, precision 16).
func setInt16Weights(c *modelfmt.Classifier, q []int16) {
	delete(c.Blobs, "codebook")
	if book := distinct(q); len(book) > 0 {
		c.Layout = LayoutCodebook
		c.Params["precision"] = 8
		c.Blobs["codebook"] = int16Bytes(book)
		c.Blobs["weights"] = codes(q, book)
		return
	}
	c.Layout = Layout
	c.Params["precision"] = 16
	c.Blobs["weights"] = int16Bytes(q)
}

func int16Bytes(q []int16) []byte {
	b := make([]byte, 2*len(q))
	for i, v := range q {
		binary.LittleEndian.PutUint16(b[2*i:], uint16(v))
	}
	return b
}

// Requantize returns a copy of the encoded Int16 classifier c whose weights
// are rounded to a codebook of at most levels values (2..MaxLevels), the
// post-hoc form of FreezeOptions.Levels: with levels <= MaxLevels the
// copy stores one byte per weight instead of two. c is validated first
// and not modified; other params and blobs are kept.
func Requantize(c *modelfmt.Classifier, levels int) (*modelfmt.Classifier, error) {
	if levels < 2 || levels > MaxLevels {
		return nil, fmt.Errorf("linear: Requantize: %d levels, want 2..%d", levels, MaxLevels)
	}
	if _, err := FromClassifier(c); err != nil {
		return nil, err
	}
	q, err := int16Weights(c)
	if err != nil {
		return nil, fmt.Errorf("linear: Requantize: %w", err)
	}
	roundTo(q, codebook(q, levels))
	out := cloneClassifier(c)
	setInt16Weights(out, q)
	if _, err := FromClassifier(out); err != nil {
		return nil, fmt.Errorf("linear: Requantize: %w", err)
	}
	return out, nil
}

// cloneClassifier copies c's Params and Blobs maps (not the blobs).
func cloneClassifier(c *modelfmt.Classifier) *modelfmt.Classifier {
	out := *c
	out.Params = make(map[string]int64, len(c.Params))
	for k, v := range c.Params {
		out.Params[k] = v
	}
	out.Blobs = make(map[string][]byte, len(c.Blobs))
	for k, v := range c.Blobs {
		out.Blobs[k] = v
	}
	return &out
}
