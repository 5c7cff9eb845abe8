// Package parser is the transparse Go library: load a model, parse
// sentences. API CONTRACT — bodies are being implemented.
package parser

import (
	"errors"
	"io"

	"github.com/transparse/transparse/modelfmt"
	"github.com/transparse/transparse/parser/conllu"
)

// Limits enforced by Parse.
const (
	MaxWords      = 10000 // words per sentence
	MaxTokenBytes = 1024  // bytes per word form or tag
)

// ErrInput is wrapped by every error caused by the caller's sentence (empty,
// too long, invalid UTF-8, ...). Test with errors.Is.
var ErrInput = errors.New("invalid input")

// Model is a loaded parser model. It is immutable after loading and safe for
// concurrent use by any number of goroutines.
type Model struct {
	card modelfmt.Card
}

// Load reads a model file from path.
func Load(path string) (*Model, error) { return nil, errors.New("not implemented") }

// LoadBytes reads a model from the bytes of a model file. data is not
// retained.
func LoadBytes(data []byte) (*Model, error) { return nil, errors.New("not implemented") }

// Save writes the model to path.
func (m *Model) Save(path string) error { return errors.New("not implemented") }

// Card returns the model card.
func (m *Model) Card() modelfmt.Card { return m.card }

// Deprels returns the dependency labels the model can assign, in a fixed order.
func (m *Model) Deprels() []string { return nil }

// UPOSTags returns the UPOS tags the tagger can assign, in a fixed order.
func (m *Model) UPOSTags() []string { return nil }

// Parse assigns Head and Deprel to every word of words (one sentence, IDs
// 1..n in order). Form is required. UPOS, XPOS, Feats and Lemma are used when
// given; when UPOS is absent ("" or "_") it is predicted by the model's
// tagger and written into the word. The result is always a tree: exactly one
// word has Head 0 and there are no cycles.
func (m *Model) Parse(words []conllu.Word) error { return errors.New("not implemented") }

// ParseCoNLLU reads CoNLL-U from r, parses every sentence and writes
// CoNLL-U to w; comments, multiword tokens and empty nodes are kept. name is
// used in error messages.
func (m *Model) ParseCoNLLU(r io.Reader, w io.Writer, name string) error {
	return errors.New("not implemented")
}
