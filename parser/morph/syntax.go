package morph

import (
	"math"
	"slices"
	"strings"

	"github.com/transparse/transparse/parser/conllu"
	"github.com/transparse/transparse/parser/linear"
)

// The syntactic choice of FEATS (FeatsTagger.Refine): after parsing, a
// second perceptron over the FEATS classes chooses again among the
// candidates of each ambiguous word, from the word and its tags and from
// its place in the tree. Many FEATS of a word with the right tags are
// syntactic: English VBG is a gerund or a participle by its function, VB
// an imperative or an infinitive by its dependents, VBN passive by its
// aux:pass, "it" and "you" nominative or accusative by their deprel,
// a past verb's person and number by its subject; case in Turkish and
// Hungarian follows the deprel for forms whose endings are ambiguous.

// syntaxTemplateNames describes the templates of syntaxFeatures.
var syntaxTemplateNames = []string{
	"bias", "lower+x", "suf3+x", "x",
	"deprel", "deprel+x", "head-u+deprel", "head-lower+deprel", "head-x+deprel+x",
	"child-deprel+x", "child-deprel+child-lower", "child-deprel+child-x",
	"subject+deprel+x", "first-word+x", "lower-1+x", "x-1+x",
	"nsubj-lower+x", "nsubj-x+x", "head-deprel+deprel+x", "head-nsubj-lower+deprel+x",
	"last-lower+x",
}

const (
	sBias = iota
	sLowerX
	sSuf3X
	sX
	sDeprel
	sDeprelX
	sHeadUDeprel
	sHeadLowerDeprel
	sHeadXDeprelX
	sChildDeprelX
	sChildDeprelLower
	sChildDeprelChildX
	sSubjectDeprelX
	sFirstWordX
	sPrevLowerX
	sPrevXX
	sNsubjLowerX
	sNsubjXX
	sHeadDeprelDeprelX
	sHeadSubjectDeprelX
	sLastX
)

// syntaxScratch holds the children of each word of a sentence.
type syntaxScratch struct {
	first []int32 // first child of word i+1 (0-based node i+1), -1 for none
	next  []int32 // next sibling of word i, -1 for none
}

// children indexes the dependents of each word of ws (HEAD 0..n; a HEAD
// outside it is ignored).
func (s *syntaxScratch) children(ws []conllu.Word) {
	n := len(ws)
	s.first = slices.Grow(s.first[:0], n+1)[:n+1]
	s.next = slices.Grow(s.next[:0], n)[:n]
	for i := range s.first {
		s.first[i] = -1
	}
	for i := n - 1; i >= 0; i-- {
		h := ws[i].Head
		s.next[i] = -1
		if h < 0 || h > n {
			continue
		}
		s.next[i] = s.first[h]
		s.first[h] = int32(i)
	}
}

// isSubject reports whether deprel is a subject relation.
func isSubject(deprel string) bool {
	base, _, _ := strings.Cut(deprel, ":")
	return base == "nsubj" || base == "csubj" || base == "expl"
}

// syntaxFeatures appends the features of word i of ws (analysed in an,
// children indexed in ss) to out.
func syntaxFeatures(out []uint64, ws []conllu.Word, an []word, ss *syntaxScratch, i int) []uint64 {
	w, a := &ws[i], &an[i]
	lw := hs(a.lower)
	dep := hs(w.Deprel)
	out = append(out, f1(sBias, 0), f2(sLowerX, lw, a.x), f1(sX, a.x),
		f1(sDeprel, dep), f2(sDeprelX, dep, a.x))
	n := len(a.runes) - 1
	if n >= 3 {
		out = append(out, f2(sSuf3X, hs(a.lower[a.runes[n-3]:]), a.x))
	}
	if h := w.Head - 1; h >= 0 && h < len(ws) {
		out = append(out, f2(sHeadUDeprel, an[h].u, dep), f2(sHeadLowerDeprel, hs(an[h].lower), dep),
			mix(f2(sHeadXDeprelX, an[h].x, dep), a.x), mix(f2(sHeadDeprelDeprelX, hs(ws[h].Deprel), dep), a.x))
		// The subjects of the head: an auxiliary or copula agrees with
		// its head's subject.
		for c := ss.first[h+1]; c >= 0; c = ss.next[c] {
			if int(c) != i && isSubject(ws[c].Deprel) {
				out = append(out, mix(f2(sHeadSubjectDeprelX, hs(an[c].lower), dep), a.x))
			}
		}
	} else {
		out = append(out, f2(sHeadUDeprel, 0, dep))
	}
	subject := false
	for c := ss.first[i+1]; c >= 0; c = ss.next[c] {
		cd := hs(ws[c].Deprel)
		out = append(out, f2(sChildDeprelX, cd, a.x), f2(sChildDeprelLower, cd, hs(an[c].lower)),
			f2(sChildDeprelChildX, cd, an[c].x))
		if isSubject(ws[c].Deprel) {
			subject = true
			out = append(out, f2(sNsubjLowerX, hs(an[c].lower), a.x), f2(sNsubjXX, an[c].x, a.x))
		}
	}
	sub := uint64(0)
	if subject {
		sub = 1
	}
	out = append(out, mix(f2(sSubjectDeprelX, sub, dep), a.x))
	out = append(out, f2(sLastX, hs(an[len(an)-1].lower), a.x))
	if i == 0 {
		out = append(out, f1(sFirstWordX, a.x))
	} else {
		out = append(out, f2(sPrevLowerX, hs(an[i-1].lower), a.x), f2(sPrevXX, an[i-1].x, a.x))
	}
	return out
}

