// Package beam is beam-search decoding and global training for the
// transition systems of parser/transition, with the feature templates,
// hashing and linear classifiers of the greedy parser (parser/feature,
// parser/linear).
//
// A Decoder keeps the K best configurations of a sentence at every step,
// scored by the sum of their transitions' scores (Zhang & Clark 2008,
// "A Tale of Two Parsers", EMNLP; Zhang & Nivre 2011, "Transition-based
// Dependency Parsing with Rich Non-local Features", ACL). A configuration
// that is terminal, or has no legal transition, or reached the parser's
// bound on transitions, stays in the beam unchanged and competes with the
// others until every configuration of the beam has finished, so that
// systems whose derivations differ in length (arc-eager, swap, Covington)
// need no padding. With K = 1 the decoder makes the choices of the greedy
// parser (parser.Model without a fast classifier): the best legal class
// in class order among equal scores, and the same completion of an
// unfinished tree (transition.State.Repair).
//
// A Trainer learns the weights of one linear classifier for a beam of
// width K with the structured perceptron (Collins 2002) and max-violation
// update (Huang, Fayong & Guo 2012, "Structured Perceptron with Inexact
// Search", NAACL) or early update (Collins & Roark 2004, "Incremental
// Parsing with the Perceptron Algorithm", ACL), averaged; the gold
// transition sequence of every training tree is its static oracle's
// (transition.Derive). The beam stays exact: equivalent configurations
// are not merged.
//
// Each parse gives, per word, a confidence in its head and deprel and the
// distinct trees of the final beam, best first (Result).
package beam

import (
	"math"

	"github.com/transparse/transparse/parser/feature"
	"github.com/transparse/transparse/parser/transition"
)

// Scorer scores every class for one feature vector: scores[k] for class k
// of the decoder's class table. *linear.Model (a frozen classifier) and
// *linear.Trainer (weights under training) are Scorers.
type Scorer interface {
	Scores(feats []uint64, scores []float32)
}

// DefaultTemperature is the Temperature of NewDecoder, in score units of
// the classifiers transparse trains.
const DefaultTemperature = 1

// MaxTransitionsPerWord bounds a derivation as the greedy parser does
// (core.MaxTransitionsPerWord): min(System.MaxTransitions(n),
// MaxTransitionsPerWord·(n+1)) transitions for n words.
const MaxTransitionsPerWord = 40

// Decoder is a beam-search decoder of width K over one class table and one
// feature extractor. Its working memory grows to the longest sentence and
// is reused (with K > 1 it includes the scores of the sentence's feature
// vectors, which it scores once each: at most 8 MB); a Decoder is not
// safe for concurrent use (use one per goroutine; they may share the
// classes, the extractor and the scorer).
type Decoder struct {
	Classes *transition.Classes
	Ext     *feature.Extractor
	// K is the beam width (at least 1).
	K int
	// Confidence asks Decode for Result.Confidence (it costs an
	// exponential per legal class of every configuration with a
	// successor).
	Confidence bool
	// Temperature T turns scores into the weights exp(score/T) of the
	// confidences (Result.Confidence); it must be positive.
	Temperature float64

	cur, next []item
	pool      []*transition.State // free states
	scores    []float32           // scores of the expanded items, one row per item
	legal     []bool
	cands     []cand
	fsc       feature.Scratch
	memo      memo // the scores of the sentence's feature vectors (K > 1)

	// Every step's beam, as back-pointers: the row of step s (1-based) is
	// nodes[rows[s-1]:rows[s]] (rows[0] = 0), in beam order.
	nodes []node
	rows  []int32
	z     []float64 // per expanded item: its best legal score and Σ exp
	// Training: when record is set, every expanded item's features are
	// kept in feats for the update.
	record bool
	feats  []uint64
	// goldClass is the gold sequence's class at the step being taken (-1
	// once it has finished): a successor is gold when its parent is and
	// its class is this one.
	goldClass int32
}

// item is one configuration in the beam.
type item struct {
	st    *transition.State
	score float64 // sum of the transitions' scores
	done  bool    // terminal, stuck, or at the bound: carried over unchanged
	gold  bool    // training: the item's classes are the gold sequence's prefix
	// children counts the item's successors not yet made (advance).
	children int32
	// node is the back-pointer to the parent; once the item is expanded,
	// its feats is where the item's own features start (the back-pointers
	// of the step were recorded before).
	node
}

// node is an item's back-pointer: the index of its parent in the previous
// beam and the class applied to it (-1: carried over unchanged), where
// the parent's features start in Decoder.feats (training only), and the
// word the transition attached by a labeled arc move (else -1) with the
// log-odds of the transition's probability among its parent's legal
// classes (exp-normalised scores, Result.Confidence).
type node struct {
	parent int32
	class  int32
	feats  int32
	dep    int32
	lodds  float32
}

