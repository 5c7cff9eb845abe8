// Package train trains transparse models: a UPOS tagger and a transition
// classifier for each input variant (gold morphology, plain tokens), with a
// dynamic oracle and error exploration where the system has one (Goldberg &
// Nivre 2012, 2013) and the static oracle otherwise. Non-projective
// training trees are made projective by lifting (Nivre & Nilsson 2005) for
// systems that derive only projective trees.
package train

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/transparse/transparse/modelfmt"
	"github.com/transparse/transparse/parser"
	"github.com/transparse/transparse/parser/conllu"
	"github.com/transparse/transparse/parser/eval"
	"github.com/transparse/transparse/parser/feature"
	"github.com/transparse/transparse/parser/internal/core"
	"github.com/transparse/transparse/parser/morph"
	"github.com/transparse/transparse/parser/pseudoproj"
	"github.com/transparse/transparse/parser/tagger"
	"github.com/transparse/transparse/parser/transition"
)

// Version is recorded in model cards.
const Version = "0.1.0"

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
func Train(opt Options) (*parser.Model, error) {
	if err := opt.Check(); err != nil {
		return nil, err
	}
	opt.defaults()
	start := time.Now()
	opt.start = start
	opt.rep = newReporter(opt.Progress)
	sys, err := transition.Lookup(opt.System)
	if err != nil {
		return nil, err
	}
	if opt.ClustersPath != "" {
		if opt.clusters, err = readClusters(opt.ClustersPath); err != nil {
			return nil, err
		}
	}
	trainSents, err := readTreebank("train", opt.TrainPath)
	if err != nil {
		return nil, err
	}
	if opt.MaxSentences > 0 && len(trainSents) > opt.MaxSentences {
		trainSents = trainSents[:opt.MaxSentences]
	}
	devSents, err := readTreebank("dev", opt.DevPath)
	if err != nil {
		return nil, err
	}
	var testSents []*conllu.Sentence
	if opt.TestPath != "" {
		if testSents, err = readTreebank("test", opt.TestPath); err != nil {
			return nil, err
		}
	}
	notes := map[string]string{}
	if !opt.GoldOnly && !hasUPOS(trainSents) {
		return nil, fmt.Errorf("train: %s: no training word has a UPOS tag: the taggers learn from UPOS (gold_only trains a parser for tagged input alone)", opt.TrainPath)
	}
	if !opt.GoldOnly && opt.Folds > len(trainSents) {
		if len(trainSents) < 2 {
			return nil, fmt.Errorf("train: %s: %d training sentence: jackknifing the taggers needs at least 2 (or gold_only)", opt.TrainPath, len(trainSents))
		}
		fmt.Fprintf(opt.Log, "folds: %d reduced to the %d training sentences\n", opt.Folds, len(trainSents))
		notes["folds_requested"] = fmt.Sprint(opt.Folds)
		opt.Folds = len(trainSents)
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

	goldTrain, long := prepare(sys, trainSents, clusterCodes(trainSents, opt), deprels, opt.Log)
	if len(goldTrain) == 0 {
		return nil, fmt.Errorf("train: %s: no training tree for %s (%d sentences; see the log): nothing to learn", opt.TrainPath, sys.Name(), len(trainSents))
	}
	if long > 0 {
		notes["skipped_long"] = fmt.Sprintf("%d sentences of more than %d words", long, MaxTrainingWords)
	}
	var gold, plain core.Variant
	var gerr, perr error
	var plainPrepared []example // the plain-token parser's examples
	var tg core.Taggers
	morphTrain := trainSents   // what the lemmatizer and FEATS tagger learn from (morphSents)
	var syntax *morph.Syntax   // the FEATS tagger's choice from the tree, until dev decides
	var agree *morph.Agreement // verbs' Person and Number from their subjects, until dev decides
	cols := []string{}
	trainGold := func() {
		exs := [][]example{goldTrain}
		gold, gerr = trainVariant(classes, true, exs, devSents, tg, enc, opt, templates(opt, sys.Name(), true), "gold tags")
		if gerr == nil && opt.GoldFastTemplates != nil {
			gerr = addFast(&gold, classes, exs, devSents, tg, enc, opt, opt.GoldFastTemplates, opt.FastMaxLoss, "gold tags")
		}
	}
	if opt.GoldOnly {
		trainGold()
	} else {
		// Taggers on all training data; jackknifed tags for the plain parser.
		var xposTags int
		cols, opt.xposTable, xposTags = tagColumns(trainSents)
		tg, err = trainTaggers(trainSents, devSents, cols, opt, opt.Seed, true, core.Taggers{})
		if err != nil {
			return nil, err
		}
		if opt.xposTable {
			tg.XPOSTable = morph.TrainXPOSTable(trainSents)
			fmt.Fprintf(opt.Log, "XPOS: %d tags, more than a tagger's %d: predicted from the form, UPOS and FEATS by a table (%d entries)\n",
				xposTags, tagger.MaxTags, tg.XPOSTable.Len())
			notes["xpos_table"] = fmt.Sprintf("%d tags, %d entries", xposTags, tg.XPOSTable.Len())
		}
		if !opt.NoMorph {
			morphTrain = morphSents(trainSents, opt)
			if err := trainMorph(morphTrain, opt, opt.Seed, true, &tg); err != nil {
				return nil, err
			}
			opt.plainMorph = tg.Lemmas != nil || tg.Feats != nil
		}
		if err := opt.rep.error(); err != nil {
			return nil, err
		}
		plainTrain, plainAmb, err := jackknife(trainSents, devSents, cols, opt, tg, opt.plainMorph && plainReadsMorph(opt, sys.Name()))
		if err != nil {
			return nil, err
		}
		if err := opt.rep.error(); err != nil {
			return nil, err
		}
		if tg.Feats != nil {
			syntax = tg.Feats.TrainSyntax(plainTrain, trainSents, morph.Options{Seed: opt.Seed, WeightBits: opt.WeightBits})
			fmt.Fprintf(opt.Log, "FEATS from the tree: trained on the jackknifed tags [%.0f s]\n", time.Since(opt.start).Seconds())
			agree = morph.TrainAgreement(trainSents)
		}
		plainDev := plainCopy(devSents, tg)
		plainPrepared, _ = prepare(sys, plainTrain, plainAmb, deprels, io.Discard)
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
				perr = addFast(&plain, classes, runs, plainDev, tg, enc, opt, opt.PlainFastTemplates, opt.PlainFastMaxLoss, "plain tokens")
			}
		}()
		wg.Wait()
	}
	if err := opt.rep.error(); err != nil {
		return nil, err
	}
	if gerr != nil {
		return nil, gerr
	}
	if perr != nil {
		return nil, perr
	}
	if opt.Beam > 1 {
		// The gold-tag and the plain-token parsers' beam classifiers, at
		// the same time (the plain one's dev model holds the gold-tag
		// parser as it is before).
		greedyGold := gold
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			gerr = trainBeam(&gold, classes, goldBeamExamples(classes, trainSents, opt), devSents, false, func(v core.Variant) *core.Model {
				return core.Assemble(core.Parts{Classes: classes, Gold: v, PseudoProjective: enc})
			}, opt, "gold tags")
		}()
		if plain.Clf != nil {
			wg.Add(1)
			go func() {
				defer wg.Done()
				perr = trainBeam(&plain, classes, plainBeamExamples(classes, plain, plainPrepared), devSents, true, func(v core.Variant) *core.Model {
					return core.Assemble(core.Parts{Classes: classes, Gold: greedyGold, Plain: v, Taggers: tg, PseudoProjective: enc})
				}, opt, "plain tokens")
			}()
		}
		wg.Wait()
		if gerr != nil {
			return nil, gerr
		}
		if perr != nil {
			return nil, perr
		}
	}

	trainedAt, reproducible := start, false
	if s := os.Getenv("SOURCE_DATE_EPOCH"); s != "" {
		if sec, err := strconv.ParseInt(s, 10, 64); err == nil {
			trainedAt, reproducible = time.Unix(sec, 0), true
		}
	}
	card := modelfmt.Card{
		Name:      opt.Name,
		Treebank:  opt.TrainPath,
		System:    sys.Name(),
		TrainedAt: trainedAt.UTC().Format(time.RFC3339),
		Version:   Version,
		Options: map[string]string{
			"epochs": fmt.Sprint(opt.Epochs), "tagger_epochs": fmt.Sprint(opt.TaggerEpochs),
			"tagger_runs": fmt.Sprint(opt.TaggerRuns), "tagger_min_abs": fmt.Sprint(opt.TaggerMinAbs),
			"folds": fmt.Sprint(opt.Folds), "min_updates": fmt.Sprint(opt.MinUpdates), "min_abs": fmt.Sprint(opt.MinAbs), "plain_min_abs": fmt.Sprint(opt.PlainMinAbs), "weight_bits": fmt.Sprint(opt.WeightBits), "plain_runs": fmt.Sprint(opt.PlainRuns), "seed": fmt.Sprint(opt.Seed), "explore": fmt.Sprint(opt.Explore),
			"max_sentences": fmt.Sprint(opt.MaxSentences), "train": opt.TrainPath, "dev": opt.DevPath,
			"gold_only": fmt.Sprint(opt.GoldOnly), "no_morph": fmt.Sprint(opt.NoMorph), "no_lemma_shape": fmt.Sprint(opt.NoLemmaShape), "no_xpos_spacing": fmt.Sprint(opt.NoXPOSSpacing), "pseudo_projective": enc.String(),
			"gold_templates": templatesNote(opt.GoldTemplates), "plain_templates": templatesNote(opt.PlainTemplates),
			"gold_fast": fastNote(gold), "plain_fast": fastNote(plain),
		},
		Scores: map[string]float64{},
	}
	for k, v := range notes {
		card.Options[k] = v
	}
	if opt.TestPath != "" {
		card.Options["test"] = opt.TestPath
	}
	if opt.clusters != nil {
		card.Options["clusters"] = fmt.Sprintf("%s, %d words", filepath.Base(opt.ClustersPath), opt.clusters.Len())
	}
	if gold.Beam != nil {
		card.Options[core.TrainedBeamOption] = fmt.Sprint(opt.Beam)
		card.Options[core.DefaultBeamOption] = fmt.Sprint(defaultBeam(opt))
		card.Options["beam_epochs"] = fmt.Sprint(opt.BeamEpochs)
		card.Options["beam_runs"] = fmt.Sprint(opt.BeamRuns)
	}
	parts := core.Parts{Card: card, Classes: classes, Gold: gold, Plain: plain, Taggers: tg, PseudoProjective: enc}
	scorer := core.Assemble(parts)
	if tg.Feats != nil {
		card.Options["feats_tags"] = chooseConsistentTags(scorer, tg.Feats, devSents, opt)
	}
	if syntax != nil {
		card.Options["feats_syntax"] = chooseSyntax(scorer, tg.Feats, syntax, devSents, opt)
	}
	if agree != nil {
		card.Options["feats_agreement"] = chooseAgreement(scorer, tg.Feats, agree, devSents, opt)
	}
	if tg.Lemmas != nil {
		card.Options["lemma_dictionary"] = chooseDictionaryFirst(scorer, tg.Lemmas, devSents, opt)
		if lc := morph.TrainLemmaCase(morphTrain); lc != nil {
			card.Options["lemma_case"] = chooseLemmaCase(scorer, tg.Lemmas, lc, devSents, opt)
		}
	}
	if err := scoreInto(scorer, "dev", devSents, card.Scores); err != nil {
		return nil, err
	}
	if testSents != nil {
		if err := scoreInto(scorer, "test", testSents, card.Scores); err != nil {
			return nil, err
		}
	}
	if !reproducible {
		card.Options["training_seconds"] = fmt.Sprintf("%.0f", time.Since(start).Seconds())
	}
	if tg.Lemmas != nil {
		cols = append(cols, "LEMMA")
	}
	if tg.Feats != nil {
		cols = append(cols, "FEATS")
	}
	if tg.XPOSTable != nil {
		cols = append(cols, "XPOS (by table)")
	}
	card.Notes = "Scores follow the CoNLL 2018 convention (all words, LAS on universal deprels). " +
		"gold = UPOS/XPOS/LEMMA/FEATS given; predicted = plain tokens, tags from the bundled taggers (" +
		strings.Join(cols, ", ") + ")."
	parts.Card = card
	m := core.Assemble(parts)
	// Calibrate the confidences on dev, the beam's at the default width.
	if err := m.Calibrate(devSents, m.DefaultBeam()); err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	// The model handed back is the saved document loaded, so that it
	// parses exactly as the file does.
	pm, err := parser.FromDocument(m.Document())
	if err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	if opt.Output != "" {
		if err := pm.Save(opt.Output); err != nil {
			return nil, fmt.Errorf("train: saving the model: %w", err)
		}
	}
	return pm, nil
}

