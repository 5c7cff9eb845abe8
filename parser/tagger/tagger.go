// Package tagger is a part-of-speech tagger for the UPOS (universal) or
// XPOS (language-specific) column, so that plain tokens can be parsed.
//
// It is a greedy left-to-right sequence classifier trained as an averaged
// perceptron (Collins 2002, "Discriminative training methods for hidden
// Markov models: theory and experiments with perceptron algorithms", EMNLP)
// with package linear. Features are the usual rich lexical ones (word,
// lowercased word, prefixes and suffixes, word shape, neighbouring words,
// previously predicted tags; Ratnaparkhi 1996, Collins 2002) plus ambiguity
// classes from a tag dictionary built from the training data: the tags of
// the word form, of its lowercased form, and of the word in its lowercased
// bigrams with the previous and the next word. While training, each word's
// dictionary entries are computed without the word's own occurrence
// (leave-one-out), so that the training data looks like unseen text to the
// model, and forms that would not be in the dictionary are replaced by a
// "rare word" value, so that rare words are tagged from spelling and context
// (Ratnaparkhi 1996). Tagging runs in two passes with separate weights: the
// second pass sees, besides its own tags to the left, the first pass's tags
// of the following words, and revisits only the words whose first-pass
// decision had a small margin. A tagger trained with development data
// has a fast model in front of its first pass (14 of its templates,
// trained alone): a word the fast model scores with a margin of at least
// the one chosen on the development data (where it changes at most 0.02 %
// of the tags) takes its tag without the full model, as the parsers' fast
// classifiers do for parser states.
//
// On UD English EWT (training on train, 204,577 words) it tags dev with
// 95.6 % UPOS accuracy at about 350,000 words per second on one core.
//
// A Tagger is stored in the same model file as the parser, as one
// modelfmt.Classifier (see Tagger.Classifier and FromClassifier), and its
// fast model, if it has one, as a second (Classifiers and FromDocument
// handle both, and a model's two taggers together).
package tagger

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"math/bits"
	"math/rand"
	"slices"
	"sort"

	"github.com/transparse/transparse/internal/par"

	"github.com/transparse/transparse/internal/freelist"
	"github.com/transparse/transparse/internal/top2"
	"github.com/transparse/transparse/modelfmt"
	"github.com/transparse/transparse/parser/conllu"
	"github.com/transparse/transparse/parser/linear"
)

// Name is the modelfmt.Classifier name of a UPOS tagger
// (ClassifierName(UPOS)).
const Name = "tagger.upos"

// MaxTags is the largest tag set the tagger supports (the tag dictionary
// keeps one bit per tag).
const MaxTags = 64

// DefaultEpochs is the number of training epochs when Options.Epochs is 0.
const DefaultEpochs = 12

// passes is the number of tagging passes (see the package comment).
const passes = 2

// sureUnscored lets tagging give a word whose form and both lowercased
// bigrams have one and the same tag in the dictionary that tag without
// scoring it (tests compare with and without).
var sureUnscored = true

// Options configures Train.
type Options struct {
	// Column is the column to predict: UPOS (the default) or XPOS.
	Column string
	// Epochs is the number of passes over the training data (0 means
	// DefaultEpochs). The epoch that scores best on the development data is
	// kept, unless KeepLast is set.
	Epochs int
	// KeepLast keeps the last epoch without scoring the others on the
	// development data, which then only sets the second-pass threshold:
	// for taggers whose epoch count was already chosen (the jackknife
	// taggers of parser training use Epoch of the tagger trained on all
	// the data).
	KeepLast bool
	// Seed seeds the shuffling of the training sentences: the same data,
	// options and seed give the same tagger.
	Seed int64
	// Progress, if not nil, is called after each training sentence with the
	// words tagged so far and the words of all the epochs.
	Progress func(done, total int64)
	// Log, if non-nil, receives one line per epoch with the development
	// accuracy, and the epoch kept.
	Log io.Writer
}

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
	epoch      int                    // the training epoch kept (0: decoded from a file)
	pool       freelist.List[scratch] // per-call scratch; kept across GCs
}

// Epoch returns the training epoch the tagger is from (the one with the
// best development accuracy), or 0 for a tagger decoded from a model file.
func (t *Tagger) Epoch() int { return t.epoch }

// scratch is the working memory of tagging one sentence.
type scratch struct {
	ws          []wordInfo
	keys, masks []uint64  // dictionary lookups of the sentence (see lookupAll)
	sink        uint32    // lookupAll's touching loads
	left, right []uint64  // tags (class + 1) of the current and the first pass
	feats       []uint64  // features of the current word
	scores      []float32 // scores of the current word
	margin      []float32 // first-pass margin of each word
}

// Tags returns the tag set, indexed by class, in sorted order. The slice
// must not be modified.
func (t *Tagger) Tags() []string { return t.tags }

