package parser

import (
	"unicode"
	"unicode/utf8"

	"github.com/transparse/transparse/parser/conllu"
	"github.com/transparse/transparse/parser/feature"
	"github.com/transparse/transparse/parser/transition"
)

// Scorer scores the classes of a feature vector: the frozen linear.Model at
// parse time, the linear.Trainer during training.
type Scorer interface {
	Scores(feats []uint64, scores []float32)
}

// Classes maps classifier classes to transitions: unlabeled moves take one
// class each, labeled moves one class per deprel.
type Classes struct {
	Sys       transition.System
	Deprels   []string
	RootLabel int32            // the deprel of words attached to node 0
	Move      []transition.Move // class → move
	Label     []int32           // class → deprel, or transition.None
	base      [8]int32          // move → first class, -1 if unused
}

// NewClasses builds the class table of sys for the given deprels; root is
// the index of the root deprel.
func NewClasses(sys transition.System, deprels []string, root int32) *Classes {
	c := &Classes{Sys: sys, Deprels: deprels, RootLabel: root}
	for i := range c.base {
		c.base[i] = -1
	}
	for _, m := range sys.Moves() {
		c.base[m] = int32(len(c.Move))
		if m.Labeled() {
			for l := range deprels {
				c.Move = append(c.Move, m)
				c.Label = append(c.Label, int32(l))
			}
		} else {
			c.Move = append(c.Move, m)
			c.Label = append(c.Label, transition.None)
		}
	}
	return c
}

// Len is the number of classes.
func (c *Classes) Len() int { return len(c.Move) }

// Names returns a readable name per class ("LEFT-ARC:nsubj").
func (c *Classes) Names() []string {
	out := make([]string, len(c.Move))
	for i, m := range c.Move {
		out[i] = m.String()
		if c.Label[i] >= 0 {
			out[i] += ":" + c.Deprels[c.Label[i]]
		}
	}
	return out
}

// Class returns the class of transition t.
func (c *Classes) Class(t transition.Transition) int {
	b := int(c.base[t.Move])
	if t.Move.Labeled() {
		return b + int(t.Label)
	}
	return b
}

// Transition returns the transition of class k.
func (c *Classes) Transition(k int) transition.Transition {
	return transition.Transition{Move: c.Move[k], Label: c.Label[k]}
}

// Legal fills legal[k] for every class: the move is legal in s and the label
// respects the root rule (the root deprel exactly on arcs from node 0).
func (c *Classes) Legal(s *transition.State, legal []bool) {
	for _, m := range c.Sys.Moves() {
		b := int(c.base[m])
		ok := c.Sys.Legal(s, m)
		if !m.Labeled() {
			legal[b] = ok
			continue
		}
		var h int32
		if ok {
			h, _ = c.Sys.Arc(s, m)
		}
		for l := range c.Deprels {
			legal[b+l] = ok && (h == 0) == (int32(l) == c.RootLabel)
		}
	}
}

// Best returns the legal class with the highest score, or -1.
func Best(scores []float32, legal []bool) int {
	best := -1
	var bs float32
	for k, ok := range legal {
		if ok && (best < 0 || scores[k] > bs) {
			best, bs = k, scores[k]
		}
	}
	return best
}

// AttachLabel gives the label for an unlabeled move that attaches a node
// (arc-eager's REDUCE of a headless node at the end of the sentence): the
// best-scoring deprel of the labeled arc move in the same direction.
func (c *Classes) AttachLabel(s *transition.State, t transition.Transition, scores []float32) transition.Transition {
	if t.Move.Labeled() {
		return t
	}
	h, d := c.Sys.Arc(s, t.Move)
	if d < 0 || s.Head[d] != transition.None {
		return t
	}
	m := transition.RightArc
	if d < h {
		m = transition.LeftArc
	}
	b := c.base[m]
	if b < 0 {
		b = c.base[transition.RightArc]
	}
	best := int32(-1)
	for l := range c.Deprels {
		if (h == 0) != (int32(l) == c.RootLabel) {
			continue
		}
		if best < 0 || scores[int(b)+l] > scores[int(b)+int(best)] {
			best = int32(l)
		}
	}
	t.Label = best
	return t
}

// FillWords computes the per-word feature values of a sentence into w
// (node 0 is the root). When morph is true the main tag p is XPOS (UPOS when
// XPOS is absent) and UPOS, XPOS, lemma and FEATS are filled; otherwise p is
// UPOS and the morphological values are left empty.
func FillWords(w *feature.Words, words []conllu.Word, morph bool) {
	n := len(words)
	if cap(w.Values) < n+1 {
		w.Values = make([][feature.NumWordValues]uint64, n+1)
	}
	w.Values = w.Values[:n+1]
	for v := 0; v < feature.NumWordValues; v++ {
		w.Values[0][v] = feature.Hash(feature.Value(v), "\x00<ROOT>")
	}
	for i := range words {
		x := &words[i]
		vals := &w.Values[i+1]
		vals[feature.W] = feature.Hash(feature.W, x.Form)
		vals[feature.LW] = hashLower(x.Form)
		vals[feature.SF] = hashSuffix(x.Form, 3)
		vals[feature.U] = feature.Hash(feature.U, orAbsent(x.UPOS))
		if morph {
			tag := x.XPOS
			if conllu.Absent(tag) {
				tag = x.UPOS
			}
			vals[feature.P] = feature.Hash(feature.P, orAbsent(tag))
			vals[feature.X] = feature.Hash(feature.X, orAbsent(x.XPOS))
			vals[feature.LM] = feature.Hash(feature.LM, orAbsent(x.Lemma))
			vals[feature.M] = feature.Hash(feature.M, orAbsent(x.Feats))
		} else {
			vals[feature.P] = feature.Hash(feature.P, orAbsent(x.UPOS))
			vals[feature.X] = 0
			vals[feature.LM] = 0
			vals[feature.M] = 0
		}
	}
}

func orAbsent(v string) string {
	if conllu.Absent(v) {
		return "_"
	}
	return v
}

// hashLower hashes the lowercased form without allocating.
func hashLower(s string) uint64 {
	h := uint64(14695981039346656037)
	var buf [4]byte
	for _, r := range s {
		r = unicode.ToLower(r)
		k := utf8.EncodeRune(buf[:], r)
		for _, b := range buf[:k] {
			h ^= uint64(b)
			h *= 1099511628211
		}
	}
	return feature.Hash(feature.LW, "") ^ h*0x9E3779B97F4A7C15
}

// hashSuffix hashes the last k runes of s.
func hashSuffix(s string, k int) uint64 {
	i := len(s)
	for j := 0; j < k && i > 0; j++ {
		_, size := utf8.DecodeLastRuneInString(s[:i])
		i -= size
	}
	return feature.Hash(feature.SF, s[i:])
}
