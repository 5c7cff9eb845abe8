// Package train trains transparse models: a UPOS tagger and a transition
// classifier for each input variant (gold morphology, plain tokens), with a
// dynamic oracle and error exploration where the system has one (Goldberg &
// Nivre 2012, 2013) and the static oracle otherwise. Non-projective
// training trees are made projective by lifting (Nivre & Nilsson 2005) for
// systems that derive only projective trees.
package train

import (
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand"
	"os"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/transparse/transparse/modelfmt"
	"github.com/transparse/transparse/parser"
	"github.com/transparse/transparse/parser/conllu"
	"github.com/transparse/transparse/parser/eval"
	"github.com/transparse/transparse/parser/feature"
	"github.com/transparse/transparse/parser/linear"
	"github.com/transparse/transparse/parser/pseudoproj"
	"github.com/transparse/transparse/parser/tagger"
	"github.com/transparse/transparse/parser/transition"
	"github.com/transparse/transparse/parser/tree"
)

// Version is recorded in model cards.
const Version = "0.1.0"

// Options configures Train.
type Options struct {
	System       string // transition system name, e.g. "arc-eager"
	TrainPath    string // CoNLL-U training treebank
	DevPath      string // CoNLL-U development treebank (model selection)
	TestPath     string // optional: scored once at the end for the model card
	Epochs       int    // parser epochs (0 = default 15)
	TaggerEpochs int    // tagger epochs (0 = the tagger's default)
	Folds        int    // jackknife folds for predicted training tags (0 = 4)
	MaxSentences int    // use only the first N training sentences (0 = all); for tests
	Seed         int64
	Name         string    // model name for the card
	Progress     io.Writer // progress bars go here (nil = none)
	Log          io.Writer // per-epoch dev scores go here (nil = none)
	// MinUpdates drops parser features updated fewer times than this when
	// the model is frozen (0 = default 5; < 0 = keep all).
	MinUpdates int
	// MinAbs drops averaged weights of the gold-tag parser smaller than this
	// in absolute value when the model is frozen (0 = default 1.5; < 0 =
	// keep all): fewer weights parse faster, at a small cost in accuracy
	// (on EWT dev, 1.5 instead of 0.5: −0.26 LAS, 1.7× faster).
	MinAbs float32
	// PlainMinAbs is MinAbs for the plain-token parser (0 = default 0.5).
	PlainMinAbs float32
	// WeightBits is the number of bits of the stored parser weights
	// (linear.FreezeOptions.WeightBits; 0 = linear.TrainedWeightBits, 12).
	// The taggers always use linear.TrainedWeightBits.
	WeightBits int
	// PlainRuns is the number of plain-token parsers trained side by side,
	// each with its own seed (example order and exploration), whose
	// averaged weights are averaged again into the one plain-token
	// classifier (linear.FreezeMean): an ensemble at the parsing cost of one
	// model (0 = default 2; EWT dev LAS from plain tokens +0.2 over one
	// run, with fewer weights after pruning). The gold-tag parser is one
	// run: averaging two did not help it (EWT dev).
	PlainRuns int
	// PseudoProjective is the label encoding of lifted arcs for training
	// trees outside the system's class (Nivre & Nilsson 2005): "baseline"
	// (or "": lift only, labels unchanged), "head", "path" or "head+path".
	// With an encoding, such trees are lifted to projective ones, the lifts
	// recorded in the deprels, and the model undoes them after parsing.
	// With baseline, trees are lifted one arc at a time only until the
	// system derives them.
	PseudoProjective string
	caseFeats        bool      // set by Train: the treebank marks Case on many words
	start            time.Time // set by Train: when training started (for the log)

	// GoldOnly trains only the gold-morphology classifier: no taggers, no
	// jackknifing, no plain-token classifier. Such models parse only
	// sentences given with tags; they are for comparing systems.
	GoldOnly bool
	// Explore is the probability of following the model's own prediction
	// when training with a dynamic oracle (0 = default 0.9; < 0 = never).
	Explore float64
	// GoldTemplates and PlainTemplates are the feature templates (syntax of
	// parser/feature) of the gold-morphology and the plain-token parser.
	// nil: feature.ForSystem for the system, plus feature.CaseTemplates
	// for the gold parser when the treebank marks Case on many words; a
	// list given here is used as it is. The bundled English model's gold
	// list (models/templates/en_ewt-gold.txt) keeps the 80 of the 119
	// default templates that moved the decisions of a model trained with
	// all of them most: EWT dev LAS +0.26, parsing about 1.4 times as fast
	// (docs/benchmarks.md).
	GoldTemplates, PlainTemplates []string
	// GoldFastTemplates and PlainFastTemplates, when not nil, are the
	// templates of a fast classifier trained for the gold-tag or the
	// plain-token parser and put in front of it (parser.Variant.Fast): it
	// decides the states it is sure of, by a margin tuned on dev so that
	// the pair's dev LAS is at most FastMaxLoss below the parser's alone.
	// A prefix of the parser's ranked templates serves well (the bundled
	// model's gold-tag parser: the first 30 of its 80).
	GoldFastTemplates, PlainFastTemplates []string
	// FastMaxLoss is the dev LAS (points) a fast classifier may cost
	// (0 = default 0.1).
	FastMaxLoss float64
}