// cand is a candidate successor: item, class (-1: carry over), the total
// and the transition's own score.
type cand struct {
	total float64
	local float32
	item  int32
	class int32
}

// better orders candidates: total score, then the transition's own score
// (so that K = 1 decides exactly as the greedy parser when a sum rounds
// two scores together), then the item, then the class order.
func better(a, b *cand) bool {
	if a.total != b.total {
		return a.total > b.total
	}
	if a.local != b.local {
		return a.local > b.local
	}
	if a.item != b.item {
		return a.item < b.item
	}
	return a.class < b.class
}

// NewDecoder returns a decoder of width k (values below 1 mean 1) with
// DefaultTemperature.
func NewDecoder(classes *transition.Classes, ext *feature.Extractor, k int) *Decoder {
	return &Decoder{Classes: classes, Ext: ext, K: max(k, 1), Temperature: DefaultTemperature}
}

// bound is the parser's cap on transitions for n words.
func bound(sys transition.System, n int) int {
	return min(sys.MaxTransitions(n), MaxTransitionsPerWord*n+MaxTransitionsPerWord)
}

func (d *Decoder) state() *transition.State {
	if n := len(d.pool); n > 0 {
		s := d.pool[n-1]
		d.pool = d.pool[:n-1]
		return s
	}
	return new(transition.State)
}

func (d *Decoder) release(items []item) {
	for i := range items {
		if items[i].st != nil {
			d.pool = append(d.pool, items[i].st)
			items[i].st = nil
		}
	}
}

// start puts the initial configuration for n words alone in the beam.
func (d *Decoder) start(n int) {
	d.release(d.cur)
	d.release(d.next)
	s := d.state()
	d.Classes.Sys.Init(s, n)
	d.cur = append(d.cur[:0], item{st: s, node: node{parent: -1, class: -1, feats: -1}})
	d.cur[0].done = d.finished(s, n)
	d.feats = d.feats[:0]
	d.nodes = d.nodes[:0]
	d.rows = append(d.rows[:0], 0)
	d.cands = d.cands[:0]
	if d.K > 1 && useMemo {
		d.memo.reset(d.Ext.Len(), d.Classes.Len())
	}
}

func (d *Decoder) finished(s *transition.State, n int) bool {
	return d.Classes.Sys.Terminal(s) || s.Steps >= bound(d.Classes.Sys, n)
}

// allDone reports whether every item of the beam has finished.
func (d *Decoder) allDone() bool {
	for i := range d.cur {
		if !d.cur[i].done {
			return false
		}
	}
	return true
}

// expand scores every unfinished item of the beam with sc and collects the
// K best successors in d.cands, best first. Finished items are carried
// over as candidates of their own score.
func (d *Decoder) expand(words *feature.Words, sc Scorer) {
	c := d.Classes
	nc := c.Len()
	if need := len(d.cur) * nc; cap(d.scores) < need {
		d.scores = make([]float32, need)
		d.legal = make([]bool, need)
	}
	d.cands = d.cands[:0]
	for i := range d.cur {
		it := &d.cur[i]
		if it.done {
			d.offer(cand{total: it.score, item: int32(i), class: -1})
			continue
		}
		feats := d.Ext.Extract(it.st, words, &d.fsc)
		it.feats = -1
		if d.record {
			it.feats = int32(len(d.feats))
			d.feats = append(d.feats, feats...)
		}
		scores := d.scores[i*nc : (i+1)*nc]
		legal := d.legal[i*nc : (i+1)*nc]
		if d.K > 1 && useMemo {
			d.memo.score(feats, scores, sc)
		} else {
			sc.Scores(feats, scores)
		}
		c.Legal(it.st, legal)
		any := false
		for k, ok := range legal {
			if !ok || scores[k] != scores[k] { // NaN scores: no class
				continue
			}
			any = true
			total := it.score + float64(scores[k])
			if len(d.cands) == d.K && total < d.cands[d.K-1].total {
				continue // cannot enter the beam (ties go through offer)
			}
			d.offer(cand{total: total, local: scores[k], item: int32(i), class: int32(k)})
		}
		if !any { // stuck: no legal transition; the tree is repaired at the end
			it.done = true
			d.offer(cand{total: it.score, item: int32(i), class: -1})
		}
	}
}

