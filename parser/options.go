package parser

import (
	"github.com/transparse/transparse/parser/conllu"
	"github.com/transparse/transparse/parser/internal/core"
)

// MaxBeam is the largest beam width Options.Beam accepts: a beam costs
// about K times the greedy parser's time and memory per sentence.
const MaxBeam = 64

// DefaultTemperature is the temperature of the confidences when
// Options.Temperature is 0, in score units of the classifiers transparse
// trains: low enough to rank arcs by their transition's margin, high
// enough that few arcs of a sentence tie at confidence 1.
const DefaultTemperature = 30

// ErrOptions is wrapped by every error about an Options value (a negative
// or too large width, more trees asked than the beam holds). Test with
// errors.Is.
var ErrOptions = core.ErrOptions

// Options choose how a sentence is parsed. The zero value (and a nil
// *Options) is the model's default: its default beam width (DefaultBeam;
// 1, the greedy parser, for most models), without confidences or trees.
type Options struct {
	// Beam is the beam width K, 0 to MaxBeam: 0 is the model's default
	// width (DefaultBeam), 1 the greedy parser, K > 1 beam search
	// (parser/beam, docs/beam-search.md) with the model's classifiers
	// trained for the beam; a model without them refuses K > 1 with
	// ErrOptions (Model.HasBeam; docs/decisions.md, "A beam wider than
	// one is for a globally trained classifier, and needs one").
	Beam int
	// KBest asks for up to KBest trees in Result.Trees, 0 to the beam
	// width: the distinct trees of the final beam, best first.
	KBest int
	// Confidence asks for Result.Confidence.
	Confidence bool
	// Temperature turns scores into the weights of the confidences (see
	// Result.Confidence), in score units of the classifier; 0 means
	// DefaultTemperature. It must not be negative.
	Temperature float64
	// Accurate asks for the accurate mode: the sentence, tagged once, is
	// parsed by the beam (width Beam if it resolves above 1, else the
	// width the model's beam classifiers were trained at, "beam.width" in
	// transparse inspect) and by the greedy parser, both with
	// confidences, and the tree written is their revote (Sagae & Lavie
	// 2006, "Parser combination by reparsing"): each parser's arc,
	// pseudo-projective encoding undone, weighs 0.5 plus the parser's
	// confidence in it, the weights of an arc both propose add up, and the
	// tree is the maximum spanning tree of these arcs with one word
	// attached to the root (Chu-Liu-Edmonds, parser/tree.MaxSpanning);
	// each word's deprel is that of the heavier voter of its arc. It costs
	// about the beam's time plus a greedy parse, both with confidences (on
	// EWT, 1.7 times the beam's time), and parses more accurately than
	// either (docs/beam-search.md, "The accurate mode"). With it
	// Result.Confidence[i] is the beam's confidence in word i's arc if the
	// voted head and deprel are the beam's, else the greedy parser's if
	// they are its, else 0. KBest must be 0; a model without classifiers
	// trained for the beam (HasBeam) refuses it with ErrOptions.
	Accurate bool
}

// Result is what Parse gives besides the tree it writes into the words.
// It belongs to the caller.
type Result struct {
	// Confidence[i] is the confidence in the head and deprel of word i
	// (0-based, as the words) when Options.Confidence asks for it, else
	// nil: a number in [0, 1]. With a model that has a calibrator for the
	// parser used (trained models have them; Model.Calibrate fits them)
	// and the default temperature, it is the estimated probability that
	// the word's head and deprel are both right, fitted on development
	// data from the raw confidence, the deprel and, for predicted tags,
	// how sure the taggers were of the tags of the word and of its head
	// (parser/calib). Otherwise it is the raw confidence: the product of
	// the share of the final beam's mass that agrees with the best tree
	// on the word's arc (1 for the greedy parser) and the probability of
	// the transition that built the arc among the legal ones of its
	// configuration (exp-normalised scores of the classifier that decides
	// without a fast classifier; 0 for an arc made by a fallback rather
	// than by a labeled arc move). Either way higher-confidence arcs are
	// more often right.
	Confidence []float64
	// Trees are up to Options.KBest distinct trees, best first (nil when
	// KBest is 0); Trees[0] is the tree written into the words.
	Trees []ScoredTree
}

// ScoredTree is one tree of Result.Trees over the n words of the
// sentence: Head[i] is the 1-based head of word i (0: the root) and
// Deprel[i] its deprel, pseudo-projective encoding undone; Score is the
// sum of the scores of its transitions (of its best derivation in the
// beam), in score units of the classifier: higher is better, comparable
// between the trees of one sentence only.
type ScoredTree struct {
	Head   []int
	Deprel []string
	Score  float64
}

// Parse assigns Head and Deprel to every word of words (one sentence, in
// order; IDs are set to 1..n) and completes its annotation, with the
// options o (nil: the defaults, see Options).
//
// Form is required. Columns the caller gave (UPOS, XPOS, LEMMA, FEATS; ""
// and "_" are absent) are kept as given; the model's taggers predict the
// absent UPOS and XPOS (XPOS if the model has an XPOS tagger), then its
// lemmatizer and FEATS tagger the absent LEMMA and FEATS from the forms and
// the given or predicted tags (if the model has them), then its XPOS
// table, if it has one instead of an XPOS tagger, the absent XPOS. FEATS
// are predicted for a sentence where no word has FEATS: where some word
// has, "_" means no features. When the caller gives UPOS on every word the
// gold-tag classifier parses, else the plain-token one (a model without
// lemmatizer and FEATS tagger uses the gold-tag one for sentences that
// HasMorphology). Deps is set to "_": the parser predicts no enhanced
// graph. The result is always a tree: exactly one word has Head 0, no
// cycles, every word has a head.
//
// The *Result is nil when o asks for neither confidences nor trees; the
// default greedy parse allocates nothing. Errors wrap ErrInput (the words)
// or ErrOptions (o, checked first). Safe for concurrent use. Parse keeps
// no reference to words or to their strings after it returns.
func (m *Model) Parse(words []conllu.Word, o *Options) (*Result, error) {
	var opt core.Options
	if o != nil {
		opt = core.Options(*o)
	}
	opt, err := m.c.ResolveOptions(opt)
	if err != nil {
		return nil, err
	}
	if !opt.Confidence && opt.KBest == 0 {
		return nil, m.c.ParseWithOptions(words, opt, nil)
	}
	var r core.Result
	if err := m.c.ParseWithOptions(words, opt, &r); err != nil {
		return nil, err
	}
	res := &Result{Confidence: r.Confidence}
	if len(r.Trees) > 0 {
		res.Trees = make([]ScoredTree, len(r.Trees))
		for i, t := range r.Trees {
			res.Trees[i] = ScoredTree(t)
		}
	}
	return res, nil
}

// CheckOptions returns the error that Parse and ParseDocument return for
// the options o on m (wrapping ErrOptions and naming the field; KBest is
// bounded by the width Beam resolves to), or nil when they accept them.
func (m *Model) CheckOptions(o *Options) error {
	if o == nil {
		return nil
	}
	_, err := m.c.ResolveOptions(core.Options(*o))
	return err
}
