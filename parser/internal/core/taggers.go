package core

import (
	"math"

	"github.com/transparse/transparse/parser/calib"
	"github.com/transparse/transparse/parser/conllu"
	"github.com/transparse/transparse/parser/morph"
	"github.com/transparse/transparse/parser/tagger"
)

// Taggers predicts the columns a sentence lacks, so that plain tokens can
// be parsed and come back fully annotated: UPOS, XPOS when the model has
// an XPOS tagger (treebanks with XPOS), then LEMMA and FEATS from the
// form and those tags when the model has a lemmatizer and a FEATS tagger
// (parser/morph), then XPOS from the form, UPOS and FEATS when the model
// has an XPOS table instead of an XPOS tagger (a treebank whose XPOS tag
// set is too large for a tagger). Each may be nil. Immutable and safe for
// concurrent use.
type Taggers struct {
	UPOS      *tagger.Tagger
	XPOS      *tagger.Tagger     // nil when the treebank has no XPOS or an XPOSTable
	Lemmas    *morph.Lemmatizer  // nil: LEMMA is not predicted
	Feats     *morph.FeatsTagger // nil: FEATS is not predicted
	XPOSTable *morph.XPOSTable   // nil unless XPOS is predicted by lookup
}

// Fill predicts UPOS, XPOS and LEMMA for the words where they are absent
// ("" or "_"), and FEATS for the sentence when no word has FEATS (a
// sentence with FEATS on some word has its FEATS given: "_" means no
// features); given values are kept, and the LEMMA and FEATS predictions
// read the given or predicted tags.
func (t Taggers) Fill(words []conllu.Word) {
	var sc tagScratch
	sc.an.Analyze(words, t.UPOS, t.XPOS)
	t.tag(words, &sc)
	t.morph(words, &sc, false)
}

// AmbiguityClasses returns the ambiguity classes of form in the UPOS and
// XPOS taggers' dictionaries (0 where unknown or there is no tagger): the
// Amb of its tagger.Analysis.
func (t Taggers) AmbiguityClasses(form string) (a, ax uint64) {
	if t.UPOS != nil {
		a = t.UPOS.AmbiguityClass(form)
	}
	if t.XPOS != nil {
		ax = t.XPOS.AmbiguityClass(form)
	}
	return a, ax
}

// tagScratch is per-call memory for tagging a sentence.
type tagScratch struct {
	an    tagger.Analysis // of the words, for t's taggers
	given []string
	free  []bool   // words with neither UPOS nor XPOS given
	pred  []string // FEATS predictions
	// lemmas are the predicted lemmas of the words (morph), lemmaGiven
	// whether a word had its lemma given.
	lemmas     []string
	lemmaGiven bool
	kept       []string // the given lemmas while FEATS read the predicted ones
	// featsPredicted: morph predicted the sentence's FEATS (Refine them
	// once it is parsed).
	featsPredicted bool
	marks          []bool // the words whose FEATS refine chooses again
	// predicted holds, for each word of the sentence complete tagged, bit
	// 0 if its UPOS was predicted and bit 1 if its XPOS was; empty when
	// no tagger ran.
	predicted []uint8
}

// tagUncertainty returns the uncertainty of the predicted tags of word i
// (0-based; calib.TagUncertainty of the smaller of its UPOS and XPOS
// taggers' margins): 0 for a word whose tags were given, or outside the
// sentence (the root).
func (sc *tagScratch) tagUncertainty(i int) float64 {
	if i < 0 || i >= len(sc.predicted) || sc.predicted[i] == 0 {
		return 0
	}
	m := float32(math.Inf(1))
	if sc.predicted[i]&1 != 0 {
		m = min(m, sc.an.Margin(tagger.UPOS, i))
	}
	if sc.predicted[i]&2 != 0 {
		m = min(m, sc.an.Margin(tagger.XPOS, i))
	}
	return calib.TagUncertainty(float64(m))
}

