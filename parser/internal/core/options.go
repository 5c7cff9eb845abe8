package core

import (
	"errors"
	"fmt"
	"math"

	"github.com/transparse/transparse/internal/reuse"
	"github.com/transparse/transparse/parser/beam"
	"github.com/transparse/transparse/parser/calib"
	"github.com/transparse/transparse/parser/conllu"
	"github.com/transparse/transparse/parser/pseudoproj"
	"github.com/transparse/transparse/parser/transition"
)

// MaxBeam is the largest beam width Options.Beam accepts: a beam
// costs about K times the greedy parser's time and memory per sentence.
const MaxBeam = 64

// DefaultTemperature is the temperature of the confidences when
// Options.Temperature is 0, in score units of the classifiers
// transparse trains: low enough to rank arcs by their transition's margin,
// high enough that few arcs of a sentence tie at confidence 1.
const DefaultTemperature = 30

// ErrOptions is wrapped by every error about a Options value (a
// negative or too large width, more trees asked than the beam holds).
// Test with errors.Is.
var ErrOptions = errors.New("invalid parse options")

// Options choose how ParseWithOptions parses a sentence: the fields of
// parser.Options, which documents them, except that Beam 0 is the greedy
// parser (ResolveOptions makes it the model's default width). The zero
// value is the greedy parser of Parse, without confidences or trees.
type Options struct {
	Beam        int
	KBest       int
	Confidence  bool
	Temperature float64
	Accurate    bool
}

// Check returns an error wrapping ErrOptions for options that
// ParseWithOptions refuses, naming the field.
func (o Options) Check() error {
	switch {
	case o.Beam < 0 || o.Beam > MaxBeam:
		return fmt.Errorf("%w: beam width %d: want 1 to %d (0 means 1)", ErrOptions, o.Beam, MaxBeam)
	case o.KBest < 0 || o.KBest > max(o.Beam, 1):
		return fmt.Errorf("%w: kbest %d: want 0 to the beam width %d (the trees come from the final beam)", ErrOptions, o.KBest, max(o.Beam, 1))
	case !(o.Temperature >= 0) || math.IsInf(o.Temperature, 1):
		return fmt.Errorf("%w: temperature %v: want a positive number (0 means the default)", ErrOptions, o.Temperature)
	case o.Accurate && o.KBest > 0:
		return fmt.Errorf("%w: kbest %d with the accurate mode: it gives one tree, the revoted one (want kbest 0)", ErrOptions, o.KBest)
	}
	return nil
}

// Result is what ParseWithOptions gives besides the tree it writes into
// the words: the exported fields of parser.Result, which documents them.
// Its slices belong to the Result and are reused by the next call into it.
type Result struct {
	Confidence []float64
	Trees      []ScoredTree

	conf []float64 // storage of Confidence
	// The label id and raw log-odds of each word's arc, and the tag
	// uncertainties of its dependent and head, after a parse with
	// confidences (Model.Calibrate reads them).
	labels      []int32
	lodds       []float64
	depU, headU []float64
	trees       []ScoredTree
	heads       [][]int // storage of the trees
	deprels     [][]string
}

// ScoredTree is one tree of Result.Trees (parser.ScoredTree documents it).
type ScoredTree struct {
	Head   []int
	Deprel []string
	Score  float64
}

// Default reports whether o asks for nothing but Parse's greedy tree.
func (o Options) Default() bool {
	return o.Beam <= 1 && o.KBest == 0 && !o.Confidence && !o.Accurate
}

// ParseWithOptions is Parse with options: it completes the words' annotation
// and chooses the classifier exactly as Parse does, then parses with the
// beam width of opt, writes the best tree into the words and fills r (nil
// is allowed when opt asks for neither confidences nor trees). With the
// zero Options it is Parse. With opt.Accurate it writes the revoted tree
// of the beam and the greedy parser instead (parseAccurate). Errors wrap
// ErrInput (the words, as Parse) or ErrOptions (opt, checked first; a
// width above 1 and the accurate mode need classifiers trained for the
// beam, HasBeam). Safe for concurrent use; r must not be shared between
// goroutines.
func (m *Model) ParseWithOptions(words []conllu.Word, opt Options, r *Result) error {
	if err := opt.Check(); err != nil {
		return err
	}
	if err := m.checkBeam(opt); err != nil {
		return err
	}
	if r == nil && (opt.Confidence || opt.KBest > 0) {
		return fmt.Errorf("%w: confidences or trees asked without a result to put them in", ErrOptions)
	}
	if opt.Default() {
		if r != nil {
			r.Confidence, r.Trees = nil, nil
		}
		return m.Parse(words)
	}
	if opt.Accurate {
		return m.parseAccurate(words, opt, r)
	}
	v, sc, err := m.prepare(words)
	if err != nil {
		return err
	}
	defer m.pool.Put(sc)
	if opt.Beam <= 1 {
		m.parseGreedy(words, v, sc, opt, r)
	} else {
		m.parseBeam(words, v, sc, opt, r)
	}
	m.taggers.refine(words, &sc.tags)
	return nil
}

