package main

import (
	"io"

	"github.com/transparse/transparse/parser"
	"github.com/transparse/transparse/parser/conllu"
)

// The only calls of capi into the parser's parse API: the translation of
// a call's options into the parser's options and the three ways to parse
// (a sentence, a document, a stream).

// docName names the caller's document in the parser's messages ("text:12").
const docName = "text"

// resolve returns the parse options of co for m: a beam of 0 is the
// model's default width; the values are checked.
func (co *callOptions) resolve(m *parser.Model) (parser.ParseOptions, error) {
	return m.ResolveOptions(co.parse)
}

// parseWords parses one sentence with options opt (resolved), writing
// the tree into words and, unless opt is the greedy parser's, the
// confidences and trees into r.
func parseWords(m *parser.Model, words []conllu.Word, opt parser.ParseOptions, r *parser.ParseResult) error {
	if opt.Default() {
		return m.Parse(words)
	}
	return m.ParseWithOptions(words, opt, r)
}

// parseDocument parses the document r into w as co says.
func parseDocument(m *parser.Model, r io.Reader, w io.Writer, co *callOptions) (parser.DocStats, error) {
	o := co.doc
	var err error
	if o.Parse, err = co.resolve(m); err != nil {
		return parser.DocStats{}, err
	}
	if co.tokens {
		return m.ParseTokensDoc(r, w, docName, o)
	}
	return m.ParseCoNLLUDoc(r, w, docName, o)
}

// newStream starts a stream over r as co says.
func newStream(m *parser.Model, r io.Reader, co *callOptions) (*parser.Stream, error) {
	o := co.doc
	var err error
	if o.Parse, err = co.resolve(m); err != nil {
		return nil, err
	}
	return m.NewStream(r, docName, co.tokens, o), nil
}