// offer inserts x into the sorted candidates if it is among the K best.
func (d *Decoder) offer(x cand) {
	n := len(d.cands)
	if n == d.K && !better(&x, &d.cands[n-1]) {
		return
	}
	if n < d.K {
		d.cands = append(d.cands, x)
	} else {
		n--
	}
	j := n
	for j > 0 && better(&x, &d.cands[j-1]) {
		d.cands[j] = d.cands[j-1]
		j--
	}
	d.cands[j] = x
}

// inBeam reports whether a gold item is in the beam.
func (d *Decoder) inBeam() bool {
	for i := range d.cur {
		if d.cur[i].gold {
			return true
		}
	}
	return false
}

// advance makes the candidates the new beam: each is a copy of its parent
// with its transition applied (arc-eager's end-of-sentence REDUCE gets its
// label as the greedy parser gives it, Classes.AttachLabel).
func (d *Decoder) advance(n int) {
	c := d.Classes
	nc := c.Len()
	// A parent's last successor takes over its state; the others copy it.
	for i := range d.cur {
		d.cur[i].children = 0
	}
	for _, x := range d.cands {
		d.cur[x.item].children++
	}
	if d.Confidence {
		d.normalisers()
	}
	d.next = d.next[:0]
	for _, x := range d.cands {
		p := &d.cur[x.item]
		var s *transition.State
		if p.children--; p.children == 0 {
			s, p.st = p.st, nil
		} else {
			s = d.state()
			s.CopyFrom(p.st)
		}
		it := item{st: s, score: x.total, done: p.done, gold: d.record && p.gold && x.class == d.goldClass,
			node: node{parent: x.item, class: x.class, feats: p.feats, dep: -1}}
		if x.class >= 0 {
			t := c.Transition(int(x.class))
			if d.Confidence && t.Move.Labeled() {
				_, it.dep = c.Sys.Arc(s, t.Move)
				z := d.z[2*x.item : 2*x.item+2]
				it.lodds = float32(LogOdds(float64(x.local), z[0], z[1], d.Temperature))
			}
			t = c.AttachLabel(s, t, d.scores[int(x.item)*nc:(int(x.item)+1)*nc])
			transition.Step(c.Sys, s, t)
			it.done = d.finished(s, n)
		}
		d.next = append(d.next, it)
		d.nodes = append(d.nodes, it.node)
	}
	d.rows = append(d.rows, int32(len(d.nodes)))
	d.release(d.cur)
	d.cur, d.next = d.next, d.cur
}

// Decode parses a sentence of n words whose word values are in words
// (feature.FillWords) with the scores of sc, and fills r: the best tree,
// each word's confidence, and the distinct trees of the final beam.
func (d *Decoder) Decode(words *feature.Words, n int, sc Scorer, r *Result) {
	d.record = false
	d.start(n)
	for !d.allDone() {
		d.expand(words, sc)
		d.advance(n)
	}
	d.result(n, r)
}

// normalisers computes, for every item with a successor, its best legal
// score and the sum of exp((score − best)/T) over its legal classes.
func (d *Decoder) normalisers() {
	nc := d.Classes.Len()
	if cap(d.z) < 2*len(d.cur) {
		d.z = make([]float64, 2*len(d.cur))
	}
	d.z = d.z[:2*len(d.cur)]
	for i := range d.cur {
		if d.cur[i].children == 0 || d.cur[i].done {
			continue
		}
		scores, legal := d.scores[i*nc:(i+1)*nc], d.legal[i*nc:(i+1)*nc]
		best := math.Inf(-1)
		for k, ok := range legal {
			if ok && float64(scores[k]) > best {
				best = float64(scores[k])
			}
		}
		sum := 0.0
		for k, ok := range legal {
			if ok && scores[k] == scores[k] {
				sum += math.Exp((float64(scores[k]) - best) / d.Temperature)
			}
		}
		d.z[2*i], d.z[2*i+1] = best, sum
	}
}

// LogOdds is log(p / (1 − p)) for the probability p = e^((score − best)/t)
// / sum of a class among legal classes whose best score is best and whose
// sum of e^((score_j − best)/t) is sum: +Inf when it is the only class
// with weight.
func LogOdds(score, best, sum, t float64) float64 {
	l := (score - best) / t
	rest := sum - math.Exp(l) // the other classes' weight; exact enough: see below
	if rest <= 0 {
		return math.Inf(1)
	}
	// For the best class, sum − 1 loses digits only when the rest is
	// below about 1e-13 of it, where the log-odds exceed the ±30 that
	// confidences distinguish (parser/calib).
	return l - math.Log(rest)
}

// steps is the number of steps taken.
func (d *Decoder) steps() int { return len(d.rows) - 1 }

// row returns the back-pointers of the beam after step s (1-based).
func (d *Decoder) row(s int) []node { return d.nodes[d.rows[s-1]:d.rows[s]] }
