package segment

import (
	"errors"
	"fmt"
	"math"
	"sync"
	"unicode/utf8"

	"github.com/vmihailenco/msgpack/v5"
)

// Model is a trained segmenter. Its exported fields are what is stored
// (msgpack); Decode checks them with Validate and builds the lookup
// tables. A Model is read-only after Train or Decode: one Model may
// segment from many goroutines at once.
type Model struct {
	Tok           Weights  `msgpack:"tok"`            // token-boundary decision
	TokThreshold  float32  `msgpack:"tok_threshold"`  // boundary when the score is above
	Sent          Weights  `msgpack:"sent"`           // sentence-boundary decision
	SentThreshold float32  `msgpack:"sent_threshold"` // boundary when the score is above
	MWT           []MWT    `msgpack:"mwt"`            // multiword-token dictionary
	Amb           Weights  `msgpack:"amb"`            // ambiguous dictionary forms in context
	AmbThreshold  float32  `msgpack:"amb_threshold"`
	Suffixes      []string `msgpack:"suffixes"` // learned suffixes that split off as a word
	Suf           Weights  `msgpack:"suf"`      // splitting a learned suffix off an unseen form
	SufThreshold  float32  `msgpack:"suf_threshold"`
	// Lexicon holds the lower-case forms of the training data that the
	// suffix decision asks about: hash<<2 | flags (knownToken, knownWord).
	Lexicon []uint32 `msgpack:"lexicon"`
	// SentFeatures is the feature set of the sentence decision: 0 (or
	// absent) the first one; 1 adds the lower-case forms of the next two
	// tokens with the case of their first letters, the endings of the
	// next token and of the token before, and the sentence's length so
	// far with the token's last character class and the next token's
	// case; 2 adds how the next token's form was written inside
	// sentences of the training data (Orth) with its case here, and with
	// the token's last character (class and cluster).
	SentFeatures uint8 `msgpack:"sent_features,omitempty"`
	// Orth holds, for SentFeatures 2, the lower-case forms of the
	// training data's tokens that did not start a sentence, with the case
	// of their first letter there: hash<<2 | flags (orthLower: seen in
	// lower case, orthUpper: seen capitalized).
	Orth []uint32 `msgpack:"orth,omitempty"`

	tok, sent, amb, suf table
	exact, lower        map[string]int32
	suffix              map[string]bool
	lexicon             map[uint32]uint8
	orth                map[uint32]uint8
	maxSuffix           int       // code points of the longest suffix
	ready               sync.Once // builds the lookup tables of a decoded model (tables)
}

// Weights is the stored form of a hashed weight table of 2^Bits entries:
// the non-zero entries, Index strictly increasing.
type Weights struct {
	Bits  uint8     `msgpack:"bits"`
	Index []uint32  `msgpack:"index"`
	Value []float32 `msgpack:"value"`
}

const maxBits = 22 // a table of at most 16 MiB

func sparse(t table, bits uint) Weights {
	w := Weights{Bits: uint8(bits)}
	for i, v := range t.W {
		if v != 0 {
			w.Index = append(w.Index, uint32(i))
			w.Value = append(w.Value, v)
		}
	}
	return w
}

func (w *Weights) validate(name string) error {
	if w.Bits < 1 || w.Bits > maxBits {
		return fmt.Errorf("%s: %d bits, want 1 to %d", name, w.Bits, maxBits)
	}
	if len(w.Index) != len(w.Value) {
		return fmt.Errorf("%s: %d indexes but %d values", name, len(w.Index), len(w.Value))
	}
	for i, ix := range w.Index {
		if ix >= 1<<w.Bits || (i > 0 && ix <= w.Index[i-1]) {
			return fmt.Errorf("%s: index %d (%d) out of range or out of order", name, i, ix)
		}
		if v := float64(w.Value[i]); math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("%s: weight %d is not finite", name, i)
		}
	}
	return nil
}

func (w *Weights) dense() table {
	t := newTable(uint(w.Bits))
	for i, ix := range w.Index {
		t.W[ix] = w.Value[i]
	}
	return t
}

