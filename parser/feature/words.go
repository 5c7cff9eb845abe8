package feature

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/transparse/transparse/parser/conllu"
)

// rootValues are the values of node 0, the root.
var rootValues = func() (r [NumWordValues]uint64) {
	for v := range r {
		r[v] = Hash(Value(v), "\x00<ROOT>")
	}
	return r
}()

// FillWords computes the per-word feature values of a sentence into w
// (node 0 is the root, node n+1 the null row). The main tag p is XPOS, or
// UPOS where XPOS is absent. Lemma and FEATS values are filled only when
// morph is true.
func FillWords(w *Words, words []conllu.Word, morph bool) {
	n := len(words)
	if cap(w.Values) < n+2 {
		w.Values = make([][NumWordValues]uint64, n+2)
	}
	w.Values = w.Values[:n+2]
	w.Values[0] = rootValues
	for v := 0; v < NumWordValues; v++ {
		w.Values[n+1][v] = nullValue
	}
	for i := range words {
		x := &words[i]
		vals := &w.Values[i+1]
		vals[W] = Hash(W, x.Form)
		vals[LW] = hashLower(x.Form)
		vals[SF] = hashSuffix(x.Form, 3)
		vals[U] = Hash(U, orAbsent(x.UPOS))
		vals[X] = Hash(X, orAbsent(x.XPOS))
		tag := x.XPOS
		if conllu.Absent(tag) {
			tag = x.UPOS
		}
		vals[P] = Hash(P, orAbsent(tag))
		vals[A], vals[AX] = 0, 0
		if morph {
			vals[LM] = Hash(LM, orAbsent(x.Lemma))
			vals[M] = Hash(M, orAbsent(x.Feats))
			vals[CS] = Hash(CS, featValue(x.Feats, "Case="))
		} else {
			vals[LM] = 0
			vals[M] = 0
			vals[CS] = 0
		}
	}
}

// featValue returns the value of the feature named by key ("Case=") in a
// FEATS string ("Case=Nom|Number=Sing"), or "_".
func featValue(feats, key string) string {
	for feats != "" {
		f := feats
		if i := strings.IndexByte(feats, '|'); i >= 0 {
			f, feats = feats[:i], feats[i+1:]
		} else {
			feats = ""
		}
		if strings.HasPrefix(f, key) {
			return f[len(key):]
		}
	}
	return "_"
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
	return Hash(LW, "") ^ h*0x9E3779B97F4A7C15
}

// hashSuffix hashes the last k runes of s.
func hashSuffix(s string, k int) uint64 {
	i := len(s)
	for j := 0; j < k && i > 0; j++ {
		_, size := utf8.DecodeLastRuneInString(s[:i])
		i -= size
	}
	return Hash(SF, s[i:])
}
