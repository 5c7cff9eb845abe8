package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/transparse/transparse/parser"
	"github.com/transparse/transparse/parser/conllu"
)

// textOptions are the flags of raw text input, shared by parse and
// tokenize.
type textOptions struct {
	presegmented bool
	ranges       string
}

// rangeUnits maps --ranges to the parser's units of TokenRange.
var rangeUnits = map[string]parser.Ranges{
	"none":  parser.RangesNone,
	"bytes": parser.RangesBytes,
	"chars": parser.RangesCodePoints,
}

func (t *textOptions) flags(f *pflag.FlagSet) {
	f.BoolVar(&t.presegmented, "presegmented", false, "raw text: every line is one sentence (the model still finds the tokens)")
	f.StringVar(&t.ranges, "ranges", "none", "raw text: add each token's offsets in the input to MISC as TokenRange=START:END, in bytes or chars (Unicode code points); none: no offsets")
}

// given reports whether a raw text flag was set.
func (t textOptions) given() bool { return t.presegmented || t.ranges != "none" }

// check checks the value of --ranges.
func (t textOptions) check() error {
	if _, ok := rangeUnits[t.ranges]; !ok {
		return usage("invalid --ranges %q: want none, bytes or chars", t.ranges)
	}
	return nil
}

// apply makes o read raw text as t says.
func (t textOptions) apply(o *parser.DocOptions) {
	o.Input = parser.InputText
	o.Presegmented = t.presegmented
	o.Ranges = rangeUnits[t.ranges]
}

// needSegmenter refuses raw text (the input called display) when m has no
// segmenter; guessed says that auto detection chose text.
func needSegmenter(m *parser.Model, display string, guessed bool) error {
	if m.HasSegmenter() {
		return nil
	}
	how := "read as raw text (--input text)"
	if guessed {
		how = "read as raw text (its first line that is not a comment is not a CoNLL-U word line)"
	}
	return fmt.Errorf("%s: %s, but the model has no segmenter to split raw text into sentences and tokens: "+
		"give pre-tokenized text with --input tokens (one sentence a line) or CoNLL-U, "+
		"or use a model with a segmenter (transparse train learns one unless given --no-segmenter)", display, how)
}

// Outputs of tokenize.
const (
	outputCoNLLU = "conllu"
	outputTokens = "tokens"
)

type tokenizeOptions struct {
	model   string
	text    textOptions
	output  string
	onError string
	on      parser.OnError // onError parsed
}

func newTokenizeCmd() *cobra.Command {
	var o tokenizeOptions
	cmd := &cobra.Command{
		Use:   "tokenize [-m MODEL] [--presegmented] [--ranges bytes|chars] [--output conllu|tokens] [FILE...]",
		Short: "Split raw text into sentences, tokens and words",
		Long:  tokenizeHelp + modelHelp,
		Example: `  # The segmentation as CoNLL-U, with each token's byte offsets:
  echo "I don't like it. Dr. Smith arrived." | transparse tokenize --ranges bytes

  # One sentence a line, words separated by spaces, parsed later:
  transparse tokenize --output tokens book.txt > book.tok
  transparse parse --input tokens book.tok`,
		RunE: runE(func(cmd *cobra.Command, args []string) error { return runTokenize(cmd, args, o) }),
	}
	f := cmd.Flags()
	f.StringVarP(&o.model, "model", "m", "", "model file (default: $"+ModelEnv+" or the installed en_ewt model)")
	o.text.flags(f)
	f.StringVar(&o.output, "output", outputCoNLLU, "conllu, or tokens: one sentence a line, words separated by spaces")
	f.StringVar(&o.onError, "on-error", "stop", "invalid UTF-8: stop, or skip (replace each invalid byte by U+FFFD and go on)")
	return cmd
}