func (o *Options) defaults() {
	if o.Epochs <= 0 {
		o.Epochs = 15
	}
	if o.Folds <= 0 {
		o.Folds = 4
	}
	if o.MinUpdates == 0 {
		o.MinUpdates = 5
	}
	if o.MinAbs == 0 {
		o.MinAbs = 1.5
	}
	if o.PlainMinAbs == 0 {
		o.PlainMinAbs = 0.5
	}
	if o.PlainRuns <= 0 {
		o.PlainRuns = 2
	}
	if o.WeightBits == 0 {
		o.WeightBits = linear.TrainedWeightBits
	}
	if o.Explore == 0 {
		o.Explore = 0.9
	}
	if o.FastMaxLoss == 0 {
		o.FastMaxLoss = 0.1
	}
	if o.Log == nil {
		o.Log = io.Discard
	}
}

// templatesNote describes a template list of Options for the model card.
func templatesNote(t []string) string {
	if t == nil {
		return "the system's"
	}
	return fmt.Sprintf("%d given", len(t))
}

// Check reports the first option that no training could accept, before
// any data is read: an unknown system or pseudo-projective encoding,
// weight bits outside 2..16 (0 is the default), an empty template list (nil
// is the system's), or an invalid template (the error names the list and
// the template's index, e.g. "gold templates[3]"). Train calls it first.
func (o *Options) Check() error {
	if _, err := transition.Lookup(o.System); err != nil {
		return err
	}
	if o.PseudoProjective != "" {
		if _, err := pseudoproj.Parse(o.PseudoProjective); err != nil {
			return err
		}
	}
	if o.WeightBits != 0 && (o.WeightBits < 2 || o.WeightBits > 16) {
		return fmt.Errorf("train: weight bits %d, want 2..16", o.WeightBits)
	}
	if o.FastMaxLoss < 0 || math.IsNaN(o.FastMaxLoss) {
		return fmt.Errorf("train: fast max loss %g, want >= 0", o.FastMaxLoss)
	}
	if o.GoldOnly && o.PlainFastTemplates != nil {
		return errors.New("train: plain fast templates for a gold-only model (it has no plain-token parser)")
	}
	for _, l := range [...]struct {
		name string
		t    []string
	}{{"gold", o.GoldTemplates}, {"plain", o.PlainTemplates}, {"gold fast", o.GoldFastTemplates}, {"plain fast", o.PlainFastTemplates}} {
		if l.t == nil {
			continue
		}
		if len(l.t) == 0 {
			return fmt.Errorf("train: %s templates: the list is empty", l.name)
		}
		for i, t := range l.t {
			if _, err := feature.New([]string{t}); err != nil {
				return fmt.Errorf("train: %s templates[%d]: %w", l.name, i, err)
			}
		}
	}
	return nil
}

// fastNote describes the fast classifier of v for the model card.
func fastNote(v parser.Variant) string {
	if v.Fast == nil {
		return "none"
	}
	return fmt.Sprintf("%d templates, margin %g", v.Fast.Ext.Len(), v.FastMargin)
}

