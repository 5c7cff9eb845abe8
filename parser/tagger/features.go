package tagger

import (
	"math/bits"
	"unicode"
	"unicode/utf8"

	"github.com/transparse/transparse/parser/conllu"
	"github.com/transparse/transparse/parser/form"
)

// FeatureVersion identifies the feature extraction code. A model stores it,
// and FromClassifier refuses a model made with another version, since its
// weights would be looked up under the wrong hashes. A tagger that reads
// spacing (Options.Spacing) has version 5: the features of version 4 with
// the guesser's and the clusters' where it has them, and the spacing
// templates (spaceTemplateNames). A tagger with word clusters and without
// spacing has version 4: the features of version 2, the guesser's
// (guessTemplateNames) if it has a guesser, and the clusters'
// (clusterTemplateNames). A tagger with a guesser and neither has version
// 3, one with none of them version 2. Taggers of versions 2 to 5 are read;
// a reader of an older version refuses a tagger that reads spacing.
const FeatureVersion = 5

// featureVersionClusters is the feature version of a tagger with word
// clusters and without spacing.
const featureVersionClusters = 4

// featureVersionGuess is the feature version of a tagger with a guesser
// and no clusters.
const featureVersionGuess = 3

// featureVersionNoGuess is the feature version of a tagger with neither a
// guesser nor clusters.
const featureVersionNoGuess = 2

// featureVersion returns the feature version of t's features.
func (t *Tagger) featureVersion() int64 {
	switch {
	case t.spacing:
		return FeatureVersion
	case t.clusters != nil:
		return featureVersionClusters
	case t.guess != nil:
		return featureVersionGuess
	}
	return featureVersionNoGuess
}

// FNV-1a, for hashing the bytes of a word.
const (
	fnvOffset = form.Offset
	fnvPrime  = form.Prime
)

// mix2 combines two 64-bit values into a well-mixed hash (the wyhash "mum"
// step: both halves of the 128-bit product, xored).
func mix2(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a^0xa0761d6478bd642f, b^0xe7037ed1a0b428db)
	return hi ^ lo
}

// Word attribute flags.
const (
	flagDigit = 1 << iota
	flagHyphen
	flagUpper
	flagAllUpper
	flagInitUpper
	flagLetter
	flagPunct
)

// wordInfo holds the hashed attributes of one word, computed once per
// sentence and shared by the features of every position that looks at it.
type wordInfo struct {
	form, lower  uint64            // exact and lowercased form (rareForm if not in the dictionary)
	pre          [prefixLen]uint64 // lowercased prefixes of 1..prefixLen runes
	suf          [suffixLen]uint64 // lowercased suffixes of 1..suffixLen runes
	shape, short uint64            // word shape, and the shape with repeats collapsed
	flags        uint64
	amb          uint64 // ambiguity class from the tag dictionary, 0 if unknown
	lamb         uint64 // ambiguity class of the lowercased form, 0 if unknown
	rawLower     uint64 // lowercased form hash, before rare-word replacement
	lbi, rbi     uint64 // ambiguity classes of w0 in the lowercased bigrams (w-1, w0) and (w0, w+1)
	src          uint64 // where amb came from: 0 none, 1 exact form, 2 lowercased form
	runes        uint64 // length in runes, capped at 12
	sent         uint64 // casing class of the sentence (see sentenceCase)
	root         uint64 // of a word not in the dictionary, the lowercased-form class of its longest prefix that is (see setRoots), else 0
	ending       uint64 // the suffix after that prefix (up to suffixLen runes), else 0
	guess        uint64 // of a word not in the dictionary, the tags its lemma rules give (see guesser.set), else 0
	gsuf         uint64 // the reversed hash of the longest suffix a rule strips to give one of them
	clu          uint64 // path code in the tagger's word clusters, with the cluLowered or cluNone flag (see Clusters.set)
	space        uint64 // spacing around the word in the text (see setSpacing)
}

// sure reports whether the exact form of w and both of its lowercased
// bigrams have one and the same tag in the dictionary: tagging gives w that
// tag without scoring it.
func (w *wordInfo) sure() bool {
	return w.src == 1 && w.amb&(w.amb-1) == 0 && w.lbi == w.amb && w.rbi == w.amb
}

