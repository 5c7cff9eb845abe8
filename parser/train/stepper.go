package train

import (
	"fmt"
	"io"
	"math/rand"
	"sync"
	"sync/atomic"
	"time"

	"github.com/transparse/transparse/parser/conllu"
	"github.com/transparse/transparse/parser/eval"
	"github.com/transparse/transparse/parser/feature"
	"github.com/transparse/transparse/parser/internal/core"
	"github.com/transparse/transparse/parser/linear"
	"github.com/transparse/transparse/parser/pseudoproj"
	"github.com/transparse/transparse/parser/transition"
)

// trainVariant trains one classifier and returns the epoch with the best dev
// LAS: the mean of one run per element of runExs (the plain-token
// classifier has opt.Plain.Runs), trained in parallel (run k seeded
// opt.Seed + k) and frozen together after each epoch.
func trainVariant(classes *transition.Classes, morph bool, runExs [][]example, dev []*conllu.Sentence, tg core.Taggers, enc pseudoproj.Encoding, opt Options, tpls []string, what string) (core.Variant, error) {
	ext, err := feature.New(tpls)
	if err != nil {
		return core.Variant{}, err
	}
	dyn, _ := classes.Sys.(transition.DynamicSystem)
	po := opt.parser(morph)
	runs := len(runExs)
	freeze := linear.FreezeOptions{MinUpdates: max(po.MinFeatureUpdates, 0), MinAbs: max(po.DropWeightsBelow, 0), KeyBits: 32, WeightBits: opt.WeightBits}
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
	var best core.Variant
	bestLAS := -1.0
	for epoch := 1; epoch <= po.Epochs; epoch++ {
		phase, sents := "parser ("+what+")", int64(runs*len(runExs[0]))
		opt.rep.report(Progress{Phase: phase, Epoch: epoch, Epochs: po.Epochs, Done: 0, Total: sents})
		var done atomic.Int64
		explore := dyn != nil && epoch > 1 && po.Explore > 0
		var wg sync.WaitGroup
		for _, r := range rs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r.st.rng.Shuffle(len(r.order), func(i, j int) { r.order[i], r.order[j] = r.order[j], r.order[i] })
				r.correct, r.total = 0, 0
				for i, k := range r.order {
					c, t := r.st.sentence(&r.exs[k], explore, po.Explore)
					r.correct += c
					r.total += t
					if i%256 == 255 {
						if opt.rep.stopped() {
							return
						}
						opt.rep.report(Progress{Phase: phase, Epoch: epoch, Epochs: po.Epochs, Done: done.Add(256), Total: sents})
					}
				}
			}()
		}
		wg.Wait()
		if opt.rep.stopped() {
			return best, opt.rep.error()
		}
		correct, total := 0, 0
		for _, r := range rs {
			correct += r.correct
			total += r.total
		}
		v := core.Variant{Morph: morph, Ext: ext, Clf: linear.FreezeMean(trainers, freeze)}
		las, uas := devScore(classes, v, dev, tg, enc, opt.Log)
		mark := ""
		if las > bestLAS {
			bestLAS, best, mark = las, v, " *"
		}
		opt.rep.report(Progress{Phase: phase, Epoch: epoch, Epochs: po.Epochs, Done: sents, Total: sents,
			EpochEnd: true, DevUAS: uas, DevLAS: las, Best: mark != ""})
		fmt.Fprintf(opt.Log, "parser (%s) epoch %2d: train acc %.2f%%  dev UAS %.2f LAS %.2f%s [%.0f s]\n",
			what, epoch, 100*float64(correct)/float64(max(total, 1)), uas, las, mark, time.Since(opt.start).Seconds())
	}
	return best, nil
}

// inputOf is the input v parses: gold tags for a variant that reads gold
// morphology.
func inputOf(v core.Variant) core.Input {
	if v.Morph {
		return core.Gold
	}
	return core.Plain
}

// devScore parses dev with the variant and returns LAS and UAS; a sentence
// the parser refuses is noted in log and keeps its gold tree in the score.
func devScore(classes *transition.Classes, v core.Variant, dev []*conllu.Sentence, tg core.Taggers, enc pseudoproj.Encoding, log io.Writer) (las, uas float64) {
	m := core.Assemble(core.Parts{Classes: classes, Gold: v, Plain: v, Taggers: tg, PseudoProjective: enc})
	pred := make([]*conllu.Sentence, len(dev))
	for i, s := range dev {
		c := cloneSentence(s)
		if err := m.ParseWith(inputOf(v), c.Words); err != nil {
			fmt.Fprintf(log, "train: dev sentence %d not parsed: %v\n", i+1, err)
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
	dyn     transition.DynamicSystem
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
	feature.FillWords(&st.words, ex.words, st.morph || st.ext.UsesMorph())
	for i, a := range ex.amb {
		st.words.Values[i+1][feature.A], st.words.Values[i+1][feature.AX] = a[0], a[1]
		st.words.SetCluster(i+1, a[2])
	}
	var co transition.CostOracle
	if st.dyn != nil {
		co = st.dyn.CostOracle(g)
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
			goldK = st.zeroCost(s, g, co)
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
		transition.Step(c.Sys, s, c.AttachLabel(s, c.Transition(next), st.scores))
	}
	return correct, total
}

// zeroCost fills st.cost for every legal class and returns the best-scoring
// class of minimal cost.
func (st *stepper) zeroCost(s *transition.State, g *transition.Gold, co transition.CostOracle) int {
	c := st.classes
	minCost := int(^uint(0) >> 1)
	for _, m := range c.Moves() {
		if !c.Sys.Legal(s, m) {
			continue
		}
		if !m.Labeled() {
			k := c.Class(transition.Transition{Move: m, Label: transition.None})
			st.cost[k] = co.Cost(s, transition.Transition{Move: m, Label: transition.None})
			minCost = min(minCost, st.cost[k])
			continue
		}
		h, d := c.Sys.Arc(s, m)
		gl := g.Label[d]
		base := co.Cost(s, transition.Transition{Move: m, Label: gl})
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
