// Package tagger is a part-of-speech tagger for the UPOS (universal) or
// XPOS (language-specific) column, so that plain tokens can be parsed.
//
// It is a greedy left-to-right sequence classifier trained as an averaged
// perceptron (Collins 2002, "Discriminative training methods for hidden
// Markov models: theory and experiments with perceptron algorithms", EMNLP)
// with package linear. Features are the usual rich lexical ones (word,
// lowercased word, prefixes of up to four letters and suffixes of up to
// six, word shape, neighbouring words, previously predicted tags;
// Ratnaparkhi 1996, Collins 2002) plus ambiguity classes from a tag
// dictionary built from the training data: the tags of the word form, of
// its lowercased form, and of the word in its lowercased bigrams with the
// previous and the next word; a word not in the dictionary gets the class
// of its longest prefix that is, with the ending after it (an unknown
// inflected word is often a known stem and an ending), and, when the
// training data has lemmas, the tags its lemma rules give it (guesser:
// a rule of a tag that strips a suffix of the word and gives a lemma of
// the tag), and, when training is given word clusters from a large
// unannotated corpus (Options.Clusters), the cluster paths of the word
// and its neighbours (see Clusters), and, in a tagger trained with
// Options.Spacing, whether a punctuation word is spaced from its
// neighbours in the text (MISC SpaceAfter=No; see setSpacing). While
// training, each word's dictionary entries, lemma and rule are counted
// without the word's own occurrence (leave-one-out), so that the training
// data looks like unseen text to the model, and forms that would not be in
// the dictionary are replaced by a "rare word" value, so that rare words
// are tagged from spelling and context (Ratnaparkhi 1996). Tagging runs in two passes with
// separate weights: the second pass sees, besides its own tags to the left, the first pass's tags
// of the following words, and revisits only the words whose first-pass
// decision had a small margin. A tagger trained with development data
// has a fast model in front of its first pass (14 of its templates,
// trained alone): a word the fast model scores with a margin of at least
// the one chosen on the development data (where it changes at most 0.02 %
// of the tags) takes its tag without the full model, as the parsers' fast
// classifiers do for parser states.
//
// The UPOS and XPOS taggers of a model tag independently; an XPOS tagger
// keeps the UPOS/XPOS pairs of its training data, and
// Analysis.Reconcile gives a word whose two predicted tags are not such a
// pair the seen pair with the highest sum of scores (a joint decision
// restricted to consistent tags, as a tagger over combined UPOS|XPOS tags
// would make it).
//
// A tagger may be trained as the mean of several perceptrons, each on its
// own order of the training sentences (Options.Runs), their averaged
// weights averaged again into one model: an ensemble that tags at the
// cost of one model. Small weights of the mean can be dropped
// (Options.MinAbs).
//
// A Tagger is stored in the same model file as the parser, as one
// modelfmt.Classifier (see Tagger.Classifier and FromClassifier), and its
// fast model, if it has one, as a second (Classifiers and FromDocument
// handle both, and a model's two taggers together).
package tagger

import (
	"math"
	"math/bits"
	"slices"

	"github.com/transparse/transparse/internal/freelist"
	"github.com/transparse/transparse/internal/top2"
	"github.com/transparse/transparse/parser/conllu"
	"github.com/transparse/transparse/parser/form"
	"github.com/transparse/transparse/parser/linear"
)

// Name is the modelfmt.Classifier name of a UPOS tagger
// (ClassifierName(UPOS)).
const Name = "tagger.upos"

// MaxTags is the largest tag set the tagger supports (the tag dictionary
// keeps one bit per tag).
const MaxTags = 64

// passes is the number of tagging passes (see the package comment).
const passes = 2

// sureUnscored lets tagging give a word whose form and both lowercased
// bigrams have one and the same tag in the dictionary that tag without
// scoring it (tests compare with and without).
var sureUnscored = true