// The lengths in runes of the longest prefix and suffix features: long
// suffixes carry the inflection of agglutinative languages.
const (
	prefixLen = 4
	suffixLen = 6
)

// Padding words before the start and after the end of a sentence.
var (
	bos = padWord(0x5eed0b05)
	eos = padWord(0x5eed0e05)
)

func padWord(v uint64) wordInfo {
	w := wordInfo{form: v, lower: v, rawLower: v, shape: v, short: v, flags: 1 << 20, amb: v}
	for k := range w.suf {
		if k < prefixLen {
			w.pre[k] = v + uint64(k)
		}
		w.suf[k] = v + uint64(k)
	}
	return w
}

// shapeClass maps a rune to its shape character: X upper, x other letter,
// d digit, and the rune itself otherwise.
func shapeClass(r rune) rune {
	switch {
	case r < utf8.RuneSelf:
		switch {
		case 'A' <= r && r <= 'Z':
			return 'X'
		case 'a' <= r && r <= 'z':
			return 'x'
		case '0' <= r && r <= '9':
			return 'd'
		}
		return r
	case unicode.IsUpper(r):
		return 'X'
	case unicode.IsLetter(r):
		return 'x'
	case unicode.IsDigit(r):
		return 'd'
	}
	return r
}

// analyze computes the spelling attributes of the form s without
// allocating (amb, src and sent are left zero); its form and rawLower are
// the Form and Lower of form.Of(s).
func analyze(s string) wordInfo {
	var w wordInfo
	w.form = form.HashBytes(fnvOffset, s)

	lower := uint64(fnvOffset)
	shape := uint64(fnvOffset)
	short := uint64(fnvOffset)
	var prevClass rune = -1
	n := 0
	upper, letters := 0, 0
	for _, r := range s {
		lower = form.HashRune(lower, form.LowerRune(r))
		if n < prefixLen {
			w.pre[n] = lower
		}
		c := shapeClass(r)
		switch c {
		case 'X':
			upper++
			letters++
			w.flags |= flagUpper
			if n == 0 {
				w.flags |= flagInitUpper
			}
		case 'x':
			letters++
		case 'd':
			w.flags |= flagDigit
		case '-':
			w.flags |= flagHyphen
		}
		if n < 8 {
			shape = form.HashRune(shape, c)
		}
		if c != prevClass {
			short = form.HashRune(short, c)
			prevClass = c
		}
		n++
	}
	for k := n; k < prefixLen; k++ {
		w.pre[k] = lower
	}
	w.lower = lower
	w.rawLower = lower
	w.shape = shape ^ uint64(min(n, 8))<<56
	w.short = short
	if letters > 0 {
		w.flags |= flagLetter
		if upper == letters {
			w.flags |= flagAllUpper
		}
	} else if n > 0 && w.flags&flagDigit == 0 {
		w.flags |= flagPunct
	}
	w.runes = uint64(min(n, 12))

	suf := uint64(fnvOffset)
	k := 0
	for end := len(s); end > 0 && k < suffixLen; k++ {
		r, size := utf8.DecodeLastRuneInString(s[:end])
		end -= size
		suf = form.HashRune(suf, form.LowerRune(r))
		w.suf[k] = suf
	}
	for ; k < suffixLen; k++ {
		w.suf[k] = suf
	}
	return w
}

// Feature templates. The hash of a feature mixes its template id with its
// values. Static templates look only at words; dynamic ones also at
// predicted tags. The second pass has its own weights for every template:
// its static template ids are offset by passOffset and its tag values are
// marked with pass2Tag.
const (
	tBias = iota + 1
	tForm
	tLower
	tPre1
	tPre2
	tPre3
	tPre4
	tSuf1
	tSuf2
	tSuf3
	tSuf4
	tShape
	tShort
	tFlags
	tFirstFlags
	tPrev1Lower
	tPrev2Lower
	tNext1Lower
	tPrev1Suf3
	tNext1Suf3
	tNext1Suf2
	tPrev1Shape
	tNext1Shape
	tPrev1Lower0
	tLower0Next1
	tAmb0
	tAmbNext1
	tAmb0Next1
	tAmb0Lower
	tRunes
	tCaseCtx
	tSentCase
	tSrcFlags
	tPrev1Next1Lower
	tLamb
	tLambFlags
	tLbi
	tRbi
	tLRbi
	tSuf5
	tSuf6
	tRoot
	tRootEnding
	numStatic
)

