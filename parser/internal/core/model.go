// Package core is a transparse model's implementation: its parts (the
// transition system, the gold-tag and plain-token classifiers with their
// feature templates, the taggers), their encoding in the model file
// (Document, FromDocument), the greedy and beam parsers over them,
// confidence calibration (Calibrate) and the default beam width
// (DefaultBeam). Package parser wraps a Model for users; parser/train
// builds one from its parts (Assemble).
//
// A plain sentence goes down the layers once: its words are analyzed once
// (tagger.Analysis), tagged from the analysis, and parsed with features
// that read the same analysis. Parsing is greedy: at every configuration
// the best-scoring legal transition is applied (Nivre 2008 §3); with a
// beam width above 1, beam search (parser/beam).
package core

import (
	"errors"
	"fmt"
	"math"
	"unicode/utf8"

	"github.com/transparse/transparse/internal/freelist"
	"github.com/transparse/transparse/modelfmt"
	"github.com/transparse/transparse/parser/beam"
	"github.com/transparse/transparse/parser/calib"
	"github.com/transparse/transparse/parser/conllu"
	"github.com/transparse/transparse/parser/feature"
	"github.com/transparse/transparse/parser/form"
	"github.com/transparse/transparse/parser/linear"
	"github.com/transparse/transparse/parser/pseudoproj"
	"github.com/transparse/transparse/parser/segment"
	"github.com/transparse/transparse/parser/transition"
	"github.com/transparse/transparse/parser/tree"
)

// Limits enforced by Parse.
const (
	MaxWords      = 10000 // words per sentence
	MaxTokenBytes = 1024  // bytes per word form, tag, lemma or FEATS value
)

// ErrInput is wrapped by every error caused by the caller's sentence (empty,
// too long, invalid UTF-8, ...). Test with errors.Is.
var ErrInput = errors.New("invalid input")

// Variant is one classifier with its feature templates, and optionally a
// cheaper classifier in front of it (a cascade).
type Variant struct {
	Morph bool // uses gold morphology (XPOS, lemma, FEATS)
	Ext   *feature.Extractor
	Clf   *linear.Model
	// Fast, when not nil, scores every state first: a classifier with
	// fewer templates (its own Ext and Clf; its Fast is nil). Its best
	// legal class is taken when its score beats every other legal class's
	// by at least FastMargin (or is the only legal one; never when
	// FastMargin is +Inf); otherwise Clf decides. FastMargin is tuned
	// on development data at training time so that the cascade parses
	// about as well as Clf alone, in a fraction of its lookups (the
	// states a small model is sure of are most of them; cf. the dynamic
	// feature selection of He, Daumé & Eisner 2013 and Strubell et al.
	// 2015, here with a separately trained first classifier).
	Fast       *Variant
	FastMargin float32
	// Beam, when not nil, is a classifier trained for beam search
	// (parser/beam, global training) over Ext's templates and hashing:
	// ParseWithOptions scores with it at beam widths above 1 instead of
	// Clf. Parse never reads it. Training sets it; a loaded model keeps
	// it nil and has lazyBeam instead (HasBeam tells either).
	Beam *linear.Model
	// lazyBeam is the classifier trained for the beam of a loaded model,
	// decoded at its first use (beam; Beam stays nil).
	lazyBeam *lazyClassifier
	// Conf and BeamConf, when not nil, turn the raw confidences of the
	// greedy parser and of the beam (with the classifier trained for it,
	// or Clf when there is none)
	// into estimated probabilities that an arc is right
	// (Result.Confidence; fitted on development data by
	// Model.Calibrate).
	Conf, BeamConf *calib.Calibrator
}

// readsMorph reports whether v or its fast classifier reads lemma or FEATS
// values (a plain-token classifier with predicted LEMMA and FEATS).
func (v *Variant) readsMorph() bool {
	return v.Morph || v.Ext.UsesMorph() || v.Fast != nil && v.Fast.Ext.UsesMorph()
}

// Model is a loaded parser model. It is immutable after loading and safe for
// concurrent use by any number of goroutines.
type Model struct {
	card    modelfmt.Card
	classes *transition.Classes
	gold    Variant // morphology given
	plain   Variant // plain tokens, predicted tags
	taggers Taggers
	// pproj is the pseudo-projective encoding the deprels carry (Baseline:
	// none); parse undoes it.
	pproj pseudoproj.Encoding
	seg   *segment.Model         // nil: the model reads no raw text
	pool  freelist.List[scratch] // per-call scratch; kept across GCs
}

