package train

import (
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"time"

	"github.com/transparse/transparse/modelfmt"
	"github.com/transparse/transparse/parser"
	"github.com/transparse/transparse/parser/feature"
	"github.com/transparse/transparse/parser/linear"
	"github.com/transparse/transparse/parser/pseudoproj"
	"github.com/transparse/transparse/parser/tagger"
	"github.com/transparse/transparse/parser/transition"
)

// Options configures Train. They are the one description of the training
// options: the JSON names are the keys of tp_train's options object (and
// the keyword arguments of the Python transparse.train; the groups are
// nested objects, e.g. {"gold": {"epochs": 10}}), the model card records
// them by the same names (groups joined with a dot: "gold.epochs"), and
// `transparse train` reads them from --options FILE.json, its flags
// setting the most used ones. Zero values of the numeric options mean
// "the trainer's default" (given with each option).
type Options struct {
	System    string `json:"system"` // transition system name (DefaultOptions: "arc-eager")
	TrainPath string `json:"train"`  // CoNLL-U training treebank (required)
	DevPath   string `json:"dev"`    // CoNLL-U development treebank (required): selects epochs
	TestPath  string `json:"test"`   // optional: scored once at the end for the model card
	// Output, when not empty, is where Train saves the model. Check
	// refuses a directory, a non-regular file, and a path whose directory
	// does not exist or cannot be written, so that no training is lost to
	// a bad path.
	Output string `json:"output"`
	// Name is the model name for the card (default: the base name of
	// Output without its extension).
	Name string `json:"name"`
	// ClustersPath, when not empty, is a file of word clusters from a large
	// unannotated corpus (Brown clustering, in the "paths" format of
	// tagger.ReadClusters) whose features the UPOS and XPOS taggers learn
	// and read, as do the parsers' templates that read a word's cluster
	// path (c, c4, c6; none of the system's default templates does); the
	// model stores the clusters (tagger.Clusters).
	ClustersPath string `json:"clusters"`
	MaxSentences int    `json:"max_sentences"` // use only the first N training sentences (0 = all)
	Seed         int64  `json:"seed"`          // seeds example order and exploration (DefaultOptions: 1)
	// PseudoProjective is the label encoding of lifted arcs for training
	// trees outside the system's class (Nivre & Nilsson 2005): "baseline"
	// (or "": lift only, labels unchanged), "head", "path" or "head+path".
	// With an encoding, such trees are lifted to projective ones, the lifts
	// recorded in the deprels, and the model undoes them after parsing.
	// With baseline, trees are lifted one arc at a time only until the
	// system derives them.
	PseudoProjective string `json:"pseudo_projective"`
	// GoldOnly trains only the gold-tag parser: no taggers, no
	// jackknifing, no plain-token parser. Such models parse only
	// sentences given with tags; they are for comparing systems.
	GoldOnly bool `json:"gold_only"`
	// WeightBits is the number of bits of the stored weights of every
	// classifier (parsers, taggers, lemmatizer, FEATS tagger;
	// linear.FreezeOptions.WeightBits, 2..16; 0 = linear.TrainedWeightBits,
	// 12).
	WeightBits int `json:"weight_bits"`
	// JackknifeFolds is the number of jackknife folds that give the
	// plain-token parser predicted training tags, LEMMA and FEATS: each
	// fold tagged by taggers trained on the others (0 = default 4; 1 is
	// refused: it would leave the fold's taggers no training data). More
	// folds than training sentences are reduced to one fold per sentence
	// (noted in the log and recorded in the card).
	JackknifeFolds int `json:"jackknife_folds"`

	Gold    ParserOptions  `json:"gold"`    // the parser of sentences given with their tags
	Plain   ParserOptions  `json:"plain"`   // the parser of plain tokens, reading predicted tags
	Taggers TaggerOptions  `json:"taggers"` // the UPOS and XPOS taggers
	Morph   MorphOptions   `json:"morph"`   // the lemmatizer and the FEATS tagger
	Beam    BeamOptions    `json:"beam"`    // classifiers for beam search
	Segment SegmentOptions `json:"segment"` // the segmenter of raw text

	// Progress, if not nil, receives training progress (see Progress):
	// one call at a time, from training goroutines. A non-nil error stops
	// the training, which then returns an error wrapping it (ErrCanceled
	// too); so does a panic in Progress.
	Progress func(Progress) error `json:"-"`
	// Log receives the training log: per-epoch dev scores and notes (nil =
	// none).
	Log io.Writer `json:"-"`

	caseFeats  bool             // set by Train: the treebank marks Case on many words
	plainMorph bool             // set by Train: the model predicts LEMMA or FEATS
	xposTable  bool             // set by Train: XPOS is predicted by an XPOS table (tagColumns)
	start      time.Time        // set by Train: when training started (for the log)
	rep        *reporter        // set by Train: forwards to Progress
	clusters   *tagger.Clusters // set by Train: read from ClustersPath
}

