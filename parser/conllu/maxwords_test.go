package conllu_test

import (
	"testing"

	"github.com/transparse/transparse/parser"
	"github.com/transparse/transparse/parser/conllu"
)

// The readers' word limit is the parser's.
func TestMaxWordsIsTheParsers(t *testing.T) {
	if conllu.MaxWords != parser.MaxWords {
		t.Errorf("conllu.MaxWords = %d, parser.MaxWords = %d", conllu.MaxWords, parser.MaxWords)
	}
}
