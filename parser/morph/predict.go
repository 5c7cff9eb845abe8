package morph

import (
	"math"
	"slices"
	"strings"
	"unsafe"

	"github.com/transparse/transparse/parser/conllu"
)

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