// morph predicts LEMMA and FEATS from the words' forms and (given or
// predicted) tags, keeping given values: the LEMMA of each word where it
// is absent, the FEATS of the sentence when no word has FEATS (where some
// word has, the sentence's FEATS are given and "_" means no features);
// then, with an XPOS table, the XPOS of each word where it is absent.
// The predictions are made for the whole sentence (the previous word's
// prediction is a feature). With allLemmas, the predicted lemma of every
// word, given or not, is left in sc.lemmas, and sc.lemmaGiven tells
// whether a word had its lemma given.
func (t Taggers) morph(words []conllu.Word, sc *tagScratch, allLemmas bool) {
	sc.lemmaGiven, sc.featsPredicted = false, false
	if t.Lemmas != nil && (anyAbsent(words, lemmaOf) || allLemmas) {
		sc.lemmas = t.Lemmas.Lemmas(words, sc.lemmas)
		for i := range words {
			w := &words[i]
			if conllu.Absent(w.Lemma) {
				w.Lemma = sc.lemmas[i]
			} else {
				sc.lemmaGiven = true
			}
		}
	}
	if t.Feats != nil && !anyGiven(words, featsOf) {
		// The FEATS tagger reads the lemmas. With allLemmas (the
		// plain-token classifier, which reads the predicted lemmas) it reads
		// the predicted ones too, so that a given LEMMA column changes
		// neither the FEATS nor the parse.
		swap := allLemmas && sc.lemmaGiven
		if swap {
			sc.kept = sc.kept[:0]
			for i := range words {
				sc.kept = append(sc.kept, words[i].Lemma)
				words[i].Lemma = sc.lemmas[i]
			}
		}
		sc.pred, sc.marks = t.Feats.FeatsMarked(words, sc.pred, sc.marks)
		if swap {
			for i := range words {
				words[i].Lemma = sc.kept[i]
			}
		}
		for i := range words {
			words[i].Feats = sc.pred[i]
		}
		sc.featsPredicted = true
	}
	if t.XPOSTable != nil {
		t.XPOSTable.Fill(words)
	}
}

// refine chooses the predicted FEATS of a parsed sentence again from its
// tree (morph.FeatsTagger.Refine), then sets its verbs' Person and Number
// from their subjects (morph.FeatsTagger.Agree), when morph predicted
// them.
func (t Taggers) refine(words []conllu.Word, sc *tagScratch) {
	if sc.featsPredicted && t.Feats != nil {
		t.Feats.FromTree(words, sc.marks)
	}
}

// anyGiven reports whether the column col of a word is given.
func anyGiven(words []conllu.Word, col func(*conllu.Word) *string) bool {
	for i := range words {
		if !conllu.Absent(*col(&words[i])) {
			return true
		}
	}
	return false
}

func uposOf(w *conllu.Word) *string  { return &w.UPOS }
func xposOf(w *conllu.Word) *string  { return &w.XPOS }
func lemmaOf(w *conllu.Word) *string { return &w.Lemma }
func featsOf(w *conllu.Word) *string { return &w.Feats }

// anyAbsent reports whether the column col of a word is absent.
func anyAbsent(words []conllu.Word, col func(*conllu.Word) *string) bool {
	for i := range words {
		if conllu.Absent(*col(&words[i])) {
			return true
		}
	}
	return false
}

// tag predicts, from sc.an (the analysis of words for t's taggers), the
// UPOS and XPOS of the words where they are absent, keeping given values,
// without allocating once sc has grown. A word that has neither gets a
// UPOS/XPOS pair seen in training (tagger.Analysis.Reconcile).
func (t Taggers) tag(words []conllu.Word, sc *tagScratch) {
	both := t.UPOS != nil && t.XPOS != nil
	sc.predicted, sc.free = sc.predicted[:0], sc.free[:0]
	for i := range words {
		var p uint8
		if t.UPOS != nil && conllu.Absent(words[i].UPOS) {
			p |= 1
		}
		if t.XPOS != nil && conllu.Absent(words[i].XPOS) {
			p |= 2
		}
		sc.predicted = append(sc.predicted, p)
		if both {
			sc.free = append(sc.free, p == 3)
		}
	}
	if t.UPOS != nil {
		tagColumn(t.UPOS, words, sc, uposOf)
	}
	if t.XPOS != nil {
		tagColumn(t.XPOS, words, sc, xposOf)
	}
	if both {
		sc.an.Reconcile(words, sc.free)
	}
}

// tagColumn tags the words whose column col is absent with tg.
func tagColumn(tg *tagger.Tagger, words []conllu.Word, sc *tagScratch, col func(*conllu.Word) *string) {
	n := len(words)
	missing := 0
	for i := range words {
		if conllu.Absent(*col(&words[i])) {
			missing++
		}
	}
	switch missing {
	case 0:
		return
	case n:
		tg.TagAnalyzed(&sc.an, words)
		return
	}
	if cap(sc.given) < n {
		sc.given = make([]string, n)
	}
	g := sc.given[:n]
	for i := range words {
		g[i] = *col(&words[i])
	}
	tg.TagAnalyzed(&sc.an, words)
	for i := range words {
		if !conllu.Absent(g[i]) {
			*col(&words[i]) = g[i]
		}
	}
}
