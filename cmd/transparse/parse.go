package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"runtime"

	"github.com/spf13/cobra"

	"github.com/transparse/transparse/internal/gcpolicy"
	"github.com/transparse/transparse/parser"
	"github.com/transparse/transparse/parser/conllu"
	"github.com/transparse/transparse/parser/segment"
)

type parseOptions struct {
	model      string
	input      string
	text       textOptions
	noTags     bool
	threads    int
	onError    string
	beam       int
	kbest      int
	confidence bool
	accurate   bool
}

func newParseCmd() *cobra.Command {
	var o parseOptions
	cmd := &cobra.Command{
		Use:   "parse [-m MODEL] [--input auto|conllu|text|tokens] [--presegmented] [--ranges bytes|chars] [--no-tags] [--beam K] [--accurate] [--confidence] [--kbest N] [flags] [FILE...]",
		Short: "Parse raw text, CoNLL-U or pre-tokenized text to CoNLL-U",
		Long:  parseHelp + modelHelp,
		Example: `  # Parse raw text (the model splits it into sentences and tokens):
  echo "The quick brown fox jumps over the lazy dog." | transparse parse

  # Parse pre-tokenized text, one sentence per line:
  echo "The cat sat on the mat ." | transparse parse --input tokens

  # Re-parse a treebank with its gold tags, with a given model:
  transparse parse -m en_ewt.tpm en_ewt-ud-test.conllu > pred.conllu

  # Parse with a beam of 8, with a confidence per word in MISC:
  transparse parse --beam 8 --confidence en_ewt-ud-test.conllu

  # The accurate mode: the beam's and the greedy parser's trees revoted:
  transparse parse --accurate en_ewt-ud-test.conllu

  # Parse a treebank from its word forms only, then score it:
  transparse parse --no-tags en_ewt-ud-test.conllu > pred.conllu
  transparse eval en_ewt-ud-test.conllu pred.conllu`,
		RunE: runE(func(cmd *cobra.Command, args []string) error { return runParse(cmd, args, o) }),
	}
	f := cmd.Flags()
	f.StringVarP(&o.model, "model", "m", "", "model file (default: $"+ModelEnv+" or the installed en_ewt model)")
	f.StringVar(&o.input, "input", inputAuto, "kind of input: auto, conllu, text (raw text) or tokens (pre-tokenized)")
	o.text.flags(f)
	f.BoolVar(&o.noTags, "no-tags", false, "blank LEMMA, UPOS, XPOS and FEATS of CoNLL-U input so that the model predicts them (as far as it has the components)")
	f.IntVarP(&o.threads, "threads", "t", runtime.NumCPU(), "sentences parsed at once (the output keeps the input order)")
	f.StringVar(&o.onError, "on-error", "stop", "a sentence that cannot be parsed: stop, or skip (copy it through unparsed with a comment)")
	f.IntVar(&o.beam, "beam", 0, "beam width K (1: the greedy parser; 0: the model's default, default_beam in inspect)")
	f.IntVar(&o.kbest, "kbest", 0, "write each sentence's other trees of the N best after it (N at most --beam)")
	f.BoolVar(&o.confidence, "confidence", false, "add each word's confidence in its head and deprel to MISC")
	f.BoolVar(&o.accurate, "accurate", false, "revote the beam's and the greedy parser's trees: more accurate, about the beam's time plus a greedy parse")
	return cmd
}