// ErrCorrupt is wrapped by the errors of Validate and Decode.
var ErrCorrupt = errors.New("segment: corrupt model")

// Validate checks what Decode relies on: weight tables in range, finite
// thresholds, dictionary entries with a non-empty valid UTF-8 form, at
// least two non-empty words and 0 < Count <= Total, non-empty valid
// suffixes and a sentence feature set this code knows. Its errors wrap
// ErrCorrupt.
func (m *Model) Validate() error {
	if err := m.validate(); err != nil {
		return fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	return nil
}

func (m *Model) validate() error {
	for _, w := range []struct {
		name string
		w    *Weights
	}{{"tok", &m.Tok}, {"sent", &m.Sent}, {"amb", &m.Amb}, {"suf", &m.Suf}} {
		if err := w.w.validate(w.name); err != nil {
			return err
		}
	}
	for _, t := range []float32{m.TokThreshold, m.SentThreshold, m.AmbThreshold, m.SufThreshold} {
		if math.IsNaN(float64(t)) || math.IsInf(float64(t), 0) {
			return errors.New("a threshold is not finite")
		}
	}
	if m.SentFeatures > sentFeatureSet {
		return fmt.Errorf("sentence feature set %d, want at most %d", m.SentFeatures, sentFeatureSet)
	}
	for i, e := range m.MWT {
		if e.Form == "" || !utf8.ValidString(e.Form) || len(e.Words) < 2 || e.Count < 1 || e.Count > e.Total {
			return fmt.Errorf("multiword token %d (%q) is malformed", i, e.Form)
		}
		for _, w := range e.Words {
			if w == "" || !utf8.ValidString(w) {
				return fmt.Errorf("multiword token %d (%q) has an empty or invalid word", i, e.Form)
			}
		}
	}
	for i, s := range m.Suffixes {
		if s == "" || !utf8.ValidString(s) {
			return fmt.Errorf("suffix %d is empty or invalid", i)
		}
	}
	return nil
}

// build makes the lookup tables from the stored fields.
func (m *Model) build() {
	m.tok, m.sent, m.amb, m.suf = m.Tok.dense(), m.Sent.dense(), m.Amb.dense(), m.Suf.dense()
	m.exact = make(map[string]int32, len(m.MWT))
	m.lower = make(map[string]int32, len(m.MWT))
	for i, e := range m.MWT {
		m.exact[e.Form] = int32(i)
	}
	for i, e := range m.MWT {
		low := string(lowerInto(nil, []byte(e.Form)))
		if _, ok := m.lower[low]; !ok {
			if k, ok := m.exact[low]; ok {
				m.lower[low] = k
			} else {
				m.lower[low] = int32(i)
			}
		}
	}
	m.lexicon = make(map[uint32]uint8, len(m.Lexicon))
	for _, x := range m.Lexicon {
		m.lexicon[x>>2] |= uint8(x & 3)
	}
	m.orth = make(map[uint32]uint8, len(m.Orth))
	for _, x := range m.Orth {
		m.orth[x>>2] |= uint8(x & 3)
	}
	m.suffix = make(map[string]bool, len(m.Suffixes))
	m.maxSuffix = 0
	for _, s := range m.Suffixes {
		m.suffix[s] = true
		m.maxSuffix = max(m.maxSuffix, utf8.RuneCountInString(s))
	}
}

// Encode returns the model as msgpack.
func (m *Model) Encode() ([]byte, error) { return msgpack.Marshal(m) }

// Decode reads a model that Encode wrote. Malformed or corrupted input
// gives an error wrapping ErrCorrupt, never a panic. Decoding allocates in
// proportion to b: the lookup tables (a dense table of 2^Bits weights per
// decision, at most 16 MiB each) are built at the model's first
// segmentation.
func Decode(b []byte) (*Model, error) {
	m := new(Model)
	if err := msgpack.Unmarshal(b, m); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	if err := m.Validate(); err != nil {
		return nil, err
	}
	return m, nil
}

// tables builds the lookup tables of a decoded model once, before its
// first segmentation (a trained model has them).
func (m *Model) tables() {
	m.ready.Do(func() {
		if m.tok.W == nil {
			m.build()
		}
	})
}