// ParserOptions configures one of the two parsers: Options.Gold, the
// gold-tag parser, and Options.Plain, the plain-token parser.
type ParserOptions struct {
	Epochs int `json:"epochs"` // training epochs; the one with the best dev LAS is kept (0 = default 15)
	// Runs is the number of classifiers trained side by side, each with
	// its own seed (example order and exploration), whose averaged
	// weights are averaged again into the parser's one classifier
	// (linear.FreezeMean): an ensemble at the parsing cost of one model
	// (0 = default: 1 for the gold-tag parser, where averaging two did
	// not help, docs/decisions.md; 2 for the plain-token parser).
	Runs int `json:"runs"`
	// Explore is the probability of following the model's own prediction
	// when training with a dynamic oracle (0 = default 0.9; < 0 = never;
	// at most 1).
	Explore float64 `json:"explore"`
	// MinFeatureUpdates drops the features updated fewer times than this
	// when the classifier is frozen (0 = default 5; < 0 = keep all).
	MinFeatureUpdates int `json:"min_feature_updates"`
	// DropWeightsBelow drops the averaged weights smaller than this in
	// absolute value when the classifier is frozen (0 = default: 1.5 for
	// the gold-tag parser, 0.5 for the plain-token parser; < 0 = keep
	// all): fewer weights parse faster, at a small cost in accuracy
	// (docs/decisions.md, "Pruning thresholds of the bundled model").
	DropWeightsBelow float32 `json:"drop_weights_below"`
	// Templates are the parser's feature templates (syntax of
	// parser/feature). nil: feature.ForSystem for the system, plus for
	// the plain-token parser feature.MorphTemplates when the model
	// predicts LEMMA and FEATS, and feature.CaseTemplates for the parsers
	// that read FEATS when the treebank marks Case on many words; a list
	// given here is used as it is (models/templates holds the bundled
	// English model's lists). When the plain-token parser's templates
	// read lemmas or FEATS, its training words get LEMMA and FEATS
	// predicted by a lemmatizer and a FEATS tagger of each jackknife
	// fold, as they get their tags.
	Templates []string `json:"templates"`
	// FastTemplates, when not nil, are the templates of a fast classifier
	// trained for the parser and put in front of it
	// (core.Variant.Fast): it decides the states it is sure of, by a
	// margin tuned on dev so that the pair's dev LAS is at most
	// FastMaxLoss below the parser's alone. A prefix of the parser's
	// ranked templates serves well.
	FastTemplates []string `json:"fast_templates"`
	// FastMaxLoss is the dev LAS (points) the fast classifier may cost
	// (0 = default 0.1).
	FastMaxLoss float64 `json:"fast_max_loss"`
}

// TaggerOptions configures the UPOS and XPOS taggers (parser/tagger),
// those of the model and those of the jackknife folds.
type TaggerOptions struct {
	Epochs int `json:"epochs"` // training epochs (0 = tagger.DefaultEpochs)
	// Runs is the number of perceptrons trained side by side for each
	// tagger, each on its own order of the sentences, whose averaged
	// weights are averaged again into the tagger's one model
	// (tagger.Options.Runs): an ensemble at the tagging cost of one
	// model, for that many times the taggers' training time (0 = default
	// 3; docs/decisions.md, "Classifiers as the mean of several runs").
	Runs int `json:"runs"`
	// DropWeightsBelow drops the taggers' weights smaller than this in
	// absolute value (tagger.Options.MinAbs; 0 = keep all): smaller and
	// faster taggers, which on a treebank of EWT's size tag as well or
	// better, and on a small one worse.
	DropWeightsBelow float32 `json:"drop_weights_below"`
}

