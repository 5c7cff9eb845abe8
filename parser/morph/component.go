package morph

import (
	"slices"
	"strings"

	"github.com/transparse/transparse/internal/freelist"
	"github.com/transparse/transparse/parser/conllu"
	"github.com/transparse/transparse/parser/linear"
)

// kind is what a component predicts.
type kind int

const (
	kindLemma kind = iota
	kindFeats
)

func (k kind) String() string {
	if k == kindLemma {
		return "lemma"
	}
	return "feats"
}

// The level bytes of dictionary and candidate-index keys (see the package
// documentation).
const (
	levelTags  = '1'
	levelUPOS  = '2'
	levelLower = '3'
	indexTags  = 't'
	indexUPOS  = 'u'
	indexRule  = 'c'
)

// appendKey appends the key of the level and fields to b.
func appendKey(b []byte, level byte, fields ...string) []byte {
	b = append(b, level)
	for i, f := range fields {
		if i > 0 {
			b = append(b, '\t')
		}
		b = append(b, f...)
	}
	return b
}

func key(level byte, fields ...string) string { return string(appendKey(nil, level, fields...)) }

// maxSuffixDel is the longest SuffixDel (in bytes) looked up for unknown
// words; longer rules are used only through the dictionary.
const maxSuffixDel = 24

// component is a lemmatizer or a FEATS tagger: a dictionary of candidate
// classes for known words, a candidate index for unknown ones, and an
// averaged perceptron that chooses among several candidates. It is
// immutable after training and safe for concurrent use.
type component struct {
	kind    kind
	classes []string
	rules   []Rule             // lemma: the rule of each class
	cands   map[string][]int32 // the dictionary while training, nil once frozen into dict
	dict    *dict
	words   *wordIndex // the word lookups of dict
	model   *linear.Model
	free    freelist.List[scratch] // per-call working memory
	// rank scores a candidate by features of the candidate itself (one
	// class): for lemmas, whether the lemma it gives was seen in
	// training; for FEATS, each of its features with the word's suffixes
	// and tags. A candidate's score is its class score plus its rank
	// score (plus, for FEATS, the scores of its parts).
	rank   *linear.Model
	lemmas map[string]int // lemma: occurrences of "lower(lemma)\tUPOS" and "lower(lemma)\t" in training, nil once frozen
	seen   *seenLemmas    // the lemmas, frozen
	novel  novelLemmas    // predicted lemmas that are not in seen (lemmaString)
	hashes [][]uint64     // FEATS: the hashes of the features of each class
	parts  *featParts     // FEATS: the per-feature classifiers
	// syntax (FEATS, optional) chooses among a word's candidates again
	// after parsing (FeatsTagger.Refine).
	syntax *linear.Model
	// agree (FEATS, optional) sets verbs' Person and Number from their
	// subjects after parsing (FeatsTagger.Agree); agreeIDs indexes
	// classes for it.
	agree    *Agreement
	agreeIDs map[string]int32
	// lemmaCase (lemma, optional): the tags whose capitalized words keep
	// their capital in the lemma (Lemmatizer.SetLemmaCase).
	lemmaCase *LemmaCase
	// dictFirst (lemma, optional): a word the dictionary knows takes its
	// most frequent candidate unscored (Lemmatizer.SetDictionaryFirst).
	dictFirst bool
	// tagsFirst (FEATS, optional): a known word's candidates are only
	// those seen with its UPOS and XPOS in training; with none of them,
	// it is tagged as an unknown word (FeatsTagger.SetConsistentTags).
	tagsFirst bool
	// endPrefix: the FEATS features include the first runes of the
	// ending after the lemma (tEndPreU; a stored FEATS tagger whose
	// weights do not name them has not).
	endPrefix bool
	// candShape (lemma): the rank features include the candidate's place
	// among the word's candidates and the last characters of the lemma it
	// gives (appendShape; a lemmatizer trained with Options.NoShape, or
	// stored without them, has not).
	candShape bool
}

// lookup returns the candidates of the dictionary or candidate-index key,
// and whether it is there.
func (c *component) lookup(key []byte) ([]int32, bool) {
	if c.dict != nil {
		return c.dict.get(key)
	}
	l, ok := c.cands[string(key)]
	return l, ok
}