// Train trains a tagger and a parser and returns the model. Options are
// checked first (Options.Check).
func Train(opt Options) (*parser.Model, error) {
	if err := opt.Check(); err != nil {
		return nil, err
	}
	opt.defaults()
	start := time.Now()
	opt.start = start
	sys, err := transition.Lookup(opt.System)
	if err != nil {
		return nil, err
	}
	trainSents, err := conllu.ReadFile(opt.TrainPath)
	if err != nil {
		return nil, err
	}
	if opt.MaxSentences > 0 && len(trainSents) > opt.MaxSentences {
		trainSents = trainSents[:opt.MaxSentences]
	}
	devSents, err := conllu.ReadFile(opt.DevPath)
	if err != nil {
		return nil, err
	}
	enc := pseudoproj.Baseline
	if opt.PseudoProjective != "" {
		if enc, err = pseudoproj.Parse(opt.PseudoProjective); err != nil {
			return nil, err
		}
	}
	if enc != pseudoproj.Baseline {
		var n int
		trainSents, n = encode(sys, trainSents, enc)
		fmt.Fprintf(opt.Log, "pseudo-projective (%s): %d training trees outside %s's class lifted and encoded\n", enc, n, sys.Name())
	}
	deprels, root := inventory(trainSents)
	if share := caseShare(trainSents); share >= minCaseShare {
		opt.caseFeats = true
		fmt.Fprintf(opt.Log, "the treebank marks Case on %.0f%% of its words: adding Case feature templates\n", 100*share)
	}
	classes := transition.NewClasses(sys, deprels, root)

	goldTrain := prepare(sys, trainSents, nil, deprels, opt.Log)
	var gold, plain parser.Variant
	var gerr, perr error
	var tg parser.Taggers
	cols := []string{}
	trainGold := func() {
		exs := [][]example{goldTrain}
		gold, gerr = trainVariant(classes, true, exs, devSents, tg, enc, opt, templates(opt, sys.Name(), true), "gold tags")
		if gerr == nil && opt.GoldFastTemplates != nil {
			gerr = addFast(&gold, classes, exs, devSents, tg, enc, opt, opt.GoldFastTemplates, "gold tags")
		}
	}
	if opt.GoldOnly {
		trainGold()
	} else {
		// Taggers on all training data; jackknifed tags for the plain parser.
		cols = tagColumns(trainSents)
		tg, err = trainTaggers(trainSents, devSents, cols, opt, opt.Seed, true, parser.Taggers{})
		if err != nil {
			return nil, err
		}
		plainTrain, plainAmb, err := jackknife(trainSents, devSents, cols, opt, tg)
		if err != nil {
			return nil, err
		}
		plainDev := plainCopy(devSents, tg)
		plainPrepared := prepare(sys, plainTrain, plainAmb, deprels, io.Discard)
		runs := make([][]example, opt.PlainRuns) // the runs differ in their seeds
		for r := range runs {
			runs[r] = plainPrepared
		}

		var wg sync.WaitGroup
		wg.Add(2)
		go func() {
			defer wg.Done()
			trainGold() // with one run it ends first: its fast classifier adds no time
		}()
		go func() {
			defer wg.Done()
			plain, perr = trainVariant(classes, false, runs, plainDev, tg, enc, opt, templates(opt, sys.Name(), false), "plain tokens")
			if perr == nil && opt.PlainFastTemplates != nil {
				perr = addFast(&plain, classes, runs, plainDev, tg, enc, opt, opt.PlainFastTemplates, "plain tokens")
			}
		}()
		wg.Wait()
	}
	if gerr != nil {
		return nil, gerr
	}
	if perr != nil {
		return nil, perr
	}

	card := modelfmt.Card{
		Name:      opt.Name,
		Treebank:  opt.TrainPath,
		System:    sys.Name(),
		TrainedAt: time.Now().UTC().Format(time.RFC3339),
		Version:   Version,
		Options: map[string]string{
			"epochs": fmt.Sprint(opt.Epochs), "tagger_epochs": fmt.Sprint(opt.TaggerEpochs),
			"folds": fmt.Sprint(opt.Folds), "min_updates": fmt.Sprint(opt.MinUpdates), "min_abs": fmt.Sprint(opt.MinAbs), "plain_min_abs": fmt.Sprint(opt.PlainMinAbs), "weight_bits": fmt.Sprint(opt.WeightBits), "plain_runs": fmt.Sprint(opt.PlainRuns), "seed": fmt.Sprint(opt.Seed), "explore": fmt.Sprint(opt.Explore),
			"max_sentences": fmt.Sprint(opt.MaxSentences), "train": opt.TrainPath, "dev": opt.DevPath,
			"gold_only": fmt.Sprint(opt.GoldOnly), "pseudo_projective": enc.String(),
			"gold_templates": templatesNote(opt.GoldTemplates), "plain_templates": templatesNote(opt.PlainTemplates),
			"gold_fast": fastNote(gold), "plain_fast": fastNote(plain),
		},
		Scores: map[string]float64{},
	}
	if opt.TestPath != "" {
		card.Options["test"] = opt.TestPath
	}
	m := parser.NewModel(card, classes, gold, plain, tg)
	m.SetPseudoProjective(enc)
	if err := scoreInto(m, "dev", devSents, card.Scores); err != nil {
		return nil, err
	}
	if opt.TestPath != "" {
		testSents, err := conllu.ReadFile(opt.TestPath)
		if err != nil {
			return nil, err
		}
		if err := scoreInto(m, "test", testSents, card.Scores); err != nil {
			return nil, err
		}
	}
	card.Options["training_seconds"] = fmt.Sprintf("%.0f", time.Since(start).Seconds())
	card.Notes = "Scores follow the CoNLL 2018 convention (all words, LAS on universal deprels). " +
		"gold = UPOS/XPOS/LEMMA/FEATS given; predicted = plain tokens, tags from the bundled taggers (" +
		strings.Join(cols, ", ") + ")."
	m.SetCard(card)
	return m, nil
}

