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
// the keyword arguments of the Python transparse.train), and the CLI's
// `transparse train` has one flag per JSON name (underscores written as
// dashes) with the default of DefaultOptions. Zero values of the numeric
// options mean "the trainer's default" (given with each option).
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
	Name         string `json:"name"`
	Epochs       int    `json:"epochs"`        // parser epochs (0 = default 15)
	TaggerEpochs int    `json:"tagger_epochs"` // tagger epochs (0 = the tagger's default)
	// TaggerRuns is the number of perceptrons trained side by side for
	// each tagger (the model's and the jackknife folds', so that the
	// plain-token parser learns from tags of the same quality), each on its
	// own order of the sentences, whose averaged weights are averaged
	// again into the tagger's one model (tagger.Options.Runs): an ensemble
	// at the tagging cost of one model, for that many times the taggers'
	// training time (0 = default 3; docs/decisions.md, "Classifiers as
	// the mean of several runs").
	TaggerRuns int `json:"tagger_runs"`
	// TaggerMinAbs drops the taggers' weights smaller than this in
	// absolute value (tagger.Options.MinAbs; 0 = keep all): smaller and
	// faster taggers, which on a treebank of EWT's size tag as well or
	// better, and on a small one worse.
	TaggerMinAbs float32 `json:"tagger_min_abs"`
	// ClustersPath, when not empty, is a file of word clusters from a large
	// unannotated corpus (Brown clustering, in the "paths" format of
	// tagger.ReadClusters) whose features the UPOS and XPOS taggers learn
	// and read; the model stores the clusters (tagger.Clusters).
	ClustersPath string `json:"clusters"`
	// Folds is the number of jackknife folds that give the plain-token
	// parser predicted training tags (0 = default 4; 1 is refused: it
	// would leave the fold's taggers no training data). More folds than
	// training sentences are reduced to one fold per sentence (noted in
	// the log and recorded in the card).
	Folds        int   `json:"folds"`
	MaxSentences int   `json:"max_sentences"` // use only the first N training sentences (0 = all)
	Seed         int64 `json:"seed"`          // seeds example order and exploration (DefaultOptions: 1)
	// PseudoProjective is the label encoding of lifted arcs for training
	// trees outside the system's class (Nivre & Nilsson 2005): "baseline"
	// (or "": lift only, labels unchanged), "head", "path" or "head+path".
	// With an encoding, such trees are lifted to projective ones, the lifts
	// recorded in the deprels, and the model undoes them after parsing.
	// With baseline, trees are lifted one arc at a time only until the
	// system derives them.
	PseudoProjective string `json:"pseudo_projective"`
	// GoldOnly trains only the gold-morphology classifier: no taggers, no
	// jackknifing, no plain-token classifier. Such models parse only
	// sentences given with tags; they are for comparing systems.
	GoldOnly bool `json:"gold_only"`
	// NoMorph skips the lemmatizer and the FEATS tagger (parser/morph):
	// the model then leaves LEMMA and FEATS as the caller gives them. By
	// default both are trained after the taggers, on the training
	// treebank's gold tags, and stored in the model (not for GoldOnly).
	NoMorph bool `json:"no_morph"`
	// NoLemmaShape trains the lemmatizer without the place and lemma
	// ending features of its candidates (morph.Options.NoShape), as
	// lemmatizers were trained before them.
	NoLemmaShape bool `json:"no_lemma_shape"`
	// NoXPOSSpacing trains the XPOS tagger without reading whether
	// punctuation is spaced from its neighbours in the text
	// (tagger.Options.Spacing), as XPOS taggers were trained before it.
	NoXPOSSpacing bool `json:"no_xpos_spacing"`
	// MinUpdates drops parser features updated fewer times than this when
	// the model is frozen (0 = default 5; < 0 = keep all).
	MinUpdates int `json:"min_updates"`
	// MinAbs drops averaged weights of the gold-tag parser smaller than this
	// in absolute value when the model is frozen (0 = default 1.5; < 0 =
	// keep all): fewer weights parse faster, at a small cost in accuracy
	// (docs/decisions.md, "Pruning thresholds of the bundled model").
	MinAbs float32 `json:"min_abs"`
	// PlainMinAbs is MinAbs for the plain-token parser (0 = default 0.5).
	PlainMinAbs float32 `json:"plain_min_abs"`
	// PlainRuns is the number of plain-token parsers trained side by side,
	// each with its own seed (example order and exploration), whose
	// averaged weights are averaged again into the one plain-token
	// classifier (linear.FreezeMean): an ensemble at the parsing cost of one
	// model (0 = default 2). The gold-tag parser is one run: averaging two
	// did not help it (docs/decisions.md).
	PlainRuns int `json:"plain_runs"`
	// Explore is the probability of following the model's own prediction
	// when training with a dynamic oracle (0 = default 0.9; < 0 = never;
	// at most 1).
	Explore float64 `json:"explore"`
	// WeightBits is the number of bits of the stored weights of every
	// classifier (parsers, taggers, lemmatizer, FEATS tagger;
	// linear.FreezeOptions.WeightBits, 2..16; 0 = linear.TrainedWeightBits,
	// 12).
	WeightBits int `json:"weight_bits"`
	// GoldTemplates and PlainTemplates are the feature templates (syntax of
	// parser/feature) of the gold-morphology and the plain-token parser.
	// nil: feature.ForSystem for the system, plus for the plain-token
	// parser feature.MorphTemplates when the model predicts LEMMA and
	// FEATS (not NoMorph), and feature.CaseTemplates for the parsers that
	// read FEATS when the treebank marks Case on many words; a list given
	// here is used as it is (models/templates holds the bundled English
	// model's lists). When the plain-token parser's templates read lemmas
	// or FEATS, its training words get LEMMA and FEATS predicted by a
	// lemmatizer and a FEATS tagger of each jackknife fold, as they get
	// their tags.
	GoldTemplates  []string `json:"gold_templates"`
	PlainTemplates []string `json:"plain_templates"`
	// GoldFastTemplates and PlainFastTemplates, when not nil, are the
	// templates of a fast classifier trained for the gold-tag or the
	// plain-token parser and put in front of it (parser.Variant.Fast): it
	// decides the states it is sure of, by a margin tuned on dev so that
	// the pair's dev LAS is at most FastMaxLoss below the parser's alone.
	// A prefix of the parser's ranked templates serves well.
	GoldFastTemplates  []string `json:"gold_fast_templates"`
	PlainFastTemplates []string `json:"plain_fast_templates"`
	// FastMaxLoss is the dev LAS (points) a fast classifier may cost
	// (0 = default 0.1).
	FastMaxLoss float64 `json:"fast_max_loss"`
	// PlainFastMaxLoss is FastMaxLoss for the plain-token parser's fast
	// classifier (0 = FastMaxLoss).
	PlainFastMaxLoss float64 `json:"plain_fast_max_loss"`
	// Beam, when 2 to parser.MaxBeam, trains after the greedy classifiers
	// a classifier for beam search of that width K for each parser
	// (parser.Variant.Beam, stored as "parser.gold.beam" and
	// "parser.plain.beam"), both at the same time: global training, the
	// averaged structured perceptron with max-violation update
	// (parser/beam), over the parser's templates, hashing and training
	// words (the plain-token parser's with their jackknifed tags), the
	// epoch with the best dev LAS at width K kept (dev with its tags, and
	// from plain tokens). 0 or 1: none.
	Beam int `json:"beam"`
	// BeamEpochs is the number of epochs of the beam classifier (0 =
	// default 10).
	BeamEpochs int `json:"beam_epochs"`
	// BeamRuns is the number of beam classifiers trained side by side,
	// each on its own order of the training sentences, and averaged into
	// one after each epoch (beam.TrainOptions.Runs): an ensemble at the
	// decoding cost of one classifier (0 = default 2). The runs train on
	// up to GOMAXPROCS threads.
	BeamRuns int `json:"beam_runs"`
	// DefaultBeam is the model's default beam width (parser.DefaultBeam:
	// the width callers get unless they choose one), 1 to
	// parser.MaxBeam; 0 means Beam. A beam classifier often parses best
	// at a width larger than it was trained at: choose it on dev
	// (transparse eval --beam K). It needs Beam.
	DefaultBeam int `json:"default_beam"`

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

