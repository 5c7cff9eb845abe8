package parser

import (
	"github.com/transparse/transparse/parser/conllu"
	"github.com/transparse/transparse/parser/internal/core"
	"github.com/transparse/transparse/parser/transition"
)

// Scorer names a classifier of the model for a caller that drives the
// transition system itself (docs/engine.md): Features and Scores.
type Scorer = core.Scorer

// The scorers: the classifier of sentences given with gold tags, its fast
// classifier (a model trained with one), and the greedy parser's choice
// between the two (Scores only).
const (
	ScorerGold     = core.ScorerGold
	ScorerGoldFast = core.ScorerGoldFast
	ScorerGreedy   = core.ScorerGreedy
)

// Classes returns the model's class table: its transition system, deprels
// and class order (read-only).
func (m *Model) Classes() *transition.Classes { return m.c.Classes() }

// Features returns the hashed feature ids (one per template, in template
// order) that scorer's templates extract in the state s of the model's
// system for words, whose columns (FORM, UPOS, XPOS, LEMMA, FEATS) are
// read as given. s is not modified. Safe for concurrent use.
func (m *Model) Features(scorer Scorer, s *transition.State, words []conllu.Word) ([]uint64, error) {
	return m.c.Features(scorer, s, words)
}

// Scores writes scorer's scores of every class in s into scores
// (Classes().Len() entries); see Features for words. With ScorerGreedy
// they are the scores Parse decides on when given gold tags: its best
// legal class (transition.Best, the first among equal scores) is the
// parser's next transition. Safe for concurrent use.
func (m *Model) Scores(scorer Scorer, s *transition.State, words []conllu.Word, scores []float32) error {
	return m.c.Scores(scorer, s, words, scores)
}
