// Package form is what a model reads of a word form, shared by the layers
// a sentence goes down through: the taggers' analysis of a sentence
// (tagger.Analysis) computes a Word for each of its words once, and the
// parser's features (feature.FillAnalyzed) read them instead of reading the
// forms again. Sentences given with morphology, which are not tagged, get
// their hashes from Of.
package form

import (
	"math/bits"
	"unicode"
	"unicode/utf8"
)

// FNV-1a (64 bits), the hash of every value here.
const (
	Offset = 14695981039346656037
	Prime  = 1099511628211
)

// Hashes are the hashes of a word form the parser's features are made of.
type Hashes struct {
	Form    uint64 // FNV-1a of the form's bytes
	Lower   uint64 // FNV-1a of the UTF-8 of the form lowercased rune by rune (unicode.ToLower)
	Suffix3 uint64 // FNV-1a of the bytes of the form's last three runes (all of it if it is shorter)
}

// Word is the analysis of one word of a sentence: its form's hashes and
// its ambiguity classes, the hashes of the tag sets that the UPOS and the
// XPOS tagger's dictionaries give the form (tagger.Tagger.AmbiguityClass),
// 0 for a form that is not in a dictionary or a column without a tagger.
type Word struct {
	Hashes
	Amb [2]uint64 // UPOS, XPOS
	// Cluster is the code of the form's path in the model's word clusters
	// (else of its lowercased form's; 0: neither has one, or the model has
	// no clusters): the path's bits after a leading 1 bit, so that paths
	// of different lengths differ (tagger.Clusters).
	Cluster uint64
}

// PathPrefix returns the code of the first n bits of the cluster path of
// code c (Word.Cluster), c itself if the path is not longer, 0 for 0.
func PathPrefix(c uint64, n int) uint64 {
	if l := bits.Len64(c) - 1; l > n {
		return c >> (l - n)
	}
	return c
}

// Of returns the hashes of s, without allocating.
func Of(s string) Hashes {
	h := Hashes{Form: Offset, Lower: Offset}
	for i := 0; i < len(s); i++ {
		h.Form = (h.Form ^ uint64(s[i])) * Prime
	}
	for _, r := range s {
		h.Lower = HashRune(h.Lower, LowerRune(r))
	}
	h.Suffix3 = Suffix3(s)
	return h
}

// Suffix3 returns Of(s).Suffix3.
func Suffix3(s string) uint64 {
	i := len(s)
	for j := 0; j < 3 && i > 0; j++ {
		_, size := utf8.DecodeLastRuneInString(s[:i])
		i -= size
	}
	return HashBytes(Offset, s[i:])
}

// HashBytes adds the bytes of s to the FNV-1a state h.
func HashBytes(h uint64, s string) uint64 {
	for i := 0; i < len(s); i++ {
		h = (h ^ uint64(s[i])) * Prime
	}
	return h
}

// HashRune adds the UTF-8 bytes of r to the FNV-1a state h.
func HashRune(h uint64, r rune) uint64 {
	if r < utf8.RuneSelf {
		return (h ^ uint64(r)) * Prime
	}
	var buf [utf8.UTFMax]byte
	n := utf8.EncodeRune(buf[:], r)
	for _, b := range buf[:n] {
		h = (h ^ uint64(b)) * Prime
	}
	return h
}

// LowerRune is unicode.ToLower, with a fast path for ASCII.
func LowerRune(r rune) rune {
	if r < utf8.RuneSelf {
		if 'A' <= r && r <= 'Z' {
			r += 'a' - 'A'
		}
		return r
	}
	return unicode.ToLower(r)
}
