package main

import (
	"io"

	"github.com/transparse/transparse/parser"
	"github.com/transparse/transparse/parser/conllu"
)

// The only calls of capi into the parser's parse API: the check of a
// call's options and the three ways to parse (a sentence, a document, a
// stream).

// docName names the caller's document in the parser's messages ("text:12").
const docName = "text"

// check checks the parse options of co against m (a beam of 0 is the
// model's default width, which bounds kbest).
func (co *callOptions) check(m *parser.Model) error {
	return m.CheckOptions(&co.parse)
}

// parseWords parses one sentence with the options opt (checked), writing
// the tree into words; the result holds the confidences and trees when
// opt asks for them (else it is nil).
func parseWords(m *parser.Model, words []conllu.Word, opt *parser.Options) (*parser.Result, error) {
	return m.Parse(words, opt)
}

// parseDocument parses the document r into w as co says.
func parseDocument(m *parser.Model, r io.Reader, w io.Writer, co *callOptions) (parser.DocStats, error) {
	if err := co.check(m); err != nil {
		return parser.DocStats{}, err
	}
	return m.ParseDocument(r, w, co.docOptions())
}

// newStream starts a stream over r as co says.
func newStream(m *parser.Model, r io.Reader, co *callOptions) (*parser.Stream, error) {
	if err := co.check(m); err != nil {
		return nil, err
	}
	return m.NewStream(r, co.docOptions()), nil
}

// docOptions are the parser's document options of co.
func (co *callOptions) docOptions() parser.DocOptions {
	o := co.doc
	o.Name, o.Parse = docName, co.parse
	return o
}
