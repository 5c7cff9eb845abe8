package morph

import (
	"slices"
	"unicode"

	"github.com/transparse/transparse/parser/conllu"
)

// templateNames describes the feature templates of extract, in template-id
// order (stored with the weights for people reading a model).
var templateNames = []string{
	"bias", "u", "x", "u+x", "lower+u", "lower+x",
	"suf1+u", "suf2+u", "suf3+u", "suf4+u", "suf5+u", "suf6+u",
	"suf1+x", "suf2+x", "suf3+x", "suf4+x",
	"pre1+u", "pre2+u", "pre3+u",
	"shape+u", "len+u",
	"u-1+u", "u+1+u", "u-2+u-1+u", "u+u+1+u+2",
	"lower-1+u", "lower+1+u",
	"class-1+u", "class-1+u-1+u",
	"ending+u", "ending+x", "lemma+u", "ending+lemmatail+u",
	endPrefixFirst, "endingprefix2+u", "endingprefix3+u",
}

const (
	tBias = iota
	tU
	tX
	tUX
	tLowerU
	tLowerX
	tSufU        // 6 templates
	tSufX        = tSufU + 6
	tPreU        = tSufX + 4
	tShape       = tPreU + 3
	tLen         = tShape + 1
	tPrevU       = tLen + 1
	tNextU       = tPrevU + 1
	tPrev2U      = tNextU + 1
	tNext2U      = tPrev2U + 1
	tPrevW       = tNext2U + 1
	tNextW       = tPrevW + 1
	tPrevC       = tNextW + 1
	tPrevCU      = tPrevC + 1
	tEndU        = tPrevCU + 1
	tEndX        = tEndU + 1
	tLemmaU      = tEndX + 1
	tEndTailU    = tLemmaU + 1
	numTemplates = tEndTailU + 1
)

// The templates of the ending's first runes, numbered after the rank
// templates (candFeatures) so that the others' hashes do not depend on
// them: a FEATS tagger has them when its weights name them
// (component.endPrefix).
const (
	tEndPreU       = rFeatSuf + 4 + iota // 3 templates
	endPrefixFirst = "endingprefix1+u"
)

// FNV-1a over strings, and a finaliser that mixes template ids and values.
const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

func hashString(h uint64, s string) uint64 {
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= fnvPrime
	}
	return h
}

func hashBytes(h uint64, s []byte) uint64 {
	for _, c := range s {
		h ^= uint64(c)
		h *= fnvPrime
	}
	return h
}

func mix(a, b uint64) uint64 {
	h := a*0x9E3779B97F4A7C15 ^ b
	h ^= h >> 31
	h *= 0xBF58476D1CE4E5B9
	h ^= h >> 29
	return h
}

func hs(s string) uint64 { return hashString(fnvOffset, s) }

// word is what the features of one word are made of.
type word struct {
	lower string // lowercased form
	u, x  uint64 // hashes of UPOS and XPOS
	shape uint64
	runes []int // byte offsets of the runes of lower, and len(lower)
	// With the word's lemma (FEATS taggers, when the LEMMA column is
	// given): hashes of the lowercased lemma, of the ending (the end of
	// lower after the prefix it shares with the lemma) and of the tail
	// (the rest of the lemma after that prefix), each nonzero; all 0
	// without.
	lemma, end, tail uint64
	// endPre are the hashes of the first 1, 2, 3 runes of the ending (0
	// where it is shorter or there is no lemma): the suffixes that follow
	// the stem (negation, voice, mood in Turkish).
	endPre [3]uint64
}

// templateNames returns the names of the templates of c's features: without
// those of the ending's first runes unless c reads them, so that a
// component trained before them is saved as it was read.
func (c *component) templateNames() []string {
	return namesUpTo(templateNames, endPrefixFirst, c.endPrefix)
}

// namesUpTo returns names whole when with is set, else the names before
// first: the template names of a component trained before the templates
// from first on, which it does not compute.
func namesUpTo(names []string, first string, with bool) []string {
	if with {
		return names
	}
	return names[:slices.Index(names, first)]
}

// lemmaUse is what of a word's lemma extract reads.
type lemmaUse int

const (
	noLemma       lemmaUse = iota
	withLemma              // the lemma, the form's ending after it and the lemma's tail
	withEndPrefix          // and the first runes of the ending
)

// lemmaUse returns what of the lemmas c's features read: nothing for a
// lemmatizer.
func (c *component) lemmaUse() lemmaUse {
	switch {
	case c.kind != kindFeats:
		return noLemma
	case c.endPrefix:
		return withEndPrefix
	}
	return withLemma
}