// Tagger is a trained tagger for one column (UPOS or XPOS). It is immutable
// and safe for concurrent use by any number of goroutines.
type Tagger struct {
	column string // UPOS or XPOS
	tags   []string
	model  *linear.Model
	dict   dict
	margin float32 // second-pass threshold (see run)
	// fast, if not nil, scores a word in the first pass before model does,
	// with fastTemplates only; when its best tag beats the second by
	// fastMargin or more, the word takes that tag and model is not asked
	// (nor is it revisited by the second pass).
	fast       *linear.Model
	fastMargin float32
	epoch      int // the training epoch kept (0: decoded from a file)
	// pairs, in an XPOS tagger trained on data with UPOS, holds for each
	// of its tags the set of the UPOS tags seen with it in training, as
	// bits of their ids in pairUPOS (the sorted UPOS tag set); see
	// Analysis.Reconcile.
	pairs    []uint64
	pairUPOS []string
	// guess, if not nil, analyzes the words not in the dictionary with
	// the lemma rules of the training data (see guesser); its features
	// are those of feature version 3.
	guess *guesser
	// clusters, if not nil, are the word clusters whose features the
	// tagger reads (feature version 4).
	clusters *Clusters
	// spacing: the tagger reads whether words are spaced in the text
	// (feature version 5; see setSpacing).
	spacing bool
	pool    freelist.List[scratch] // per-call scratch; kept across GCs
}

// Epoch returns the training epoch the tagger is from (the one with the
// best development accuracy), or 0 for a tagger decoded from a model file.
func (t *Tagger) Epoch() int { return t.epoch }

// Clusters returns the word clusters the tagger reads, nil if none.
func (t *Tagger) Clusters() *Clusters { return t.clusters }

// scratch is the working memory of tagging one sentence.
type scratch struct {
	ws          []wordInfo
	keys, masks []uint64  // dictionary lookups of the sentence (see lookupAll)
	sink        uint32    // lookupAll's touching loads
	left, right []uint64  // tags (class + 1) of the current and the first pass
	feats       []uint64  // features of the current word
	scores      []float32 // scores of the current word
	margin      []float32 // first-pass margin of each word
	final       []float32 // the last scores of each word, len(tags) per word (see passes)
}

// Tags returns the tag set, indexed by class, in sorted order. The slice
// must not be modified.
func (t *Tagger) Tags() []string { return t.tags }

// Tag predicts the tag of every word of words (one sentence) from the word
// forms, and sets the tagger's column (Word.UPOS or Word.XPOS) to it,
// overwriting any value (callers that want to keep given tags decide before
// calling). Only Form is read, and Misc (SpaceAfter=No) by a tagger that
// reads spacing. Tag is safe for concurrent use, and in the steady state it
// does not allocate. To tag a sentence with both of a
// model's taggers, or to keep its forms' ambiguity classes, analyze it
// once (Analysis) and tag it with TagAnalyzed.
func (t *Tagger) Tag(words []conllu.Word) {
	if len(words) == 0 {
		return
	}
	sc := t.getScratch()
	t.run(sc, words, t.model, nil)
	t.setTags(sc, words)
	t.pool.Put(sc)
}

// TagAnalyzed is Tag for the words a was analyzed from, with t as the
// tagger of its column (Analysis.Analyze): it tags from the analysis
// instead of analyzing the words again, with the same result. It panics
// if a is the analysis of other words or other taggers. Safe for
// concurrent use with other analyses; it does not allocate in the steady
// state.
func (t *Tagger) TagAnalyzed(a *Analysis, words []conllu.Word) {
	k := slot(t.column)
	if a.taggers[k] != t || len(words) != len(a.Words) {
		panic("tagger: TagAnalyzed with the analysis of other words or another tagger")
	}
	if len(words) == 0 {
		return
	}
	sc := t.getScratch()
	n := len(words)
	t.passes(sc, a.ws[k], n, t.model, nil)
	t.setTags(sc, words)
	a.scores[k] = append(a.scores[k][:0], sc.final[:n*len(t.tags)]...)
	a.classes[k] = slices.Grow(a.classes[k][:0], n)[:n]
	for i := range n {
		a.classes[k][i] = int32(sc.left[i+2] - 1)
	}
	t.pool.Put(sc)
}

// setTags writes the tags that passes left in sc to the words.
func (t *Tagger) setTags(sc *scratch, words []conllu.Word) {
	for i := range words {
		*columnOf(&words[i], t.column) = t.tags[sc.left[i+2]-1]
	}
}

// decide returns the best class of scores (the first of equal ones) and
// its margin over the second best (+Inf with one class).
func decide(scores []float32) (best int, margin float32) {
	m1, m2 := top2.Of(scores)
	return max(top2.Index(scores, m1), 0), m1 - m2
}