// MorphOptions configures the lemmatizer and the FEATS tagger
// (parser/morph).
type MorphOptions struct {
	// Skip trains no lemmatizer and no FEATS tagger: the model then
	// leaves LEMMA and FEATS as the caller gives them. By default both
	// are trained after the taggers, on the training treebank's gold
	// tags, and stored in the model (not for GoldOnly).
	Skip bool `json:"skip"`
	// LemmaRankWithoutShape ranks a word's lemma candidates without the
	// features of their place among the candidates and of the ending of
	// the lemma each gives (morph.Options.NoShape): the bundled English
	// model's lemmatizer (docs/decisions.md, "Lemmas by classifying
	// lemma rules").
	LemmaRankWithoutShape bool `json:"lemma_rank_without_shape"`
}

// SegmentOptions configures the model's segmenter of raw text
// (parser/segment), which parser.InputText needs.
type SegmentOptions struct {
	// Skip trains no segmenter: the model then reads CoNLL-U and
	// pre-tokenized text only. By default the segmenter is trained on
	// the training treebank's text (its forms, SpaceAfter=No and
	// "# newpar"/"# newdoc" comments), its epochs and thresholds chosen
	// on dev's, in seconds, and the card records its dev F1 as
	// "dev/text/Tokens", "dev/text/Words" and "dev/text/Sentences".
	Skip bool `json:"skip"`
}

// BeamOptions configures the classifiers for beam search.
type BeamOptions struct {
	// Width, when 2 to parser.MaxBeam, trains after the greedy
	// classifiers a classifier for beam search of that width K for each
	// parser (core.Variant.Beam, stored as "parser.gold.beam" and
	// "parser.plain.beam"), both at the same time: global training, the
	// averaged structured perceptron with max-violation update
	// (parser/beam), over the parser's templates, hashing and training
	// words (the plain-token parser's with their jackknifed tags), the
	// epoch with the best dev LAS at width K kept (dev with its tags, and
	// from plain tokens). 0 or 1: none.
	Width int `json:"width"`
	// DefaultWidth is the model's default beam width (parser.DefaultBeam:
	// the width callers get unless they choose one), 1 to
	// parser.MaxBeam; 0 means Width. A beam classifier often parses best
	// at a width larger than it was trained at: choose it on dev
	// (transparse eval --beam K). It needs Width.
	DefaultWidth int `json:"default_width"`
	Epochs       int `json:"epochs"` // epochs of the beam classifiers (0 = default 10)
	// Runs is the number of beam classifiers trained side by side for
	// each parser, each on its own order of the training sentences, and
	// averaged into one after each epoch (beam.TrainOptions.Runs): an
	// ensemble at the decoding cost of one classifier (0 = default 2).
	// The runs train on up to GOMAXPROCS threads.
	Runs int `json:"runs"`
}

// DefaultOptions returns the options every front end starts from: the
// arc-eager system and seed 1, every other option at its zero value (the
// trainer's default).
func DefaultOptions() Options {
	return Options{System: "arc-eager", Seed: 1}
}

// parser returns the options of the gold-tag (gold) or the plain-token
// parser.
func (o *Options) parser(gold bool) *ParserOptions {
	if gold {
		return &o.Gold
	}
	return &o.Plain
}

// OptionError is an option that no training could accept (from Check).
type OptionError struct {
	Option string // the JSON path, e.g. "jackknife_folds" or "gold.templates[3]"
	Msg    string // what is wrong and what is wanted
}

func (e *OptionError) Error() string { return "train: " + e.Option + ": " + e.Msg }

func optErr(option, format string, a ...any) error {
	return &OptionError{Option: option, Msg: fmt.Sprintf(format, a...)}
}

func (o *Options) defaults() {
	if o.JackknifeFolds <= 0 {
		o.JackknifeFolds = 4
	}
	o.Gold.defaults(1, 1.5)
	o.Plain.defaults(2, 0.5)
	if o.Taggers.Runs <= 0 {
		o.Taggers.Runs = 3
	}
	if o.WeightBits == 0 {
		o.WeightBits = linear.TrainedWeightBits
	}
	if o.Beam.Epochs == 0 {
		o.Beam.Epochs = 10
	}
	if o.Beam.Runs == 0 {
		o.Beam.Runs = 2
	}
	if o.Name == "" && o.Output != "" {
		base := filepath.Base(o.Output)
		o.Name = base[:len(base)-len(filepath.Ext(base))]
	}
	if o.Log == nil {
		o.Log = io.Discard
	}
}

