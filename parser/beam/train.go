package beam

import (
	"fmt"
	"math"
	"math/rand"
	"sync/atomic"

	"github.com/transparse/transparse/internal/par"
	"github.com/transparse/transparse/parser/conllu"
	"github.com/transparse/transparse/parser/feature"
	"github.com/transparse/transparse/parser/linear"
	"github.com/transparse/transparse/parser/transition"
	"github.com/transparse/transparse/parser/tree"
)

// Update is the rule that decides where a structured perceptron update is
// made along a search that lost the gold sequence.
type Update int

const (
	// MaxViolation updates at the step where the best configuration of
	// the beam outscores the gold prefix by the most (Huang, Fayong & Guo
	// 2012): it converges in fewer epochs than early update.
	MaxViolation Update = iota
	// EarlyUpdate updates at the first step where the gold prefix falls
	// out of the beam, or at the end if the best tree is not the gold one
	// (Collins & Roark 2004).
	EarlyUpdate
)

func (u Update) String() string {
	switch u {
	case MaxViolation:
		return "max-violation"
	case EarlyUpdate:
		return "early"
	}
	return fmt.Sprintf("Update(%d)", int(u))
}

// Example is one training sentence: its word values and the static-oracle
// transition sequence of its gold tree.
type Example struct {
	Words feature.Words
	N     int
	Seq   []transition.Transition
}

// NewExample returns the training example of a sentence with a gold tree
// (HEAD and DEPREL on every word) for the class table c: the word values
// (feature.FillWords with morph), and the static oracle's sequence for
// the tree, lifted one arc at a time (shortest first, Nivre & Nilsson
// 2005) until the system derives it. It returns an error naming the word
// for a deprel outside c.Deprels or a sentence that is not a tree, and one
// for a tree the system cannot derive.
func NewExample(c *transition.Classes, words []conllu.Word, morph bool) (*Example, error) {
	index := make(map[string]int32, len(c.Deprels))
	for i, l := range c.Deprels {
		index[l] = int32(i)
	}
	n := len(words)
	head := make([]int32, n+1)
	label := make([]int32, n+1)
	head[0], label[0] = transition.None, transition.None
	for i, w := range words {
		l, ok := index[w.Deprel]
		if !ok {
			return nil, fmt.Errorf("beam: word %d: deprel %q is not in the class table", i+1, w.Deprel)
		}
		head[i+1], label[i+1] = int32(w.Head), l
	}
	if err := tree.Check(head); err != nil {
		return nil, fmt.Errorf("beam: not a tree: %v", err)
	}
	g := transition.NewGold(head, label)
	for !c.Sys.InClass(g) && tree.LiftStep(head) >= 0 {
		g = transition.NewGold(head, label)
	}
	var s transition.State
	seq, err := transition.Derive(c.Sys, &s, g)
	if err != nil {
		return nil, err
	}
	ex := &Example{N: n, Seq: seq}
	feature.FillWords(&ex.Words, words, morph)
	return ex, nil
}

// Trainer trains the weights of one linear classifier for beam search of
// the decoder's width: a structured perceptron over whole transition
// sequences whose averaged weights (Weights.Freeze) are the model.
// A Trainer is not safe for concurrent use.
type Trainer struct {
	Decoder *Decoder
	Weights *linear.Trainer
	Update  Update

	gold   transition.State
	gsc    feature.Scratch
	gfeats []uint64
	gsteps []node // the gold sequence's class and features per step
	gscore []float32
	path   []node
}

// NewTrainer returns a trainer for a beam of width k over the class table
// and templates, with fresh weights.
func NewTrainer(c *transition.Classes, ext *feature.Extractor, k int, u Update) *Trainer {
	return &Trainer{Decoder: NewDecoder(c, ext, k), Weights: linear.NewTrainer(c.Len()), Update: u,
		gscore: make([]float32, c.Len())}
}

// Sentence decodes ex with the current weights while following its gold
// sequence, updates the weights where the update rule says, and advances
// the averaging clock once. It reports whether the best tree of the final
// beam was reached by the gold sequence (then no update is made).
func (t *Trainer) Sentence(ex *Example) bool {
	d, c := t.Decoder, t.Decoder.Classes
	d.record = true
	d.start(ex.N)
	d.cur[0].gold = true
	c.Sys.Init(&t.gold, ex.N)
	gdone := d.finished(&t.gold, ex.N)
	t.gfeats, t.gsteps = t.gfeats[:0], t.gsteps[:0]
	goldScore := 0.0
	stop, worst := -1, math.Inf(-1)
	for !gdone || !d.allDone() {
		gc := int32(-1)
		if !gdone {
			feats := d.Ext.Extract(&t.gold, &ex.Words, &t.gsc)
			off := int32(len(t.gfeats))
			t.gfeats = append(t.gfeats, feats...)
			tr := ex.Seq[t.gold.Steps]
			gc = int32(c.Class(tr))
			t.Weights.Scores(feats, t.gscore)
			goldScore += float64(t.gscore[gc])
			transition.Step(c.Sys, &t.gold, tr)
			gdone = d.finished(&t.gold, ex.N)
			t.gsteps = append(t.gsteps, node{class: gc, feats: off})
		} else {
			t.gsteps = append(t.gsteps, node{class: -1, feats: -1})
		}
		d.goldClass = gc
		d.expand(&ex.Words, t.Weights)
		d.advance(ex.N)
		step := d.steps()
		if t.Update == EarlyUpdate {
			if !d.inBeam() {
				stop = step
				break
			}
			continue
		}
		if !d.cur[0].gold {
			if v := d.cur[0].score - goldScore; v > worst {
				stop, worst = step, v
			}
		}
	}
	if t.Update == EarlyUpdate && stop < 0 && !d.cur[0].gold {
		stop = d.steps()
	}
	d.record = false
	if stop > 0 {
		t.update(stop)
	}
	t.Weights.Tick()
	return stop < 0
}