const (
	// Dynamic templates: tags predicted to the left in the current pass.
	tTag1 = numStatic + iota
	tTag2
	tTag12
	tTag1Lower
	tTag1Suf3
	tTag1Amb0
	tTag1Next1Lower
	// Tags predicted to the right by the first pass (second pass only).
	tRTag1
	tRTag2
	tRTag12
	tTag1RTag1
	tRTag1Lower
	tRTag1Suf3
	tRTag1Amb0
	numTemplates
)

// Templates of a tagger with a guesser (Tagger.guess), numbered after the
// others so that the others' hashes do not depend on it.
const (
	tGuess = numTemplates + iota
	tGuessSuffix
	numGuessTemplates
)

// guessTemplateNames documents the guesser's templates in the model file.
var guessTemplateNames = [numGuessTemplates - numTemplates]string{
	tGuess - numTemplates: "w0.guess", tGuessSuffix - numTemplates: "w0.guess+w0.guesssuffix",
}

// The templates of word clusters (Clusters): the word's path and its
// prefixes of 4, 6 and 10 bits, the neighbours' paths, and pairs of a
// path with a neighbour's 6-bit prefix.
const (
	tClu = numGuessTemplates + iota
	tClu4
	tClu6
	tClu10
	tPrev1Clu
	tNext1Clu
	tCluNext1Clu6
	tPrev1Clu6Clu
	numClusterTemplates
)

// The templates of spacing (Tagger.spacing): whether the word's token is
// spaced from its neighbours in the text, with its short shape and with
// its lowercased form.
const (
	tSpaceShort = numClusterTemplates + iota
	tSpaceLower
	numSpaceTemplates
)

var spaceTemplateNames = [numSpaceTemplates - numClusterTemplates]string{
	tSpaceShort - numClusterTemplates: "w0.spacing+w0.shortshape",
	tSpaceLower - numClusterTemplates: "w0.spacing+w0.lower",
}

// extractSpacing appends the features of the spacing templates of
// position i in pass to out.
func extractSpacing(out []uint64, ws []wordInfo, i, pass int) []uint64 {
	w := &ws[i+2]
	if w.space == 0 {
		return out
	}
	o := pass * passOffset
	return append(out, f2(o+tSpaceShort, w.space, w.short), f2(o+tSpaceLower, w.space, w.lower))
}

// setSpacing sets the spacing attribute of the n words of ws (padded as
// prepare leaves them) from the SpaceAfter=No items of the words' MISC
// (conllu.NoSpaceAfter): 1 + 2×(a space before the word) + (a space after
// it), the start of the sentence counting as a space. A sentence none of
// whose words has SpaceAfter=No, as tokens without their text come, is of
// unknown spacing: 0 for every word. So is every sentence when hide is set
// (training shows the taggers some sentences so, so that tokens without
// their text are tagged as well as by a tagger that never reads spacing).
func setSpacing(ws []wordInfo, words []conllu.Word, hide bool) {
	// Until the second loop, space holds 1 for a word with SpaceAfter=No.
	known := false
	for i := range words {
		ws[i+2].space = 0
		if !hide && conllu.NoSpaceAfter(words[i].Misc) {
			ws[i+2].space, known = 1, true
		}
	}
	before := uint64(1)
	for i := range words {
		w := &ws[i+2]
		after := 1 - w.space
		w.space = 0
		if known && w.flags&flagPunct != 0 {
			w.space = 1 + 2*before + after
		}
		before = after
	}
}