// tokenizeHelp is the long help of tokenize.
const tokenizeHelp = `Tokenize reads raw UTF-8 text from each FILE in turn, or from standard input
when no FILE is given or FILE is "-", and writes what "transparse parse
--input text" would parse, without tagging or parsing it: paragraphs,
sentences, tokens and multiword tokens, as the model's segmenter finds them.

--output conllu (the default) writes CoNLL-U: the comments and MISC of
"transparse parse --input text" (# newdoc, # newpar, # sent_id, # text;
SpaceAfter=No, SpacesAfter, SpacesBefore, TokenRange with --ranges), every
other column "_" but ID and FORM. --output tokens writes one sentence a
line, its syntactic words separated by spaces ("do n't" for "don't"): the
input of "transparse parse --input tokens".

--on-error skip replaces each byte of invalid UTF-8 by U+FFFD and goes on,
listing the bytes replaced and their byte offsets in the input in a "#
transparse_replaced = ..." comment of their sentence; "stop" (default) ends
there with an error naming the byte offset.

--presegmented makes every line one sentence (the model still finds the
tokens). --ranges bytes or --ranges chars adds each token's offsets in the
input to MISC as TokenRange=START:END (END exclusive), in bytes or in
Unicode code points (CoNLL-U output only).

`

// runTokenize runs tokenize with the options o on the inputs args.
func runTokenize(cmd *cobra.Command, args []string, o tokenizeOptions) error {
	switch o.output {
	case outputCoNLLU:
	case outputTokens:
		if o.text.ranges != "none" {
			return usage("--ranges is for --output conllu")
		}
	default:
		return usage("invalid --output %q: want conllu or tokens", o.output)
	}
	if err := o.text.check(); err != nil {
		return err
	}
	var err error
	if o.on, err = parser.ParseOnError(o.onError); err != nil {
		return usage("invalid --on-error %q: want stop or skip", o.onError)
	}
	m, _, err := loadModel(o.model)
	if err != nil {
		return err
	}
	if len(args) == 0 {
		args = []string{"-"}
	}
	out := bufio.NewWriterSize(cmd.OutOrStdout(), 64<<10)
	sents := 0
	for _, name := range args {
		n, err := tokenizeFile(cmd, m, name, out, o, sents)
		sents += n
		if err != nil {
			out.Flush()
			return err
		}
	}
	return out.Flush()
}

// tokenizeFile segments the input called name into w, its sentences
// numbered from first+1, and returns how many it wrote.
func tokenizeFile(cmd *cobra.Command, m *parser.Model, name string, w io.Writer, o tokenizeOptions, first int) (int, error) {
	r, display, closeInput, err := openInput(cmd, name)
	if err != nil {
		return 0, err
	}
	defer closeInput()
	if err := needSegmenter(m, display, false); err != nil {
		return 0, err
	}
	do := parser.DocOptions{Name: display, First: first, TokenizeOnly: true, OnError: o.on}
	o.text.apply(&do)
	var st parser.DocStats
	if o.output == outputCoNLLU {
		st, err = m.ParseDocument(r, w, do)
	} else {
		stream := m.NewStream(r, do)
		_, err = writeTokens(stream, w, display)
		st = stream.Stats()
	}
	return st.Sentences, replacedUTF8(cmd, display, st.Replaced, err)
}

// writeTokens writes the sentences of st to w as tokens input, one a
// line, the forms of the syntactic words separated by spaces, and returns
// how many it wrote.
func writeTokens(st *parser.Stream, w io.Writer, name string) (int, error) {
	n := 0
	for {
		b, err := st.Next()
		if err == io.EOF {
			return n, nil
		}
		if err != nil {
			return n, err
		}
		sents, err := conllu.ReadAll(bytes.NewReader(b), name)
		if err != nil {
			return n, err
		}
		for _, s := range sents {
			forms := make([]string, len(s.Words))
			for i, wd := range s.Words {
				forms[i] = wd.Form
			}
			if _, err := io.WriteString(w, strings.Join(forms, " ")+"\n"); err != nil {
				return n, err
			}
			n++
		}
	}
}
