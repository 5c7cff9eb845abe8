package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/spf13/cobra"

	"github.com/transparse/transparse/internal/gcpolicy"
	"github.com/transparse/transparse/parser"
)

// Input formats of parse.
const (
	formatAuto   = "auto"
	formatCoNLLU = "conllu"
	formatTokens = "tokens"
)

type parseOptions struct {
	model      string
	format     string
	noTags     bool
	threads    int
	onError    string
	beam       int
	kbest      int
	confidence bool
}

func newParseCmd() *cobra.Command {
	var o parseOptions
	cmd := &cobra.Command{
		Use:   "parse [-m MODEL] [--format auto|conllu|tokens] [--no-tags] [--beam K] [--confidence] [--kbest N] [flags] [FILE...]",
		Short: "Parse CoNLL-U or pre-tokenized text to CoNLL-U",
		Long:  parseHelp + modelHelp,
		Example: `  # Parse pre-tokenized text, one sentence per line:
  echo "The cat sat on the mat ." | transparse parse

  # Re-parse a treebank with its gold tags, with a given model:
  transparse parse -m en_ewt.tpm en_ewt-ud-test.conllu > pred.conllu

  # Parse with a beam of 8, with a confidence per word in MISC:
  transparse parse --beam 8 --confidence en_ewt-ud-test.conllu

  # Parse a treebank from its word forms only, then score it:
  transparse parse --no-tags en_ewt-ud-test.conllu > pred.conllu
  transparse eval en_ewt-ud-test.conllu pred.conllu`,
		RunE: runE(func(cmd *cobra.Command, args []string) error { return runParse(cmd, args, o) }),
	}
	f := cmd.Flags()
	f.StringVarP(&o.model, "model", "m", "", "model file (default: $"+ModelEnv+" or the installed en_ewt model)")
	f.StringVar(&o.format, "format", formatAuto, "input format: auto, conllu or tokens")
	f.BoolVar(&o.noTags, "no-tags", false, "blank LEMMA, UPOS, XPOS and FEATS of CoNLL-U input so that the model predicts them (as far as it has the components)")
	f.BoolVar(&o.noTags, "strip-tags", false, "same as --no-tags")
	f.IntVarP(&o.threads, "threads", "t", runtime.NumCPU(), "sentences parsed at once (the output keeps the input order)")
	f.StringVar(&o.onError, "on-error", "stop", "a sentence that cannot be parsed: stop, or skip (copy it through unparsed with a comment)")
	f.IntVar(&o.beam, "beam", 0, "beam width K (1: the greedy parser; 0: the model's default, default_beam in inspect)")
	f.IntVar(&o.kbest, "kbest", 0, "write each sentence's other trees of the N best after it (N at most --beam)")
	f.BoolVar(&o.confidence, "confidence", false, "add each word's confidence in its head and deprel to MISC")
	return cmd
}