var clusterTemplateNames = [numClusterTemplates - numGuessTemplates]string{
	tClu - numGuessTemplates: "w0.cluster", tClu4 - numGuessTemplates: "w0.cluster4",
	tClu6 - numGuessTemplates: "w0.cluster6", tClu10 - numGuessTemplates: "w0.cluster10",
	tPrev1Clu - numGuessTemplates: "w-1.cluster", tNext1Clu - numGuessTemplates: "w+1.cluster",
	tCluNext1Clu6 - numGuessTemplates: "w0.cluster+w+1.cluster6",
	tPrev1Clu6Clu - numGuessTemplates: "w-1.cluster6+w0.cluster",
}

const (
	staticPerWord = numStatic - 1 // static features of a word
	passOffset    = 1 << 16       // template id offset of second-pass static templates
	pass2Tag      = 1 << 40       // marks second-pass tag values
)

// templateNames documents the templates in the model file.
var templateNames = [numTemplates]string{
	tBias: "bias", tForm: "w0.form", tLower: "w0.lower",
	tPre1: "w0.prefix1", tPre2: "w0.prefix2", tPre3: "w0.prefix3", tPre4: "w0.prefix4",
	tSuf1: "w0.suffix1", tSuf2: "w0.suffix2", tSuf3: "w0.suffix3", tSuf4: "w0.suffix4",
	tShape: "w0.shape", tShort: "w0.shortshape", tFlags: "w0.flags", tFirstFlags: "w0.flags+first",
	tPrev1Lower: "w-1.lower", tPrev2Lower: "w-2.lower", tNext1Lower: "w+1.lower",
	tPrev1Suf3: "w-1.suffix3", tNext1Suf3: "w+1.suffix3", tNext1Suf2: "w+1.suffix2",
	tPrev1Shape: "w-1.shortshape", tNext1Shape: "w+1.shortshape",
	tPrev1Lower0: "w-1.lower+w0.lower", tLower0Next1: "w0.lower+w+1.lower",
	tAmb0: "w0.amb", tAmbNext1: "w+1.amb",
	tAmb0Next1: "w0.amb+w+1.amb", tAmb0Lower: "w0.amb+w0.lower", tRunes: "w0.runes",
	tCaseCtx: "w-1.flags+w0.flags+w+1.flags", tSentCase: "sentence.case+w0.flags+first",
	tSrcFlags: "w0.ambsource+w0.flags", tPrev1Next1Lower: "w-1.lower+w+1.lower",
	tLamb: "w0.loweramb", tLambFlags: "w0.loweramb+w0.flags+first",
	tLbi: "w-1w0.amb+w0.amb", tRbi: "w0w+1.amb+w0.amb", tLRbi: "w-1w0.amb+w0w+1.amb",
	tSuf5: "w0.suffix5", tSuf6: "w0.suffix6",
	tRoot: "w0.rootamb", tRootEnding: "w0.rootamb+w0.ending",
	tTag1: "t-1", tTag2: "t-2", tTag12: "t-1+t-2", tTag1Lower: "t-1+w0.lower", tTag1Suf3: "t-1+w0.suffix3",
	tTag1Amb0: "t-1+w0.amb", tTag1Next1Lower: "t-1+w+1.lower",
	tRTag1: "t+1", tRTag2: "t+2", tRTag12: "t+1+t+2", tTag1RTag1: "t-1+t+1",
	tRTag1Lower: "t+1+w0.lower", tRTag1Suf3: "t+1+w0.suffix3", tRTag1Amb0: "t+1+w0.amb",
}

func f1(t int, v uint64) uint64    { return mix2(uint64(t), v) }
func f2(t int, a, b uint64) uint64 { return mix2(mix2(uint64(t), a), b) }

