package train

import (
	"fmt"
	"maps"
	"time"

	"github.com/transparse/transparse/modelfmt"
	"github.com/transparse/transparse/parser/internal/core"

	"github.com/transparse/transparse/parser/conllu"
	"github.com/transparse/transparse/parser/eval"
	"github.com/transparse/transparse/parser/segment"
)

// segment trains the model's segmenter of raw text (parser/segment) on
// the training treebank's text, tuned on dev's, and keeps its dev Tokens,
// Words and Sentences F1 for the card; not with Segment.Skip, nor for a
// gold-only model, which parses no plain tokens.
func (r *run) segment() error {
	opt := &r.opt
	if opt.Segment.Skip || opt.GoldOnly {
		return nil
	}
	seg, err := segment.Train(r.train, r.dev, segment.Options{})
	if err != nil {
		return fmt.Errorf("train: the segmenter: %w", err)
	}
	r.seg = seg
	scores, err := segmentScores(seg, r.dev)
	if err != nil {
		fmt.Fprintf(opt.Log, "segmenter: dev not scored: %v\n", err)
		return nil
	}
	r.segScores = scores
	fmt.Fprintf(opt.Log, "segmenter: dev Tokens %.2f, Words %.2f, Sentences %.2f [%.0f s]\n",
		scores["Tokens"], scores["Words"], scores["Sentences"], time.Since(opt.start).Seconds())
	return nil
}

// segmentScores segments the text of dev (segment.UDText) with seg and
// returns the F1 of its tokens, words and sentences against dev's
// (eval.Score), by metric name. The segmented sentences get a chain for
// a tree (each word headed by the word before it), which eval needs and
// these metrics do not read.
func segmentScores(seg *segment.Model, dev []*conllu.Sentence) (map[string]float64, error) {
	text := []byte(segment.UDText(dev))
	var pred []*conllu.Sentence
	err := seg.Each(text, func(s *segment.Sentence) error {
		c := s.CoNLLU(text)
		for i := range c.Words {
			c.Words[i].Head, c.Words[i].Deprel = i, "dep"
		}
		c.Words[0].Deprel = "root"
		pred = append(pred, c)
		return nil
	})
	if err != nil {
		return nil, err
	}
	sc, err := eval.Score(dev, pred)
	if err != nil {
		return nil, err
	}
	p := sc.Percentages()
	return map[string]float64{"Tokens": p["Tokens"], "Words": p["Words"], "Sentences": p["Sentences"]}, nil
}

// loadBase reads the base model (Options.Base), which must have no
// segmenter.
func (r *run) loadBase() error {
	doc, err := modelfmt.ReadFile(r.opt.Base)
	if err != nil {
		return fmt.Errorf("train: base: %w", err)
	}
	if r.base, err = core.FromDocument(doc); err != nil {
		return fmt.Errorf("train: base: %s: %w", r.opt.Base, err)
	}
	if r.base.Segmenter() != nil {
		return &OptionError{Option: "base", Msg: r.opt.Base + " has a segmenter already"}
	}
	return nil
}

// complete makes the base model with the segmenter trained: its other
// parts as they are, its card with the segmenter's option and dev
// scores added.
func (r *run) complete() error {
	p := r.base.Parts()
	p.Segmenter = r.seg
	p.Card.Options, p.Card.Scores = maps.Clone(p.Card.Options), maps.Clone(p.Card.Scores)
	if p.Card.Options == nil {
		p.Card.Options = map[string]string{}
	}
	if p.Card.Scores == nil {
		p.Card.Scores = map[string]float64{}
	}
	p.Card.Options["segment.skip"] = "false"
	p.Card.Options["segment.train"] = r.opt.TrainPath
	for k, v := range r.segScores {
		p.Card.Scores["dev/text/"+k] = v
	}
	r.model = core.Assemble(p)
	return nil
}
