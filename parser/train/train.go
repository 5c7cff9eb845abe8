// Package train trains transparse models: a UPOS tagger and a transition
// classifier for each input variant (gold morphology, plain tokens), with a
// dynamic oracle and error exploration where the system has one (Goldberg &
// Nivre 2012, 2013) and the static oracle otherwise. Non-projective
// training trees are made projective by lifting (Nivre & Nilsson 2005) for
// systems that derive only projective trees.
package train

import (
	"cmp"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/transparse/transparse/parser/internal/core"

	"github.com/transparse/transparse/modelfmt"
	"github.com/transparse/transparse/parser"
	"github.com/transparse/transparse/parser/conllu"
	"github.com/transparse/transparse/parser/feature"
	"github.com/transparse/transparse/parser/morph"
	"github.com/transparse/transparse/parser/pseudoproj"
	"github.com/transparse/transparse/parser/segment"
	"github.com/transparse/transparse/parser/tagger"
	"github.com/transparse/transparse/parser/transition"
)

// Version is recorded in model cards.
const Version = "0.3.0"

// MaxTrainingWords is the longest training sentence (in words) the parser
// learns from. Longer ones are skipped, counted in the log and in the
// card's "skipped_long" option: a transition sequence can be quadratic in
// the sentence's length (Covington's systems, swap), and a dynamic oracle
// costs more again per step, so that one sentence of thousands of words
// would cost more than a treebank. The taggers still learn from them.
const MaxTrainingWords = 400

// Train trains taggers and parsers and returns the model, saved to
// opt.Output when that is set. Everything that could fail is checked
// before the first epoch: the options (Options.Check, an *OptionError),
// and every treebank (train, dev and test) is read in full and must have
// something to learn from or score (sentences with HEAD and DEPREL).
// Times in the model card follow SOURCE_DATE_EPOCH when it is set (then
// the training time is not recorded), so that the same options give the
// same file.
//
// Training is a pipeline of stages (stages), each a method of run that
// reads what the stages before it left in the run and adds its own part.
func Train(opt Options) (*parser.Model, error) {
	r, err := newRun(opt)
	if err != nil {
		return nil, err
	}
	for _, st := range stages {
		if err := st.do(r); err != nil {
			return nil, err
		}
		if err := r.opt.rep.error(); err != nil {
			return nil, err
		}
	}
	return r.saved, nil
}

// A stage is one step of training.
type stage struct {
	name string
	do   func(*run) error
}

// stages are the steps of Train, in order. Each stage skips what the
// options leave out (no taggers for a gold-only model, no beam
// classifiers without a beam width).
var stages = []stage{
	{"read", (*run).read},           // the treebanks and the word clusters
	{"segment", (*run).segment},     // the segmenter of raw text
	{"encode", (*run).encode},       // pseudo-projective trees, deprels, the gold-tag parser's examples
	{"taggers", (*run).taggers},     // taggers, XPOS table, lemmatizer and FEATS tagger on all the data
	{"jackknife", (*run).jackknife}, // predicted training tags for the plain-token parser
	{"parsers", (*run).parsers},     // the two greedy parsers and their fast classifiers
	{"beam", (*run).beam},           // the classifiers for beam search
	{"tune", (*run).tune},           // the optional morphology components, kept or dropped on dev
	{"card", (*run).card},           // options, notes and dev and test scores
	{"calibrate", (*run).calibrate}, // the confidences on dev
	{"save", (*run).save},           // the model handed back, and its file
}

// run is what the stages of one training pass each other.
type run struct {
	opt                   Options
	sys                   transition.System
	enc                   pseudoproj.Encoding
	train, dev, test      []*conllu.Sentence
	notes                 map[string]string // the card's notes of the stages
	classes               *transition.Classes
	deprels               []string
	goldTrain, plainTrain []example // the parsers' training examples
	plainDev              []*conllu.Sentence
	cols                  []string // the tagged columns
	tg                    core.Taggers
	morphTrain            []*conllu.Sentence // what the lemmatizer and FEATS tagger learn from (morphSents)
	syntax                *morph.Syntax      // the FEATS tagger's choice from the tree, until dev decides
	agree                 *morph.Agreement   // verbs' Person and Number from their subjects, until dev decides
	gold, plain           core.Variant
	seg                   *segment.Model     // the segmenter (nil: Segment.Skip)
	segScores             map[string]float64 // its dev Tokens, Words and Sentences F1, by metric
	model                 *core.Model        // the model the stages assemble
	saved                 *parser.Model      // the model handed back (save)
}

// newRun checks opt and returns the run of a training with it, its
// defaults filled in.
func newRun(opt Options) (*run, error) {
	if err := opt.Check(); err != nil {
		return nil, err
	}
	opt.defaults()
	opt.start = time.Now()
	opt.rep = newReporter(opt.Progress)
	return &run{opt: opt, notes: map[string]string{}, cols: []string{}}, nil
}