// Parts are what a model is made of; parser/train fills them in.
type Parts struct {
	Card    modelfmt.Card
	Classes *transition.Classes
	Gold    Variant // morphology given
	Plain   Variant // plain tokens (a nil Clf: a gold-only model)
	Taggers Taggers
	// PseudoProjective is the encoding of lifted arcs the deprels carry
	// (Nivre & Nilsson 2005); Parse undoes it on every parse.
	PseudoProjective pseudoproj.Encoding
	// Segmenter, when not nil, segments raw text into sentences, tokens
	// and words (parser/segment).
	Segmenter *segment.Model
}

// Assemble returns the model made of p. The model is immutable: a new card
// (training records its scores in one) means a new model.
func Assemble(p Parts) *Model {
	return &Model{card: p.Card, classes: p.Classes, gold: p.Gold, plain: p.Plain, taggers: p.Taggers, pproj: p.PseudoProjective, seg: p.Segmenter}
}

// Parts returns the parts of m (Assemble(m.Parts()) is m again).
func (m *Model) Parts() Parts {
	return Parts{Card: m.card, Classes: m.classes, Gold: m.gold, Plain: m.plain, Taggers: m.taggers,
		PseudoProjective: m.pproj, Segmenter: m.seg}
}

// Segmenter returns the model's segmenter, nil when it has none.
func (m *Model) Segmenter() *segment.Model { return m.seg }

// Input names one of a model's two parsers by the input it is for.
type Input int

const (
	// Gold is the gold-tag parser: sentences given with morphology.
	Gold Input = iota
	// Plain is the plain-token parser: sentences with predicted tags.
	Plain
)

// variant returns the parser for input in.
func (m *Model) variant(in Input) *Variant {
	if in == Gold {
		return &m.gold
	}
	return &m.plain
}

// Variant returns (a copy of) the gold-tag or the plain-token classifier
// with its templates and fast classifier; the plain one of a gold-only
// model has a nil Clf.
func (m *Model) Variant(in Input) Variant { return *m.variant(in) }

// Card returns the model card.
func (m *Model) Card() modelfmt.Card { return m.card }

// System returns the transition system's name.
func (m *Model) System() string { return m.classes.Sys.Name() }

// Classes returns the model's class table: its transition system, deprels
// and the classifiers' class order (read-only; shared by every caller).
func (m *Model) Classes() *transition.Classes { return m.classes }

// Deprels returns the dependency labels the model can assign, in a fixed order.
func (m *Model) Deprels() []string { return m.classes.Deprels }

// XPOSTags returns the XPOS tags the model's XPOS tagger (or XPOS table)
// can assign, in a fixed order, or nil when the model has neither.
func (m *Model) XPOSTags() []string {
	switch {
	case m.taggers.XPOS != nil:
		return m.taggers.XPOS.Tags()
	case m.taggers.XPOSTable != nil:
		return m.taggers.XPOSTable.Tags()
	}
	return nil
}

// UPOSTags returns the UPOS tags the tagger can assign, in a fixed order.
func (m *Model) UPOSTags() []string {
	if m.taggers.UPOS == nil {
		return nil
	}
	return m.taggers.UPOS.Tags()
}

// Taggers returns the model's taggers, lemmatizer and FEATS tagger (nil
// where it has none): what Parse predicts the absent columns with.
func (m *Model) Taggers() Taggers { return m.taggers }

// PseudoProjective returns the model's pseudo-projective encoding.
func (m *Model) PseudoProjective() pseudoproj.Encoding { return m.pproj }

// GoldTagsOnly reports whether the model lacks taggers and the plain-token
// classifier, so that it parses only sentences given with morphology.
func (m *Model) GoldTagsOnly() bool { return m.plain.Clf == nil }

type scratch struct {
	state  transition.State
	words  feature.Words
	fsc    feature.Scratch
	scores []float32
	tags   tagScratch
	// ParseWithOptions: the greedy parser's record, the beam decoder
	// (made at the first beam parse) and its result, the accurate mode's
	// trees.
	rec  greedyRecord
	dec  *beam.Decoder
	beam beam.Result
	acc  accurateScratch
}

func (m *Model) scratch() *scratch {
	if sc := m.pool.Get(); sc != nil {
		return sc
	}
	n := m.classes.Len()
	return &scratch{scores: make([]float32, n)}
}

