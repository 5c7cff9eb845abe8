package beam

import (
	"math/bits"
	"slices"
)

// useMemo lets a Decoder of width K > 1 keep its memo (tests compare with
// and without).
var useMemo = true

// memo keeps the scores of the feature vectors a Decoder has scored in the
// current sentence, so that a vector met again is not scored again. The
// configurations of a beam differ mostly in what their features do not
// see (the labels and order of arcs already made), so that many have the
// same feature vector: on EWT dev at K = 8 about two vectors in five
// repeat one scored before in the sentence. A Scorer gives the same
// scores for the same vector while a sentence is decoded (training
// updates the weights only after it), so the memo changes no result.
//
// Vectors are found by a 64-bit hash in an open-addressing table and
// compared whole. The memo holds at most memoBytes of vectors and scores:
// when full it starts afresh, so that a long sentence at a wide beam costs
// no more memory (repeats are mostly of recent steps).
type memo struct {
	nf, nc int
	max    int      // entries that fit in memoBytes
	slots  []int32  // entry index + 1; 0: empty
	hashes []uint64 // per entry
	feats  []uint64 // per entry: its vector, nf values
	scores []float32
	n      int // entries
}

// memoMinSlots is the table size a sentence starts with.
const memoMinSlots = 256

// memoBytes bounds the vectors and scores a memo keeps.
const memoBytes = 8 << 20

// reset empties the memo for vectors of nf features and nc classes.
func (m *memo) reset(nf, nc int) {
	m.nf, m.nc = nf, nc
	m.max = max(memoMinSlots/2, memoBytes/(8*nf+4*nc+8))
	if len(m.slots) < memoMinSlots {
		m.slots = make([]int32, memoMinSlots)
	} else if m.n > 0 {
		clear(m.slots)
	}
	m.n = 0
	m.hashes = m.hashes[:0]
	m.feats = m.feats[:0]
	m.scores = m.scores[:0]
}

// hashVector mixes the feature values (already well-mixed hashes) into one
// 64-bit hash.
func hashVector(feats []uint64) uint64 {
	h := uint64(len(feats))
	for _, f := range feats {
		h = bits.RotateLeft64(h, 23) ^ f
		h *= 0x9E3779B97F4A7C15
	}
	return h ^ h>>29
}

// score writes the scores of feats into scores (len nc), from the memo if
// the vector was scored before in the sentence, else from sc.
func (m *memo) score(feats []uint64, scores []float32, sc Scorer) {
	h := hashVector(feats)
	mask := uint64(len(m.slots) - 1)
	i := h & mask
	for ; m.slots[i] != 0; i = (i + 1) & mask {
		e := int(m.slots[i] - 1)
		if m.hashes[e] == h && slices.Equal(m.feats[e*m.nf:(e+1)*m.nf], feats) {
			copy(scores, m.scores[e*m.nc:(e+1)*m.nc])
			return
		}
	}
	sc.Scores(feats, scores)
	if m.n == m.max {
		m.reset(m.nf, m.nc)
		i = h & uint64(len(m.slots)-1)
	}
	m.slots[i] = int32(m.n + 1)
	m.n++
	m.hashes = append(m.hashes, h)
	m.feats = append(m.feats, feats...)
	m.scores = append(m.scores, scores[:m.nc]...)
	if 2*m.n > len(m.slots) {
		m.grow()
	}
}

// grow doubles the table.
func (m *memo) grow() {
	m.slots = make([]int32, 2*len(m.slots))
	mask := uint64(len(m.slots) - 1)
	for e, h := range m.hashes {
		i := h & mask
		for m.slots[i] != 0 {
			i = (i + 1) & mask
		}
		m.slots[i] = int32(e + 1)
	}
}