// read reads the word clusters and the treebanks (the first
// max_sentences of train), and reduces the jackknife folds to the
// training sentences.
func (r *run) read() error {
	opt := &r.opt
	var err error
	if r.sys, err = transition.Lookup(opt.System); err != nil {
		return err
	}
	if opt.ClustersPath != "" {
		if opt.clusters, err = readClusters(opt.ClustersPath); err != nil {
			return err
		}
	}
	if r.train, err = readTreebank("train", opt.TrainPath); err != nil {
		return err
	}
	if opt.MaxSentences > 0 && len(r.train) > opt.MaxSentences {
		r.train = r.train[:opt.MaxSentences]
	}
	if r.dev, err = readTreebank("dev", opt.DevPath); err != nil {
		return err
	}
	if opt.TestPath != "" {
		if r.test, err = readTreebank("test", opt.TestPath); err != nil {
			return err
		}
	}
	if !opt.GoldOnly && !hasUPOS(r.train) {
		return fmt.Errorf("train: %s: no training word has a UPOS tag: the taggers learn from UPOS (gold_only trains a parser for tagged input alone)", opt.TrainPath)
	}
	if !opt.GoldOnly && opt.JackknifeFolds > len(r.train) {
		if len(r.train) < 2 {
			return fmt.Errorf("train: %s: %d training sentence: jackknifing the taggers needs at least 2 (or gold_only)", opt.TrainPath, len(r.train))
		}
		fmt.Fprintf(opt.Log, "folds: %d reduced to the %d training sentences\n", opt.JackknifeFolds, len(r.train))
		r.notes["folds_requested"] = fmt.Sprint(opt.JackknifeFolds)
		opt.JackknifeFolds = len(r.train)
	}
	return nil
}

// encode lifts and encodes the training trees outside the system's class
// (with a pseudo-projective encoding), collects the deprels and the
// transitions, and prepares the gold-tag parser's examples.
func (r *run) encode() error {
	opt := &r.opt
	r.enc = pseudoproj.Baseline
	if opt.PseudoProjective != "" {
		var err error
		if r.enc, err = pseudoproj.Parse(opt.PseudoProjective); err != nil {
			return err
		}
	}
	if r.enc != pseudoproj.Baseline {
		var n int
		r.train, n = encode(r.sys, r.train, r.enc)
		fmt.Fprintf(opt.Log, "pseudo-projective (%s): %d training trees outside %s's class lifted and encoded\n", r.enc, n, r.sys.Name())
	}
	var root int32
	r.deprels, root = inventory(r.train)
	if share := caseShare(r.train); share >= minCaseShare {
		opt.caseFeats = true
		fmt.Fprintf(opt.Log, "the treebank marks Case on %.0f%% of its words: adding Case feature templates\n", 100*share)
	}
	r.classes = transition.NewClasses(r.sys, r.deprels, root)
	var long int
	r.goldTrain, long = prepare(r.sys, r.train, clusterCodes(r.train, *opt), r.deprels, opt.Log)
	if len(r.goldTrain) == 0 {
		return fmt.Errorf("train: %s: no training tree for %s (%d sentences; see the log): nothing to learn", opt.TrainPath, r.sys.Name(), len(r.train))
	}
	if long > 0 {
		r.notes["skipped_long"] = fmt.Sprintf("%d sentences of more than %d words", long, MaxTrainingWords)
	}
	return nil
}

// taggers trains the taggers (or the XPOS table), then the lemmatizer
// and the FEATS tagger, on all the training data.
func (r *run) taggers() error {
	opt := &r.opt
	if opt.GoldOnly {
		return nil
	}
	r.morphTrain = r.train
	var xposTags int
	var err error
	r.cols, opt.xposTable, xposTags = tagColumns(r.train)
	if r.tg, err = trainTaggers(r.train, r.dev, r.cols, *opt, opt.Seed, true, core.Taggers{}); err != nil {
		return err
	}
	if opt.xposTable {
		r.tg.XPOSTable = morph.TrainXPOSTable(r.train)
		fmt.Fprintf(opt.Log, "XPOS: %d tags, more than a tagger's %d: predicted from the form, UPOS and FEATS by a table (%d entries)\n",
			xposTags, tagger.MaxTags, r.tg.XPOSTable.Len())
		r.notes["xpos_table"] = fmt.Sprintf("%d tags, %d entries", xposTags, r.tg.XPOSTable.Len())
	}
	if !opt.Morph.Skip {
		r.morphTrain = morphSents(r.train, *opt)
		if err := trainMorph(r.morphTrain, *opt, opt.Seed, true, &r.tg); err != nil {
			return err
		}
		opt.plainMorph = r.tg.Lemmas != nil || r.tg.Feats != nil
	}
	return nil
}

