// Package linear: API CONTRACT STUB — to be implemented (see helper task).
package linear

import "github.com/transparse/transparse/modelfmt"

// Trainer is an averaged perceptron under training.
type Trainer struct{ numClasses int }

// NewTrainer returns a trainer for numClasses classes.
func NewTrainer(numClasses int) *Trainer { return &Trainer{numClasses: numClasses} }

// NumClasses returns the number of classes.
func (t *Trainer) NumClasses() int { return t.numClasses }

// Scores writes the current (non-averaged) score of every class for the
// feature set feats into scores (len(scores) >= NumClasses()).
func (t *Trainer) Scores(feats []uint64, scores []float32) {}

// Update adds +1 to the weights of class gold and -1 to the weights of
// class pred for every feature in feats. Update with gold == pred is a no-op.
func (t *Trainer) Update(feats []uint64, gold, pred int) {}

// Tick tells the trainer one training instance was processed (the clock of
// the averaging).
func (t *Trainer) Tick() {}

// FreezeOptions controls how averaged weights are turned into a Model.
type FreezeOptions struct {
	MinUpdates int     // drop features updated fewer times than this
	MinAbs     float32 // drop weights with |w| below this
}

// Freeze returns the averaged weights as an immutable Model.
func (t *Trainer) Freeze(opt FreezeOptions) *Model { return &Model{numClasses: t.numClasses} }

// Model is an immutable, thread-safe linear classifier.
type Model struct{ numClasses int }

// NumClasses returns the number of classes.
func (m *Model) NumClasses() int { return m.numClasses }

// Scores writes the score of every class for feats into scores.
func (m *Model) Scores(feats []uint64, scores []float32) {}

// Classifier encodes the model for the model file.
func (m *Model) Classifier(name string, templates, classes []string) modelfmt.Classifier {
	return modelfmt.Classifier{Name: name, Templates: templates, Classes: classes}
}

// FromClassifier decodes a model written by Classifier.
func FromClassifier(c *modelfmt.Classifier) (*Model, error) {
	return &Model{numClasses: len(c.Classes)}, nil
}