// defaults sets the parser's zero options to the trainer's defaults, runs
// and dropWeightsBelow those of the parser.
func (p *ParserOptions) defaults(runs int, dropWeightsBelow float32) {
	if p.Epochs <= 0 {
		p.Epochs = 15
	}
	if p.Runs <= 0 {
		p.Runs = runs
	}
	if p.MinFeatureUpdates == 0 {
		p.MinFeatureUpdates = 5
	}
	if p.DropWeightsBelow == 0 {
		p.DropWeightsBelow = dropWeightsBelow
	}
	if p.Explore == 0 {
		p.Explore = 0.9
	}
	if p.FastMaxLoss == 0 {
		p.FastMaxLoss = 0.1
	}
}

// Check reports the first option that no training could accept, as an
// *OptionError naming it by its JSON path (e.g. "gold.templates[3]"),
// before any treebank is read: an unknown system or pseudo-projective
// encoding; a missing train or dev path; a negative max_sentences,
// jackknife_folds or count of epochs or runs; jackknife_folds 1; a
// beam.width or beam.default_width above parser.MaxBeam or negative, or
// a beam.default_width without a beam.width; an explore above 1; a
// number that is not finite; a negative taggers.drop_weights_below or
// fast_max_loss; weight_bits outside 2..16 (0 is the default); an empty
// template list (nil is the system's) or an invalid template, or one that
// reads word clusters (c, c4, c6) without clusters or in a gold-only
// model; plain fast templates for a gold-only model; an output path that
// is a directory or another non-regular file, or whose directory is
// missing or not writable. Train calls it first; the CLI, tp_train and
// Python report its message as it is.
func (o *Options) Check() error {
	if _, err := transition.Lookup(o.System); err != nil {
		return &OptionError{Option: "system", Msg: err.Error()}
	}
	if o.PseudoProjective != "" {
		if _, err := pseudoproj.Parse(o.PseudoProjective); err != nil {
			return &OptionError{Option: "pseudo_projective", Msg: err.Error()}
		}
	}
	if o.TrainPath == "" {
		return optErr("train", "missing: the path of the CoNLL-U training treebank")
	}
	if o.DevPath == "" {
		return optErr("dev", "missing: the path of the CoNLL-U development treebank")
	}
	if err := o.checkCounts(); err != nil {
		return err
	}
	if o.WeightBits != 0 && (o.WeightBits < 2 || o.WeightBits > 16) {
		return optErr("weight_bits", "%d: want 2..16 (0: the default, 12)", o.WeightBits)
	}
	if o.Taggers.DropWeightsBelow < 0 || !finite(float64(o.Taggers.DropWeightsBelow)) {
		return optErr("taggers.drop_weights_below", "%g: want 0 (the default: keep all) or more", o.Taggers.DropWeightsBelow)
	}
	if o.GoldOnly && o.Plain.FastTemplates != nil {
		return optErr("plain.fast_templates", "given for a gold-only model (it has no plain-token parser)")
	}
	for _, p := range [...]struct {
		name string
		p    *ParserOptions
	}{{"gold", &o.Gold}, {"plain", &o.Plain}} {
		if err := p.p.check(p.name, o.ClustersPath != "" && !o.GoldOnly); err != nil {
			return err
		}
	}
	if o.Output != "" {
		if err := checkOutput(o.Output); err != nil {
			return err
		}
	}
	return nil
}