// scoreInto parses sents with gold morphology and from plain tokens and
// records the scores in scores.
func scoreInto(m *parser.Model, split string, sents []*conllu.Sentence, scores map[string]float64) error {
	for _, tags := range []string{"gold", "predicted"} {
		if tags == "predicted" && m.GoldTagsOnly() {
			continue
		}
		pred := make([]*conllu.Sentence, len(sents))
		for i, s := range sents {
			c := cloneSentence(s)
			if tags == "predicted" {
				c.StripTags()
			}
			for j := range c.Words {
				c.Words[j].Head, c.Words[j].Deprel = -1, "_"
			}
			if err := m.Parse(c.Words); err != nil {
				return err
			}
			pred[i] = c
		}
		sc, err := eval.Score(sents, pred)
		if err != nil {
			return err
		}
		scores[split+"/"+tags+"/UAS"] = sc.UAS.F1()
		scores[split+"/"+tags+"/LAS"] = sc.LAS.F1()
		scores[split+"/"+tags+"/CLAS"] = sc.CLAS.F1()
		scores[split+"/"+tags+"/UPOS"] = sc.UPOS.F1()
	}
	return nil
}

func cloneSentence(s *conllu.Sentence) *conllu.Sentence {
	c := *s
	c.Words = append([]conllu.Word(nil), s.Words...)
	return &c
}

// inventory returns the sorted deprels of the treebank and the index of the
// deprel used on arcs from the root (the most frequent one, "root" in UD).
func inventory(sents []*conllu.Sentence) ([]string, int32) {
	count := map[string]int{}
	rootCount := map[string]int{}
	for _, s := range sents {
		for _, w := range s.Words {
			if conllu.Absent(w.Deprel) {
				continue
			}
			count[w.Deprel]++
			if w.Head == 0 {
				rootCount[w.Deprel]++
			}
		}
	}
	var labels []string
	for l := range count {
		labels = append(labels, l)
	}
	sort.Strings(labels)
	best, bestN := "root", -1
	for l, n := range rootCount {
		if n > bestN || (n == bestN && l < best) {
			best, bestN = l, n
		}
	}
	root := sort.SearchStrings(labels, best)
	if root == len(labels) || labels[root] != best {
		labels = append(labels, best)
		sort.Strings(labels)
		root = sort.SearchStrings(labels, best)
	}
	return labels, int32(root)
}

// minCaseShare is the share of words with a Case feature above which the
// gold-morphology parser gets the Case templates (training sets: EWT 7 %,
// Hungarian Szeged 48 %, Turkish IMST 43 %).
const minCaseShare = 0.2

// caseShare returns the share of words whose FEATS have Case=.
func caseShare(sents []*conllu.Sentence) float64 {
	words, withCase := 0, 0
	for _, s := range sents {
		for _, w := range s.Words {
			words++
			if strings.Contains(w.Feats, "Case=") {
				withCase++
			}
		}
	}
	return float64(withCase) / float64(max(words, 1))
}

