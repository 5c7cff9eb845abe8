package train

import (
	"fmt"
	"time"

	"github.com/transparse/transparse/parser"
	"github.com/transparse/transparse/parser/beam"
	"github.com/transparse/transparse/parser/conllu"
	"github.com/transparse/transparse/parser/eval"
	"github.com/transparse/transparse/parser/linear"
	"github.com/transparse/transparse/parser/pseudoproj"
	"github.com/transparse/transparse/parser/transition"
)

// trainBeam trains gold's classifier for beam search of width opt.Beam
// (Options.Beam) on the training sentences (their deprels in the class
// table's encoding) and sets gold.Beam to the epoch with the best dev LAS
// at that width. Sentences of more than MaxTrainingWords words and trees
// the system cannot derive are left out, as for the greedy parser.
func trainBeam(gold *parser.Variant, classes *transition.Classes, train, dev []*conllu.Sentence, enc pseudoproj.Encoding, opt Options) error {
	var exs []*beam.Example
	for _, s := range train {
		if len(s.Words) > MaxTrainingWords {
			continue
		}
		if ex, err := beam.NewExample(classes, s.Words, true); err == nil {
			exs = append(exs, ex)
		}
	}
	if len(exs) == 0 {
		return fmt.Errorf("train: beam: no training tree for %s", classes.Sys.Name())
	}
	const phase = "parser (gold tags, beam)"
	total := int64(len(exs))
	var lastUAS float64
	topt := beam.TrainOptions{
		K: opt.Beam, Epochs: opt.BeamEpochs, Update: beam.MaxViolation, Seed: opt.Seed,
		// The structured perceptron's weights are not pruned by size (their
		// scale is not the greedy parser's).
		Freeze: linear.FreezeOptions{MinUpdates: max(opt.MinUpdates, 0), KeyBits: 32, WeightBits: opt.WeightBits},
		Dev: func(clf *linear.Model) float64 {
			v := *gold
			v.Beam = clf
			las, uas := beamDevScore(classes, v, dev, enc, opt.Beam)
			lastUAS = uas
			return las
		},
		Sentence: func(epoch, done int) bool {
			if done == 1 {
				opt.rep.report(Progress{Phase: phase, Epoch: epoch, Epochs: opt.BeamEpochs, Total: total})
			} else if done%256 == 0 {
				opt.rep.report(Progress{Phase: phase, Epoch: epoch, Epochs: opt.BeamEpochs, Done: int64(done), Total: total})
			}
			return !opt.rep.stopped()
		},
		Epoch: func(epoch int, reached, las float64, best bool) {
			opt.rep.report(Progress{Phase: phase, Epoch: epoch, Epochs: opt.BeamEpochs, Done: total, Total: total,
				EpochEnd: true, DevUAS: lastUAS, DevLAS: las, Best: best})
			mark := ""
			if best {
				mark = " *"
			}
			fmt.Fprintf(opt.Log, "parser (gold tags, beam %d) epoch %2d: gold sequence best in %.2f%% of the sentences  dev UAS %.2f LAS %.2f%s [%.0f s]\n",
				opt.Beam, epoch, 100*reached, lastUAS, las, mark, time.Since(opt.start).Seconds())
		},
	}
	clf, _ := beam.Train(classes, gold.Ext, exs, topt)
	if err := opt.rep.error(); err != nil {
		return err
	}
	gold.Beam = clf
	return nil
}

// beamDevScore parses dev (with its gold tags) with v at beam width k and
// returns LAS and UAS; a sentence the parser refuses keeps its gold tree
// in the score.
func beamDevScore(classes *transition.Classes, v parser.Variant, dev []*conllu.Sentence, enc pseudoproj.Encoding, k int) (las, uas float64) {
	m := parser.Assemble(parser.Parts{Classes: classes, Gold: v, PseudoProjective: enc})
	pred := make([]*conllu.Sentence, len(dev))
	for i, s := range dev {
		c := cloneSentence(s)
		_ = m.ParseWithOptions(c.Words, parser.ParseOptions{Beam: k}, nil)
		pred[i] = c
	}
	sc, err := eval.Score(dev, pred)
	if err != nil {
		return 0, 0
	}
	return sc.LAS.F1(), sc.UAS.F1()
}