// DefaultOptions returns the options every front end starts from: the
// arc-eager system and seed 1, every other option at its zero value (the
// trainer's default).
func DefaultOptions() Options {
	return Options{System: "arc-eager", Seed: 1}
}

// OptionError is an option that no training could accept (from Check).
type OptionError struct {
	Option string // the JSON name, e.g. "folds" or "gold_templates[3]"
	Msg    string // what is wrong and what is wanted
}

func (e *OptionError) Error() string { return "train: " + e.Option + ": " + e.Msg }

func optErr(option, format string, a ...any) error {
	return &OptionError{Option: option, Msg: fmt.Sprintf(format, a...)}
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
	if o.TaggerRuns <= 0 {
		o.TaggerRuns = 3
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
	if o.PlainFastMaxLoss == 0 {
		o.PlainFastMaxLoss = o.FastMaxLoss
	}
	if o.BeamEpochs == 0 {
		o.BeamEpochs = 10
	}
	if o.BeamRuns == 0 {
		o.BeamRuns = 2
	}
	if o.Name == "" && o.Output != "" {
		base := filepath.Base(o.Output)
		o.Name = base[:len(base)-len(filepath.Ext(base))]
	}
	if o.Log == nil {
		o.Log = io.Discard
	}
}

// Check reports the first option that no training could accept, as an
// *OptionError naming it, before any treebank is read: an unknown system
// or pseudo-projective encoding; a missing train or dev path; a negative
// epochs, tagger_epochs, max_sentences, folds, plain_runs, tagger_runs,
// beam_epochs or beam_runs; a beam or default_beam above parser.MaxBeam or negative,
// or a default_beam without a beam; folds 1;
// explore above 1; min_abs, plain_min_abs, tagger_min_abs, explore,
// fast_max_loss or plain_fast_max_loss not a number; a negative
// tagger_min_abs; weight_bits outside 2..16 (0 is the
// default); a negative fast_max_loss or plain_fast_max_loss; an empty template list (nil is the system's) or an
// invalid template (e.g. "gold_templates[3]"), or one that reads word
// clusters (c, c4, c6) without clusters or in a gold-only model; plain fast templates for a
// gold-only model; an output path that is a directory or another
// non-regular file, or whose directory is missing or not writable. Train
// calls it first; the CLI, tp_train and Python report its message as it is.
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
	for _, c := range [...]struct {
		name string
		v    int
	}{{"epochs", o.Epochs}, {"tagger_epochs", o.TaggerEpochs}, {"max_sentences", o.MaxSentences},
		{"folds", o.Folds}, {"plain_runs", o.PlainRuns}, {"tagger_runs", o.TaggerRuns}, {"beam_epochs", o.BeamEpochs},
		{"beam_runs", o.BeamRuns}} {
		if c.v < 0 {
			return optErr(c.name, "%d: want 0 (the default) or more", c.v)
		}
	}
	if o.Beam < 0 || o.Beam > parser.MaxBeam {
		return optErr("beam", "%d: want 0 (no beam classifier) to %d", o.Beam, parser.MaxBeam)
	}
	if o.DefaultBeam < 0 || o.DefaultBeam > parser.MaxBeam {
		return optErr("default_beam", "%d: want 0 (the beam width) to %d", o.DefaultBeam, parser.MaxBeam)
	}
	if o.DefaultBeam > 0 && o.Beam < 2 {
		return optErr("default_beam", "%d without beam classifiers (set beam, 2 to %d)", o.DefaultBeam, parser.MaxBeam)
	}
	if o.Folds == 1 {
		return optErr("folds", "1: want 0 (the default, 4) or at least 2 (one fold leaves its taggers no training data)")
	}
	for _, c := range [...]struct {
		name string
		v    float64
	}{{"min_abs", float64(o.MinAbs)}, {"plain_min_abs", float64(o.PlainMinAbs)}, {"tagger_min_abs", float64(o.TaggerMinAbs)},
		{"explore", o.Explore}, {"fast_max_loss", o.FastMaxLoss},
		{"plain_fast_max_loss", o.PlainFastMaxLoss}} {
		if math.IsNaN(c.v) || math.IsInf(c.v, 0) {
			return optErr(c.name, "%g: want a finite number", c.v)
		}
	}
	if o.Explore > 1 {
		return optErr("explore", "%g: a probability, at most 1 (0: the default, 0.9; negative: never)", o.Explore)
	}
	if o.WeightBits != 0 && (o.WeightBits < 2 || o.WeightBits > 16) {
		return optErr("weight_bits", "%d: want 2..16 (0: the default, 12)", o.WeightBits)
	}
	if o.TaggerMinAbs < 0 {
		return optErr("tagger_min_abs", "%g: want 0 (the default: keep all) or more", o.TaggerMinAbs)
	}
	if o.FastMaxLoss < 0 {
		return optErr("fast_max_loss", "%g: want 0 (the default, 0.1) or more", o.FastMaxLoss)
	}
	if o.PlainFastMaxLoss < 0 {
		return optErr("plain_fast_max_loss", "%g: want 0 (the default, fast_max_loss) or more", o.PlainFastMaxLoss)
	}
	if o.GoldOnly && o.PlainFastTemplates != nil {
		return optErr("plain_fast_templates", "given for a gold-only model (it has no plain-token parser)")
	}
	for _, l := range [...]struct {
		name string
		t    []string
	}{{"gold_templates", o.GoldTemplates}, {"plain_templates", o.PlainTemplates},
		{"gold_fast_templates", o.GoldFastTemplates}, {"plain_fast_templates", o.PlainFastTemplates}} {
		if l.t == nil {
			continue
		}
		if len(l.t) == 0 {
			return optErr(l.name, "the list is empty (absent or null: the system's templates)")
		}
		for i, t := range l.t {
			e, err := feature.New([]string{t})
			if err != nil {
				return &OptionError{Option: fmt.Sprintf("%s[%d]", l.name, i), Msg: err.Error()}
			}
			if e.UsesClusters() && (o.ClustersPath == "" || o.GoldOnly) {
				msg := fmt.Sprintf("template %q reads word clusters, which only a model trained with clusters and taggers has", t)
				return &OptionError{Option: fmt.Sprintf("%s[%d]", l.name, i), Msg: msg}
			}
		}
	}
	if o.Output != "" {
		if err := checkOutput(o.Output); err != nil {
			return err
		}
	}
	return nil
}

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

// templatesNote describes a template list of Options for the model card.
func templatesNote(t []string) string {
	if t == nil {
		return "the system's"
	}
	return fmt.Sprintf("%d given", len(t))
}