// classOf returns the class of name among cands, or -1.
func (c *component) classOf(name string, cands []int32) int32 {
	for _, id := range cands {
		if c.classes[id] == name {
			return id
		}
	}
	return -1
}

// HasSyntax reports whether the tagger chooses FEATS again after parsing
// (TrainSyntax).
func (t *FeatsTagger) HasSyntax() bool { return t.c.syntax != nil }

// Syntax is a trained syntactic choice of FEATS for one FeatsTagger
// (TrainSyntax, SetSyntax). Immutable.
type Syntax struct{ m *linear.Model }

// SetSyntax makes s (from t.TrainSyntax; nil: none) the syntactic choice
// of t's FEATS. Not safe while t is in use.
func (t *FeatsTagger) SetSyntax(s *Syntax) {
	t.c.syntax = nil
	if s != nil {
		t.c.syntax = s.m
	}
}

// Refine chooses again, from the tree, the FEATS of each word of ws (one
// parsed sentence: HEAD and DEPREL set, UPOS, XPOS and LEMMA as the
// tagging read them, FEATS as Feats predicted them) that has several
// candidates, and writes them into ws[i].Feats; a tagger without the
// syntactic perceptron leaves ws as it is. Safe for concurrent use.
func (t *FeatsTagger) Refine(ws []conllu.Word) { t.RefineMarked(ws, nil) }

// RefineMarked is Refine for the words i with marks[i] set (FeatsMarked
// marks those Refine would choose again; nil marks means every word),
// which saves the dictionary lookups of the others.
func (t *FeatsTagger) RefineMarked(ws []conllu.Word, marks []bool) {
	if t.c.syntax != nil {
		t.c.fromTree(ws, marks, true, false)
	}
}

// FromTree does what the tree of a parsed sentence ws tells the tagger:
// RefineMarked(ws, marks), then Agree(ws), each if the tagger has it, with
// one index of the tree. Safe for concurrent use.
func (t *FeatsTagger) FromTree(ws []conllu.Word, marks []bool) {
	t.c.fromTree(ws, marks, t.c.syntax != nil, t.c.agree != nil)
}

// fromTree indexes the dependents of ws and refines (RefineMarked) and
// agrees (Agree) as asked.
func (c *component) fromTree(ws []conllu.Word, marks []bool, refine, agree bool) {
	if (!refine && !agree) || len(ws) == 0 {
		return
	}
	sc := c.free.Get()
	if sc == nil {
		sc = new(scratch)
	}
	sc.syn.children(ws)
	if refine {
		c.refine(ws, marks, sc)
	}
	if agree {
		c.agreeIn(ws, sc)
	}
	c.free.Put(sc)
}

// refine is RefineMarked, sc.syn indexing ws.
func (c *component) refine(ws []conllu.Word, marks []bool, sc *scratch) {
	sc.ws = analyze(ws, sc.ws, &sc.offs, &sc.lowers, noLemma)
	if len(sc.scores) < len(c.classes) {
		sc.scores = make([]float32, len(c.classes))
	}
	for i := range ws {
		if marks != nil && (i >= len(marks) || !marks[i]) {
			continue
		}
		cands, _, known := c.candidates(&ws[i], i, sc, nil)
		if len(cands) < 2 || !known {
			continue
		}
		sc.feats = syntaxFeatures(sc.feats[:0], ws, sc.ws, &sc.syn, i)
		c.syntax.Scores(sc.feats, sc.scores)
		best, bs := int32(-1), float32(math.Inf(-1))
		for _, id := range cands {
			if s := sc.scores[id]; s > bs {
				best, bs = id, s
			}
		}
		ws[i].Feats = c.classes[best]
	}
}

// TrainSyntax trains a syntactic choice of t's FEATS (Refine, once set
// with SetSyntax) on sents: each sentence's words with their tags as
// Refine will see them (predicted, e.g. jackknifed) and their gold HEAD
// and DEPREL, and in gold the same sentences with their gold FEATS. Only
// words with several candidates in t's dictionary teach it, and only
// those whose gold FEATS is one of them; a sentence whose length differs
// in gold is skipped.
func (t *FeatsTagger) TrainSyntax(sents, gold []*conllu.Sentence, opt Options) *Syntax {
	c := t.c
	tr := linear.NewTrainer(len(c.classes))
	scores := make([]float32, len(c.classes))
	var sc scratch
	opt.eachSentence(len(sents), func(si int) {
		ws := sents[si].Words
		if si >= len(gold) || len(gold[si].Words) != len(ws) {
			return
		}
		sc.ws = analyze(ws, sc.ws, &sc.offs, &sc.lowers, noLemma)
		sc.syn.children(ws)
		for i := range ws {
			cands, _, known := c.candidates(&ws[i], i, &sc, nil)
			if len(cands) < 2 || !known {
				continue
			}
			g := c.classOf(gold[si].Words[i].Feats, cands)
			if g < 0 {
				continue
			}
			sc.feats = syntaxFeatures(sc.feats[:0], ws, sc.ws, &sc.syn, i)
			tr.Scores(sc.feats, scores)
			best, bs := int32(-1), float32(math.Inf(-1))
			for _, id := range cands {
				if s := scores[id]; s > bs {
					best, bs = id, s
				}
			}
			if best != g {
				tr.Update(sc.feats, int(g), int(best))
			}
			tr.Tick()
		}
	})
	// Features updated fewer than 5 times and weights below 1 are
	// dropped: on EWT dev (gold tags and trees) that keeps nine tenths of
	// the gain in a fifth of the size (17 KB).
	fo := opt.freeze()
	fo.MinUpdates, fo.MinAbs = 5, 1
	return &Syntax{tr.Freeze(fo)}
}
