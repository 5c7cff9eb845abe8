// Package train trains transparse models. API CONTRACT — being implemented.
package train

import (
	"errors"
	"io"

	"github.com/transparse/transparse/parser"
)

// Options configures Train.
type Options struct {
	System       string // transition system name, e.g. "arc-eager"
	TrainPath    string // CoNLL-U training treebank
	DevPath      string // CoNLL-U development treebank (model selection)
	TestPath     string // optional: scored once at the end for the model card
	Epochs       int    // parser epochs (0 = default)
	TaggerEpochs int    // tagger epochs (0 = default)
	MaxSentences int    // use only the first N training sentences (0 = all); for tests
	Seed         int64
	Name         string    // model name for the card
	Progress     io.Writer // progress bars go here (nil = none)
	Log          io.Writer // per-epoch dev scores go here (nil = none)
}

// Train trains a tagger and a parser and returns the model.
func Train(opt Options) (*parser.Model, error) { return nil, errors.New("not implemented") }