// sharesDict reports whether t and x read the two columns of one
// dictionary table.
func (t *Tagger) sharesDict(x *Tagger) bool {
	return t != nil && x != nil && len(t.dict.lines) > 0 && len(x.dict.lines) > 0 &&
		&t.dict.lines[0] == &x.dict.lines[0] && t.dict.col != x.dict.col
}

func (t *Tagger) getScratch() *scratch {
	if sc := t.pool.Get(); sc != nil {
		return sc
	}
	return &scratch{scores: make([]float32, len(t.tags))}
}

// pairsFit reports whether t is an XPOS tagger with the UPOS/XPOS pairs
// of its training data for the tag set of the UPOS tagger u.
func (t *Tagger) pairsFit(u *Tagger) bool {
	return len(t.pairs) == len(t.tags) && slices.Equal(t.pairUPOS, u.tags)
}

// scorer is a *linear.Model or *linear.Trainer.
type scorer interface {
	Scores(feats []uint64, scores []float32)
}

// run tags one sentence with s, leaving the predicted tags (class + 1) in
// sc.left[2:n+2]. When train is non-nil, s must be train.t, and every
// prediction that differs from the gold class is followed by a perceptron
// update.
func (t *Tagger) run(sc *scratch, words []conllu.Word, s scorer, train *trainState) {
	prepare(&sc.ws, &sc.keys, nil, words)
	if t.spacing {
		setSpacing(sc.ws, words, train != nil && train.hide)
	}
	if train != nil {
		train.masks(sc)
	} else {
		sc.masks = slices.Grow(sc.masks[:0], len(sc.keys))[:len(sc.keys)]
		sc.sink += t.dict.lookupAll(sc.keys, sc.masks)
	}
	setAmbs(sc.ws, sc.masks, len(words))
	setRoots(sc.ws, words, &t.dict)
	if t.guess != nil {
		t.guess.set(sc.ws, words, &t.dict, train, nil)
	}
	if t.clusters != nil {
		t.clusters.set(sc.ws, len(words))
	}
	t.passes(sc, sc.ws, len(words), s, train)
}

// prepare analyzes the words of a sentence into *ws (two padding words
// on each side) and lists their dictionary keys in *keys: the exact
// form, the lowercased form and the lowercased bigrams with the previous
// and the next word, four per word. When fw is not nil (it then has a
// place for each word), fw[i].Hashes are set to the hashes of word i's
// form.
func prepare(ws *[]wordInfo, keys *[]uint64, fw []form.Word, words []conllu.Word) {
	n := len(words)
	*ws = slices.Grow((*ws)[:0], n+4)[:n+4]
	w4 := *ws
	w4[0], w4[1], w4[n+2], w4[n+3] = bos, bos, eos, eos
	upper, letters := 0, 0
	for i := range words {
		w := &w4[i+2]
		*w = analyze(words[i].Form)
		if fw != nil {
			fw[i].Hashes = form.Hashes{Form: w.form, Lower: w.rawLower, Suffix3: form.Suffix3(words[i].Form)}
		}
		if w.flags&flagLetter != 0 {
			letters++
			if w.flags&flagInitUpper != 0 {
				upper++
			}
		}
	}
	sent := sentenceCase(upper, letters)
	k := slices.Grow((*keys)[:0], 4*n)
	for i := range words {
		w := &w4[i+2]
		w.sent = sent
		k = append(k, w.form, mix2(w.lower, lowerSalt),
			bigramKey(w4[i+1].rawLower, w.rawLower, leftSalt), bigramKey(w.rawLower, w4[i+3].rawLower, rightSalt))
	}
	*keys = k
}

// setAmbs sets the dictionary attributes of the n words of ws (padded as
// prepare leaves them) from their keys' tag sets in masks.
func setAmbs(ws []wordInfo, masks []uint64, n int) {
	for i := range n {
		w, m := &ws[i+2], masks[4*i:4*i+4]
		setAmb(w, m[0], m[1])
		w.lbi, w.rbi = m[2], m[3]
	}
}

