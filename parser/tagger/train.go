package tagger

import (
	"cmp"
	"fmt"
	"io"
	"maps"
	"math"
	"math/rand"
	"slices"
	"sort"

	"github.com/transparse/transparse/parser/conllu"
	"github.com/transparse/transparse/parser/linear"
)

// DefaultEpochs is the number of training epochs when Options.Epochs is 0.
const DefaultEpochs = 12

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
	// WeightBits is the number of bits (sign included, 2..16) the stored
	// weights are rounded to (0 means linear.TrainedWeightBits).
	WeightBits int
	// Progress, if not nil, is called after each training sentence with the
	// words tagged so far and the words of all the epochs.
	Progress func(done, total int64)
	// Log, if non-nil, receives one line per epoch with the development
	// accuracy, and the epoch kept.
	Log io.Writer
	// Clusters, if not nil, are word clusters whose features the tagger
	// learns and reads (see Clusters); the tagger keeps them.
	Clusters *Clusters
	// Runs is the number of perceptrons trained side by side, each on its
	// own order of the training sentences (the first in Seed's order, as
	// with one run), whose averaged weights are averaged again into the
	// tagger's one model (linear.FreezeMean) at every epoch: an ensemble
	// at the tagging cost of one model, for Runs times the training time
	// (0 means 1).
	Runs int
	// MinAbs drops the weights (the runs' mean) smaller than this in
	// absolute value when the model is frozen, in the full and the fast
	// model (0 keeps all): on EWT, the mean of three runs pruned at 1 is
	// smaller than one run unpruned and tags better. On small treebanks,
	// whose weights are smaller, it costs accuracy.
	MinAbs float32
	// Spacing makes the tagger read whether words are spaced in the text
	// (MISC SpaceAfter=No; see setSpacing).
	Spacing bool
}

// trainState is what run needs to learn from a sentence.
type trainState struct {
	t      *linear.Trainer
	gold   []int      // gold class of each word, -1 for none
	counts tagCounts  // training tag counts, for leave-one-out dictionary classes
	own    []guessOwn // each word's own lemma rule and lemma key (with a guesser)
	hide   bool       // the sentence is shown without its spacing (see setSpacing)
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

// freezeOptions returns how the averaged weights of a tagger trained on the
// given number of words become the stored model: weights are quantized to
// bits bits (0: linear.TrainedWeightBits), keys are truncated to 32 bits
// like the parser's (an unknown feature has a chance of about 1 in 30,000
// of matching one of EWT's 140,000 stored ones; the bundled model's dev
// and test scores are those of 40-bit keys, its file 0.5 MB smaller, with
// the lemmatizer's and FEATS tagger's keys cut alike), and with enough
// data features updated fewer than 2 or 3 times are dropped. On a treebank of
// EWT's size dropping them makes the model much smaller and tagging
// faster at no measurable cost in accuracy; on a small treebank it would
// cost accuracy, hence the threshold grows with the data. Weights below
// minAbs in absolute value are dropped (Options.MinAbs).
func freezeOptions(words, bits int, minAbs float32) linear.FreezeOptions {
	if bits == 0 {
		bits = linear.TrainedWeightBits
	}
	return linear.FreezeOptions{MinUpdates: min(3, max(1, words/50000)), MinAbs: minAbs,
		Precision: linear.Int16, KeyBits: 32, WeightBits: bits}
}

// Train trains a tagger on the tags of train in opt.Column (UPOS by
// default), keeping the epoch with the best accuracy on dev (the last epoch
// when dev has no tagged words). Words whose tag is absent ("" or "_") are
// neither learned from nor scored. The sentences are not modified. It
// returns an error if the column is not UPOS or XPOS, if train has no tagged
// word or more than MaxTags distinct tags, if opt.Epochs or opt.Runs is
// negative, or if opt.MinAbs is negative or not a number.
func Train(train, dev []*conllu.Sentence, opt Options) (*Tagger, error) {
	if err := opt.check(); err != nil {
		return nil, err
	}
	tags, tagID, words, err := tagSet(train, opt.Column)
	if err != nil {
		return nil, err
	}
	d, counts := buildDict(train, opt.Column, tagID)
	t := &Tagger{tags: tags, dict: d, margin: float32(math.Inf(1)), column: opt.Column}
	t.guess = trainGuesser(train, opt.Column, tagID)
	t.clusters = opt.Clusters
	t.spacing = opt.Spacing
	if opt.Column == XPOS {
		t.pairs, t.pairUPOS = seenPairs(train, tagID)
	}
	order := make([]int, 0, len(train))
	for i, s := range train {
		if len(s.Words) > 0 {
			order = append(order, i)
		}
	}
	// One trainer, state, sentence order and shuffle per run; the first
	// run's are those of a single run.
	runs := make([]*trainRun, max(opt.Runs, 1))
	for k := range runs {
		runs[k] = &trainRun{st: &trainState{t: linear.NewTrainer(len(tags)), counts: counts}, order: slices.Clone(order),
			rng: rand.New(rand.NewSource(linear.RunSeed(opt.Seed, k)))}
	}
	fo := freezeOptions(words, opt.WeightBits, opt.MinAbs)
	hasDev := t.trainEpochs(train, dev, runs, tagID, words, fo, opt)
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
		r := runs[0]
		t.trainFast(train, dev, r.order, r.rng, r.st, tagID, fo)
		if opt.Log != nil && t.fast != nil {
			acc, _ := t.Accuracy(dev)
			fmt.Fprintf(opt.Log, "tagger: fast model (%d templates) in front, margin %.3g: dev %s %.2f%%\n",
				len(fastTemplates), t.fastMargin, opt.Column, 100*acc)
		}
	}
	return t, nil
}