// jackknife tags the training sentences with taggers trained on the other
// folds, prepares the plain-token parser's examples from them, and trains
// the FEATS tagger's choice from the tree on them.
func (r *run) jackknife() error {
	opt := &r.opt
	if opt.GoldOnly {
		return nil
	}
	plainTrain, plainAmb, err := jackknife(r.train, r.dev, r.cols, *opt, r.tg, opt.plainMorph && plainReadsMorph(*opt, r.sys.Name()))
	if err != nil {
		return err
	}
	if err := opt.rep.error(); err != nil {
		return err
	}
	if r.tg.Feats != nil {
		r.syntax = r.tg.Feats.TrainSyntax(plainTrain, r.train, morph.Options{Seed: opt.Seed, WeightBits: opt.WeightBits})
		fmt.Fprintf(opt.Log, "FEATS from the tree: trained on the jackknifed tags [%.0f s]\n", time.Since(opt.start).Seconds())
		r.agree = morph.TrainAgreement(r.train)
	}
	r.plainDev = plainCopy(r.dev, r.tg)
	r.plainTrain, _ = prepare(r.sys, plainTrain, plainAmb, r.deprels, io.Discard)
	return nil
}

// parsers trains the gold-tag and the plain-token parsers, side by side,
// each with its fast classifier when it has fast templates.
func (r *run) parsers() error {
	var gerr, perr error
	trainGold := func() {
		r.gold, gerr = r.trainParser(true, r.goldTrain, r.dev)
	}
	if r.opt.GoldOnly {
		trainGold()
	} else {
		var wg sync.WaitGroup
		wg.Add(2)
		go func() {
			defer wg.Done()
			trainGold() // with one run it ends first: its fast classifier adds no time
		}()
		go func() {
			defer wg.Done()
			r.plain, perr = r.trainParser(false, r.plainTrain, r.plainDev)
		}()
		wg.Wait()
	}
	if err := r.opt.rep.error(); err != nil {
		return err
	}
	return cmp.Or(gerr, perr)
}

// trainParser trains the gold-tag (gold) or the plain-token parser on
// its runs of exs (the runs differ in their seeds), and its fast
// classifier.
func (r *run) trainParser(gold bool, exs []example, dev []*conllu.Sentence) (core.Variant, error) {
	po, what := r.opt.parser(gold), "plain tokens"
	if gold {
		what = "gold tags"
	}
	runs := make([][]example, po.Runs)
	for k := range runs {
		runs[k] = exs
	}
	v, err := trainVariant(r.classes, gold, runs, dev, r.tg, r.enc, r.opt, templates(r.opt, r.sys.Name(), gold), what)
	if err == nil && po.FastTemplates != nil {
		err = addFast(&v, r.classes, runs, dev, r.tg, r.enc, r.opt, po.FastTemplates, po.FastMaxLoss, what)
	}
	return v, err
}

// beam trains the gold-tag and the plain-token parsers' beam classifiers,
// at the same time (the plain one's dev model holds the gold-tag parser
// as it is without its beam classifier).
func (r *run) beam() error {
	if r.opt.Beam.Width <= 1 {
		return nil
	}
	greedyGold := r.gold
	var gerr, perr error
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		gerr = trainBeam(&r.gold, r.classes, goldBeamExamples(r.classes, r.train, r.opt), r.dev, false, func(v core.Variant) *core.Model {
			return core.Assemble(core.Parts{Classes: r.classes, Gold: v, PseudoProjective: r.enc})
		}, r.opt, "gold tags")
	}()
	if r.plain.Clf != nil {
		wg.Add(1)
		go func() {
			defer wg.Done()
			perr = trainBeam(&r.plain, r.classes, plainBeamExamples(r.classes, r.plain, r.plainTrain), r.dev, true, func(v core.Variant) *core.Model {
				return core.Assemble(core.Parts{Classes: r.classes, Gold: greedyGold, Plain: v, Taggers: r.tg, PseudoProjective: r.enc})
			}, r.opt, "plain tokens")
		}()
	}
	wg.Wait()
	return cmp.Or(gerr, perr)
}