// rankTemplateNames describes the templates of candFeatures.
var rankTemplateNames = []string{
	"lemma-seen-with-u+u", "lemma-seen", "lemma-seen-with-u+casing",
	"feat+u", "feat+x", "feat+suf1+u", "feat+suf2+u", "feat+suf3+u", "feat+suf4+u",
	candShapeFirst, "lemma-end2+u", "lemma-end3+u", "lemma-end4+u",
}

// rankNames returns the names of the templates of c's rank features:
// without those of a lemma candidate's place and ending unless c reads
// them, so that a component read without them is saved as it was read.
func (c *component) rankNames() []string {
	return namesUpTo(rankTemplateNames, candShapeFirst, c.candShape)
}

// Templates of candFeatures (hashed with ids after those of extract).
const (
	rKnownU = numTemplates + iota
	rKnownAny
	rKnownCase
	rFeatU
	rFeatX
	rFeatSuf // 4 templates
	// A lemma candidate's place and ending (component.candShape),
	// numbered after the FEATS tagger's tEndPreU.
	rPlace  = tEndPreU + 3
	rLemEnd = rPlace + 1 // 3 templates
)

// candShapeFirst is the first template name of a lemma candidate's place
// and ending: a lemmatizer has them when its rank weights name it.
const candShapeFirst = "place+lemma-seen-with-u"

// candFeatures appends the rank features of class id for word i (w, whose
// analysis is sc.ws[i]) to out.
func (c *component) candFeatures(out []uint64, w *conllu.Word, lower bool, i int, sc *scratch, id int32) []uint64 {
	a := &sc.ws[i]
	if c.kind == kindLemma {
		f := w.Form
		if lower {
			f = a.lower
		}
		r := &c.rules[id]
		var ok bool
		// The lowercased lemma, then "\tUPOS", built in sc.lb: the map
		// lookups of string(sc.lb) do not allocate.
		sc.lb, ok = r.appendApplyCased(sc.lb[:0], sc.cased.get(f, r.Case))
		if !ok {
			return out
		}
		sc.lb = lowerBytes(sc.lb)
		sc.lb = append(sc.lb, '\t')
		n := len(sc.lb)
		sc.lb = append(sc.lb, w.UPOS...)
		// In training, a lemma counts as seen when words other than this
		// one's dictionary entry had it (sc.own is the entry's count).
		var ku, ka uint64
		if c.seen != nil {
			u, a := c.seen.has(sc.lb[:n], w.UPOS)
			ku, ka = b2u(u), b2u(a)
		} else {
			ku = b2u(c.lemmas[string(sc.lb)] > sc.own)
			ka = b2u(c.lemmas[string(sc.lb[:n])] > sc.own)
		}
		out = append(out, f2(rKnownU, ku, a.u), f1(rKnownAny, ka), f2(rKnownCase, ku, uint64(r.Case)))
		if c.candShape {
			out = appendShape(out, sc.lb[:n-1], sc.place(id), ku, a.u)
		}
		return out
	}
	suf := suffixHashes(a)
	for _, p := range c.hashes[id] {
		out = appendPartFeatures(out, a, suf, p)
	}
	return out
}

// suffixHashes returns the hashes of the last 1 to 4 characters of a's
// lowercased form (as many as it has; 0 past them).
func suffixHashes(a *word) (suf [4]uint64) {
	n := len(a.runes) - 1
	for k := 1; k <= 4 && k <= n; k++ {
		suf[k-1] = hs(a.lower[a.runes[n-k]:])
	}
	return suf
}

// appendPartFeatures appends the rank features of the FEATS feature p
// (its hash) for the word a, whose suffix hashes are suf.
func appendPartFeatures(out []uint64, a *word, suf [4]uint64, p uint64) []uint64 {
	out = append(out, f2(rFeatU, p, a.u), f2(rFeatX, p, a.x))
	for k := 0; k < 4 && k < len(a.runes)-1; k++ {
		out = append(out, mix(f2(rFeatSuf+k, p, suf[k]), a.u))
	}
	return out
}