// check checks o and sets its default column.
func (o *Options) check() error {
	if o.Column == "" {
		o.Column = UPOS
	}
	if o.Column != UPOS && o.Column != XPOS {
		return fmt.Errorf("tagger: unknown column %q (want UPOS or XPOS)", o.Column)
	}
	if o.Epochs < 0 {
		return fmt.Errorf("tagger: %d epochs", o.Epochs)
	}
	if o.Runs < 0 {
		return fmt.Errorf("tagger: %d runs", o.Runs)
	}
	if !(o.MinAbs >= 0) {
		return fmt.Errorf("tagger: MinAbs %g, want 0 or more", o.MinAbs)
	}
	return nil
}

// tagSet returns the sorted tags of column in train, their ids, and the
// number of words tagged.
func tagSet(train []*conllu.Sentence, column string) (tags []string, tagID map[string]int, words int, err error) {
	tagID = map[string]int{}
	for _, s := range train {
		for _, w := range s.Words {
			if v := *columnOf(&w, column); !conllu.Absent(v) {
				tagID[v] = 0
				words++
			}
		}
	}
	if words == 0 {
		return nil, nil, 0, fmt.Errorf("tagger: no training word has a %s tag", column)
	}
	if len(tagID) > MaxTags {
		return nil, nil, 0, fmt.Errorf("tagger: %d distinct %s tags in the training data, at most %d supported", len(tagID), column, MaxTags)
	}
	tags = make([]string, 0, len(tagID))
	for tag := range tagID {
		tags = append(tags, tag)
	}
	sort.Strings(tags)
	for i, tag := range tags {
		tagID[tag] = i
	}
	return tags, tagID, words, nil
}

// trainRun is one of the runs of training: its trainer's state, its
// order of the training sentences and the shuffle of that order.
type trainRun struct {
	st    *trainState
	order []int
	rng   *rand.Rand
}