// Tag predicts the tag of every word of words (one sentence) from the word
// forms alone, and sets the tagger's column (Word.UPOS or Word.XPOS) to it,
// overwriting any value (callers that want to keep given tags decide before
// calling). Only Form is read. Tag is safe for concurrent use, and in the
// steady state it does not allocate.
func (t *Tagger) Tag(words []conllu.Word) { t.TagWithAmbiguity(words, nil) }

// TagWithAmbiguity is Tag, and also sets amb[i] to AmbiguityClass of the
// form of words[i] when amb is not nil (the tagger looks the forms up in
// its dictionary anyway, so this costs almost nothing). It panics if amb is
// not nil and shorter than words.
func (t *Tagger) TagWithAmbiguity(words []conllu.Word, amb []uint64) {
	if len(words) == 0 {
		return
	}
	if amb != nil {
		amb = amb[:len(words)]
	}
	sc := t.getScratch()
	t.run(sc, words, t.model, nil)
	t.finish(sc, words, amb)
}

// finish writes the tags that run or passes left in sc to the words and
// their ambiguity classes to amb (if not nil), and gives sc back.
func (t *Tagger) finish(sc *scratch, words []conllu.Word, amb []uint64) {
	for i := range words {
		*columnOf(&words[i], t.column) = t.tags[sc.left[i+2]-1]
	}
	for i := range amb {
		amb[i] = t.ambiguityHash(sc.ws[i+2].amb)
	}
	t.pool.Put(sc)
}

