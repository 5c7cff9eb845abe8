package train

import (
	"fmt"
	"time"

	"github.com/transparse/transparse/parser/conllu"
	"github.com/transparse/transparse/parser/eval"
	"github.com/transparse/transparse/parser/segment"
)

// segment trains the model's segmenter of raw text (parser/segment) on
// the training treebank's text, tuned on dev's, unless Segment.Skip, and
// keeps its dev Tokens, Words and Sentences F1 for the card.
func (r *run) segment() error {
	opt := &r.opt
	if opt.Segment.Skip {
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
