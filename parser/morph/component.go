package morph

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"math/rand"
	"slices"
	"strings"
	"unsafe"

	"github.com/transparse/transparse/internal/freelist"
	"github.com/transparse/transparse/modelfmt"
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
	// ending after the lemma (tEndPreU; a FEATS tagger trained before
	// them has not).
	endPrefix bool
	// candShape (lemma): the rank features include the candidate's place
	// among the word's candidates and the last characters of the lemma it
	// gives (appendShape; a lemmatizer trained before them has not).
	candShape bool
}

// Options configures training.
type Options struct {
	// Epochs is the number of passes over the training data (0 means
	// DefaultEpochs).
	Epochs int
	// Seed seeds the order of sentences in each epoch.
	Seed int64
	// WeightBits is the number of bits (sign included, 2..16) the stored
	// weights are rounded to (0 means linear.TrainedWeightBits).
	WeightBits int
	// NoShape trains a lemmatizer whose candidates' own features leave
	// out their place and the ending of their lemma (appendShape): the
	// lemmatizer of models trained before these features.
	NoShape bool
}

// rareMax is the largest number of occurrences of a dictionary entry for
// which a training word stands for an unknown word.
const rareMax = 3

// DefaultEpochs is the number of training epochs when Options.Epochs is 0.
const DefaultEpochs = 8

// gold returns the gold class name of w, or "" when w has no annotation of
// the kind (the word is then not learnt from).
func (k kind) gold(w *conllu.Word, lower bool) string {
	if k == kindFeats {
		if w.Feats == "" {
			return ""
		}
		return w.Feats
	}
	if w.Lemma == "" || w.Lemma == "_" && w.Form != "_" {
		return ""
	}
	f := w.Form
	if lower {
		f = strings.ToLower(f)
	}
	return Derive(f, w.Lemma).String()
}