// tune keeps or drops, on dev, the optional parts of the lemmatizer and
// the FEATS tagger, and notes the decisions for the card.
func (r *run) tune() error {
	m := core.Assemble(r.parts(modelfmt.Card{Options: r.beamOptions()}))
	if ft := r.tg.Feats; ft != nil {
		r.notes["feats_tags"] = chooseConsistentTags(m, ft, r.dev, r.opt)
		if r.syntax != nil {
			r.notes["feats_syntax"] = chooseSyntax(m, ft, r.syntax, r.dev, r.opt)
		}
		if r.agree != nil {
			r.notes["feats_agreement"] = chooseAgreement(m, ft, r.agree, r.dev, r.opt)
		}
	}
	if l := r.tg.Lemmas; l != nil {
		r.notes["lemma_dictionary"] = chooseDictionaryFirst(m, l, r.dev, r.opt)
		if lc := morph.TrainLemmaCase(r.morphTrain); lc != nil {
			r.notes["lemma_case"] = chooseLemmaCase(m, l, lc, r.dev, r.opt)
		}
	}
	return nil
}

// parts returns the model's parts with card.
func (r *run) parts(card modelfmt.Card) core.Parts {
	return core.Parts{Card: card, Classes: r.classes, Gold: r.gold, Plain: r.plain, Taggers: r.tg, PseudoProjective: r.enc, Segmenter: r.seg}
}

// calibrate fits the confidences on dev, the beam's at the default width.
func (r *run) calibrate() error {
	if err := r.model.Calibrate(r.dev, r.model.DefaultBeam()); err != nil {
		return fmt.Errorf("train: %w", err)
	}
	return nil
}

// save makes the model handed back from the trained model's document,
// so that it parses exactly as its file does, and saves it to Output, if
// given.
func (r *run) save() error {
	m, err := parser.FromDocument(r.model.Document())
	if err != nil {
		return fmt.Errorf("train: %w", err)
	}
	r.saved = m
	if r.opt.Output == "" {
		return nil
	}
	if err := m.Save(r.opt.Output); err != nil {
		return fmt.Errorf("train: saving the model: %w", err)
	}
	return nil
}

// trainTaggers trains one tagger per column, in parallel. Each keeps its
// best epoch on dev, or, when like has a tagger for the column (the
// jackknife taggers), trains as many epochs as that tagger kept; all in
// opt.Taggers.Runs runs.
func trainTaggers(train, dev []*conllu.Sentence, cols []string, opt Options, seed int64, verbose bool, like core.Taggers) (core.Taggers, error) {
	var tg core.Taggers
	ts := make([]*tagger.Tagger, len(cols))
	errs := make([]error, len(cols))
	var wg sync.WaitGroup
	for i, col := range cols {
		o := tagger.Options{Column: col, Epochs: opt.Taggers.Epochs, Seed: seed, WeightBits: opt.WeightBits, Clusters: opt.clusters,
			Runs: opt.Taggers.Runs, MinAbs: opt.Taggers.DropWeightsBelow, Spacing: col == tagger.XPOS}
		l := like.UPOS
		if col == tagger.XPOS {
			l = like.XPOS
		}
		if l != nil && l.Epoch() > 0 {
			o.Epochs, o.KeepLast = l.Epoch(), true
		}
		if verbose {
			fmt.Fprintf(opt.Log, "training the %s tagger on %d sentences\n", col, len(train))
			o.Log = opt.Log
			if opt.rep != nil {
				phase := "tagger " + col
				o.Progress = func(done, total int64) {
					opt.rep.report(Progress{Phase: phase, Done: done, Total: total})
				}
			}
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			ts[i], errs[i] = tagger.Train(train, dev, o)
		}()
	}
	wg.Wait()
	for i, col := range cols {
		if errs[i] != nil {
			return tg, errs[i]
		}
		if col == tagger.UPOS {
			tg.UPOS = ts[i]
		} else {
			tg.XPOS = ts[i]
		}
	}
	return tg, nil
}

// templates returns the templates of the gold-tag (morph) or the
// plain-token parser: the options', else the system's (feature.ForSystem),
// plus for the plain-token parser of a model that predicts LEMMA and FEATS
// feature.MorphTemplates, and feature.CaseTemplates for the parsers that
// read FEATS when the treebank marks Case on many words.
func templates(opt Options, system string, morph bool) []string {
	tpls := opt.parser(morph).Templates
	if tpls == nil {
		tpls = feature.ForSystem(system, morph)
		if !morph && opt.plainMorph {
			tpls = append(tpls, feature.MorphTemplates()...)
		}
		if (morph || opt.plainMorph) && opt.caseFeats {
			tpls = append(tpls, feature.CaseTemplates()...)
		}
	}
	return tpls
}

// plainReadsMorph reports whether the plain-token parser or its fast
// classifier has templates over lemmas or FEATS: then its training words
// get jackknifed LEMMA and FEATS.
func plainReadsMorph(opt Options, system string) bool {
	for _, tpls := range [][]string{templates(opt, system, false), opt.Plain.FastTemplates} {
		if e, err := feature.New(tpls); err == nil && e.UsesMorph() {
			return true
		}
	}
	return false
}