// trainEpochs trains t's model for opt.Epochs epochs (DefaultEpochs for
// 0) of every run, freezing the runs' mean after each epoch (after the
// last only with opt.KeepLast), and keeps the epoch with the best dev
// accuracy; it reports whether dev has tagged words.
func (t *Tagger) trainEpochs(train, dev []*conllu.Sentence, runs []*trainRun, tagID map[string]int, words int, fo linear.FreezeOptions, opt Options) (hasDev bool) {
	epochs := opt.Epochs
	if epochs == 0 {
		epochs = DefaultEpochs
	}
	trs := make([]*linear.Trainer, len(runs))
	for k, r := range runs {
		trs[k] = r.st.t
	}
	sc := t.getScratch()
	total, done := int64(words)*int64(epochs)*int64(len(runs)), int64(0)
	var best *linear.Model
	bestAcc, bestEpoch := -1.0, 0
	for epoch := 1; epoch <= epochs; epoch++ {
		for _, r := range runs {
			o := r.order
			r.rng.Shuffle(len(o), func(i, j int) { o[i], o[j] = o[j], o[i] })
			for _, si := range o {
				s, st := train[si], r.st
				tagged := st.setGold(s.Words, opt.Column, tagID)
				st.hide = si%hideSpacingEvery == hideSpacingEvery-1
				if t.guess != nil {
					st.own = owns(st.own, s.Words, st.gold)
				}
				t.run(sc, s.Words, st.t, st)
				if opt.Progress != nil {
					done += int64(tagged)
					opt.Progress(done, total)
				}
			}
		}
		if opt.KeepLast && epoch < epochs {
			continue
		}
		t.model = linear.FreezeMean(trs, fo)
		acc, scored := t.Accuracy(dev)
		hasDev = scored > 0
		if !hasDev || acc > bestAcc {
			best, bestAcc, bestEpoch = t.model, acc, epoch
		}
		t.logEpoch(opt, epoch, epochs, acc, scored)
	}
	if opt.Log != nil && hasDev {
		fmt.Fprintf(opt.Log, "tagger: keeping epoch %d (dev %s %.2f%%)\n", bestEpoch, opt.Column, 100*bestAcc)
	}
	t.model, t.epoch = best, bestEpoch
	return hasDev
}

// logEpoch logs the dev accuracy of an epoch, and the model's size.
func (t *Tagger) logEpoch(opt Options, epoch, epochs int, acc float64, scored int) {
	switch {
	case opt.Log == nil:
	case scored > 0:
		fmt.Fprintf(opt.Log, "tagger: epoch %d/%d: dev %s %.2f%% (%d words); %d features, %d weights\n",
			epoch, epochs, opt.Column, 100*acc, scored, t.model.NumFeatures(), t.model.NumWeights())
	default:
		fmt.Fprintf(opt.Log, "tagger: epoch %d/%d: no dev words; %d features, %d weights\n",
			epoch, epochs, t.model.NumFeatures(), t.model.NumWeights())
	}
}

// hideSpacingEvery: training shows one sentence in hideSpacingEvery
// without its spacing (see setSpacing).
const hideSpacingEvery = 4

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
func (t *Tagger) trainFast(train, dev []*conllu.Sentence, order []int, rng *rand.Rand, state *trainState, tagID map[string]int, fo linear.FreezeOptions) {
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
			prepare(&sc.ws, &sc.keys, nil, s.Words)
			state.masks(sc)
			setAmbs(sc.ws, sc.masks, n)
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
	fast := tr.Freeze(fo)

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
// the second pass revisits: on EWT dev, revisiting the least certain
// fifth of the words is as accurate as revisiting all of them, and
// revisiting none is less accurate.
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

// seenPairs returns, for each XPOS tag (ids tagID), the set of the UPOS
// tags seen with it in train, as bits of their ids in upos, the sorted
// UPOS tag set; nil if train has no UPOS or more than MaxTags UPOS tags.
func seenPairs(train []*conllu.Sentence, tagID map[string]int) (pairs []uint64, upos []string) {
	uposID := map[string]int{}
	for _, s := range train {
		for _, w := range s.Words {
			if !conllu.Absent(w.UPOS) {
				uposID[w.UPOS] = 0
			}
		}
	}
	if len(uposID) == 0 || len(uposID) > MaxTags {
		return nil, nil
	}
	upos = slices.Sorted(maps.Keys(uposID))
	for i, n := range upos {
		uposID[n] = i
	}
	pairs = make([]uint64, len(tagID))
	for _, s := range train {
		for _, w := range s.Words {
			if !conllu.Absent(w.UPOS) && !conllu.Absent(w.XPOS) {
				pairs[tagID[w.XPOS]] |= 1 << uposID[w.UPOS]
			}
		}
	}
	return pairs, upos
}