// HasMorphology reports whether the caller gave morphology for words: UPOS
// on every word and XPOS, LEMMA or FEATS on at least one. A model without
// a plain-token classifier parses only such sentences; which classifier
// parses a sentence is Model.GoldInput's choice.
func HasMorphology(words []conllu.Word) bool {
	other := false
	for i := range words {
		w := &words[i]
		if conllu.Absent(w.UPOS) {
			return false
		}
		if !conllu.Absent(w.XPOS) || !conllu.Absent(w.Lemma) || !conllu.Absent(w.Feats) {
			other = true
		}
	}
	return other
}

// GoldInput reports whether Parse parses words with the gold-tag
// classifier rather than the plain-token one. With a model that predicts
// LEMMA or FEATS (it has a lemmatizer or a FEATS tagger), that is when the
// caller gives UPOS on every word: Parse predicts the other absent columns
// first, and the gold-tag classifier parses the completed annotation
// better than the plain-token classifier parses the given tags, while
// without gold UPOS the plain-token classifier, trained on predicted
// tags, parses better. A model that predicts neither (models trained
// before the lemmatizer) cannot complete the lemmas and features its
// gold-tag classifier reads, and keeps the rule of HasMorphology. A model
// without a plain-token classifier parses every sentence with the
// gold-tag one.
func (m *Model) GoldInput(words []conllu.Word) bool {
	if m.plain.Clf == nil {
		return true
	}
	if m.taggers.Lemmas == nil && m.taggers.Feats == nil {
		return HasMorphology(words)
	}
	for i := range words {
		if conllu.Absent(words[i].UPOS) {
			return false
		}
	}
	return true
}

// CheckWords validates a sentence for Parse: 1..MaxWords words, every form
// non-empty valid UTF-8 without tabs or newlines, every value at most
// MaxTokenBytes. The error wraps ErrInput and names the word.
func CheckWords(words []conllu.Word) error {
	if len(words) == 0 {
		return fmt.Errorf("%w: empty sentence", ErrInput)
	}
	if len(words) > MaxWords {
		return fmt.Errorf("%w: sentence has %d words, the limit is %d", ErrInput, len(words), MaxWords)
	}
	for i := range words {
		w := &words[i]
		if w.Form != "" && printable(w.Form) && printable(w.UPOS) && printable(w.XPOS) && printable(w.Lemma) && printable(w.Feats) {
			continue // the common case, and every check below passes
		}
		if w.Form == "" {
			return fmt.Errorf("%w: word %d: empty form", ErrInput, i+1)
		}
		for _, f := range [...]struct{ name, v string }{{"form", w.Form}, {"UPOS", w.UPOS}, {"XPOS", w.XPOS}, {"lemma", w.Lemma}, {"FEATS", w.Feats}} {
			if len(f.v) > MaxTokenBytes {
				return fmt.Errorf("%w: word %d: %s is %d bytes, the limit is %d", ErrInput, i+1, f.name, len(f.v), MaxTokenBytes)
			}
			if !utf8.ValidString(f.v) {
				return fmt.Errorf("%w: word %d: %s is not valid UTF-8", ErrInput, i+1, f.name)
			}
			for j := 0; j < len(f.v); j++ {
				if c := f.v[j]; c == '\t' || c == '\n' || c == '\r' {
					return fmt.Errorf("%w: word %d: %s contains a tab or line break", ErrInput, i+1, f.name)
				} else if c == 0 {
					return fmt.Errorf("%w: word %d: %s contains a NUL byte at byte %d", ErrInput, i+1, f.name, j+1)
				}
			}
		}
	}
	return nil
}

// printable reports whether v is at most MaxTokenBytes of printable ASCII
// (0x20 to 0x7f): such a value passes CheckWords's checks, in one loop
// over its bytes, much faster than the checks one by one
// (docs/decisions.md, "Per-call costs: the caller's words read once,
// scratch in free lists").
func printable(v string) bool {
	if len(v) > MaxTokenBytes {
		return false
	}
	for i := 0; i < len(v); i++ {
		if c := v[i]; c < 0x20 || c >= 0x80 {
			return false
		}
	}
	return true
}

// MaxTransitionsPerWord caps a derivation at this many transitions per word
// (plus one word's worth), so that the quadratic systems (Covington, swap,
// whose papers bound them by n(n+3)/2 and n²+n) parse in time linear in the
// sentence length whatever the model predicts. A derivation that reaches the
// cap is completed like any unfinished one: headless words are attached to
// the root word. The oracles of every system stay far below it on the UD
// treebanks, on average and on the worst sentence.
const MaxTransitionsPerWord = 40

