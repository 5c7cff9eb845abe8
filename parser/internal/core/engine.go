package core

import (
	"fmt"
	"math"
	"slices"

	"github.com/transparse/transparse/parser/conllu"
	"github.com/transparse/transparse/parser/transition"
)

// Scorer names a classifier of the model for a caller that drives the
// transition system itself (the engine, docs/engine.md).
type Scorer int

// The scorers: the gold-tag classifier, its fast classifier, and the
// greedy parser's choice between them (ScorerGreedy, Scores only).
const (
	ScorerGold Scorer = iota
	ScorerGoldFast
	ScorerGreedy
)

// variantOf returns the classifier of sc (ScorerGreedy: the gold one).
func (m *Model) variantOf(sc Scorer) (*Variant, error) {
	switch sc {
	case ScorerGold, ScorerGreedy:
		return &m.gold, nil
	case ScorerGoldFast:
		if m.gold.Fast == nil {
			return nil, fmt.Errorf("the model has no fast classifier")
		}
		return m.gold.Fast, nil
	}
	return nil, fmt.Errorf("unknown scorer %d", sc)
}

// engineWords checks that s is a configuration for words and fills a
// scratch's word values as Parse does for a sentence given with gold tags
// (Parse's choice of the gold-tag classifier, its completion of absent
// columns with the model's taggers, then fill). The caller puts the
// scratch back in m.pool. words are not modified.
func (m *Model) engineWords(s *transition.State, words []conllu.Word) (*scratch, error) {
	if s.N != len(words) {
		return nil, fmt.Errorf("the state has %d words, the sentence %d", s.N, len(words))
	}
	if err := CheckWords(words); err != nil {
		return nil, err
	}
	if !m.GoldInput(words) {
		return nil, fmt.Errorf("%w: the gold-tag classifier needs the UPOS of every word", ErrInput)
	}
	words = slices.Clone(words)
	for i := range words {
		words[i].ID = i + 1
	}
	sc := m.scratch()
	m.complete(words, sc, false)
	m.fill(&m.gold, words, sc, nil)
	return sc, nil
}

// Features returns the hashed feature ids the templates of scorer's
// classifier extract in s for words (read as engineWords says).
// ScorerGreedy is not a classifier.
func (m *Model) Features(scorer Scorer, s *transition.State, words []conllu.Word) ([]uint64, error) {
	if scorer == ScorerGreedy {
		return nil, fmt.Errorf("the greedy scorer has no features of its own")
	}
	v, err := m.variantOf(scorer)
	if err != nil {
		return nil, err
	}
	sc, err := m.engineWords(s, words)
	if err != nil {
		return nil, err
	}
	defer m.pool.Put(sc)
	return append([]uint64(nil), v.Ext.Extract(s, &sc.words, &sc.fsc)...), nil
}

// Scores writes into scores (Classes().Len() entries) the scores of
// scorer's classifier in s for words (read as engineWords says).
// ScorerGreedy gives the scores Parse decides on with gold tags: the fast
// classifier's when its best legal class beats every other legal class by
// the model's margin, else the gold classifier's.
func (m *Model) Scores(scorer Scorer, s *transition.State, words []conllu.Word, scores []float32) error {
	v, err := m.variantOf(scorer)
	if err != nil {
		return err
	}
	if len(scores) != m.classes.Len() {
		return fmt.Errorf("scores must hold the model's %d classes (got %d)", m.classes.Len(), len(scores))
	}
	sc, err := m.engineWords(s, words)
	if err != nil {
		return err
	}
	defer m.pool.Put(sc)
	if f := v.Fast; scorer == ScorerGreedy && f != nil && !math.IsInf(float64(v.FastMargin), 1) {
		f.Clf.Scores(f.Ext.Extract(s, &sc.words, &sc.fsc), scores)
		if k, margin := m.classes.BestTwoLegal(s, scores); k >= 0 && margin >= v.FastMargin {
			return nil
		}
	}
	v.Clf.Scores(v.Ext.Extract(s, &sc.words, &sc.fsc), scores)
	return nil
}