// TagPair tags words with u and then with x, taggers of two different
// columns, as u.TagWithAmbiguity(words, ambU) and then
// x.TagWithAmbiguity(words, ambX) do, with the same results. When the two
// share their dictionary (the UPOS and XPOS taggers of a model whose XPOS
// tagger shares the UPOS tagger's keys, as PairFromDocument loads them),
// the words are analyzed and their dictionary keys looked up once for
// both: a fifth of each tagger's work. Safe for concurrent use; it does
// not allocate in the steady state.
func TagPair(u, x *Tagger, words []conllu.Word, ambU, ambX []uint64) {
	if !u.sharesDict(x) {
		u.TagWithAmbiguity(words, ambU)
		x.TagWithAmbiguity(words, ambX)
		return
	}
	n := len(words)
	if n == 0 {
		return
	}
	if ambU != nil {
		ambU = ambU[:n]
	}
	if ambX != nil {
		ambX = ambX[:n]
	}
	su, sx := u.getScratch(), x.getScratch()
	prepare(su, words)
	sx.ws = append(sx.ws[:0], su.ws...)
	su.masks = slices.Grow(su.masks[:0], len(su.keys))[:len(su.keys)]
	sx.masks = slices.Grow(sx.masks[:0], len(su.keys))[:len(su.keys)]
	m0, m1 := su.masks, sx.masks
	if u.dict.col == 1 {
		m0, m1 = m1, m0
	}
	su.sink += u.dict.lookupAll2(su.keys, m0, m1)
	setAmbs(su, n)
	setAmbs(sx, n)
	u.passes(su, n, u.model, nil)
	x.passes(sx, n, x.model, nil)
	u.finish(su, words, ambU)
	x.finish(sx, words, ambX)
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

// scorer is a *linear.Model or *linear.Trainer.
type scorer interface {
	Scores(feats []uint64, scores []float32)
}

// trainState is what run needs to learn from a sentence.
type trainState struct {
	t      *linear.Trainer
	gold   []int     // gold class of each word, -1 for none
	counts tagCounts // training tag counts, for leave-one-out dictionary classes
}

// setGold sets the gold class of each word (-1 where the column is absent)
// and returns the number of words with one.
func (ts *trainState) setGold(words []conllu.Word, column string, tagID map[string]int) (tagged int) {
	ts.gold = ts.gold[:0]
	for i := range words {
		g := -1
		if v := *columnOf(&words[i], column); !conllu.Absent(v) {
			g = tagID[v]
			tagged++
		}
		ts.gold = append(ts.gold, g)
	}
	return tagged
}

// masks sets sc.masks to the training dictionary's tag sets of the keys in
// sc.keys, each word's own occurrence left out.
func (ts *trainState) masks(sc *scratch) {
	sc.masks = slices.Grow(sc.masks[:0], len(sc.keys))[:len(sc.keys)]
	for j, k := range sc.keys {
		sc.masks[j] = ts.counts.mask(k, ts.gold[j/4])
	}
}

// run tags one sentence with s, leaving the predicted tags (class + 1) in
// sc.left[2:n+2]. When train is non-nil, s must be train.t, and every
// prediction that differs from the gold class is followed by a perceptron
// update.
func (t *Tagger) run(sc *scratch, words []conllu.Word, s scorer, train *trainState) {
	prepare(sc, words)
	if train != nil {
		train.masks(sc)
	} else {
		sc.masks = slices.Grow(sc.masks[:0], len(sc.keys))[:len(sc.keys)]
		sc.sink += t.dict.lookupAll(sc.keys, sc.masks)
	}
	setAmbs(sc, len(words))
	t.passes(sc, len(words), s, train)
}

// prepare analyzes the words of a sentence into sc.ws (two padding words
// on each side) and lists their dictionary keys in sc.keys: the exact
// form, the lowercased form and the lowercased bigrams with the previous
// and the next word, four per word.
func prepare(sc *scratch, words []conllu.Word) {
	n := len(words)
	sc.ws = slices.Grow(sc.ws[:0], n+4)[:n+4]
	ws := sc.ws
	ws[0], ws[1], ws[n+2], ws[n+3] = bos, bos, eos, eos
	upper, letters := 0, 0
	for i := range words {
		w := &ws[i+2]
		*w = analyze(words[i].Form)
		if w.flags&flagLetter != 0 {
			letters++
			if w.flags&flagInitUpper != 0 {
				upper++
			}
		}
	}
	sent := sentenceCase(upper, letters)
	sc.keys = slices.Grow(sc.keys[:0], 4*n)
	for i := range words {
		w := &ws[i+2]
		w.sent = sent
		sc.keys = append(sc.keys, w.form, mix2(w.lower, lowerSalt),
			bigramKey(ws[i+1].rawLower, w.rawLower, leftSalt), bigramKey(w.rawLower, ws[i+3].rawLower, rightSalt))
	}
}

// setAmbs sets the dictionary attributes of the n words of sc.ws from
// their keys' tag sets in sc.masks.
func setAmbs(sc *scratch, n int) {
	for i := range n {
		w, m := &sc.ws[i+2], sc.masks[4*i:4*i+4]
		setAmb(w, m[0], m[1])
		w.lbi, w.rbi = m[2], m[3]
	}
}

// passes tags the n words of sc.ws (set up by prepare and setAmbs) with s:
// see run.
func (t *Tagger) passes(sc *scratch, n int, s scorer, train *trainState) {
	nc := len(t.tags)
	ws := sc.ws
	sc.left = slices.Grow(sc.left[:0], n+4)[:n+4]
	sc.right = slices.Grow(sc.right[:0], n+4)[:n+4]
	clear(sc.left)
	sc.margin = slices.Grow(sc.margin[:0], n)[:n]
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
			// unscored: 24 % of the words of EWT dev and test, whose tags
			// then differ from the scored ones in none of 50,241 with
			// UPOS and in 4 with XPOS, 2 more of them right
			// (TestSureWordsUnscored).
			if train == nil && pass == 0 && sureUnscored && ws[i+2].sure() {
				sc.left[i+2] = uint64(bits.TrailingZeros64(ws[i+2].amb)) + 1
				sc.margin[i] = float32(math.Inf(1))
				continue
			}
			scores := sc.scores[:nc]
			if train == nil && pass == 0 && t.fast != nil {
				sc.feats = extractFast(sc.feats[:0], ws, sc.left, i)
				t.fast.Scores(sc.feats, scores)
				if best, margin := decide(scores); margin >= t.fastMargin {
					sc.left[i+2] = uint64(best) + 1
					sc.margin[i] = float32(math.Inf(1))
					continue
				}
			}
			sc.feats = extractStatic(sc.feats[:0], ws, i, pass)
			sc.feats = extractDynamic(sc.feats, ws, sc.left, right, i)
			s.Scores(sc.feats, scores)
			best, margin := decide(scores)
			if pass == 0 {
				sc.margin[i] = margin
			}
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

// freezeOptions returns how the averaged weights of a tagger trained on the
// given number of words become the stored model: weights are quantized to
// linear.TrainedWeightBits bits, keys are truncated to 40 bits (an unknown feature has a chance of
// about 1 in 10 million of matching a stored one), and with enough data
// features updated fewer than 2 or 3 times are dropped. On EWT (200,000
// words) dropping them halves the model and makes tagging faster at no
// measurable cost in accuracy; on 30,000 words it would cost 0.15 points.
func freezeOptions(words int) linear.FreezeOptions {
	return linear.FreezeOptions{MinUpdates: min(3, max(1, words/50000)), Precision: linear.Int16, KeyBits: 40, WeightBits: linear.TrainedWeightBits}
}

// Train trains a tagger on the tags of train in opt.Column (UPOS by
// default), keeping the epoch with the best accuracy on dev (the last epoch
// when dev has no tagged words). Words whose tag is absent ("" or "_") are
// neither learned from nor scored. The sentences are not modified. It
// returns an error if the column is not UPOS or XPOS, if train has no tagged
// word or more than MaxTags distinct tags, or if opt.Epochs < 0. On EWT it
// takes about 25 seconds.
func Train(train, dev []*conllu.Sentence, opt Options) (*Tagger, error) {
	if opt.Column == "" {
		opt.Column = UPOS
	}
	if opt.Column != UPOS && opt.Column != XPOS {
		return nil, fmt.Errorf("tagger: unknown column %q (want UPOS or XPOS)", opt.Column)
	}
	epochs := opt.Epochs
	if epochs == 0 {
		epochs = DefaultEpochs
	}
	if epochs < 0 {
		return nil, fmt.Errorf("tagger: %d epochs", epochs)
	}
	// The tag set, sorted.
	tagID := map[string]int{}
	words := 0
	for _, s := range train {
		for _, w := range s.Words {
			if v := *columnOf(&w, opt.Column); !conllu.Absent(v) {
				tagID[v] = 0
				words++
			}
		}
	}
	if words == 0 {
		return nil, fmt.Errorf("tagger: no training word has a %s tag", opt.Column)
	}
	if len(tagID) > MaxTags {
		return nil, fmt.Errorf("tagger: %d distinct %s tags in the training data, at most %d supported", len(tagID), opt.Column, MaxTags)
	}
	tags := make([]string, 0, len(tagID))
	for tag := range tagID {
		tags = append(tags, tag)
	}
	sort.Strings(tags)
	for i, tag := range tags {
		tagID[tag] = i
	}

	d, counts := buildDict(train, opt.Column, tagID)
	t := &Tagger{tags: tags, dict: d, margin: float32(math.Inf(1)), column: opt.Column}
	tr := linear.NewTrainer(len(tags))
	sc := t.getScratch()
	state := &trainState{t: tr, counts: counts}
	order := make([]int, 0, len(train))
	for i, s := range train {
		if len(s.Words) > 0 {
			order = append(order, i)
		}
	}
	rng := rand.New(rand.NewSource(opt.Seed))

	total, done := int64(words)*int64(epochs), int64(0)
	var best *linear.Model
	bestAcc, bestEpoch, hasDev := -1.0, 0, false
	for epoch := 1; epoch <= epochs; epoch++ {
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		for _, si := range order {
			s := train[si]
			tagged := state.setGold(s.Words, opt.Column, tagID)
			t.run(sc, s.Words, tr, state)
			if opt.Progress != nil {
				done += int64(tagged)
				opt.Progress(done, total)
			}
		}
		if opt.KeepLast && epoch < epochs {
			continue
		}
		t.model = tr.Freeze(freezeOptions(words))
		acc, scored := t.Accuracy(dev)
		hasDev = scored > 0
		if !hasDev || acc > bestAcc {
			best, bestAcc, bestEpoch = t.model, acc, epoch
		}
		if opt.Log != nil {
			if scored > 0 {
				fmt.Fprintf(opt.Log, "tagger: epoch %d/%d: dev %s %.2f%% (%d words); %d features, %d weights\n",
					epoch, epochs, opt.Column, 100*acc, scored, t.model.NumFeatures(), t.model.NumWeights())
			} else {
				fmt.Fprintf(opt.Log, "tagger: epoch %d/%d: no dev words; %d features, %d weights\n",
					epoch, epochs, t.model.NumFeatures(), t.model.NumWeights())
			}
		}
	}
	if opt.Log != nil && hasDev {
		fmt.Fprintf(opt.Log, "tagger: keeping epoch %d (dev %s %.2f%%)\n", bestEpoch, opt.Column, 100*bestAcc)
	}
	t.model, t.epoch = best, bestEpoch
	// The second-pass threshold: a quantile of the first-pass margins on
	// the development data (on part of the training data without it).
	sample := dev
	if !hasDev {
		sample = train[:min(len(train), 2000)]
	}
	t.margin = t.marginQuantile(sample, redoShare)
	if opt.Log != nil && hasDev {
		acc, _ := t.Accuracy(dev)
		fmt.Fprintf(opt.Log, "tagger: second pass on %.0f%% of the words (margin < %.3g): dev %s %.2f%%\n",
			100*redoShare, t.margin, opt.Column, 100*acc)
	}
	if !opt.KeepLast && hasDev {
		t.trainFast(train, dev, order, rng, state, tagID, words)
		if opt.Log != nil && t.fast != nil {
			acc, _ := t.Accuracy(dev)
			fmt.Fprintf(opt.Log, "tagger: fast model (%d templates) in front, margin %.3g: dev %s %.2f%%\n",
				len(fastTemplates), t.fastMargin, opt.Column, 100*acc)
		}
	}
	return t, nil
}

// fastMaxChange is the share of the words the first pass scores on the
// development data whose tag the fast model may change (see trainFast).
const fastMaxChange = 2e-4

// trainFast trains t's fast model (Tagger.fast) for as many epochs as t's
// model was trained (t.epoch), over train in the order rng shuffles,
// with the dictionary classes of t's training (state.counts, leave one
// out) and its own predictions as left context; then picks its margin on
// dev: the smallest at which the first-pass tags it decides differ from
// t's final tags in at most fastMaxChange of the words scored. It leaves
// t.fast nil if no margin qualifies.
func (t *Tagger) trainFast(train, dev []*conllu.Sentence, order []int, rng *rand.Rand, state *trainState, tagID map[string]int, words int) {
	nc := len(t.tags)
	tr := linear.NewTrainer(nc)
	sc := t.getScratch()
	defer t.pool.Put(sc)
	scores := make([]float32, nc)
	for epoch := 1; epoch <= max(t.epoch, 1); epoch++ {
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		for _, si := range order {
			s := train[si]
			state.setGold(s.Words, t.column, tagID)
			n := len(s.Words)
			prepare(sc, s.Words)
			state.masks(sc)
			setAmbs(sc, n)
			sc.left = slices.Grow(sc.left[:0], n+4)[:n+4]
			clear(sc.left)
			for i := range n {
				sc.feats = extractFast(sc.feats[:0], sc.ws, sc.left, i)
				tr.Scores(sc.feats, scores)
				best, _ := decide(scores)
				if g := state.gold[i]; g >= 0 && g != best {
					tr.Update(sc.feats, g, best)
				}
				tr.Tick()
				sc.left[i+2] = uint64(best) + 1
			}
		}
	}
	fast := tr.Freeze(freezeOptions(words))

	// Margin and change (fast tag != final tag) of every word of dev the
	// first pass scores, the left context being the final tags.
	type rec struct {
		margin  float32
		changed bool
	}
	var recs []rec
	final := make([]uint64, 0, 256)
	for _, s := range dev {
		n := len(s.Words)
		if n == 0 {
			continue
		}
		t.run(sc, s.Words, t.model, nil)
		final = append(final[:0], sc.left[:n+4]...)
		for i := range n {
			if sureUnscored && sc.ws[i+2].sure() {
				continue
			}
			sc.feats = extractFast(sc.feats[:0], sc.ws, final, i)
			fast.Scores(sc.feats, scores)
			best, margin := decide(scores)
			recs = append(recs, rec{margin, uint64(best)+1 != final[i+2]})
		}
	}
	slices.SortFunc(recs, func(a, b rec) int { return cmp.Compare(b.margin, a.margin) })
	limit := int(fastMaxChange * float64(len(recs)))
	margin, changes := float32(math.Inf(1)), 0
	for j := 0; j < len(recs); {
		// All words with this margin are decided together.
		e := j
		for e < len(recs) && recs[e].margin == recs[j].margin {
			if recs[e].changed {
				changes++
			}
			e++
		}
		if changes > limit || math.IsNaN(float64(recs[j].margin)) {
			break
		}
		margin = recs[j].margin
		j = e
	}
	if !math.IsInf(float64(margin), 1) {
		t.fast, t.fastMargin = fast, margin
	}
}

// redoShare is the share of words (with the smallest first-pass margins)
// the second pass revisits. On EWT dev, revisiting the 20 % least certain
// words gives the accuracy of revisiting all of them, for a fifth of the
// cost; revisiting none loses 0.1 points.
var redoShare = 0.2

// marginQuantile returns the q-quantile of the first-pass margins of the
// words of sents (+Inf if there are none).
func (t *Tagger) marginQuantile(sents []*conllu.Sentence, q float64) float32 {
	var margins []float32
	sc := t.getScratch()
	saved := t.margin
	t.margin = float32(math.Inf(-1)) // first pass only
	for _, s := range sents {
		if len(s.Words) > 0 {
			t.run(sc, s.Words, t.model, nil)
			margins = append(margins, sc.margin[:len(s.Words)]...)
		}
	}
	t.margin = saved
	t.pool.Put(sc)
	if len(margins) == 0 {
		return float32(math.Inf(1))
	}
	slices.Sort(margins)
	return margins[min(len(margins)-1, int(q*float64(len(margins))))]
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

// Classifier encodes the tagger for the model file, named
// ClassifierName(Column()): Classes are the tags, Templates name the feature
// templates, and besides the linear model's params and blobs (layout
// linear.Layout) it holds the tag dictionary in the blobs
// "tagger.dict.keys" (sorted 40-bit key hashes as uvarint deltas) and
// "tagger.dict.masks" (one uvarint tag bit set per key), and the params
// "tagger.feature_version" (FeatureVersion), "tagger.passes",
// "tagger.dict_entries" and "tagger.pass2_margin_bits" (the float32 bits of
// the second-pass margin threshold). The result shares no memory with the
// tagger. It does not hold the fast model (Classifiers encodes it as a
// classifier of its own): FromClassifier of it gives the tagger without.
func (t *Tagger) Classifier() modelfmt.Classifier {
	c := t.model.Classifier(ClassifierName(t.Column()), templateNames[1:], t.tags)
	c.Params["tagger.feature_version"] = FeatureVersion
	c.Params["tagger.passes"] = passes
	c.Params[dictEntries] = int64(t.dict.n)
	c.Params["tagger.pass2_margin_bits"] = int64(math.Float32bits(t.margin))
	keys, masks := t.dict.encode()
	c.Blobs[dictKeysBlob] = keys
	c.Blobs[dictMasksBlob] = masks
	return c
}

// FromClassifier decodes a tagger written by Tagger.Classifier; its column
// comes from the classifier name. A corrupted or incompatible classifier
// (an unknown name, another feature version or pass count, empty or
// repeated tags, inconsistent sizes, a bad dictionary or linear model) gives
// an error, never a panic. The result shares no memory with c.
func FromClassifier(c *modelfmt.Classifier) (*Tagger, error) { return fromClassifier(c, true) }

// fromClassifier is FromClassifier, without the dictionary unless
// withDict (the caller then decodes it).
func fromClassifier(c *modelfmt.Classifier, withDict bool) (*Tagger, error) {
	if c == nil {
		return nil, errors.New("tagger: nil classifier")
	}
	fail := func(format string, args ...any) (*Tagger, error) { return nil, classifierError(c, format, args...) }
	if v := c.Params["tagger.feature_version"]; v != FeatureVersion {
		return fail("feature version %d, this tagger computes version %d", v, FeatureVersion)
	}
	if p := c.Params["tagger.passes"]; p != passes {
		return fail("%d passes, this tagger runs %d", p, passes)
	}
	if len(c.Classes) == 0 || len(c.Classes) > MaxTags {
		return fail("%d tags, want 1..%d", len(c.Classes), MaxTags)
	}
	seen := map[string]bool{}
	for _, tag := range c.Classes {
		if tag == "" || seen[tag] {
			return fail("empty or repeated tag %q", tag)
		}
		seen[tag] = true
	}
	m, err := linear.FromClassifier(c)
	if err != nil {
		return nil, fmt.Errorf("tagger: %w", err)
	}
	margin, ok := float32Param(c, "tagger.pass2_margin_bits")
	if !ok {
		return fail("missing or invalid param \"tagger.pass2_margin_bits\"")
	}
	var d dict
	if withDict {
		if d, err = decodeDict(c.Blobs[dictKeysBlob], c.Blobs[dictMasksBlob], c.Params[dictEntries], len(c.Classes)); err != nil {
			return fail("%v", err)
		}
	}
	col := columnFromName(c.Name)
	if col == "" {
		return fail("unknown tagger name (want %q or %q)", ClassifierName(UPOS), ClassifierName(XPOS))
	}
	return &Tagger{tags: slices.Clone(c.Classes), model: m, dict: d, margin: margin, column: col}, nil
}

// Params and blobs of the dictionary shared by a model's two taggers.
const (
	dictKeysBlob  = "tagger.dict.keys"
	dictMasksBlob = "tagger.dict.masks"
	dictEntries   = "tagger.dict_entries"
	// DictKeysShared is the XPOS tagger's param that, set to 1, says its
	// dictionary keys are the UPOS tagger's blob "tagger.dict.keys" (both
	// taggers are trained on the same words), which it then does not hold.
	DictKeysShared = "tagger.dict.keys_shared"
)

// Classifiers encodes a model's taggers for its document, UPOS first,
// then their fast models (ClassifierName(column) + FastSuffix); either
// tagger may be nil. When the two dictionaries have the same keys, the
// XPOS tagger's are not stored again (DictKeysShared): FromDocument and
// PairFromDocument restore them.
func Classifiers(upos, xpos *Tagger) []modelfmt.Classifier {
	var out []modelfmt.Classifier
	if upos != nil {
		out = append(out, upos.Classifier())
	}
	if xpos != nil {
		x := xpos.Classifier()
		if upos != nil && bytes.Equal(x.Blobs[dictKeysBlob], out[0].Blobs[dictKeysBlob]) {
			delete(x.Blobs, dictKeysBlob)
			x.Params[DictKeysShared] = 1
		}
		out = append(out, x)
	}
	for _, t := range []*Tagger{upos, xpos} {
		if t != nil && t.fast != nil {
			out = append(out, t.fastClassifier())
		}
	}
	return out
}

// FastSuffix ends the name of a tagger's fast model in a model file:
// ClassifierName(column) + FastSuffix.
const FastSuffix = ".fast"

// fastMarginParam is the param of a fast model's classifier holding the
// float32 bits of its margin (Tagger.fastMargin).
const fastMarginParam = "tagger.fast_margin_bits"

// fastClassifier encodes t's fast model (t.fast must not be nil): a
// linear classifier named ClassifierName(Column()) + FastSuffix with the
// tagger's tags as classes, fastTemplates as templates, and the params
// "tagger.feature_version" and "tagger.fast_margin_bits" (the float32
// bits of the margin from which its decisions stand).
func (t *Tagger) fastClassifier() modelfmt.Classifier {
	c := t.fast.Classifier(ClassifierName(t.Column())+FastSuffix, fastTemplateNames(), t.tags)
	c.Params["tagger.feature_version"] = FeatureVersion
	c.Params[fastMarginParam] = int64(math.Float32bits(t.fastMargin))
	return c
}

// attachFast decodes the fast model of t from classifiers, if there is
// one (see fastModel).
func (t *Tagger) attachFast(classifiers []modelfmt.Classifier) error {
	m, margin, err := fastModel(classifiers, t.Column(), t.tags)
	if err == nil && m != nil {
		t.fast, t.fastMargin = m, margin
	}
	return err
}

// fastModel decodes the fast model of the tagger of column with the given
// tags from classifiers: nil without error if there is none. Its tags
// must be the tagger's, its feature version this tagger's, its margin a
// float32 that is not NaN.
func fastModel(classifiers []modelfmt.Classifier, column string, tags []string) (*linear.Model, float32, error) {
	c := findClassifier(classifiers, ClassifierName(column)+FastSuffix)
	if c == nil {
		return nil, 0, nil
	}
	if v := c.Params["tagger.feature_version"]; v != FeatureVersion {
		return nil, 0, classifierError(c, "feature version %d, this tagger computes version %d", v, FeatureVersion)
	}
	if !slices.Equal(c.Classes, tags) {
		return nil, 0, classifierError(c, "its %d tags are not those of its tagger", len(c.Classes))
	}
	margin, ok := float32Param(c, fastMarginParam)
	if !ok {
		return nil, 0, classifierError(c, "missing or invalid param %q", fastMarginParam)
	}
	m, err := linear.FromClassifier(c)
	if err != nil {
		return nil, 0, fmt.Errorf("tagger: %w", err)
	}
	return m, margin, nil
}

// FromDocument decodes the tagger of column (UPOS or XPOS) from the
// classifiers of a model document, with its fast model if the document
// has one, nil without error if there is no tagger. An XPOS tagger whose
// dictionary keys are shared (DictKeysShared) takes them from the UPOS
// tagger; sharing without a UPOS tagger, or with keys of its own, is an
// error, as is anything FromClassifier rejects or a fast model that does
// not fit its tagger.
func FromDocument(classifiers []modelfmt.Classifier, column string) (*Tagger, error) {
	c := findClassifier(classifiers, ClassifierName(column))
	if c == nil {
		return nil, nil
	}
	u, err := sharedKeys(classifiers, c, column)
	if err != nil {
		return nil, err
	}
	if u != nil {
		shared := *c
		shared.Blobs = make(map[string][]byte, len(c.Blobs)+1) // c.Blobs may be nil
		maps.Copy(shared.Blobs, c.Blobs)
		shared.Blobs[dictKeysBlob] = u.Blobs[dictKeysBlob]
		c = &shared
	}
	t, err := FromClassifier(c)
	if err != nil {
		return nil, err
	}
	if t.Column() != column {
		return nil, fmt.Errorf("tagger: classifier %q tags %s", c.Name, t.Column())
	}
	if err := t.attachFast(classifiers); err != nil {
		return nil, err
	}
	return t, nil
}

// findClassifier returns the classifier called name, nil if there is none.
func findClassifier(classifiers []modelfmt.Classifier, name string) *modelfmt.Classifier {
	for i := range classifiers {
		if classifiers[i].Name == name {
			return &classifiers[i]
		}
	}
	return nil
}

// classifierError is the error for what is wrong with classifier c.
func classifierError(c *modelfmt.Classifier, format string, args ...any) error {
	return fmt.Errorf("tagger: classifier %q: %s", c.Name, fmt.Sprintf(format, args...))
}

// float32Param returns the float32 whose bits param name of c holds; ok
// is false if the param is missing, out of range or NaN.
func float32Param(c *modelfmt.Classifier, name string) (v float32, ok bool) {
	b, ok := c.Params[name]
	v = math.Float32frombits(uint32(b))
	return v, ok && b >= 0 && b <= math.MaxUint32 && !math.IsNaN(float64(v))
}

// sharedKeys returns the UPOS tagger's classifier if c, the tagger of
// column, shares its dictionary keys (DictKeysShared), nil if it does not,
// and an error if it claims to wrongly: in another column, without a UPOS
// tagger, or with keys of its own.
func sharedKeys(classifiers []modelfmt.Classifier, c *modelfmt.Classifier, column string) (*modelfmt.Classifier, error) {
	v, ok := c.Params[DictKeysShared]
	if !ok {
		return nil, nil
	}
	u := findClassifier(classifiers, ClassifierName(UPOS))
	switch {
	case v != 1 || column != XPOS:
		return nil, fmt.Errorf("tagger: classifier %q: param %q = %d", c.Name, DictKeysShared, v)
	case u == nil:
		return nil, fmt.Errorf("tagger: classifier %q shares the dictionary keys of a missing UPOS tagger", c.Name)
	case c.Blobs[dictKeysBlob] != nil:
		return nil, fmt.Errorf("tagger: classifier %q shares dictionary keys but has its own", c.Name)
	}
	return u, nil
}

// PairFromDocument decodes a model's UPOS and XPOS taggers as FromDocument
// does for each column (a tagger the document lacks is nil; errU and errX
// are the errors of each). When the XPOS tagger shares the UPOS tagger's
// dictionary keys, the two read one dictionary table holding both
// columns' tag sets, which TagPair looks up once per key for both (and
// which is decoded once). The decoding steps run on all CPUs (PairSteps).
func PairFromDocument(classifiers []modelfmt.Classifier) (upos, xpos *Tagger, errU, errX error) {
	steps, done := PairSteps(classifiers)
	par.Do(steps)
	return done()
}

// PairSteps returns the independent steps that decode a model's UPOS and
// XPOS taggers, for a caller to run with par.Do beside steps of its own,
// and done, which returns what PairFromDocument does once all the steps
// have run (not before). The steps are the taggers' linear models, their
// fast models and the shared dictionary, each with its cost estimate.
func PairSteps(classifiers []modelfmt.Classifier) (steps []par.Step, done func() (upos, xpos *Tagger, errU, errX error)) {
	u := findClassifier(classifiers, ClassifierName(UPOS))
	x := findClassifier(classifiers, ClassifierName(XPOS))
	var upos, xpos *Tagger
	var errU, errX error
	result := func() (*Tagger, *Tagger, error, error) { return upos, xpos, errU, errX }
	// alone decodes the tagger of column by itself (FromDocument).
	alone := func(c *modelfmt.Classifier, column string, t **Tagger, err *error) par.Step {
		return par.Step{Cost: linear.BuildCost(c) + dictCost(c), Run: func() { *t, *err = FromDocument(classifiers, column) }}
	}
	var uk *modelfmt.Classifier
	if x != nil {
		if uk, errX = sharedKeys(classifiers, x, XPOS); errX != nil {
			return []par.Step{alone(u, UPOS, &upos, &errU)}, result
		}
	}
	if uk == nil || u != uk {
		// Two dictionaries (or none to share): each tagger on its own.
		return []par.Step{alone(u, UPOS, &upos, &errU), alone(x, XPOS, &xpos, &errX)}, result
	}
	var d dict
	var dictErr, colErr error
	var uf, xf *linear.Model
	var ufMargin, xfMargin float32
	var errUF, errXF error
	steps = []par.Step{
		{Cost: linear.BuildCost(u), Run: func() { upos, errU = fromClassifier(u, false) }},
		{Cost: linear.BuildCost(x), Run: func() { xpos, errX = fromClassifier(x, false) }},
		{Cost: dictCost(u), Run: func() {
			d, dictErr = decodeDict(u.Blobs[dictKeysBlob], u.Blobs[dictMasksBlob], u.Params[dictEntries], len(u.Classes))
			switch {
			case dictErr != nil:
			case x.Params[dictEntries] != u.Params[dictEntries]:
				colErr = classifierError(x, "%d dictionary entries for the %d shared keys", x.Params[dictEntries], u.Params[dictEntries])
			default:
				if err := d.addColumn(x.Blobs[dictMasksBlob], len(x.Classes)); err != nil {
					colErr = classifierError(x, "%v", err)
				}
			}
		}},
		{Cost: linear.BuildCost(findClassifier(classifiers, ClassifierName(UPOS)+FastSuffix)), Run: func() {
			uf, ufMargin, errUF = fastModel(classifiers, UPOS, u.Classes)
		}},
		{Cost: linear.BuildCost(findClassifier(classifiers, ClassifierName(XPOS)+FastSuffix)), Run: func() {
			xf, xfMargin, errXF = fastModel(classifiers, XPOS, x.Classes)
		}},
	}
	return steps, func() (*Tagger, *Tagger, error, error) {
		switch {
		case errU != nil:
			return nil, nil, errU, errX
		case dictErr != nil:
			return nil, nil, classifierError(u, "%v", dictErr), errX
		case errX != nil:
			return nil, nil, nil, errX
		case colErr != nil:
			return nil, nil, nil, colErr
		case errUF != nil:
			return nil, nil, errUF, nil
		case errXF != nil:
			return nil, nil, nil, errXF
		}
		upos.fast, upos.fastMargin = uf, ufMargin
		xpos.fast, xpos.fastMargin = xf, xfMargin
		upos.dict = d
		xpos.dict = d
		xpos.dict.col = 1
		return upos, xpos, nil, nil
	}
}

// dictCost estimates the time decoding the tag dictionary of c takes, in
// nanoseconds of one core: about 65 per entry, both columns
// (linear.BuildCost's unit).
func dictCost(c *modelfmt.Classifier) int64 {
	if c == nil {
		return 0
	}
	return 65 * min(max(0, c.Params[dictEntries]), 1<<40)
}