// readTreebank reads a CoNLL-U treebank in full and checks that it has
// something to learn from or score: at least one sentence whose words all
// have a HEAD and a DEPREL.
func readTreebank(what, path string) ([]*conllu.Sentence, error) {
	sents, err := conllu.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if len(sents) == 0 {
		return nil, fmt.Errorf("train: %s treebank %s has no sentences", what, path)
	}
	for _, s := range sents {
		if annotated(s) {
			return sents, nil
		}
	}
	return nil, fmt.Errorf("train: %s treebank %s has no annotated sentence (every word with a HEAD and a DEPREL): nothing to learn or score", what, path)
}

// hasUPOS reports whether some word of sents has a UPOS tag.
func hasUPOS(sents []*conllu.Sentence) bool {
	for _, s := range sents {
		for _, w := range s.Words {
			if !conllu.Absent(w.UPOS) {
				return true
			}
		}
	}
	return false
}

// annotated reports whether every word of s has a HEAD and a DEPREL.
func annotated(s *conllu.Sentence) bool {
	for _, w := range s.Words {
		if w.Head < 0 || conllu.Absent(w.Deprel) {
			return false
		}
	}
	return len(s.Words) > 0
}

// scoreInto parses sents with gold morphology and from plain tokens and
// records the scores in scores: UAS, LAS, CLAS and UPOS, and from plain
// tokens also XPOS, UFeats, AllTags and Lemmas (parser/eval); greedily,
// and for a model whose default beam width K is above 1 also at K (the
// rows "gold, beam K" and "predicted, beam K").
func scoreInto(m *core.Model, split string, sents []*conllu.Sentence, scores map[string]float64) error {
	widths := []int{1}
	if k := m.DefaultBeam(); k > 1 {
		widths = append(widths, k)
	}
	for _, k := range widths {
		if err := scoreWidth(m, split, sents, scores, k); err != nil {
			return err
		}
	}
	return nil
}