// parseHelp is the long help of parse.
const parseHelp = `Parse reads sentences from each FILE in turn, or from standard input when no
FILE is given or FILE is "-", parses them and writes CoNLL-U to standard
output.

Input formats (--format):

  conllu  CoNLL-U. Comments and multiword tokens are kept, and the
          LEMMA, UPOS, XPOS and FEATS given are used and kept; the model
          predicts them only where they are missing ("_"). HEAD and DEPREL
          are replaced.
  tokens  One pre-tokenized sentence per line, tokens separated by spaces.
          The output has ID, FORM, the predicted LEMMA, UPOS, XPOS and
          FEATS, HEAD and DEPREL; DEPS and MISC are "_".
  auto    (default) Decided per input: a file named *.conllu is CoNLL-U;
          otherwise its first non-blank line decides: CoNLL-U if it starts
          with '#' or contains a tab, tokens otherwise. Malformed CoNLL-U
          (9 or 11 columns, spaces for tabs, CoNLL-2009) is reported as
          such, never read as tokens. Use --format tokens for text whose
          first sentence starts with '#' or whose tokens are separated by
          tabs.

Sentences are parsed --threads at a time (default: the number of CPUs); the
output keeps the input order, and an error stops the parse where one thread
would stop it, after writing the sentences before it. --threads is capped at
4 per CPU, and a thread is started only for a batch of 64 sentences to parse,
so a short input uses few.

--on-error says what to do with a sentence that is malformed or that the
parser rejects (over TP_MAX_WORDS words, say): "stop" (default) ends the
parse with the error; "skip" copies the sentence through unparsed, after a
"# transparse_error = ..." comment naming the error and its line, goes on,
and reports the number skipped on standard error. A sentence over the
reader's limits (more than 10001 word lines, 1000 comment lines or 32 MiB;
a token line over 10001 tokens) is refused as it is read, without holding
it in memory: "skip" writes its comments and a "# transparse_dropped =
lines A-B ..." comment naming the lines not copied. Errors that end the
input (an unreadable file, a line over 1 MiB) stop either way.

--no-tags (or --strip-tags) blanks LEMMA, UPOS, XPOS and FEATS of CoNLL-U
input (words and empty nodes) before parsing, so that the model annotates
the words itself: the way to measure parsing from plain tokens on a
treebank. Tokens input has no tags to blank.

A column is predicted only by a model with the component for it: XPOS by
one with an XPOS tagger (trained on a treebank with XPOS, as the bundled
model is) or an XPOS table (a treebank whose XPOS tag set is too large
for a tagger: the XPOS seen in training with the word's form, UPOS and
FEATS), LEMMA by one with a lemmatizer, FEATS by one with a FEATS tagger.
With other models the column stays "_" where it is not given.

--beam K parses with a beam of width K (1 to 64; 1 is the greedy parser):
it keeps the K best configurations at every step instead of one, about K
times slower (docs/beam-search.md), with the classifiers the model has
trained for the beam ("transparse train --beam K"; the bundled model has
them). A model without them refuses a K above 1 (exit status 2): over
greedily trained classifiers a wider beam parses worse. Without --beam
(or with --beam 0) the model's default width is used ("default_beam" in
"transparse inspect"; 1, the greedy parser, for the bundled model).

--confidence adds each word's confidence in its head and deprel to MISC,
after the attributes given ("Confidence=0.931": the estimated probability that the
word's head and deprel are right, fitted on the development treebank at
training time, see "transparse calibrate").
--kbest N (at most K) follows each sentence parsed with its other trees
of the N best of the final beam, as sentences of their own: the same
lines with that tree's HEAD and DEPREL, comments "# kbest_rank = 2" and
"# kbest_score = ..." added and the sent_id suffixed "-kbest2".

DEPS is "_" on every word parsed (no enhanced graph is predicted); MISC,
comments and multiword tokens are copied from the input. Empty nodes are
left out of a parsed sentence: they are nodes of the enhanced graph only,
and a file with empty nodes but no enhanced graph is not valid CoNLL-U.

`

// runParse runs parse with the options o on the inputs args.
func runParse(cmd *cobra.Command, args []string, o parseOptions) error {
	switch o.format {
	case formatAuto, formatCoNLLU, formatTokens:
	default:
		return usage("invalid --format %q: want auto, conllu or tokens", o.format)
	}
	if o.threads < 1 {
		return usage("invalid --threads %d: want 1 or more", o.threads)
	}
	o.threads = min(o.threads, parser.MaxWorkers())
	onError, err := parser.ParseOnError(o.onError)
	if err != nil {
		return usage("invalid --on-error %q: want stop or skip", o.onError)
	}
	if o.beam < 0 || o.beam > parser.MaxBeam {
		return usage("invalid --beam %d: want 1 to %d (0: the model's default)", o.beam, parser.MaxBeam)
	}
	if o.kbest < 0 || o.beam > 0 && o.kbest > o.beam {
		return usage("invalid --kbest %d: want 0 to the beam width (--beam %d)", o.kbest, o.beam)
	}
	m, _, err := loadModel(o.model)
	if err != nil {
		return err
	}
	if err := checkBeam(m, o.beam); err != nil {
		return err
	}
	if o.beam == 0 && o.kbest > m.DefaultBeam() {
		return usage("invalid --kbest %d: want 0 to the beam width (the model's default, %d, without --beam)", o.kbest, m.DefaultBeam())
	}
	gcpolicy.CollectOften()
	if len(args) == 0 {
		args = []string{"-"}
	}
	out := bufio.NewWriterSize(cmd.OutOrStdout(), 64<<10)
	p := &parseRun{model: m, opt: o, out: out, onError: onError}
	for _, name := range args {
		if err := p.file(cmd, name); err != nil {
			out.Flush()
			return err
		}
	}
	return out.Flush()
}