// analyze prepares the words of a sentence for extract, with the lemma
// features (lemmas) of the words that have a lemma.
// The lowercased forms are made in ar, which analyze resets.
func analyze(ws []conllu.Word, out []word, offs *[]int, ar *arena, lemmas lemmaUse) []word {
	out = out[:0]
	ar.reset()
	n := 0
	for i := range ws {
		w := &ws[i]
		lw := ar.lower(w.Form)
		n += len(lw) + 1
		a := word{lower: lw, u: hs(w.UPOS), x: hs(w.XPOS), shape: shapeOf(w.Form)}
		if lemmas != noLemma && !conllu.Absent(w.Lemma) {
			var at int
			a.lemma, a.end, a.tail, at = lemmaParts(lw, w.Lemma, ar)
			if lemmas == withEndPrefix {
				a.endPre = endPrefixes(lw[at:])
			}
		}
		out = append(out, a)
	}
	// The rune offsets of all words share one array.
	if cap(*offs) < n {
		*offs = make([]int, 0, n)
	}
	o := (*offs)[:0]
	for i := range out {
		start := len(o)
		for off := range out[i].lower {
			o = append(o, off)
		}
		o = append(o, len(out[i].lower))
		out[i].runes = o[start:len(o):len(o)]
	}
	*offs = o
	return out
}

// endPrefixes returns the hashes of the first 1, 2 and 3 runes of end,
// each nonzero, 0 for those longer than end.
func endPrefixes(end string) (h [3]uint64) {
	k := 0
	for off := range end {
		if k > 0 {
			h[k-1] = hs(end[:off]) | 1
		}
		if k++; k > len(h) {
			return h
		}
	}
	if k > 0 {
		h[k-1] = hs(end) | 1
	}
	return h
}

// lemmaParts returns the hashes of the lowercased lemma, of the ending of
// lower (the lowercased form) after the prefix it shares with the lemma,
// and of the rest of the lemma after that prefix, each made nonzero, and
// where the ending starts in lower. The
// lowercased lemma goes to ar when it differs from the lemma.
func lemmaParts(lower, lemma string, ar *arena) (l, end, tail uint64, endAt int) {
	ll := ar.lower(lemma)
	p := 0
	for p < len(ll) && p < len(lower) && ll[p] == lower[p] {
		p++
	}
	for p > 0 && p < len(lower) && !startsRune(lower[p]) {
		p--
	}
	return hs(ll) | 1, hs(lower[p:]) | 1, hs(ll[p:]) | 1, p
}

// shapeOf is a small code for the spelling of form: first letter upper,
// all upper, has a digit, has a hyphen, has another non-letter.
func shapeOf(form string) uint64 {
	var s uint64
	allUpper := true
	for i, r := range form {
		switch {
		case unicode.IsUpper(r):
			if i == 0 {
				s |= 1
			}
		case unicode.IsLower(r):
			allUpper = false
		case unicode.IsDigit(r):
			s |= 4
			allUpper = false
		case r == '-':
			s |= 8
			allUpper = false
		default:
			s |= 16
			allUpper = false
		}
	}
	if allUpper && form != "" {
		s |= 2
	}
	return s
}

var padWord = word{lower: "\x00pad", u: hs("\x00pad"), x: hs("\x00pad")}

func f1(t int, a uint64) uint64    { return mix(uint64(t)+1, a) }
func f2(t int, a, b uint64) uint64 { return mix(mix(uint64(t)+1, a), b) }

// extract appends the features of word i of ws to out; prev is the class
// predicted for word i-1 (-1 at the start).
func extract(out []uint64, ws []word, i int, prev int32) []uint64 {
	w := &ws[i]
	at := func(j int) *word {
		if j < 0 || j >= len(ws) {
			return &padWord
		}
		return &ws[j]
	}
	lw := hs(w.lower)
	out = append(out,
		f1(tBias, 0), f1(tU, w.u), f1(tX, w.x), f2(tUX, w.u, w.x),
		f2(tLowerU, lw, w.u), f2(tLowerX, lw, w.x))
	n := len(w.runes) - 1 // runes in lower
	for k := 1; k <= 6 && k <= n; k++ {
		suf := hs(w.lower[w.runes[n-k]:])
		out = append(out, f2(tSufU+k-1, suf, w.u))
		if k <= 4 {
			out = append(out, f2(tSufX+k-1, suf, w.x))
		}
	}
	for k := 1; k <= 3 && k < n; k++ {
		out = append(out, f2(tPreU+k-1, hs(w.lower[:w.runes[k]]), w.u))
	}
	out = append(out, f2(tShape, w.shape, w.u), f2(tLen, uint64(min(n, 12)), w.u))
	p1, p2, n1, n2 := at(i-1), at(i-2), at(i+1), at(i+2)
	out = append(out,
		f2(tPrevU, p1.u, w.u), f2(tNextU, n1.u, w.u),
		mix(f2(tPrev2U, p2.u, p1.u), w.u), mix(f2(tNext2U, w.u, n1.u), n2.u),
		f2(tPrevW, hs(p1.lower), w.u), f2(tNextW, hs(n1.lower), w.u),
		f2(tPrevC, uint64(prev+1), w.u), mix(f2(tPrevCU, uint64(prev+1), p1.u), w.u))
	if w.end != 0 {
		out = append(out, f2(tEndU, w.end, w.u), f2(tEndX, w.end, w.x), f2(tLemmaU, w.lemma, w.u),
			mix(f2(tEndTailU, w.end, w.tail), w.u))
		for k, h := range w.endPre {
			if h != 0 {
				out = append(out, f2(tEndPreU+k, h, w.u))
			}
		}
	}
	return out
}