// appendShape appends the place and ending features of a lemma
// candidate: its place (scratch.place) with whether its lemma was seen
// with the word's UPOS (ku), and the last 2, 3 and 4 characters of its
// lowercased lemma (the whole lemma where shorter) with the UPOS (u).
// They are always four, as rankSums needs.
func appendShape(out []uint64, lemma []byte, place, ku, u uint64) []uint64 {
	out = append(out, f2(rPlace, place, ku))
	j := len(lemma)
	for k := 1; k <= 4; k++ {
		for j > 0 {
			j--
			if startsRune(lemma[j]) {
				break
			}
		}
		if k >= 2 {
			out = append(out, f2(rLemEnd+k-2, hashBytes(fnvOffset, lemma[j:]), u))
		}
	}
	return out
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// splitFeats fills c.hashes (FEATS components).
func (c *component) splitFeats() {
	if c.kind != kindFeats {
		return
	}
	c.hashes = make([][]uint64, len(c.classes))
	for i, name := range c.classes {
		if name == "_" {
			c.hashes[i] = []uint64{hs("_")}
			continue
		}
		for _, p := range strings.Split(name, "|") {
			c.hashes[i] = append(c.hashes[i], hs(p))
		}
	}
}

// parseRules fills c.rules from c.classes (lemma components).
func (c *component) parseRules() error {
	if c.kind != kindLemma {
		return nil
	}
	c.rules = make([]Rule, len(c.classes))
	for i, name := range c.classes {
		r, err := ParseRule(name)
		if err != nil {
			return err
		}
		c.rules[i] = r
	}
	return nil
}

// scratch is the per-call working memory of predict and train.
type scratch struct {
	offs   []int  // rune offsets of the words (analyze)
	lowers arena  // the lowercased forms of the words (analyze)
	kb     []byte // the key being looked up
	lb     []byte // candFeatures: the lemma key being looked up
	cased  casedForms
	rank   [1]float32 // choose: a candidate's rank score
	own    int        // training: occurrences of the word's dictionary entry
	ws     []word
	feats  []uint64
	cf     []uint64
	top    []int32
	parts  []float32
	rs     []float32 // choose: the rank scores of the candidates
	idx    []int32   // rankScores: the candidates with rank features
	pk     []uint64  // rankScores: the distinct FEATS parts of the candidates
	sums   []int32   // rankScores: integer rank sums
	cands  []int32
	places []uint8 // guess: the place of each candidate of cands (guessPlace)
	pc     []int32 // the candidates of the word being chosen for (setPlaces)
	pp     []uint8 // their places, or nil for dictionary candidates
	tc     []int32 // consistent: the candidates kept
	scores []float32
	syn    syntaxScratch // Refine: the children of each word
	// The dictionary entries of a sentence's words (lookupWords): the
	// hashes of their '3' keys, what dict.touch read, and their entries.
	hashes []uint64
	sink   uint32
	found  []foundWord
}

// setPlaces records the candidates of the word being chosen for, and
// whether they come from the dictionary (inDict), for place.
func (sc *scratch) setPlaces(cands []int32, inDict bool) {
	sc.pc, sc.pp = cands, nil
	if !inDict && len(sc.places) == len(cands) {
		sc.pp = sc.places
	}
}

// place returns the place of candidate id among those setPlaces
// recorded: a dictionary candidate's rank by frequency (0x80 | rank, at
// most 7), a guessed rule's guessPlace, 0xff for neither.
func (sc *scratch) place(id int32) uint64 {
	k := slices.Index(sc.pc, id)
	switch {
	case k < 0:
		return 0xff
	case sc.pp != nil:
		return uint64(sc.pp[k])
	}
	return 0x80 | uint64(min(k, 7))
}

// guessPlace is the place of a lemma rule among an unknown word's
// candidates: its rank by frequency among the rules that strip the same
// suffix (at most 7) and the length of that suffix in bytes (at most 5).
func guessPlace(rank, suffix int) uint8 { return uint8(min(rank, 7))<<4 | uint8(min(suffix, 5)) }