// encode returns sents with every tree outside the system's class made
// projective, the lifts encoded in the deprels (pseudoproj.Projectivize),
// and the number of trees changed. Sentences are copied, not modified.
func encode(sys transition.System, sents []*conllu.Sentence, enc pseudoproj.Encoding) ([]*conllu.Sentence, int) {
	out := make([]*conllu.Sentence, len(sents))
	changed := 0
	for k, s := range sents {
		out[k] = s
		if s.CheckTree() != nil {
			continue
		}
		n := len(s.Words)
		head := make([]int32, n+1)
		deprel := make([]string, n+1)
		head[0] = transition.None
		for i, w := range s.Words {
			head[i+1], deprel[i+1] = int32(w.Head), w.Deprel
		}
		if sys.InClass(transition.NewGold(head, make([]int32, n+1))) {
			continue
		}
		h, l, lifted := pseudoproj.Projectivize(head, deprel, enc)
		if lifted <= 0 {
			continue
		}
		c := cloneSentence(s)
		for i := range c.Words {
			c.Words[i].Head, c.Words[i].Deprel = int(h[i+1]), l[i+1]
		}
		out[k] = c
		changed++
	}
	return out, changed
}

// example is one training sentence with its gold tree inside the system's
// class.
type example struct {
	words []conllu.Word
	gold  *transition.Gold
	amb   [][2]uint64             // plain tokens: ambiguity classes (A, AX) per word
	seq   []transition.Transition // static-oracle sequence (systems without a dynamic oracle)
}

// prepare converts sentences into examples: trees outside the system's class
// are lifted to projective ones; sentences that are not trees are skipped
// and counted in the log. amb, if not nil, holds each sentence's ambiguity
// classes.
func prepare(sys transition.System, sents []*conllu.Sentence, amb [][][2]uint64, deprels []string, log io.Writer) []example {
	index := map[string]int32{}
	for i, l := range deprels {
		index[l] = int32(i)
	}
	var out []example
	skipped, lifted, failed := 0, 0, 0
	_, dynamic := sys.(transition.DynamicOracle)
	var state transition.State
	for k, s := range sents {
		if s.CheckTree() != nil {
			skipped++
			continue
		}
		n := len(s.Words)
		head := make([]int32, n+1)
		label := make([]int32, n+1)
		head[0], label[0] = transition.None, transition.None
		for i, w := range s.Words {
			head[i+1] = int32(w.Head)
			label[i+1] = index[w.Deprel]
		}
		g := transition.NewGold(head, label)
		if !sys.InClass(g) {
			// Lift the shortest non-projective arc until the system
			// derives the tree (projective trees are in every class).
			for !sys.InClass(g) && tree.LiftStep(head) >= 0 {
				g = transition.NewGold(head, label)
			}
			lifted++
			if !sys.InClass(g) {
				skipped++
				continue
			}
		}
		ex := example{words: s.Words, gold: g}
		if !dynamic {
			seq, err := transition.Derive(sys, &state, g)
			if err != nil {
				failed++
				continue
			}
			ex.seq = seq
		}
		if amb != nil {
			ex.amb = amb[k]
		}
		out = append(out, ex)
	}
	fmt.Fprintf(log, "%s: %d training trees, %d lifted to the system's class, %d skipped (not trees), %d oracle failures skipped\n",
		sys.Name(), len(out), lifted, skipped, failed)
	return out
}

// tagColumns returns the columns to train taggers for: UPOS, and XPOS when
// most training words have one.
func tagColumns(sents []*conllu.Sentence) []string {
	words, xpos := 0, 0
	for _, s := range sents {
		for _, w := range s.Words {
			words++
			if !conllu.Absent(w.XPOS) {
				xpos++
			}
		}
	}
	if 2*xpos > words {
		return []string{tagger.UPOS, tagger.XPOS}
	}
	return []string{tagger.UPOS}
}