// update makes the perceptron update between the gold prefix and the best
// item of the beam after step stop (1-based): +1 to the gold classes, −1
// to the predicted ones, from the first step where they part.
func (t *Trainer) update(stop int) {
	d := t.Decoder
	t.path = t.path[:0]
	for j, s := int32(0), stop; s >= 1; s-- {
		nd := d.row(s)[j]
		t.path = append(t.path, nd)
		j = nd.parent
	}
	nf := d.Ext.Len()
	parted := false
	for s := 0; s < stop; s++ {
		p, g := t.path[stop-1-s], t.gsteps[s]
		if !parted && p.class == g.class {
			continue
		}
		parted = true
		if g.class >= 0 {
			t.Weights.UpdateClass(t.gfeats[g.feats:int(g.feats)+nf], int(g.class), 1)
		}
		if p.class >= 0 {
			t.Weights.UpdateClass(d.feats[p.feats:int(p.feats)+nf], int(p.class), -1)
		}
	}
}

// TrainOptions configures Train.
type TrainOptions struct {
	K      int    // beam width (at least 1)
	Epochs int    // passes over the examples
	Update Update // where to update (MaxViolation or EarlyUpdate)
	Seed   int64  // seeds the order of the examples, shuffled every epoch
	// Runs is the number of perceptrons trained side by side, each on
	// its own order of the examples (shuffled with linear.RunSeed of
	// Seed, so that Runs 1 trains the classifier of Seed); after each
	// epoch their averaged weights are averaged again into one classifier
	// (linear.FreezeMean): an ensemble at the decoding cost of one model.
	// 0 means 1. The runs use up to GOMAXPROCS goroutines.
	Runs int
	// Freeze turns the averaged weights into the classifier after each
	// epoch (linear.FreezeOptions).
	Freeze linear.FreezeOptions
	// Dev scores the classifier of an epoch (higher is better, e.g. dev
	// LAS); Train returns the best epoch's. nil: the last epoch's.
	Dev func(clf *linear.Model) float64
	// Epoch, when not nil, is called after each epoch with its number
	// (1-based), the share of training sentences whose gold sequence was
	// the final beam's best (before their update), the dev score, and
	// whether this epoch is the best so far.
	Epoch func(epoch int, reached, dev float64, best bool)
	// Sentence, when not nil, is called after each training sentence of
	// the first run with the epoch and the number of its sentences done in
	// it (each other run trains on as many); returning false stops the
	// training, which then returns the best epoch so far (nil when no
	// epoch has ended).
	Sentence func(epoch, done int) bool
}

// Train trains a classifier for beam search of width opt.K on the examples
// (NewExample) with the structured perceptron, one update at most per
// sentence and epoch, the weights averaged over sentences (and over
// opt.Runs runs), and returns the best epoch's frozen classifier with its
// dev score.
func Train(c *transition.Classes, ext *feature.Extractor, exs []*Example, opt TrainOptions) (*linear.Model, float64) {
	runs := make([]*run, max(opt.Runs, 1))
	for k := range runs {
		r := &run{tr: NewTrainer(c, ext, opt.K, opt.Update), order: make([]int, len(exs)),
			rng: rand.New(rand.NewSource(linear.RunSeed(opt.Seed, k)))}
		for i := range r.order {
			r.order[i] = i
		}
		runs[k] = r
	}
	weights := make([]*linear.Trainer, len(runs))
	for k, r := range runs {
		weights[k] = r.tr.Weights
	}
	var best *linear.Model
	bestScore := math.Inf(-1)
	var stopped atomic.Bool
	for epoch := 1; epoch <= opt.Epochs; epoch++ {
		steps := make([]par.Step, len(runs))
		for k, r := range runs {
			steps[k] = par.Step{Cost: int64(len(runs) - k), Run: func() {
				r.epoch(exs, &stopped, func(done int) bool {
					return k > 0 || opt.Sentence == nil || opt.Sentence(epoch, done)
				})
			}}
		}
		par.Do(steps)
		if stopped.Load() {
			return best, bestScore
		}
		clf := linear.FreezeMean(weights, opt.Freeze)
		score := 0.0
		if opt.Dev != nil {
			score = opt.Dev(clf)
		}
		better := opt.Dev == nil || score > bestScore
		if better {
			best, bestScore = clf, score
		}
		if opt.Epoch != nil {
			opt.Epoch(epoch, float64(runs[0].reached)/float64(max(len(exs), 1)), score, better)
		}
	}
	return best, bestScore
}

// run is one perceptron of Train and its order of the examples.
type run struct {
	tr      *Trainer
	order   []int
	rng     *rand.Rand
	reached int // sentences of the last epoch whose gold sequence was best
}

// epoch shuffles the examples and trains on them once, until stop is set;
// sentence, called after each with their count, sets stop by returning
// false.
func (r *run) epoch(exs []*Example, stop *atomic.Bool, sentence func(done int) bool) {
	r.rng.Shuffle(len(r.order), func(i, j int) { r.order[i], r.order[j] = r.order[j], r.order[i] })
	r.reached = 0
	for done, i := range r.order {
		if stop.Load() {
			return
		}
		if r.tr.Sentence(exs[i]) {
			r.reached++
		}
		if !sentence(done + 1) {
			stop.Store(true)
			return
		}
	}
}