// Parse assigns Head and Deprel to every word of words (one sentence, in
// order; IDs are set to 1..n) and completes its annotation. Form is
// required. Columns the caller gave (UPOS, XPOS, LEMMA, FEATS; "" and "_"
// are absent) are kept as given; the model's taggers predict the absent
// UPOS and XPOS (XPOS if the model has an XPOS tagger), then its
// lemmatizer and FEATS tagger the absent LEMMA and FEATS from the forms
// and the given or predicted tags (if the model has them; a model without
// leaves those columns as they are), then its XPOS table, if it has one
// instead of an XPOS tagger, the absent XPOS from the forms, UPOS and
// FEATS. FEATS are predicted for a sentence
// where no word has FEATS: where some word has, "_" means no features;
// predicted FEATS are chosen again from the parsed tree when the model's
// FEATS tagger learnt to (morph.FeatsTagger.HasSyntax), and a verb's
// predicted Person and Number are then set from its subject when it has an
// agreement table (morph.FeatsTagger.HasAgreement).
// GoldInput chooses the classifier, the gold-tag or the plain-token one,
// on the columns the caller gave. Deps is set to "_": the parser predicts
// no enhanced graph, and an input value would no longer match the
// predicted tree. The result is always a tree: exactly one word has Head
// 0, no cycles, every word has a head. Errors wrap ErrInput. Safe for
// concurrent use. Parse keeps no reference to words or to their strings
// after it returns (the C library reuses their memory).
func (m *Model) Parse(words []conllu.Word) error {
	v, sc, err := m.prepare(words)
	if err != nil {
		return err
	}
	defer m.pool.Put(sc)
	m.greedy(v, len(words), sc, nil)
	m.write(words, &sc.state)
	m.taggers.refine(words, &sc.tags)
	return nil
}

// prepare checks words, numbers them, completes their annotation and
// fills a scratch's word values for the classifier GoldInput chooses,
// which it returns with the scratch (the caller puts it back in m.pool).
func (m *Model) prepare(words []conllu.Word) (*Variant, *scratch, error) {
	if err := CheckWords(words); err != nil {
		return nil, nil, err
	}
	for i := range words {
		words[i].ID = i + 1
	}
	if m.plain.Clf == nil && !HasMorphology(words) {
		return nil, nil, fmt.Errorf("%w: this model has no tagger and parses only sentences given with UPOS and XPOS, LEMMA or FEATS", ErrInput)
	}
	morph := m.GoldInput(words)
	sc := m.scratch()
	v := &m.gold
	if !morph {
		v = &m.plain
	}
	m.complete(words, sc, !morph)
	var lemmas []string
	if !morph && sc.tags.lemmaGiven {
		lemmas = sc.tags.lemmas
	}
	m.fill(v, words, sc, lemmas)
	return v, sc, nil
}

// complete fills in the absent columns of words with the model's taggers
// (Taggers.Fill). The words are analyzed for tagging (sc.tags.an) when a
// tag is absent or analyze is set (the plain-token classifier's features
// read the analysis): the words go down once, analyzed once, tagged from
// the analysis, and parsed with features from the same analysis.
func (m *Model) complete(words []conllu.Word, sc *scratch, analyze bool) {
	t := &m.taggers
	sc.tags.predicted = sc.tags.predicted[:0]
	if t.UPOS != nil && (analyze || anyAbsent(words, uposOf) || t.XPOS != nil && anyAbsent(words, xposOf)) {
		sc.tags.an.Analyze(words, t.UPOS, t.XPOS)
		t.tag(words, &sc.tags)
	}
	t.morph(words, &sc.tags, analyze && m.plain.readsMorph())
}

// parse parses words with v (see fill), greedily.
func (m *Model) parse(v *Variant, words []conllu.Word, sc *scratch, lemmas []string) {
	m.fill(v, words, sc, lemmas)
	m.greedy(v, len(words), sc, nil)
	m.write(words, &sc.state)
}

// fill puts the values of words that v's features read into sc.words.
// The gold-tag variant reads the words and, if its templates read them,
// their paths in the taggers' word clusters. The plain-token variant reads the analysis of the words in sc.tags.an
// (Analyze must have run on them), and the lemmas in lemmas instead of
// the words' when lemmas is not nil: it reads predicted lemmas, as it was
// trained, even where the caller gave them (given lemmas did not parse
// better than predicted ones on EWT dev; given FEATS and tags did, and it
// reads those).
func (m *Model) fill(v *Variant, words []conllu.Word, sc *scratch, lemmas []string) {
	if v.Morph {
		feature.FillWords(&sc.words, words, true)
		if v.Ext.UsesClusters() && m.taggers.UPOS != nil {
			c := m.taggers.UPOS.Clusters()
			for i := range words {
				sc.words.SetCluster(i+1, c.Code(form.Of(words[i].Form)))
			}
		}
	} else {
		feature.FillAnalyzed(&sc.words, words, sc.tags.an.Words, v.readsMorph())
		if lemmas != nil && v.readsMorph() {
			for i, l := range lemmas {
				sc.words.SetLemma(i+1, l)
			}
		}
	}
}