// trainTaggers trains one tagger per column, in parallel. Each keeps its
// best epoch on dev, or, when like has a tagger for the column (the
// jackknife taggers), trains as many epochs as that tagger kept.
func trainTaggers(train, dev []*conllu.Sentence, cols []string, opt Options, seed int64, verbose bool, like parser.Taggers) (parser.Taggers, error) {
	var tg parser.Taggers
	ts := make([]*tagger.Tagger, len(cols))
	errs := make([]error, len(cols))
	var wg sync.WaitGroup
	for i, col := range cols {
		o := tagger.Options{Column: col, Epochs: opt.TaggerEpochs, Seed: seed}
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
			if i == 0 { // one progress bar: the taggers train side by side
				o.Progress = opt.Progress
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

// jackknife returns copies of sents with UPOS (and XPOS) predicted by
// taggers trained on the other folds and the other morphology removed, as
// at parse time from plain tokens, and the words' ambiguity classes in
// those taggers' dictionaries.
// The jackknife taggers train as many epochs as the taggers of like kept.
func jackknife(sents, dev []*conllu.Sentence, cols []string, opt Options, like parser.Taggers) ([]*conllu.Sentence, [][][2]uint64, error) {
	k := opt.Folds
	out := make([]*conllu.Sentence, len(sents))
	amb := make([][][2]uint64, len(sents))
	type res struct {
		fold int
		tg   parser.Taggers
		err  error
	}
	results := make(chan res, k)
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for f := 0; f < k; f++ {
		go func(f int) {
			sem <- struct{}{}
			defer func() { <-sem }()
			var part []*conllu.Sentence
			for i, s := range sents {
				if i%k != f {
					part = append(part, s)
				}
			}
			tg, err := trainTaggers(part, dev, cols, opt, opt.Seed+int64(f)+1, false, like)
			results <- res{f, tg, err}
		}(f)
	}
	for f := 0; f < k; f++ {
		r := <-results
		if r.err != nil {
			return nil, nil, r.err
		}
		for i, s := range sents {
			if i%k == r.fold {
				out[i] = plainCopy([]*conllu.Sentence{s}, r.tg)[0]
				amb[i] = make([][2]uint64, len(s.Words))
				for j, w := range s.Words {
					amb[i][j][0], amb[i][j][1] = r.tg.AmbiguityClasses(w.Form)
				}
			}
		}
	}
	fmt.Fprintf(opt.Log, "jackknifed %s for %d training sentences (%d folds) [%.0f s]\n", strings.Join(cols, " and "), len(sents), k, time.Since(opt.start).Seconds())
	return out, amb, nil
}

// plainCopy returns copies of sents as the parser sees plain tokens: tags
// predicted by tg, no lemma or FEATS. Heads and deprels are kept.
func plainCopy(sents []*conllu.Sentence, tg parser.Taggers) []*conllu.Sentence {
	out := make([]*conllu.Sentence, len(sents))
	for i, s := range sents {
		c := cloneSentence(s)
		c.StripTags()
		tg.Fill(c.Words)
		out[i] = c
	}
	return out
}

// templates returns the templates of the gold-tag (morph) or the
// plain-token parser: the options', else the system's (feature.ForSystem,
// plus feature.CaseTemplates for the gold-tag parser of a treebank that
// marks Case on many words).
func templates(opt Options, system string, morph bool) []string {
	tpls := opt.PlainTemplates
	if morph {
		tpls = opt.GoldTemplates
	}
	if tpls == nil {
		tpls = feature.ForSystem(system, morph)
		if morph && opt.caseFeats {
			tpls = append(tpls, feature.CaseTemplates()...)
		}
	}
	return tpls
}

// fastMargins are the margins addFast tries, smallest first (score units:
// perceptron updates).
var fastMargins = []float32{5, 10, 15, 20, 25, 30, 35, 40, 45, 50, 60, 70, 80, 100, 125, 150, 200, 300}

// addFast trains a fast classifier with the templates tpls on the examples
// of v (the first run's) and puts it in front of v (a cascade,
// parser.Variant.Fast) with the smallest margin of fastMargins at which
// the cascade's dev LAS is at most opt.FastMaxLoss below v's alone. If no
// margin is, v is left as it is. The margins are tried in parallel.
func addFast(v *parser.Variant, classes *transition.Classes, runExs [][]example, dev []*conllu.Sentence, tg parser.Taggers, enc pseudoproj.Encoding, opt Options, tpls []string, what string) error {
	f, err := trainVariant(classes, v.Morph, runExs[:1], dev, tg, enc, opt, tpls, what+", fast")
	if err != nil {
		return err
	}
	full, _ := devScore(classes, *v, dev, tg, enc)
	las := make([]float64, len(fastMargins))
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for i, margin := range fastMargins {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			c := *v
			c.Fast, c.FastMargin = &f, margin
			las[i], _ = devScore(classes, c, dev, tg, enc)
		}()
	}
	wg.Wait()
	if i := pickMargin(full, las, opt.FastMaxLoss); i >= 0 {
		v.Fast, v.FastMargin = &f, fastMargins[i]
		fmt.Fprintf(opt.Log, "parser (%s): fast classifier (%d templates) in front, margin %g: dev LAS %.2f (%.2f alone) [%.0f s]\n",
			what, len(tpls), v.FastMargin, las[i], full, time.Since(opt.start).Seconds())
		return nil
	}
	fmt.Fprintf(opt.Log, "parser (%s): no margin keeps the fast classifier within %.2f dev LAS (%.2f alone, %.2f at margin %g): not used\n",
		what, opt.FastMaxLoss, full, las[len(las)-1], fastMargins[len(fastMargins)-1])
	return nil
}

// pickMargin returns the index of the first LAS (of the margins in
// increasing order) at most maxLoss below full, or -1. LAS are percentages
// of whole words: a loss equal to maxLoss up to rounding counts as within.
func pickMargin(full float64, las []float64, maxLoss float64) int {
	for i, l := range las {
		if l >= full-maxLoss-1e-9 {
			return i
		}
	}
	return -1
}

// trainVariant trains one classifier and returns the epoch with the best dev
// LAS: the mean of one run per element of runExs (the plain-token
// classifier has opt.PlainRuns), trained in parallel (run k seeded
// opt.Seed + k) and frozen together after each epoch.
func trainVariant(classes *transition.Classes, morph bool, runExs [][]example, dev []*conllu.Sentence, tg parser.Taggers, enc pseudoproj.Encoding, opt Options, tpls []string, what string) (parser.Variant, error) {
	ext, err := feature.New(tpls)
	if err != nil {
		return parser.Variant{}, err
	}
	dyn, _ := classes.Sys.(transition.DynamicOracle)
	minAbs := opt.MinAbs
	if !morph {
		minAbs = opt.PlainMinAbs
	}
	runs := len(runExs)
	freeze := linear.FreezeOptions{MinUpdates: max(opt.MinUpdates, 0), MinAbs: max(minAbs, 0), KeyBits: 32, WeightBits: opt.WeightBits}
	type run struct {
		st    *stepper
		exs   []example
		order []int
		// correct and total count the steps of the last epoch.
		correct, total int
	}
	rs := make([]*run, runs)
	trainers := make([]*linear.Trainer, runs)
	for k := range rs {
		exs := runExs[k]
		order := make([]int, len(exs))
		for i := range order {
			order[i] = i
		}
		trainers[k] = linear.NewTrainer(classes.Len())
		rs[k] = &run{exs: exs, order: order, st: &stepper{classes: classes, ext: ext, tr: trainers[k], dyn: dyn,
			rng: rand.New(rand.NewSource(opt.Seed + int64(k))), morph: morph,
			scores: make([]float32, classes.Len()), legal: make([]bool, classes.Len()), cost: make([]int, classes.Len())}}
	}
	var best parser.Variant
	bestLAS := -1.0
	for epoch := 1; epoch <= opt.Epochs; epoch++ {
		var bar *progressbar.ProgressBar
		if opt.Progress != nil {
			desc := fmt.Sprintf("parser (%s) epoch %d/%d", what, epoch, opt.Epochs)
			if runs > 1 {
				desc += fmt.Sprintf(", %d runs", runs)
			}
			bar = progressbar.NewOptions(runs*len(runExs[0]), progressbar.OptionSetWriter(opt.Progress),
				progressbar.OptionSetDescription(desc),
				progressbar.OptionThrottle(200*time.Millisecond), progressbar.OptionShowCount(),
				progressbar.OptionClearOnFinish())
		}
		explore := dyn != nil && epoch > 1 && opt.Explore > 0
		var wg sync.WaitGroup
		for _, r := range rs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r.st.rng.Shuffle(len(r.order), func(i, j int) { r.order[i], r.order[j] = r.order[j], r.order[i] })
				r.correct, r.total = 0, 0
				for i, k := range r.order {
					c, t := r.st.sentence(&r.exs[k], explore, opt.Explore)
					r.correct += c
					r.total += t
					if bar != nil && i%256 == 255 {
						bar.Add(256)
					}
				}
			}()
		}
		wg.Wait()
		if bar != nil {
			bar.Finish()
		}
		correct, total := 0, 0
		for _, r := range rs {
			correct += r.correct
			total += r.total
		}
		v := parser.Variant{Morph: morph, Ext: ext, Clf: linear.FreezeMean(trainers, freeze)}
		las, uas := devScore(classes, v, dev, tg, enc)
		mark := ""
		if las > bestLAS {
			bestLAS, best, mark = las, v, " *"
		}
		fmt.Fprintf(opt.Log, "parser (%s) epoch %2d: train acc %.2f%%  dev UAS %.2f LAS %.2f%s [%.0f s]\n",
			what, epoch, 100*float64(correct)/float64(max(total, 1)), uas, las, mark, time.Since(opt.start).Seconds())
	}
	return best, nil
}