// scoreWidth is scoreInto at beam width k; above 1 the rows are named
// "<tags>, beam k".
func scoreWidth(m *core.Model, split string, sents []*conllu.Sentence, scores map[string]float64, k int) error {
	for _, tags := range []string{"gold", "predicted"} {
		if tags == "predicted" && m.GoldTagsOnly() {
			continue
		}
		row := tags
		if k > 1 {
			row = fmt.Sprintf("%s, beam %d", tags, k)
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
			if err := m.ParseWithOptions(c.Words, core.Options{Beam: k}, nil); err != nil {
				return err
			}
			pred[i] = c
		}
		sc, err := eval.Score(sents, pred)
		if err != nil {
			return err
		}
		scores[split+"/"+row+"/UAS"] = sc.UAS.F1()
		scores[split+"/"+row+"/LAS"] = sc.LAS.F1()
		scores[split+"/"+row+"/CLAS"] = sc.CLAS.F1()
		scores[split+"/"+row+"/UPOS"] = sc.UPOS.F1()
		if tags == "predicted" {
			scores[split+"/"+row+"/XPOS"] = sc.XPOS.F1()
			scores[split+"/"+row+"/UFeats"] = sc.UFeats.F1()
			scores[split+"/"+row+"/AllTags"] = sc.AllTags.F1()
			scores[split+"/"+row+"/Lemmas"] = sc.Lemmas.F1()
		}
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

// tagColumns returns the columns to train taggers for: UPOS, and XPOS when
// most training words have one and its tag set fits a tagger
// (tagger.MaxTags). table reports a treebank whose XPOS is predicted by an
// XPOS table instead (morph.XPOSTable): most words have one, from a larger
// tag set, of xposTags tags.
func tagColumns(sents []*conllu.Sentence) (cols []string, table bool, xposTags int) {
	words, xpos := 0, 0
	tags := map[string]bool{}
	for _, s := range sents {
		for _, w := range s.Words {
			words++
			if !conllu.Absent(w.XPOS) {
				xpos++
				tags[w.XPOS] = true
			}
		}
	}
	switch {
	case 2*xpos <= words:
		return []string{tagger.UPOS}, false, len(tags)
	case len(tags) > tagger.MaxTags:
		return []string{tagger.UPOS}, true, len(tags)
	}
	return []string{tagger.UPOS, tagger.XPOS}, false, len(tags)
}

// morphSents returns the sentences the lemmatizer, the FEATS tagger and
// the lemmas' capitals learn from: sents, or, for a model with an XPOS
// table (opt.xposTable), copies of them with their XPOS removed, since
// they run before the table gives XPOS.
func morphSents(sents []*conllu.Sentence, opt Options) []*conllu.Sentence {
	if !opt.xposTable {
		return sents
	}
	out := make([]*conllu.Sentence, len(sents))
	for i, s := range sents {
		c := cloneSentence(s)
		for j := range c.Words {
			c.Words[j].XPOS = "_"
		}
		out[i] = c
	}
	return out
}

// readClusters reads the word clusters file at path.
func readClusters(path string) (*tagger.Clusters, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("train: clusters: %w", err)
	}
	defer f.Close()
	c, err := tagger.ReadClusters(f)
	if err != nil {
		return nil, fmt.Errorf("train: %s: %w", path, err)
	}
	return c, nil
}

// trainTaggers trains one tagger per column, in parallel. Each keeps its
// best epoch on dev, or, when like has a tagger for the column (the
// jackknife taggers), trains as many epochs as that tagger kept; all in
// opt.TaggerRuns runs.
func trainTaggers(train, dev []*conllu.Sentence, cols []string, opt Options, seed int64, verbose bool, like core.Taggers) (core.Taggers, error) {
	var tg core.Taggers
	ts := make([]*tagger.Tagger, len(cols))
	errs := make([]error, len(cols))
	var wg sync.WaitGroup
	for i, col := range cols {
		o := tagger.Options{Column: col, Epochs: opt.TaggerEpochs, Seed: seed, WeightBits: opt.WeightBits, Clusters: opt.clusters,
			Runs: opt.TaggerRuns, MinAbs: opt.TaggerMinAbs, Spacing: col == tagger.XPOS && !opt.NoXPOSSpacing}
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
	tpls := opt.PlainTemplates
	if morph {
		tpls = opt.GoldTemplates
	}
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
	for _, tpls := range [][]string{templates(opt, system, false), opt.PlainFastTemplates} {
		if e, err := feature.New(tpls); err == nil && e.UsesMorph() {
			return true
		}
	}
	return false
}

// defaultBeam is the default beam width training records: opt.DefaultBeam,
// or else the width the beam classifiers are trained at.
func defaultBeam(opt Options) int {
	if opt.DefaultBeam > 0 {
		return opt.DefaultBeam
	}
	return opt.Beam
}
