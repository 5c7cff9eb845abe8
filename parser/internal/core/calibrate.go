package core

import (
	"fmt"

	"github.com/transparse/transparse/parser/calib"
	"github.com/transparse/transparse/parser/conllu"
	"github.com/transparse/transparse/parser/eval"
)

// Calibrate fits the confidence calibrators of m's parsers (Variant.Conf,
// Variant.BeamConf; parser/calib) on the development sentences dev, which
// must carry gold heads and deprels (a sentence that eval.Check refuses
// is an error): the gold-tag parser on dev with its
// annotation, the plain-token parser on dev stripped to its forms, each
// greedily and, at beam width k (k > 1; an error, wrapping ErrOptions,
// for a model without classifiers trained for the beam), with the beam. The raw
// confidences are those of the default temperature. A sentence the parser
// refuses is left out. Calibrate changes m: it must not run while m
// parses.
func (m *Model) Calibrate(dev []*conllu.Sentence, k int) error {
	if err := m.checkBeam(Options{Beam: k}); err != nil {
		return fmt.Errorf("calibrating the confidences: %w", err)
	}
	for i, s := range dev {
		if err := eval.Check(s); err != nil {
			name := fmt.Sprint("sentence ", i+1)
			if id := s.SentID(); id != "" {
				name += " (" + id + ")"
			}
			return fmt.Errorf("calibrating the confidences: %s %w: the data must have gold heads and deprels", name, err)
		}
	}
	for _, v := range []struct {
		v     *Variant
		plain bool
	}{{&m.gold, false}, {&m.plain, true}} {
		if v.v.Clf == nil {
			continue
		}
		widths := []int{1}
		if k > 1 {
			widths = append(widths, k)
		}
		for _, w := range widths {
			cal, err := m.fitCalibrator(dev, v.plain, w)
			if err != nil {
				return fmt.Errorf("calibrating the confidences: %w", err)
			}
			if w == 1 {
				v.v.Conf = cal
			} else {
				v.v.BeamConf = cal
			}
		}
	}
	return nil
}

// fitCalibrator parses dev (stripped to forms when plain) at beam width k
// with raw confidences and fits a calibrator to its arcs.
func (m *Model) fitCalibrator(dev []*conllu.Sentence, plain bool, k int) (*calib.Calibrator, error) {
	var samples []calib.Sample
	var r Result
	var c conllu.Sentence
	for _, s := range dev {
		c.Words = append(c.Words[:0], s.Words...)
		if plain {
			c.StripTags()
		}
		words := c.Words
		for i := range words {
			words[i].Head, words[i].Deprel = -1, "_"
		}
		if err := m.ParseWithOptions(words, Options{Beam: k, Confidence: true}, &r); err != nil {
			continue
		}
		for i := range words {
			right := words[i].Head == s.Words[i].Head && words[i].Deprel == s.Words[i].Deprel
			samples = append(samples, calib.Sample{Label: r.labels[i], Z: r.lodds[i], Right: right, Dep: r.depU[i], Head: r.headU[i]})
		}
	}
	return calib.Fit(samples, len(m.classes.Deprels))
}