// passes tags the n words of ws (set up by prepare and setAmbs) with s,
// in sc: see run.
func (t *Tagger) passes(sc *scratch, ws []wordInfo, n int, s scorer, train *trainState) {
	nc := len(t.tags)
	sc.left = slices.Grow(sc.left[:0], n+4)[:n+4]
	sc.right = slices.Grow(sc.right[:0], n+4)[:n+4]
	clear(sc.left)
	sc.margin = slices.Grow(sc.margin[:0], n)[:n]
	sc.final = slices.Grow(sc.final[:0], n*nc)[:n*nc]
	for pass := 0; pass < passes; pass++ {
		var right []uint64
		if pass > 0 {
			// The first pass's tags serve as right context, and as left
			// context for the words the second pass does not revisit.
			copy(sc.right, sc.left)
			right = sc.right
		}
		for i := 0; i < n; i++ {
			// At tagging time, the second pass only revisits the words
			// whose first-pass margin is below t.margin.
			if train == nil && pass > 0 && sc.margin[i] >= t.margin {
				continue
			}
			// A sure word (wordInfo.sure) takes its dictionary tag
			// unscored: a large share of the words of running text,
			// whose scored tags are almost never another one
			// (TestSureWordsUnscored checks both on EWT).
			if train == nil && pass == 0 && sureUnscored && ws[i+2].sure() {
				tag := bits.TrailingZeros64(ws[i+2].amb)
				sc.left[i+2] = uint64(tag) + 1
				sc.margin[i] = float32(math.Inf(1))
				sure(sc.final[i*nc:(i+1)*nc], tag)
				continue
			}
			scores := sc.scores[:nc]
			if train == nil && pass == 0 && t.fast != nil {
				sc.feats = extractFast(sc.feats[:0], ws, sc.left, i)
				t.fast.Scores(sc.feats, scores)
				if best, margin := decide(scores); margin >= t.fastMargin {
					sc.left[i+2] = uint64(best) + 1
					sc.margin[i] = float32(math.Inf(1))
					copy(sc.final[i*nc:], scores)
					continue
				}
			}
			sc.feats = extractStatic(sc.feats[:0], ws, i, pass)
			if t.guess != nil {
				sc.feats = extractGuess(sc.feats, ws, i, pass)
			}
			if t.clusters != nil {
				sc.feats = extractClusters(sc.feats, ws, i, pass)
			}
			if t.spacing {
				sc.feats = extractSpacing(sc.feats, ws, i, pass)
			}
			sc.feats = extractDynamic(sc.feats, ws, sc.left, right, i)
			s.Scores(sc.feats, scores)
			best, margin := decide(scores)
			if pass == 0 {
				sc.margin[i] = margin
			}
			copy(sc.final[i*nc:], scores)
			if train != nil {
				if g := train.gold[i]; g >= 0 && g != best {
					train.t.Update(sc.feats, g, best)
				}
				train.t.Tick()
			}
			sc.left[i+2] = uint64(best) + 1
		}
	}
}

// sure sets the scores of a word tagged tag unscored: 0 for tag, -Inf
// for the others.
func sure(scores []float32, tag int) {
	for j := range scores {
		scores[j] = float32(math.Inf(-1))
	}
	scores[tag] = 0
}

// sentenceCase classes a sentence by the share of its words with letters
// that start with a capital: 0 none, 1 up to a third, 2 up to two thirds,
// 3 more (headlines and titles), 4 no word with letters.
func sentenceCase(upper, letters int) uint64 {
	switch {
	case letters == 0:
		return 4
	case upper == 0:
		return 0
	case 3*upper <= letters:
		return 1
	case 3*upper <= 2*letters:
		return 2
	}
	return 3
}

// Accuracy tags copies of the words of sents (which are not modified) and
// returns the fraction of words with a gold tag (in the tagger's column)
// that get it right, and the number of such words (acc is 0 when words is
// 0).
func (t *Tagger) Accuracy(sents []*conllu.Sentence) (acc float64, words int) {
	var buf []conllu.Word
	correct := 0
	for _, s := range sents {
		buf = append(buf[:0], s.Words...)
		t.Tag(buf)
		for i, w := range s.Words {
			gold := *columnOf(&w, t.column)
			if conllu.Absent(gold) {
				continue
			}
			words++
			if *columnOf(&buf[i], t.column) == gold {
				correct++
			}
		}
	}
	if words == 0 {
		return 0, 0
	}
	return float64(correct) / float64(words), words
}