// parseHelp is the long help of parse.
const parseHelp = `Parse reads sentences from each FILE in turn, or from standard input when no
FILE is given or FILE is "-", parses them and writes CoNLL-U to standard
output.

Kinds of input (--input):

  text    Raw UTF-8 text. The model's segmenter splits it into paragraphs
          (a blank line ends one), sentences, tokens and multiword tokens
          ("don't": "do" "n't"), then each sentence is tagged and parsed.
          Each sentence gets "# sent_id = N" and "# text = ..." ("# newdoc"
          and "# newpar" where a document and a paragraph start), and MISC
          keeps the spacing (SpaceAfter=No, SpacesAfter, SpacesBefore), so
          that nothing of the input is lost. Needs a model with a
          segmenter ("transparse train" learns one unless given
          --no-segmenter). --presegmented makes every line one sentence;
          --ranges bytes or --ranges chars adds each token's offsets in the
          input to MISC as TokenRange=START:END (END exclusive), in bytes
          or in Unicode code points.
  conllu  CoNLL-U. Comments and multiword tokens are kept, and the
          LEMMA, UPOS, XPOS and FEATS given are used and kept; the model
          predicts them only where they are missing ("_"). HEAD and DEPREL
          are replaced.
  tokens  One pre-tokenized sentence per line, tokens separated by spaces
          (as "transparse tokenize --output tokens" writes it). The output
          has ID, FORM, the predicted LEMMA, UPOS, XPOS and FEATS, HEAD and
          DEPREL; DEPS and MISC are "_".
  auto    (default) Decided per input: a file named *.conllu is CoNLL-U;
          otherwise the first line that is neither blank nor a comment
          (a line starting with '#') decides: CoNLL-U if it is a CoNLL-U
          word line (an ID such as 1, 2-3 or 4.1, then a tab), raw text
          otherwise. Text starting with "#MeToo" or "# 1 reason" is text;
          malformed CoNLL-U (9 or 11 columns, CoNLL-2009) gets CoNLL-U's
          error, which says to give --input text if the guess was wrong.
          Pre-tokenized text needs --input tokens.

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
input (an unreadable file, a line over 1 MiB) stop either way. In raw
text, "skip" replaces each byte of invalid UTF-8 by U+FFFD and goes on
("stop" ends the parse there, naming its byte offset): each sentence that
held one gets a "# transparse_replaced = ..." comment listing the bytes
replaced and their byte offsets in the input, and the number replaced is
reported on standard error.

--no-tags blanks LEMMA, UPOS, XPOS and FEATS of CoNLL-U
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

--accurate parses each sentence twice, with the beam (width --beam if
above 1, else the width the model's beam classifiers were trained at,
"beam.width" in "transparse inspect") and with the greedy parser, and
writes their revote (Sagae & Lavie 2006, "Parser combination by
reparsing"): each parser's arc weighs 0.5 plus the parser's confidence in
it, and the tree is the maximum spanning tree of these arcs with one word
attached to the root (Chu-Liu-Edmonds); each word's deprel is that of the
heavier voter of its arc. It parses more accurately than either parser
alone and costs about the beam's time plus a greedy parse
(docs/beam-search.md). It needs a model with classifiers trained for the
beam (the bundled model has them; another is refused, exit status 2) and
gives one tree (not with --kbest). With --confidence a word's confidence
is the beam's when its voted head and deprel are the beam's, else the
greedy parser's when they are its, else 0.

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
	switch o.input {
	case inputAuto, inputText:
	case inputCoNLLU, inputTokens:
		if o.text.given() {
			return usage("--presegmented and --ranges are for raw text: not with --input %s", o.input)
		}
	default:
		return usage("invalid --input %q: want auto, conllu, text or tokens", o.input)
	}
	if err := o.text.check(); err != nil {
		return err
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
	if err := checkBeam(m, o.beam, o.accurate); err != nil {
		return err
	}
	if o.accurate && o.kbest > 0 {
		return usage("invalid --kbest %d with --accurate: the accurate mode gives one tree", o.kbest)
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
	sents   int // sentences of text and tokens written, for sent_id
}

// file parses the input called name ("-" for standard input).
func (p *parseRun) file(cmd *cobra.Command, name string) error {
	r, display, closeInput, err := openInput(cmd, name)
	if err != nil {
		return err
	}
	defer closeInput()
	input, why := p.opt.input, ""
	switch {
	case input == inputAuto && isCoNLLUName(name):
		input, why = inputCoNLLU, "its name ends in .conllu"
	case input == inputAuto:
		input, r, err = sniffInput(r)
		if err != nil {
			return fmt.Errorf("reading %s: %w", display, err)
		}
		why = "its first line that is not a comment is a CoNLL-U word line"
	}
	if input == inputText {
		if err := needSegmenter(p.model, display, why != ""); err != nil {
			return err
		}
	}
	o := parser.DocOptions{Name: display, Workers: p.opt.threads, OnError: p.onError, NoTags: p.opt.noTags, First: p.sents,
		Parse: parser.Options{Beam: p.opt.beam, KBest: p.opt.kbest, Confidence: p.opt.confidence, Accurate: p.opt.accurate}}
	switch input {
	case inputTokens:
		o.Input = parser.InputTokens
	case inputText:
		p.opt.text.apply(&o)
	}
	st, err := p.model.ParseDocument(r, p.out, o)
	if input != inputCoNLLU {
		p.sents += st.Sentences
	}
	if st.Skipped > 0 {
		fmt.Fprintf(cmd.ErrOrStderr(), "transparse: %s: %d of %d sentences copied through unparsed (--on-error skip)\n",
			display, st.Skipped, st.Sentences)
	}
	return wrongGuess(replacedUTF8(cmd, display, st.Replaced, err), input, why)
}

// replacedUTF8 reports on standard error the n bytes of invalid UTF-8
// that --on-error skip replaced in the input called display, and returns
// err, an error of invalid UTF-8 with how to replace it.
func replacedUTF8(cmd *cobra.Command, display string, n int, err error) error {
	if n > 0 {
		unit := "bytes"
		if n == 1 {
			unit = "byte"
		}
		fmt.Fprintf(cmd.ErrOrStderr(), "transparse: %s: %d %s of invalid UTF-8 replaced by U+FFFD (--on-error skip)\n", display, n, unit)
	}
	var bad *segment.InvalidUTF8Error
	if errors.As(err, &bad) {
		return fmt.Errorf("%w (--on-error skip replaces invalid UTF-8 by U+FFFD)", err)
	}
	return err
}

// wrongGuess adds to an error of malformed CoNLL-U how to read the input
// as raw text when auto detection chose CoNLL-U (why says why; "" when
// --input said conllu).
func wrongGuess(err error, input, why string) error {
	var ce *conllu.Error
	if input != inputCoNLLU || why == "" || !errors.As(err, &ce) || ce.LimitExceeded {
		return err
	}
	return fmt.Errorf("%w (read as CoNLL-U because %s; give --input text to read it as raw text)", err, why)
}