// checkCounts checks the counts of Options: epochs, runs, folds,
// sentences and beam widths.
func (o *Options) checkCounts() error {
	for _, c := range [...]struct {
		name string
		v    int
	}{{"max_sentences", o.MaxSentences}, {"jackknife_folds", o.JackknifeFolds},
		{"gold.epochs", o.Gold.Epochs}, {"gold.runs", o.Gold.Runs}, {"plain.epochs", o.Plain.Epochs}, {"plain.runs", o.Plain.Runs},
		{"taggers.epochs", o.Taggers.Epochs}, {"taggers.runs", o.Taggers.Runs},
		{"beam.epochs", o.Beam.Epochs}, {"beam.runs", o.Beam.Runs}} {
		if c.v < 0 {
			return optErr(c.name, "%d: want 0 (the default) or more", c.v)
		}
	}
	if o.JackknifeFolds == 1 {
		return optErr("jackknife_folds", "1: want 0 (the default, 4) or at least 2 (one fold leaves its taggers no training data)")
	}
	if o.Beam.Width < 0 || o.Beam.Width > parser.MaxBeam {
		return optErr("beam.width", "%d: want 0 (no beam classifier) to %d", o.Beam.Width, parser.MaxBeam)
	}
	if o.Beam.DefaultWidth < 0 || o.Beam.DefaultWidth > parser.MaxBeam {
		return optErr("beam.default_width", "%d: want 0 (the beam width) to %d", o.Beam.DefaultWidth, parser.MaxBeam)
	}
	if o.Beam.DefaultWidth > 0 && o.Beam.Width < 2 {
		return optErr("beam.default_width", "%d without beam classifiers (set beam.width, 2 to %d)", o.Beam.DefaultWidth, parser.MaxBeam)
	}
	return nil
}

// check checks the options of the parser named name ("gold" or "plain");
// clusters tells whether its templates may read word clusters.
func (p *ParserOptions) check(name string, clusters bool) error {
	for _, c := range [...]struct {
		name string
		v    float64
	}{{"drop_weights_below", float64(p.DropWeightsBelow)}, {"explore", p.Explore}, {"fast_max_loss", p.FastMaxLoss}} {
		if !finite(c.v) {
			return optErr(name+"."+c.name, "%g: want a finite number", c.v)
		}
	}
	if p.Explore > 1 {
		return optErr(name+".explore", "%g: a probability, at most 1 (0: the default, 0.9; negative: never)", p.Explore)
	}
	if p.FastMaxLoss < 0 {
		return optErr(name+".fast_max_loss", "%g: want 0 (the default, 0.1) or more", p.FastMaxLoss)
	}
	for _, l := range [...]struct {
		name string
		t    []string
	}{{name + ".templates", p.Templates}, {name + ".fast_templates", p.FastTemplates}} {
		if err := checkTemplates(l.name, l.t, clusters); err != nil {
			return err
		}
	}
	return nil
}

// checkTemplates checks the template list named name; clusters tells
// whether templates may read word clusters.
func checkTemplates(name string, tpls []string, clusters bool) error {
	if tpls == nil {
		return nil
	}
	if len(tpls) == 0 {
		return optErr(name, "the list is empty (absent or null: the system's templates)")
	}
	for i, t := range tpls {
		e, err := feature.New([]string{t})
		if err != nil {
			return &OptionError{Option: fmt.Sprintf("%s[%d]", name, i), Msg: err.Error()}
		}
		if e.UsesClusters() && !clusters {
			msg := fmt.Sprintf("template %q reads word clusters, which only a model trained with clusters and taggers has", t)
			return &OptionError{Option: fmt.Sprintf("%s[%d]", name, i), Msg: msg}
		}
	}
	return nil
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// checkOutput checks that a model can be saved at path: not a directory or
// another non-regular file (following symbolic links as the save does,
// modelfmt.ResolveSavePath), in an existing directory where a file can be
// created (it creates and removes one).
func checkOutput(path string) error {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return optErr("output", "%s is a directory", path)
	}
	target, err := modelfmt.ResolveSavePath(path)
	if err != nil {
		return optErr("output", "%v", err)
	}
	dir := filepath.Dir(target)
	fi, err := os.Stat(dir)
	switch {
	case err != nil:
		return optErr("output", "the directory %s: %v", dir, unwrapPath(err))
	case !fi.IsDir():
		return optErr("output", "%s is not a directory", dir)
	}
	f, err := os.CreateTemp(dir, ".transparse-check-*")
	if err != nil {
		return optErr("output", "cannot write in %s: %v", dir, unwrapPath(err))
	}
	name := f.Name()
	f.Close()
	os.Remove(name)
	return nil
}

// unwrapPath returns the operating system's error inside a path error
// (whose path the message already names).
func unwrapPath(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}