// devScore parses dev with the variant and returns LAS and UAS.
func devScore(classes *transition.Classes, v parser.Variant, dev []*conllu.Sentence, tg parser.Taggers, enc pseudoproj.Encoding) (las, uas float64) {
	m := parser.NewModel(modelfmt.Card{}, classes, v, v, tg)
	m.SetPseudoProjective(enc)
	pred := make([]*conllu.Sentence, len(dev))
	for i, s := range dev {
		c := cloneSentence(s)
		if err := m.ParseWith(v.Morph, c.Words); err != nil {
			fmt.Fprintln(os.Stderr, "train: dev parse:", err)
		}
		pred[i] = c
	}
	sc, err := eval.Score(dev, pred)
	if err != nil {
		return 0, 0
	}
	return sc.LAS.F1(), sc.UAS.F1()
}

// stepper runs one training sentence.
type stepper struct {
	classes *transition.Classes
	ext     *feature.Extractor
	tr      *linear.Trainer
	dyn     transition.DynamicOracle
	rng     *rand.Rand
	morph   bool

	state  transition.State
	words  feature.Words
	fsc    feature.Scratch
	scores []float32
	legal  []bool
	cost   []int
}

// sentence trains on one example and returns the number of steps where the
// model's prediction was (one of) the oracle's and the number of steps.
func (st *stepper) sentence(ex *example, explore bool, p float64) (correct, total int) {
	c, s, g := st.classes, &st.state, ex.gold
	feature.FillWords(&st.words, ex.words, st.morph)
	for i, a := range ex.amb {
		st.words.Values[i+1][feature.A], st.words.Values[i+1][feature.AX] = a[0], a[1]
	}
	c.Sys.Init(s, len(ex.words))
	limit := c.Sys.MaxTransitions(len(ex.words))
	for !c.Sys.Terminal(s) && total < limit {
		feats := st.ext.Extract(s, &st.words, &st.fsc)
		st.tr.Scores(feats, st.scores)
		c.Legal(s, st.legal)
		pred := transition.Best(st.scores, st.legal)
		if pred < 0 {
			break
		}
		goldK := -1
		if st.dyn != nil {
			goldK = st.zeroCost(s, g)
		} else {
			if total >= len(ex.seq) {
				break
			}
			goldK = c.Class(ex.seq[total])
			if !st.legal[goldK] {
				break
			}
		}
		ok := pred == goldK || (st.dyn != nil && st.cost[pred] == st.cost[goldK])
		if ok {
			correct++
		} else {
			st.tr.Update(feats, goldK, pred)
		}
		st.tr.Tick()
		total++
		next := goldK
		if explore && st.rng.Float64() < p {
			next = pred
		}
		c.Sys.Apply(s, c.AttachLabel(s, c.Transition(next), st.scores))
	}
	return correct, total
}