// temperature is the temperature of opt's confidences.
func (o Options) temperature() float64 {
	if o.Temperature == 0 {
		return DefaultTemperature
	}
	return o.Temperature
}

// parseGreedy parses the prepared words (Model.prepare gave v and sc)
// greedily, writes the tree into them and fills r (nil allowed when opt
// asks for neither confidences nor trees).
func (m *Model) parseGreedy(words []conllu.Word, v *Variant, sc *scratch, opt Options, r *Result) {
	rec := &sc.rec
	rec.reset(m.classes.Len(), len(words), opt.temperature())
	m.greedy(v, len(words), sc, rec)
	m.write(words, &sc.state)
	if r != nil {
		r.fillGreedy(words, rec, opt)
		if opt.Confidence {
			r.calibrate(words, &sc.tags, sc.state.Label, rec.lodds, v.Conf, opt)
		}
	}
}

// parseBeam is parseGreedy with the beam of width opt.Beam.
func (m *Model) parseBeam(words []conllu.Word, v *Variant, sc *scratch, opt Options, r *Result) {
	d := sc.dec
	if d == nil {
		d = beam.NewDecoder(m.classes, v.Ext, opt.Beam)
		sc.dec = d
	}
	d.Ext, d.K, d.Confidence, d.Temperature = v.Ext, opt.Beam, opt.Confidence, opt.temperature()
	var clf beam.Scorer = v.Clf
	if b, _ := v.beam(); b != nil { // decoded by checkBeam
		clf = b
	}
	d.Decode(&sc.words, len(words), clf, &sc.beam)
	m.writeLabels(words, sc.beam.Head, sc.beam.Label)
	if r != nil {
		r.fillBeam(m, words, &sc.beam, opt)
		if opt.Confidence {
			r.calibrate(words, &sc.tags, sc.beam.Label, sc.beam.LogOdds, v.BeamConf, opt)
		}
	}
}

// greedyRecord collects, along a greedy derivation, what ParseWithOptions
// reports: the probability of each word's arc and the derivation's score,
// under the classifier that decides without a fast classifier.
type greedyRecord struct {
	t      float64
	scores []float32
	legal  []bool
	lodds  []float64 // per word 1..n: log-odds of the arc's transition
	score  float64
}

func (rec *greedyRecord) reset(classes, n int, t float64) {
	if len(rec.scores) != classes {
		rec.scores = make([]float32, classes)
		rec.legal = make([]bool, classes)
	}
	rec.lodds = reuse.Fill(rec.lodds, n+1, math.Inf(-1))
	rec.score = 0
	rec.t = t
}

// note records class k taken in state s (before the step) with the scores
// of v's classifier (scores, or, when the fast classifier decided and
// scores is nil, scored here).
func (rec *greedyRecord) note(c *transition.Classes, v *Variant, s *transition.State, sc *scratch, k int, scores []float32) {
	if scores == nil {
		scores = rec.scores
		v.Clf.Scores(v.Ext.Extract(s, &sc.words, &sc.fsc), scores)
	}
	rec.score += float64(scores[k])
	t := c.Transition(k)
	if !t.Move.Labeled() {
		return
	}
	_, dep := c.Sys.Arc(s, t.Move)
	if dep <= 0 {
		return
	}
	c.Legal(s, rec.legal)
	best := math.Inf(-1)
	for j, ok := range rec.legal {
		if ok && float64(scores[j]) > best {
			best = float64(scores[j])
		}
	}
	sum := 0.0
	for j, ok := range rec.legal {
		if ok && scores[j] == scores[j] {
			sum += math.Exp((float64(scores[j]) - best) / rec.t)
		}
	}
	rec.lodds[dep] = beam.LogOdds(float64(scores[k]), best, sum, rec.t)
}