// train builds a component of kind k from sents (gold FORM, UPOS, XPOS and
// the predicted column).
func train(k kind, sents []*conllu.Sentence, opt Options) (*component, error) {
	c := &component{kind: k, cands: map[string][]int32{}, lemmas: map[string]int{}, endPrefix: k == kindFeats, candShape: k == kindLemma && !opt.NoShape}
	ids := map[string]int32{}
	class := func(name string) int32 {
		id, ok := ids[name]
		if !ok {
			id = int32(len(c.classes))
			ids[name] = id
			c.classes = append(c.classes, name)
		}
		return id
	}
	// counts[key][class] and the number of occurrences of each key.
	counts := map[string]map[int32]int{}
	keyCount := map[string]int{}
	add := func(key string, id int32) {
		m := counts[key]
		if m == nil {
			m = map[int32]int{}
			counts[key] = m
		}
		m[id]++
		keyCount[key]++
	}
	// golds[si][2*i] is the class of word i of sentence si, -1 for words
	// without annotation; golds[si][2*i+1] its class at the lowercase
	// level of the dictionary.
	golds := make([][]int32, len(sents))
	words := 0
	for si, s := range sents {
		golds[si] = make([]int32, 2*len(s.Words))
		for i := range s.Words {
			w := &s.Words[i]
			name := k.gold(w, false)
			if name == "" {
				golds[si][2*i], golds[si][2*i+1] = -1, -1
				continue
			}
			words++
			id := class(name)
			golds[si][2*i], golds[si][2*i+1] = id, id
			lower := strings.ToLower(w.Form)
			add(key(levelTags, w.Form, w.UPOS, w.XPOS), id)
			add(key(levelUPOS, w.Form, w.UPOS), id)
			if k == kindLemma {
				lw := strings.ToLower(w.Lemma)
				c.lemmas[lw+"\t"+w.UPOS]++
				c.lemmas[lw+"\t"]++
				lid := class(k.gold(w, true))
				golds[si][2*i+1] = lid
				add(key(levelLower, lower, w.UPOS), lid)
				r := Derive(w.Form, w.Lemma)
				if len(r.SuffixDel) <= maxSuffixDel {
					add(key(indexRule, string(r.Case), w.UPOS, r.SuffixDel), id)
					if r.Case == KeepCase && w.Form == lower {
						// The rule's twin for capitalized forms.
						tw := r
						tw.Case = Lower
						add(key(indexRule, string(Lower), w.UPOS, r.SuffixDel), class(tw.String()))
					}
				}
			} else {
				add(key(levelLower, lower, w.UPOS), id)
				add(key(indexTags, w.UPOS, w.XPOS), id)
				add(key(indexUPOS, w.UPOS), id)
			}
		}
	}
	if words == 0 {
		return nil, fmt.Errorf("morph: no training words with a %s", k)
	}
	if len(c.classes) > linear.MaxClasses {
		return nil, fmt.Errorf("morph: %d %s classes, at most %d are supported", len(c.classes), k, linear.MaxClasses)
	}
	for key, m := range counts {
		l := make([]int32, 0, len(m))
		for id := range m {
			l = append(l, id)
		}
		slices.SortFunc(l, func(a, b int32) int {
			return cmp.Or(cmp.Compare(m[b], m[a]), cmp.Compare(a, b))
		})
		c.cands[key] = l
	}
	if err := c.parseRules(); err != nil {
		return nil, err
	}
	c.splitFeats()

	// The perceptron learns from the words whose candidates are several:
	// ambiguous known words and, as unknown words, those whose dictionary
	// entry was seen once (Ratnaparkhi 1996's rare words).
	epochs := opt.epochs()
	tr := linear.NewTrainer(len(c.classes))
	rt := linear.NewTrainer(1)
	scores := make([]float32, len(c.classes))
	var sc scratch
	opt.eachSentence(len(sents), func(si int) {
		ws := sents[si].Words
		sc.ws = analyze(ws, sc.ws, &sc.offs, &sc.lowers, c.lemmaUse())
		prev := int32(-1)
		for i := range ws {
			cands, lower, known := c.candidates(&ws[i], i, &sc, func(key string) bool { return keyCount[key] > rareMax })
			sc.setPlaces(cands, known)
			sc.own = 0
			if !known {
				sc.own = keyCount[key(levelTags, ws[i].Form, ws[i].UPOS, ws[i].XPOS)]
			}
			g := golds[si][2*i]
			if lower {
				g = golds[si][2*i+1]
			}
			if g < 0 || len(cands) == 0 {
				prev = g
				continue
			}
			pred := cands[0]
			if len(cands) > 1 {
				sc.feats = extract(sc.feats[:0], sc.ws, i, prev)
				tr.Scores(sc.feats, scores)
				pred = c.choose(cands, &ws[i], lower, i, &sc, scores, rt.Scores)
				if pred != g {
					tr.Update(sc.feats, int(g), int(pred))
					rt.UpdateClass(c.candFeatures(sc.cf[:0], &ws[i], lower, i, &sc, g), 0, 1)
					rt.UpdateClass(c.candFeatures(sc.cf[:0], &ws[i], lower, i, &sc, pred), 0, -1)
				}
				tr.Tick()
				rt.Tick()
			}
			prev = pred
		}
	})
	c.prune()
	c.freeze()
	fo := opt.freeze()
	c.model = tr.Freeze(fo)
	c.rank = rt.Freeze(fo)
	if k == kindFeats {
		p, err := trainFeatParts(c, sents, epochs, opt)
		if err != nil {
			return nil, err
		}
		c.parts = p // nil without features
	}
	return c, nil
}

// prune drops the dictionary entries that lookups do not need: a form's
// entry with its tags when it equals the entry with its UPOS, and the
// entry of a lowercase form with its UPOS when it equals the lowercase
// level's. Lookups fall through to the same candidates.
func (c *component) prune() {
	// Two passes, so that the result does not depend on map order.
	for _, level := range []byte{levelTags, levelUPOS} {
		for k, l := range c.cands {
			if k[0] != level {
				continue
			}
			f := strings.Split(k[1:], "\t")
			next := key(levelUPOS, f[0], f[1])
			if level == levelUPOS {
				if strings.ToLower(f[0]) != f[0] {
					continue
				}
				next = key(levelLower, f[0], f[1])
			}
			if n, ok := c.cands[next]; ok && slices.Equal(n, l) {
				delete(c.cands, k)
			}
		}
	}
}

