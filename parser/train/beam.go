package train

import (
	"fmt"
	"time"

	"github.com/transparse/transparse/parser/beam"
	"github.com/transparse/transparse/parser/conllu"
	"github.com/transparse/transparse/parser/eval"
	"github.com/transparse/transparse/parser/feature"
	"github.com/transparse/transparse/parser/form"
	"github.com/transparse/transparse/parser/internal/core"
	"github.com/transparse/transparse/parser/linear"
	"github.com/transparse/transparse/parser/transition"
)

// goldBeamExamples are the beam examples of the gold-tag parser: the
// training sentences (their deprels in the class table's encoding) of at
// most MaxTrainingWords words whose trees the system derives.
func goldBeamExamples(classes *transition.Classes, train []*conllu.Sentence, opt Options) []*beam.Example {
	var exs []*beam.Example
	for _, s := range train {
		if len(s.Words) > MaxTrainingWords {
			continue
		}
		if ex, err := beam.NewExample(classes, s.Words, true); err == nil {
			for i, w := range s.Words {
				ex.Words.SetCluster(i+1, opt.clusters.Code(form.Of(w.Form)))
			}
			exs = append(exs, ex)
		}
	}
	return exs
}

// plainBeamExamples are the beam examples of the plain-token parser v:
// its training examples (jackknifed tags, ambiguity classes) with the word
// values its features read, as the greedy parser's training fills them.
func plainBeamExamples(classes *transition.Classes, v core.Variant, train []example) []*beam.Example {
	var exs []*beam.Example
	for _, e := range train {
		ex, err := beam.NewExample(classes, e.words, v.Ext.UsesMorph())
		if err != nil {
			continue
		}
		for i, a := range e.amb {
			ex.Words.Values[i+1][feature.A], ex.Words.Values[i+1][feature.AX] = a[0], a[1]
			ex.Words.SetCluster(i+1, a[2])
		}
		exs = append(exs, ex)
	}
	return exs
}

// trainBeam trains v's classifier for beam search of width opt.Beam.Width
// (BeamOptions.Width) on exs and sets v.Beam to the epoch with the best dev
// LAS at that width, dev parsed by the model that model makes of a
// variant (the gold-tag parser's with gold tags, the plain-token
// parser's from plain tokens: strip). what names the parser in the
// progress phase and the log.
func trainBeam(v *core.Variant, classes *transition.Classes, exs []*beam.Example, dev []*conllu.Sentence, strip bool,
	model func(core.Variant) *core.Model, opt Options, what string) error {
	if len(exs) == 0 {
		return fmt.Errorf("train: beam (%s): no training tree for %s", what, classes.Sys.Name())
	}
	phase := "parser (" + what + ", beam)"
	total := int64(len(exs))
	var lastUAS float64
	topt := beam.TrainOptions{
		K: opt.Beam.Width, Epochs: opt.Beam.Epochs, Runs: opt.Beam.Runs, Update: beam.MaxViolation, Seed: opt.Seed,
		Freeze: beamFreeze(opt, v.Morph),
		Dev: func(clf *linear.Model) float64 {
			c := *v
			c.Beam = clf
			las, uas := beamDevScore(model(c), dev, strip, opt.Beam.Width)
			lastUAS = uas
			return las
		},
		Sentence: func(epoch, done int) bool {
			if done == 1 {
				opt.rep.report(Progress{Phase: phase, Epoch: epoch, Epochs: opt.Beam.Epochs, Total: total})
			} else if done%256 == 0 {
				opt.rep.report(Progress{Phase: phase, Epoch: epoch, Epochs: opt.Beam.Epochs, Done: int64(done), Total: total})
			}
			return !opt.rep.stopped()
		},
		Epoch: func(epoch int, reached, las float64, best bool) {
			opt.rep.report(Progress{Phase: phase, Epoch: epoch, Epochs: opt.Beam.Epochs, Done: total, Total: total,
				EpochEnd: true, DevUAS: lastUAS, DevLAS: las, Best: best})
			mark := ""
			if best {
				mark = " *"
			}
			fmt.Fprintf(opt.Log, "parser (%s, beam %d) epoch %2d: gold sequence best in %.2f%% of the sentences  dev UAS %.2f LAS %.2f%s [%.0f s]\n",
				what, opt.Beam.Width, epoch, 100*reached, lastUAS, las, mark, time.Since(opt.start).Seconds())
		},
	}
	clf, _ := beam.Train(classes, v.Ext, exs, topt)
	if err := opt.rep.error(); err != nil {
		return err
	}
	v.Beam = clf
	return nil
}

// beamDevScore parses dev (with its tags, or from plain tokens with strip)
// with m at beam width k and returns LAS and UAS; a sentence the parser
// refuses keeps its gold tree in the score.
func beamDevScore(m *core.Model, dev []*conllu.Sentence, strip bool, k int) (las, uas float64) {
	pred := make([]*conllu.Sentence, len(dev))
	for i, s := range dev {
		c := cloneSentence(s)
		if strip {
			c.StripTags()
		}
		_ = m.ParseWithOptions(c.Words, core.Options{Beam: k}, nil)
		pred[i] = c
	}
	sc, err := eval.Score(dev, pred)
	if err != nil {
		return 0, 0
	}
	return sc.LAS.F1(), sc.UAS.F1()
}

// beamFreeze returns how the beam classifier of the gold-tag (gold) or
// the plain-token parser is frozen: BeamOptions' pruning and weight bits
// (defaults filled in), the minimum updates defaulting to the parser's;
// no weight dropped by size unless BeamOptions.DropWeightsBelow asks
// (the structured perceptron's weights are not on the greedy parser's
// scale).
func beamFreeze(opt Options, gold bool) linear.FreezeOptions {
	b := opt.Beam
	minUpd := b.MinFeatureUpdates
	if minUpd == 0 {
		minUpd = opt.parser(gold).MinFeatureUpdates
	}
	return linear.FreezeOptions{MinUpdates: max(minUpd, 0), MinAbs: b.DropWeightsBelow, KeyBits: 32, WeightBits: b.WeightBits}
}
