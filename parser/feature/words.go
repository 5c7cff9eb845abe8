package feature

import (
	"fmt"
	"strings"

	"github.com/transparse/transparse/parser/conllu"
	"github.com/transparse/transparse/parser/form"
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
// morph is true; the ambiguity classes A and AX are 0 and the cluster
// values those of no path (FillAnalyzed sets them).
func FillWords(w *Words, words []conllu.Word, morph bool) {
	vals := start(w, len(words))
	for i := range words {
		x := &words[i]
		fillWord(&vals[i+1], x, form.Of(x.Form), morph)
		vals[i+1][A], vals[i+1][AX] = 0, 0
		setCluster(&vals[i+1], 0)
	}
}

// FillAnalyzed is FillWords for a sentence whose words were analyzed for
// tagging: the form values (W, LW, SF) come from the hashes in forms[i]
// instead of reading the forms again, with the same results, A and AX
// are its ambiguity classes and C, C4, C6 its word-cluster path. Lemma and FEATS values are filled only when
// morph is true (a plain-token parser with predicted LEMMA and FEATS).
// forms holds one entry per word (tagger.Analysis.Words); FillAnalyzed
// panics if it does not.
func FillAnalyzed(w *Words, words []conllu.Word, forms []form.Word, morph bool) {
	if len(forms) != len(words) {
		panic(fmt.Sprintf("feature: %d analyzed forms for %d words", len(forms), len(words)))
	}
	vals := start(w, len(words))
	for i := range words {
		f := &forms[i]
		fillWord(&vals[i+1], &words[i], f.Hashes, morph)
		vals[i+1][A], vals[i+1][AX] = f.Amb[0], f.Amb[1]
		setCluster(&vals[i+1], f.Cluster)
	}
}

// SetCluster sets the word-cluster values (C, C4, C6) of node i (word i,
// 1-based) from the code of its form's path (form.Word.Cluster; 0 for no
// path), as FillAnalyzed sets them from the analysis.
func (w *Words) SetCluster(i int, code uint64) { setCluster(&w.Values[i], code) }

// noPath are the cluster values of a word without a path (FillWords
// gives every word these).
var noPath = [3]uint64{hashOf(C, 0), hashOf(C4, 0), hashOf(C6, 0)}

func setCluster(vals *[NumWordValues]uint64, code uint64) {
	if code == 0 {
		vals[C], vals[C4], vals[C6] = noPath[0], noPath[1], noPath[2]
		return
	}
	vals[C] = hashOf(C, code)
	vals[C4] = hashOf(C4, form.PathPrefix(code, 4))
	vals[C6] = hashOf(C6, form.PathPrefix(code, 6))
}

// SetLemma sets the lemma value of node i (word i, 1-based) to lemma's,
// as FillWords and FillAnalyzed with morph set it from a word's LEMMA.
func (w *Words) SetLemma(i int, lemma string) { w.Values[i][LM] = Hash(LM, orAbsent(lemma)) }

// start sizes w for n words and sets its root and null rows.
func start(w *Words, n int) [][NumWordValues]uint64 {
	if cap(w.Values) < n+2 {
		w.Values = make([][NumWordValues]uint64, n+2)
	}
	w.Values = w.Values[:n+2]
	w.Values[0] = rootValues
	for v := 0; v < NumWordValues; v++ {
		w.Values[n+1][v] = nullValue
	}
	return w.Values
}

// lowerSeed is the value LW mixes with its hash.
var lowerSeed = Hash(LW, "")

// fillWord sets the values of word x but A and AX, from h, the hashes of
// its form.
func fillWord(vals *[NumWordValues]uint64, x *conllu.Word, h form.Hashes, morph bool) {
	vals[W] = hashOf(W, h.Form)
	vals[LW] = lowerSeed ^ h.Lower*0x9E3779B97F4A7C15
	vals[SF] = hashOf(SF, h.Suffix3)
	vals[U] = Hash(U, orAbsent(x.UPOS))
	vals[X] = Hash(X, orAbsent(x.XPOS))
	tag := x.XPOS
	if conllu.Absent(tag) {
		tag = x.UPOS
	}
	vals[P] = Hash(P, orAbsent(tag))
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