// fillGreedy fills r after a greedy parse recorded in rec.
func (r *Result) fillGreedy(words []conllu.Word, rec *greedyRecord, opt Options) {
	r.Confidence, r.Trees = nil, r.trees[:0]
	if opt.Confidence {
		r.Confidence = r.confidence(len(words))
	}
	if opt.KBest > 0 {
		h, l := r.tree(0, len(words))
		for i := range words {
			h[i], l[i] = words[i].Head, words[i].Deprel
		}
		r.Trees = append(r.Trees, ScoredTree{Head: h, Deprel: l, Score: rec.score})
	}
	r.trees = r.Trees
	if len(r.Trees) == 0 {
		r.Trees = nil
	}
}

// fillBeam fills r from the beam's result b (the best tree already
// written into words).
func (r *Result) fillBeam(m *Model, words []conllu.Word, b *beam.Result, opt Options) {
	r.Confidence, r.Trees = nil, r.trees[:0]
	n := len(words)
	if opt.Confidence {
		r.Confidence = r.confidence(n)
	}
	for j := 0; j < len(b.Trees) && j < opt.KBest; j++ {
		h, l := r.tree(j, n)
		t := &b.Trees[j]
		for i := range n {
			h[i] = int(t.Head[i+1])
			if x := t.Label[i+1]; x >= 0 {
				l[i] = m.classes.Deprels[x]
			} else {
				l[i] = "dep"
			}
		}
		if m.pproj != pseudoproj.Baseline {
			h, l = deprojectivized(h, l, m.pproj)
		}
		r.Trees = append(r.Trees, ScoredTree{Head: h, Deprel: l, Score: t.Score})
	}
	r.trees = r.Trees
	if len(r.Trees) == 0 {
		r.Trees = nil
	}
}

// calibrate sets r.Confidence[i] from the label id and the raw log-odds
// of word i+1 (labels and lodds indexed 1..n) and the tag uncertainties
// (tags.tagUncertainty) of the parsed words, their heads set, and of
// their heads: the probability that cal estimates, or, without cal or
// with a temperature other than the one cal was fitted at, the raw
// confidence.
func (r *Result) calibrate(words []conllu.Word, tags *tagScratch, labels []int32, lodds []float64, cal *calib.Calibrator, opt Options) {
	r.labels = append(r.labels[:0], labels[1:]...)
	r.lodds = append(r.lodds[:0], lodds[1:]...)
	r.depU = r.depU[:0]
	for i := range words {
		r.depU = append(r.depU, tags.tagUncertainty(i))
	}
	r.headU = r.headU[:0]
	for i := range words {
		u := 0.0 // the root's
		if h := words[i].Head; h > 0 && h <= len(words) {
			u = r.depU[h-1]
		}
		r.headU = append(r.headU, u)
	}
	for i := range r.Confidence {
		z := lodds[i+1]
		if cal == nil || opt.Temperature != 0 {
			r.Confidence[i] = calib.Sigmoid(z)
			continue
		}
		l := labels[i+1]
		if math.IsInf(z, -1) {
			l = -1 // made by a fallback
		}
		r.Confidence[i] = cal.Prob(l, z, r.depU[i], r.headU[i])
	}
}

func (r *Result) confidence(n int) []float64 {
	r.conf = reuse.Fill(r.conf, n, 0)
	return r.conf
}

// tree returns the storage of tree j for n words.
func (r *Result) tree(j, n int) ([]int, []string) {
	for len(r.heads) <= j {
		r.heads = append(r.heads, nil)
		r.deprels = append(r.deprels, nil)
	}
	r.heads[j] = reuse.Fill(r.heads[j], n, 0)
	r.deprels[j] = reuse.Fill(r.deprels[j], n, "")
	return r.heads[j], r.deprels[j]
}

// deprojectivized undoes enc on the tree (head, deprel) of n words, in place.
func deprojectivized(head []int, deprel []string, enc pseudoproj.Encoding) ([]int, []string) {
	n := len(head)
	h := make([]int32, n+1)
	l := make([]string, n+1)
	h[0] = transition.None
	for i := range n {
		h[i+1], l[i+1] = int32(head[i]), deprel[i]
	}
	h, l = pseudoproj.Deprojectivize(h, l, enc)
	for i := range n {
		head[i], deprel[i] = int(h[i+1]), l[i+1]
	}
	return head, deprel
}