// extractStatic appends the staticPerWord static features of position i
// (0-based) for the given pass (0 or 1) to out. ws holds the words with two
// padding words on each side (word i is ws[i+2]).
func extractStatic(out []uint64, ws []wordInfo, i, pass int) []uint64 {
	p := i + 2
	w := &ws[p]
	prev1, prev2, next1 := &ws[p-1], &ws[p-2], &ws[p+1]
	first := uint64(0)
	if i == 0 {
		first = 1 << 32
	}
	o := pass * passOffset
	return append(out,
		f1(o+tBias, 0),
		f1(o+tForm, w.form),
		f1(o+tLower, w.lower),
		f1(o+tPre1, w.pre[0]), f1(o+tPre2, w.pre[1]), f1(o+tPre3, w.pre[2]), f1(o+tPre4, w.pre[3]),
		f1(o+tSuf1, w.suf[0]), f1(o+tSuf2, w.suf[1]), f1(o+tSuf3, w.suf[2]), f1(o+tSuf4, w.suf[3]),
		f1(o+tShape, w.shape),
		f1(o+tShort, w.short),
		f1(o+tFlags, w.flags),
		f1(o+tFirstFlags, w.flags|first),
		f1(o+tPrev1Lower, prev1.lower), f1(o+tPrev2Lower, prev2.lower),
		f1(o+tNext1Lower, next1.lower),
		f1(o+tPrev1Suf3, prev1.suf[2]), f1(o+tNext1Suf3, next1.suf[2]),
		f1(o+tNext1Suf2, next1.suf[1]),
		f1(o+tPrev1Shape, prev1.short), f1(o+tNext1Shape, next1.short),
		f2(o+tPrev1Lower0, prev1.lower, w.lower), f2(o+tLower0Next1, w.lower, next1.lower),
		f1(o+tAmb0, w.amb), f1(o+tAmbNext1, next1.amb),
		f2(o+tAmb0Next1, w.amb, next1.amb), f2(o+tAmb0Lower, w.amb, w.lower),
		f1(o+tRunes, w.runes),
		f2(o+tCaseCtx, prev1.flags<<32|w.flags, next1.flags),
		f2(o+tSentCase, w.sent, w.flags|first),
		f2(o+tSrcFlags, w.src, w.flags),
		f2(o+tPrev1Next1Lower, prev1.lower, next1.lower),
		f1(o+tLamb, w.lamb),
		f2(o+tLambFlags, w.lamb, w.flags|first),
		f2(o+tLbi, w.lbi, w.amb), f2(o+tRbi, w.rbi, w.amb), f2(o+tLRbi, w.lbi, w.rbi),
		f1(o+tSuf5, w.suf[4]), f1(o+tSuf6, w.suf[5]),
		f1(o+tRoot, w.root), f2(o+tRootEnding, w.root, w.ending),
	)
}

// extractGuess appends the features of the guesser's templates of
// position i for the given pass to out.
func extractGuess(out []uint64, ws []wordInfo, i, pass int) []uint64 {
	w := &ws[i+2]
	o := pass * passOffset
	return append(out, f1(o+tGuess, w.guess), f2(o+tGuessSuffix, w.guess, w.gsuf))
}

// extractClusters appends the features of the cluster templates of
// position i in pass to out.
func extractClusters(out []uint64, ws []wordInfo, i, pass int) []uint64 {
	p := i + 2
	w, prev1, next1 := &ws[p], &ws[p-1], &ws[p+1]
	o := pass * passOffset
	c := w.clu
	code := c &^ (cluLowered | cluNone)
	return append(out,
		f1(o+tClu, c), f1(o+tClu4, form.PathPrefix(code, 4)), f1(o+tClu6, form.PathPrefix(code, 6)), f1(o+tClu10, form.PathPrefix(code, 10)),
		f1(o+tPrev1Clu, prev1.clu), f1(o+tNext1Clu, next1.clu),
		f2(o+tCluNext1Clu6, c, form.PathPrefix(next1.clu&^(cluLowered|cluNone), 6)),
		f2(o+tPrev1Clu6Clu, form.PathPrefix(prev1.clu&^(cluLowered|cluNone), 6), c),
	)
}

// extractDynamic appends the tag features of position i to out. left holds
// the tags predicted so far in this pass (class + 1, 0 for none) in the
// padded indexing of ws; right, in the second pass, holds the first pass's
// tags (nil in the first pass).
func extractDynamic(out []uint64, ws []wordInfo, left, right []uint64, i int) []uint64 {
	p := i + 2
	w, next1 := &ws[p], &ws[p+1]
	t1, t2 := left[p-1], left[p-2]
	if right != nil {
		t1 |= pass2Tag
		t2 |= pass2Tag
	}
	out = append(out,
		f1(tTag1, t1), f1(tTag2, t2), f2(tTag12, t1, t2),
		f2(tTag1Lower, t1, w.lower), f2(tTag1Suf3, t1, w.suf[2]),
		f2(tTag1Amb0, t1, w.amb), f2(tTag1Next1Lower, t1, next1.lower),
	)
	if right != nil {
		r1, r2 := right[p+1], right[p+2]
		out = append(out,
			f1(tRTag1, r1), f1(tRTag2, r2), f2(tRTag12, r1, r2), f2(tTag1RTag1, t1, r1),
			f2(tRTag1Lower, r1, w.lower), f2(tRTag1Suf3, r1, w.suf[2]), f2(tRTag1Amb0, r1, w.amb),
		)
	}
	return out
}