// freeze moves the dictionary of c.cands into c.dict.
func (c *component) freeze() {
	keys := make([]string, 0, len(c.cands))
	for k := range c.cands {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	ends := make([]uint32, len(keys))
	var ids []int32
	for i, k := range keys {
		ids = append(ids, c.cands[k]...)
		ends[i] = uint32(len(ids))
	}
	c.dict = newDict(keys, ends, ids)
	c.words = newWordIndex(c.dict)
	c.cands = nil
	lemmas := make([]string, 0, len(c.lemmas))
	for l := range c.lemmas {
		lemmas = append(lemmas, l)
	}
	slices.Sort(lemmas)
	c.seen = newSeenLemmas(lemmas)
	c.lemmas = nil
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

// rerank is the number of candidates, best by class score, that rank
// rescores.
const rerank = 16

// choose returns the best of cands: among the rerank best by class score
// (scores), the one with the highest class plus rank score. rank scores
// one candidate's features; nil means c.rank, whose sums choose batches.
func (c *component) choose(cands []int32, w *conllu.Word, lower bool, i int, sc *scratch, scores []float32, rank func([]uint64, []float32)) int32 {
	top := c.best(cands, scores, sc)
	var ps []float32
	if c.parts != nil {
		if len(sc.parts) < len(c.parts.classes) {
			sc.parts = make([]float32, len(c.parts.classes))
		}
		ps = sc.parts
		sc.cf = extract(sc.cf[:0], sc.ws, i, -1)
		c.parts.model.Scores(sc.cf, ps)
	}
	var rs []float32
	if rank == nil && c.rank.Exact() {
		rs = c.rankScores(top, w, lower, i, sc)
	}
	b, bs := top[0], float32(math.Inf(-1))
	r := sc.rank[:]
	for j, id := range top {
		var s float32
		if rs != nil {
			s = scores[id] + rs[j]
		} else {
			if rank == nil {
				rank = c.rank.Scores
			}
			sc.cf = c.candFeatures(sc.cf[:0], w, lower, i, sc, id)
			rank(sc.cf, r[:])
			s = scores[id] + r[0]
		}
		if ps != nil {
			for _, pc := range c.parts.idx[id] {
				s += ps[pc]
			}
		}
		if s > bs {
			b, bs = id, s
		}
	}
	return b
}

// best returns the rerank best of cands by score, best first, those of
// equal scores in the order of cands (a stable sort's first rerank).
func (c *component) best(cands []int32, scores []float32, sc *scratch) []int32 {
	if len(cands) <= rerank {
		return cands
	}
	top := sc.top[:0]
	for _, id := range cands {
		s := scores[id]
		if len(top) == rerank && s <= scores[top[rerank-1]] {
			continue
		}
		j := len(top)
		for j > 0 && scores[top[j-1]] < s {
			j--
		}
		if len(top) < rerank {
			top = append(top, 0)
		}
		copy(top[j+1:], top[j:len(top)-1])
		top[j] = id
	}
	sc.top = top
	return top
}

// rankScores returns the rank score of each candidate of top (c.rank, an
// Exact model): the features of all candidates looked up in one batch,
// whose integer sums give exactly the scores of one lookup per
// candidate. A FEATS candidate's features are those of its parts, each
// part scored once for all the candidates it is in.
func (c *component) rankScores(top []int32, w *conllu.Word, lower bool, i int, sc *scratch) []float32 {
	stride := c.rank.SumStride()
	sc.rs = slices.Grow(sc.rs[:0], len(top))[:len(top)]
	if c.kind == kindLemma {
		// Candidates whose rule does not apply have no features (0).
		sc.cf = sc.cf[:0]
		sc.idx = sc.idx[:0]
		for j, id := range top {
			n := len(sc.cf)
			sc.cf = c.candFeatures(sc.cf, w, lower, i, sc, id)
			if len(sc.cf) > n {
				sc.idx = append(sc.idx, int32(j))
			}
		}
		sums := c.rankSums(len(sc.idx), stride, sc)
		clear(sc.rs)
		for k, j := range sc.idx {
			c.rank.ScoresFromSums(sums[k*stride:], sc.rs[j:j+1])
		}
		return sc.rs
	}
	// FEATS: the distinct parts of the candidates, then their features
	// (candFeatures of a one-part class), all of the same count.
	a := &sc.ws[i]
	sc.pk = sc.pk[:0]
	for _, id := range top {
		for _, p := range c.hashes[id] {
			if !slices.Contains(sc.pk, p) {
				sc.pk = append(sc.pk, p)
			}
		}
	}
	sc.cf = sc.cf[:0]
	suf := suffixHashes(a)
	for _, p := range sc.pk {
		sc.cf = appendPartFeatures(sc.cf, a, suf, p)
	}
	sums := c.rankSums(len(sc.pk), stride, sc)
	var one [1]int32
	for j, id := range top {
		one[0] = 0
		for _, p := range c.hashes[id] {
			one[0] += sums[slices.Index(sc.pk, p)*stride]
		}
		c.rank.ScoresFromSums(one[:], sc.rs[j:j+1])
	}
	return sc.rs
}

// rankSums returns the integer sums of the n instances of sc.cf (all of
// the same number of features) under c.rank, stride apart.
func (c *component) rankSums(n, stride int, sc *scratch) []int32 {
	sc.sums = slices.Grow(sc.sums[:0], n*stride)[:n*stride]
	clear(sc.sums)
	if n > 0 {
		c.rank.AddSums(sc.cf, len(sc.cf)/n, sc.sums)
	}
	return sc.sums
}

// rankTemplateNames describes the templates of candFeatures.
var rankTemplateNames = []string{
	"lemma-seen-with-u+u", "lemma-seen", "lemma-seen-with-u+casing",
	"feat+u", "feat+x", "feat+suf1+u", "feat+suf2+u", "feat+suf3+u", "feat+suf4+u",
	candShapeFirst, "lemma-end2+u", "lemma-end3+u", "lemma-end4+u",
}

// rankNames returns the names of the templates of c's rank features:
// without those of a lemma candidate's place and ending unless c reads
// them, so that a component trained before them is saved as it was read.
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

// foundWord is the dictionary entry of a word: its candidates and whether
// they are the lowercase level's; ok is false for a word not in the
// dictionary.
type foundWord struct {
	cands []int32
	level byte // the entry's level (levelTags, levelUPOS or levelLower)
	ok    bool
}

// lookupWords finds the dictionary entries of the words of ws (analysed
// in sc.ws) for a frozen component, into sc.found: it hashes their keys,
// touches the entries (dict.touch), then looks them all up, so that the
// cache misses of the sentence's words overlap instead of following one
// another between classifier calls. The entries are those candidates
// finds.
func (c *component) lookupWords(ws []conllu.Word, sc *scratch) {
	sc.hashes, sc.found = sc.hashes[:0], sc.found[:0]
	for i := range ws {
		sc.kb = appendKey(sc.kb[:0], levelLower, sc.ws[i].lower, ws[i].UPOS)
		sc.hashes = append(sc.hashes, c.dict.hash(sc.kb))
	}
	sc.sink += c.dict.touch(sc.hashes)
	for i := range ws {
		var f foundWord
		f.cands, f.level, f.ok, sc.kb = c.words.find(c.dict, sc.kb, ws[i].Form, sc.ws[i].lower, ws[i].UPOS, ws[i].XPOS, sc.hashes[i])
		sc.found = append(sc.found, f)
	}
}

// candidates returns the candidate classes of w, most likely first,
// whether lemma rules are to be applied to the lowercased form (the
// dictionary's lowercase level), and whether they come from the
// dictionary. known says whether a dictionary key counts (in training:
// seen more than rareMax times).
func (c *component) candidates(w *conllu.Word, i int, sc *scratch, known func(string) bool) (cands []int32, lower, inDict bool) {
	if c.words != nil && known == nil {
		var ok bool
		var level byte
		cands, level, ok, sc.kb = c.words.find(c.dict, sc.kb, w.Form, sc.ws[i].lower, w.UPOS, w.XPOS, 0)
		if ok {
			return c.consistent(cands, level, w, sc)
		}
		return c.guess(w, sc)
	}
	for _, level := range [...]byte{levelTags, levelUPOS, levelLower} {
		switch level {
		case levelTags:
			sc.kb = appendKey(sc.kb[:0], level, w.Form, w.UPOS, w.XPOS)
		case levelUPOS:
			sc.kb = appendKey(sc.kb[:0], level, w.Form, w.UPOS)
		default:
			sc.kb = appendKey(sc.kb[:0], level, sc.ws[i].lower, w.UPOS)
		}
		if l, ok := c.lookup(sc.kb); ok {
			if known != nil && !known(string(sc.kb)) {
				break
			}
			return c.consistent(l, level, w, sc)
		}
	}
	return c.guess(w, sc)
}

// consistent returns, with whether they are the lowercase level's and
// true (they come from the dictionary), the dictionary candidates cands
// of w, found at level, that training saw with w's UPOS and XPOS, in
// their order, when c.tagsFirst is set: a form seen only as a VBN keeps
// no VBN FEATS when tagged VBD. With none left, w is guessed as an
// unknown word of its tags. Without tagsFirst, for an entry of the tags
// level (seen with them), or for tags training never saw, it returns
// cands.
func (c *component) consistent(cands []int32, level byte, w *conllu.Word, sc *scratch) ([]int32, bool, bool) {
	lower := level == levelLower
	if !c.tagsFirst || level == levelTags {
		return cands, lower, true
	}
	sc.kb = appendKey(sc.kb[:0], indexTags, w.UPOS, w.XPOS)
	allowed, ok := c.lookup(sc.kb)
	if !ok {
		return cands, lower, true
	}
	sc.tc = sc.tc[:0]
	for _, id := range cands {
		if slices.Contains(allowed, id) {
			sc.tc = append(sc.tc, id)
		}
	}
	switch {
	case len(sc.tc) == len(cands):
		return cands, lower, true
	case len(sc.tc) == 0:
		return allowed, false, false
	}
	return sc.tc, lower, true
}

// guess returns the candidates of a word missing from the dictionary.
func (c *component) guess(w *conllu.Word, sc *scratch) (cands []int32, lower, inDict bool) {
	if c.kind == kindFeats {
		sc.kb = appendKey(sc.kb[:0], indexTags, w.UPOS, w.XPOS)
		if l, ok := c.lookup(sc.kb); ok {
			return l, false, false
		}
		sc.kb = appendKey(sc.kb[:0], indexUPOS, w.UPOS)
		l, _ := c.lookup(sc.kb)
		return l, false, false
	}
	// Lemma rules of the word's UPOS that apply to the form, by casing and
	// stripped suffix.
	sc.cands = sc.cands[:0]
	sc.places = sc.places[:0]
	for _, cs := range casings {
		f := sc.cased.get(w.Form, cs)
		if cs == Lower && f == w.Form {
			continue // the KeepCase rules give the same lemmas
		}
		for n := 0; n <= len(f) && n <= maxSuffixDel; n++ {
			if n < len(f) && n > 0 && !startsRune(f[len(f)-n]) {
				continue
			}
			sc.kb = appendKey(sc.kb[:0], indexRule, string(cs), w.UPOS, f[len(f)-n:])
			l, _ := c.lookup(sc.kb)
			for j, id := range l {
				if r := &c.rules[id]; r.appliesCased(sc.cased.get(w.Form, r.Case)) {
					sc.cands = append(sc.cands, id)
					sc.places = append(sc.places, guessPlace(j, n))
				}
			}
		}
	}
	return sc.cands, false, false
}

func startsRune(b byte) bool { return b&0xC0 != 0x80 }

// predict writes the predicted class name of each word of ws into out
// (lemma components: the lemma).
// With marks (not nil), marks[i] says whether word i has several
// candidates in the dictionary.
func (c *component) predict(ws []conllu.Word, out []string, sc *scratch, marks []bool) {
	sc.ws = analyze(ws, sc.ws, &sc.offs, &sc.lowers, c.lemmaUse())
	batched := c.words != nil
	if batched {
		c.lookupWords(ws, sc)
	}
	if len(sc.scores) < len(c.classes) {
		sc.scores = make([]float32, len(c.classes))
	}
	prev := int32(-1)
	for i := range ws {
		sc.cased.seed(ws[i].Form, sc.ws[i].lower)
		var cands []int32
		var lower, known bool
		switch {
		case !batched:
			cands, lower, known = c.candidates(&ws[i], i, sc, nil)
		case sc.found[i].ok:
			cands, lower, known = c.consistent(sc.found[i].cands, sc.found[i].level, &ws[i], sc)
		default:
			cands, lower, known = c.guess(&ws[i], sc)
		}
		sc.setPlaces(cands, known)
		if marks != nil {
			marks[i] = known && len(cands) > 1
		}
		if len(cands) == 0 {
			prev = -1
			out[i] = c.fallback(&ws[i])
			continue
		}
		pred := cands[0]
		if len(cands) > 1 && !(known && c.dictFirst) {
			sc.feats = extract(sc.feats[:0], sc.ws, i, prev)
			c.model.Scores(sc.feats, sc.scores)
			pred = c.choose(cands, &ws[i], lower, i, sc, sc.scores, nil)
		}
		prev = pred
		if c.kind == kindFeats {
			out[i] = c.classes[pred]
			continue
		}
		f := ws[i].Form
		if lower {
			f = sc.ws[i].lower
		}
		r := &c.rules[pred]
		var ok bool
		sc.lb, ok = r.appendApplyCased(sc.lb[:0], sc.cased.get(f, r.Case))
		// A rule may strip a whole short form ("s"), or leave "_", which
		// CoNLL-U reads as no lemma ("_s"): the form is the lemma then.
		if !ok || len(sc.lb) == 0 || len(sc.lb) == 1 && sc.lb[0] == '_' {
			out[i] = c.fallback(&ws[i])
			continue
		}
		out[i] = c.lemmaString(sc, &ws[i])
	}
}

// lemmaString returns the lemma in sc.lb as a string that shares no
// memory with sc: the word's form or a part of it when the lemma is one
// ("walked": "walk"), else the training lemma it equals (a string of
// c.seen), else one of c.novel.
func (c *component) lemmaString(sc *scratch, w *conllu.Word) string {
	n := len(sc.lb)
	// A view of sc.lb, not a copy: Index keeps no reference to it.
	if i := strings.Index(w.Form, unsafe.String(unsafe.SliceData(sc.lb), n)); i >= 0 {
		return w.Form[i : i+n]
	}
	sc.lb = append(sc.lb, '\t')
	if l, ok := c.seen.lemma(sc.lb); ok {
		return l
	}
	return c.novel.get(sc.lb[:n])
}

// fallback is the prediction for a word without candidates: its form as
// lemma, no features.
func (c *component) fallback(w *conllu.Word) string {
	if c.kind == kindFeats {
		return "_"
	}
	return w.Form
}

// Data is the serialisable form of a lemmatizer or a FEATS tagger: plain
// fields that msgpack (github.com/vmihailenco/msgpack/v5) encodes as they
// are, for storing beside the other classifiers of a model file.
type Data struct {
	// Kind is "lemma" or "feats".
	Kind string `msgpack:"kind"`
	// Classes are the class names: lemma rules (Rule.String) or FEATS
	// strings, in class-id order.
	Classes []string `msgpack:"classes"`
	// Keys are the dictionary and candidate-index keys, sorted; the
	// candidates of Keys[i] are Cands[Ends[i-1]:Ends[i]] (Ends[-1] = 0),
	// class ids, most frequent first. A key is a level byte and
	// tab-separated fields (see the package documentation).
	Keys  []string `msgpack:"keys"`
	Ends  []uint32 `msgpack:"ends"`
	Cands []uint32 `msgpack:"cands"`
	// Weights is the perceptron that scores classes, and Rank the one
	// that scores candidates by their own features, in the layout of
	// parser/linear.
	Weights modelfmt.Classifier `msgpack:"weights"`
	Rank    modelfmt.Classifier `msgpack:"rank"`
	// Lemmas (lemmatizers only) are the lowercased lemmas seen in
	// training, each as "lemma\tUPOS", sorted; "lemma\t" for a lemma seen
	// only without a UPOS (older files also list every lemma so, which
	// adds nothing).
	Lemmas []string `msgpack:"lemmas"`
	// Parts (FEATS taggers whose classes have features) are the classes
	// of the per-feature classifiers, PartWeights their weights: for each
	// feature name in order, "Name=" (its absence) then "Name=Value" for
	// each value, sorted.
	Parts       []string            `msgpack:"parts"`
	PartWeights modelfmt.Classifier `msgpack:"part_weights"`
	// SyntaxWeights (FEATS taggers, optional) is the perceptron that
	// chooses FEATS again after parsing (FeatsTagger.Refine); empty
	// (no layout) when the tagger has none.
	SyntaxWeights modelfmt.Classifier `msgpack:"syntax_weights"`
	// Agreement (FEATS taggers, optional) is the agreement table
	// (FeatsTagger.Agree): one rule a string, the word's XPOS, the
	// subject's XPOS, Person and Number, then the Person and Number it
	// gives, separated by tabs, sorted; nil when the tagger has none.
	Agreement []string `msgpack:"agreement"`
	// LemmaCase (lemmatizers, optional) are the XPOS tags whose
	// capitalized words keep their capital in the lemma (LemmaCase),
	// sorted; nil when the lemmatizer has none.
	LemmaCase []string `msgpack:"lemma_case"`
	// DictionaryFirst (lemmatizers, optional): a word found in the
	// dictionary takes its most frequent lemma rule there, without the
	// classifier (Lemmatizer.SetDictionaryFirst).
	DictionaryFirst bool `msgpack:"dictionary_first"`
	// ConsistentTags (FEATS taggers, optional): a known word's candidates
	// are only those seen with its UPOS and XPOS
	// (FeatsTagger.SetConsistentTags).
	ConsistentTags bool `msgpack:"consistent_tags"`
}

// data returns the serialisable form of c.
func (c *component) data() *Data {
	d := &Data{Kind: c.kind.String(), Classes: slices.Clone(c.classes)}
	d.Keys = slices.Clone(c.dict.keys)
	d.Ends = slices.Clone(c.dict.ends)
	d.Cands = make([]uint32, len(c.dict.ids))
	for i, id := range c.dict.ids {
		d.Cands[i] = uint32(id)
	}
	d.Weights = c.model.Classifier("morph."+c.kind.String(), c.templateNames(), nil)
	d.Rank = c.rank.Classifier("morph."+c.kind.String()+".rank", c.rankNames(), nil)
	d.Lemmas = c.seen.keys()
	if c.parts != nil {
		d.Parts = slices.Clone(c.parts.classes)
		d.PartWeights = c.parts.model.Classifier("morph.feats.parts", c.templateNames(), nil)
	}
	if c.agree != nil {
		d.Agreement = c.agree.data()
	}
	if c.lemmaCase != nil {
		d.LemmaCase = slices.Clone(c.lemmaCase.xpos)
	}
	d.DictionaryFirst = c.dictFirst
	d.ConsistentTags = c.tagsFirst
	if c.syntax != nil {
		d.SyntaxWeights = c.syntax.Classifier("morph.feats.syntax", syntaxTemplateNames, nil)
	}
	return d
}

// fromData checks d and builds the component it describes.
func fromData(d *Data, want kind) (*component, error) {
	if d == nil {
		return nil, errors.New("morph: nil data")
	}
	if d.Kind != want.String() {
		return nil, fmt.Errorf("morph: data of kind %q, want %q", d.Kind, want)
	}
	n := len(d.Classes)
	if n == 0 || n > linear.MaxClasses {
		return nil, fmt.Errorf("morph: %s: %d classes, want 1..%d", want, n, linear.MaxClasses)
	}
	if len(d.Ends) != len(d.Keys) {
		return nil, fmt.Errorf("morph: %s: %d keys but %d ends", want, len(d.Keys), len(d.Ends))
	}
	c := &component{kind: want, classes: slices.Clone(d.Classes), endPrefix: want == kindFeats && slices.Contains(d.Weights.Templates, endPrefixFirst),
		candShape: want == kindLemma && slices.Contains(d.Rank.Templates, candShapeFirst)}
	if err := c.parseRules(); err != nil {
		return nil, err
	}
	ids := make([]int32, len(d.Cands))
	for i, id := range d.Cands {
		if id >= uint32(n) {
			return nil, fmt.Errorf("morph: %s: candidate %d: class %d of %d", want, i, id, n)
		}
		ids[i] = int32(id)
	}
	start := uint32(0)
	for i, k := range d.Keys {
		end := d.Ends[i]
		if end < start || end > uint32(len(ids)) {
			return nil, fmt.Errorf("morph: %s: key %d: candidates end at %d, want %d..%d", want, i, end, start, len(ids))
		}
		if i > 0 && k <= d.Keys[i-1] {
			return nil, fmt.Errorf("morph: %s: key %d (%q) is not after the one before", want, i, k)
		}
		if end == start || k == "" {
			return nil, fmt.Errorf("morph: %s: key %d (%q) is empty or has no candidates", want, i, k)
		}
		start = end
	}
	c.dict = newDict(slices.Clone(d.Keys), slices.Clone(d.Ends), ids)
	c.words = newWordIndex(c.dict)
	m, err := linear.FromClassifier(&d.Weights)
	if err != nil {
		return nil, fmt.Errorf("morph: %s: %w", want, err)
	}
	if m.NumClasses() != n {
		return nil, fmt.Errorf("morph: %s: the weights have %d classes, want %d", want, m.NumClasses(), n)
	}
	c.model = m
	if c.rank, err = linear.FromClassifier(&d.Rank); err != nil {
		return nil, fmt.Errorf("morph: %s: %w", want, err)
	}
	if c.rank.NumClasses() != 1 {
		return nil, fmt.Errorf("morph: %s: the rank weights have %d classes, want 1", want, c.rank.NumClasses())
	}
	c.seen = newSeenLemmas(d.Lemmas)
	c.splitFeats()
	if d.SyntaxWeights.Layout != "" {
		if want != kindFeats {
			return nil, fmt.Errorf("morph: %s: syntactic FEATS weights in a %s", want, want)
		}
		if c.syntax, err = linear.FromClassifier(&d.SyntaxWeights); err != nil {
			return nil, fmt.Errorf("morph: %s: syntax: %w", want, err)
		}
		if c.syntax.NumClasses() != n {
			return nil, fmt.Errorf("morph: %s: the syntax weights have %d classes, want %d", want, c.syntax.NumClasses(), n)
		}
	}
	if len(d.LemmaCase) > 0 {
		if want != kindLemma {
			return nil, fmt.Errorf("morph: %s: lemma case tags in a %s", want, want)
		}
		if c.lemmaCase, err = lemmaCaseFromData(d.LemmaCase); err != nil {
			return nil, fmt.Errorf("morph: %s: %w", want, err)
		}
	}
	if d.DictionaryFirst {
		if want != kindLemma {
			return nil, fmt.Errorf("morph: %s: dictionary_first in a %s", want, want)
		}
		c.dictFirst = true
	}
	if d.ConsistentTags {
		if want != kindFeats {
			return nil, fmt.Errorf("morph: %s: consistent_tags in a %s", want, want)
		}
		c.tagsFirst = true
	}
	if len(d.Agreement) > 0 {
		if want != kindFeats {
			return nil, fmt.Errorf("morph: %s: an agreement table in a %s", want, want)
		}
		a, err := agreementFromData(d.Agreement)
		if err != nil {
			return nil, fmt.Errorf("morph: %s: %w", want, err)
		}
		c.setAgreement(a)
	}
	if len(d.Parts) > 0 {
		if want != kindFeats {
			return nil, fmt.Errorf("morph: %s: FEATS parts in a %s", want, want)
		}
		if c.parts, err = newFeatParts(c.classes, slices.Clone(d.Parts)); err != nil {
			return nil, err
		}
		if c.parts.model, err = linear.FromClassifier(&d.PartWeights); err != nil {
			return nil, fmt.Errorf("morph: %s: %w", want, err)
		}
		if c.parts.model.NumClasses() != len(d.Parts) {
			return nil, fmt.Errorf("morph: %s: the part weights have %d classes, want %d", want, c.parts.model.NumClasses(), len(d.Parts))
		}
	}
	return c, nil
}

// epochs is the number of training epochs of o.
func (o Options) epochs() int {
	if o.Epochs <= 0 {
		return DefaultEpochs
	}
	return o.Epochs
}

// eachSentence calls each with every index of n training sentences, once
// per epoch, in an order shuffled anew each epoch (seeded by o.Seed).
func (o Options) eachSentence(n int, each func(si int)) {
	rng := rand.New(rand.NewSource(o.Seed))
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	for range o.epochs() {
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		for _, si := range order {
			each(si)
		}
	}
}

// freeze returns how the trained weights become the stored ones.
func (o Options) freeze() linear.FreezeOptions {
	bits := o.WeightBits
	if bits == 0 {
		bits = linear.TrainedWeightBits
	}
	return linear.FreezeOptions{MinUpdates: 1, Precision: linear.Int16, KeyBits: 32, WeightBits: bits}
}