// greedy derives the tree of the n words in sc.words with v into
// sc.state, completed (Repair). When rec is not nil it notes every
// transition taken (ParseWithOptions); the choices are the same.
func (m *Model) greedy(v *Variant, n int, sc *scratch, rec *greedyRecord) {
	c := m.classes
	s := &sc.state
	c.Sys.Init(s, n)
	bound := min(c.Sys.MaxTransitions(n), MaxTransitionsPerWord*n+MaxTransitionsPerWord)
	for !c.Sys.Terminal(s) && s.Steps < bound {
		k := -1
		if f := v.Fast; f != nil && !math.IsInf(float64(v.FastMargin), 1) {
			f.Clf.Scores(f.Ext.Extract(s, &sc.words, &sc.fsc), sc.scores)
			var margin float32
			if k, margin = c.BestTwoLegal(s, sc.scores); margin < v.FastMargin {
				k = -1
			}
			if rec != nil && k >= 0 {
				rec.note(c, v, s, sc, k, nil)
			}
		}
		if k < 0 {
			v.Clf.Scores(v.Ext.Extract(s, &sc.words, &sc.fsc), sc.scores)
			k = c.BestLegal(s, sc.scores)
			if rec != nil && k >= 0 {
				rec.note(c, v, s, sc, k, sc.scores)
			}
		}
		if k < 0 {
			break // no legal transition: the arcs so far are repaired below
		}
		transition.Step(c.Sys, s, c.AttachLabel(s, c.Transition(k), sc.scores))
	}
	s.Repair(c.RootLabel)
}

// write writes the tree of s into the words.
func (m *Model) write(words []conllu.Word, s *transition.State) {
	m.writeLabels(words, s.Head, s.Label)
}

// writeLabels writes the tree of heads and label indices (1..n; a label
// below 0 is "dep", a word attached by Repair) into the words' Head and
// Deprel, with Deps "_", and undoes the pseudo-projective encoding.
func (m *Model) writeLabels(words []conllu.Word, head, label []int32) {
	c := m.classes
	for i := range words {
		words[i].Deps = "_" // no enhanced graph is predicted: never keep the input's
		words[i].Head = int(head[i+1])
		if l := label[i+1]; l >= 0 {
			words[i].Deprel = c.Deprels[l]
		} else {
			words[i].Deprel = "dep"
		}
	}
	if m.pproj != pseudoproj.Baseline {
		Deprojectivize(words, m.pproj)
	}
}

// Deprojectivize undoes the pseudo-projective encoding enc on the Head and
// Deprel of a parsed sentence (pseudoproj.Deprojectivize keeps a tree a
// tree).
func Deprojectivize(words []conllu.Word, enc pseudoproj.Encoding) {
	n := len(words)
	head := make([]int32, n+1)
	deprel := make([]string, n+1)
	head[0] = transition.None
	for i := range words {
		head[i+1], deprel[i+1] = int32(words[i].Head), words[i].Deprel
	}
	head, deprel = pseudoproj.Deprojectivize(head, deprel, enc)
	for i := range words {
		words[i].Head, words[i].Deprel = int(head[i+1]), deprel[i+1]
	}
}

// checkTree is used by tests: the heads of words form a tree.
func checkTree(words []conllu.Word) error {
	h := make([]int32, len(words)+1)
	for i := range words {
		h[i+1] = int32(words[i].Head)
	}
	return tree.Check(h)
}

// ParseWith parses words with the gold-tag or the plain-token classifier
// (in), without tagging: training's dev scores, which measure a classifier
// on the tags the sentences carry.
func (m *Model) ParseWith(in Input, words []conllu.Word) error {
	if err := CheckWords(words); err != nil {
		return err
	}
	if in == Plain && m.plain.Clf == nil {
		return fmt.Errorf("%w: this model has no plain-token classifier", ErrInput)
	}
	sc := m.scratch()
	defer m.pool.Put(sc)
	if in == Plain {
		sc.tags.an.Analyze(words, m.taggers.UPOS, m.taggers.XPOS)
	}
	m.parse(m.variant(in), words, sc, nil)
	return nil
}