// modelHelp is the paragraph on model lookup shared by several commands.
const modelHelp = `Without -m the model is $` + ModelEnv + `, or else the first models/en_ewt.tpm
found beside the executable (in its directory, in ../share/transparse, in
its parent), then ./models/en_ewt.tpm of the current directory.`

// parseRun parses a sequence of inputs with one model.
type parseRun struct {
	model   *parser.Model
	opt     parseOptions
	onError parser.OnError
	out     io.Writer
	sents   int // sentences written in tokens format, for sent_id
}

// file parses the input called name ("-" for standard input).
func (p *parseRun) file(cmd *cobra.Command, name string) error {
	r, display, closeInput, err := openInput(cmd, name)
	if err != nil {
		return err
	}
	defer closeInput()
	format := p.opt.format
	if format == formatAuto && isCoNLLUName(name) {
		format = formatCoNLLU
	}
	if format == formatAuto {
		format, r, err = sniffFormat(r)
		if err != nil {
			return fmt.Errorf("reading %s: %w", display, err)
		}
	}
	o := parser.DocOptions{Name: display, Workers: p.opt.threads, OnError: p.onError, NoTags: p.opt.noTags, First: p.sents,
		Parse: parser.Options{Beam: p.opt.beam, KBest: p.opt.kbest, Confidence: p.opt.confidence}}
	if format == formatTokens {
		o.Input = parser.InputTokens
	}
	st, err := p.model.ParseDocument(r, p.out, o)
	if format == formatTokens {
		p.sents += st.Sentences
	}
	if st.Skipped > 0 {
		fmt.Fprintf(cmd.ErrOrStderr(), "transparse: %s: %d of %d sentences copied through unparsed (--on-error skip)\n",
			display, st.Skipped, st.Sentences)
	}
	return err
}

// isCoNLLUName reports whether a file name says CoNLL-U (*.conllu).
func isCoNLLUName(name string) bool {
	return strings.EqualFold(filepath.Ext(name), ".conllu")
}

// sniffFormat decides between CoNLL-U and tokens from the first non-blank
// line of r (see classifyLine). It returns a reader that still yields all
// of r.
func sniffFormat(r io.Reader) (string, io.Reader, error) {
	br := bufio.NewReader(r)
	var seen bytes.Buffer
	for {
		line, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			// A line longer than the buffer: decide on its beginning.
			seen.Write(line)
			return classifyLine(line), io.MultiReader(&seen, br), nil
		}
		seen.Write(line)
		if err != nil && err != io.EOF {
			return "", nil, err
		}
		t := line
		if seen.Len() == len(line) { // a byte order mark only counts at the start
			t = bytes.TrimPrefix(t, []byte("\xEF\xBB\xBF"))
		}
		if t = bytes.TrimSpace(t); len(t) > 0 {
			return classifyLine(line), io.MultiReader(&seen, br), nil
		}
		if err == io.EOF {
			return formatTokens, &seen, nil // nothing but blank lines
		}
	}
}

// classifyLine applies the auto-detection rule to the first non-blank line:
// CoNLL-U if it starts with '#' (after spaces) or contains a tab, so that
// malformed CoNLL-U (9 or 11 columns, CoNLL-2009) gets CoNLL-U's error
// instead of being read as tokens.
func classifyLine(line []byte) string {
	line = bytes.TrimPrefix(line, []byte("\xEF\xBB\xBF"))
	line = bytes.TrimRight(line, "\r\n")
	if bytes.HasPrefix(bytes.TrimLeft(line, " \t"), []byte("#")) || bytes.IndexByte(line, '\t') >= 0 {
		return formatCoNLLU
	}
	return formatTokens
}