// fastTemplates are the templates of a tagger's fast model (see
// Tagger.fast): 14 of the first pass's 50, hashed as there. Chosen by
// hand among the word's lowercased form and suffix, its neighbours, its
// dictionary classes and the tags to its left: trained alone, such a
// model is sure enough of most of the words the first pass scores to
// decide them while changing almost none of their tags.
var fastTemplates = [...]int{
	tBias, tLower, tSuf3, tShort, tPrev1Lower, tNext1Lower, tAmb0, tAmb0Next1,
	tLambFlags, tLbi, tRbi, tTag1, tTag12, tTag1Amb0,
}

// fastTemplateNames documents fastTemplates in the model file.
func fastTemplateNames() []string {
	names := make([]string, len(fastTemplates))
	for i, t := range fastTemplates {
		names[i] = templateNames[t]
	}
	return names
}

// extractFast appends the features of fastTemplates of position i in the
// first pass to out: the same hashes as extractStatic and extractDynamic
// give them (left holds the tags predicted so far, as there).
func extractFast(out []uint64, ws []wordInfo, left []uint64, i int) []uint64 {
	p := i + 2
	w, prev1, next1 := &ws[p], &ws[p-1], &ws[p+1]
	first := uint64(0)
	if i == 0 {
		first = 1 << 32
	}
	t1, t2 := left[p-1], left[p-2]
	return append(out,
		f1(tBias, 0),
		f1(tLower, w.lower),
		f1(tSuf3, w.suf[2]),
		f1(tShort, w.short),
		f1(tPrev1Lower, prev1.lower),
		f1(tNext1Lower, next1.lower),
		f1(tAmb0, w.amb),
		f2(tAmb0Next1, w.amb, next1.amb),
		f2(tLambFlags, w.lamb, w.flags|first),
		f2(tLbi, w.lbi, w.amb),
		f2(tRbi, w.rbi, w.amb),
		f1(tTag1, t1), f2(tTag12, t1, t2), f2(tTag1Amb0, t1, w.amb),
	)
}

// Bounds of the prefixes setRoots looks up: at least rootMinRunes runes,
// and at most rootMaxTries of them, longest first.
const (
	rootMinRunes = 2
	rootMaxTries = 12
)

// setRoots sets the root and ending of each of the n words of ws (padded
// as prepare leaves them) that is not in the dictionary d (src 0) and has
// letters: the lowercased-form ambiguity class of its longest proper
// prefix (of rootMinRunes runes or more) that is in d, and the hash of
// the rest of the word (its suffix of that length, capped at suffixLen
// runes). An unknown inflected or derived word of an agglutinative
// language is often a known stem plus an ending.
func setRoots(ws []wordInfo, words []conllu.Word, d *dict) {
	var pre [64]uint64
	for i := range words {
		w := &ws[i+2]
		w.root, w.ending = 0, 0
		if w.src != 0 || w.flags&flagLetter == 0 {
			continue
		}
		h, n := uint64(fnvOffset), 0
		for _, r := range words[i].Form {
			if n == len(pre) {
				break
			}
			h = form.HashRune(h, form.LowerRune(r))
			pre[n] = h
			n++
		}
		for k, tries := n-1, 0; k >= rootMinRunes && tries < rootMaxTries; k, tries = k-1, tries+1 {
			if m := d.lookup(mix2(pre[k-1], lowerSalt)); m != 0 {
				w.root, w.ending = m, w.suf[min(n-k, suffixLen)-1]
				break
			}
		}
	}
}