// zeroCost fills st.cost for every legal class and returns the best-scoring
// class of minimal cost.
func (st *stepper) zeroCost(s *transition.State, g *transition.Gold) int {
	c := st.classes
	minCost := int(^uint(0) >> 1)
	for _, m := range c.Moves() {
		if !c.Sys.Legal(s, m) {
			continue
		}
		if !m.Labeled() {
			k := c.Class(transition.Transition{Move: m, Label: transition.None})
			st.cost[k] = st.dyn.Cost(s, transition.Transition{Move: m, Label: transition.None}, g)
			minCost = min(minCost, st.cost[k])
			continue
		}
		h, d := c.Sys.Arc(s, m)
		gl := g.Label[d]
		base := st.dyn.Cost(s, transition.Transition{Move: m, Label: gl}, g)
		headRight := g.Head[d] == h
		for l := range c.Deprels {
			k := c.Class(transition.Transition{Move: m, Label: int32(l)})
			if !st.legal[k] {
				continue
			}
			cost := base
			if headRight && int32(l) != gl {
				cost++
			}
			st.cost[k] = cost
			minCost = min(minCost, cost)
		}
	}
	best := -1
	for k, ok := range st.legal {
		if ok && st.cost[k] == minCost && (best < 0 || st.scores[k] > st.scores[best]) {
			best = k
		}
	}
	return best
}
