package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"runtime"

	"github.com/spf13/cobra"

	"github.com/transparse/transparse/parser"
	"github.com/transparse/transparse/parser/conllu"
)

// Input formats of parse.
const (
	formatAuto   = "auto"
	formatCoNLLU = "conllu"
	formatTokens = "tokens"
)

type parseOptions struct {
	model   string
	format  string
	noTags  bool
	threads int
}

func newParseCmd() *cobra.Command {
	var o parseOptions
	cmd := &cobra.Command{
		Use:   "parse [-m MODEL] [--format auto|conllu|tokens] [--no-tags] [flags] [FILE...]",
		Short: "Parse CoNLL-U or pre-tokenized text to CoNLL-U",
		Long: `Parse reads sentences from each FILE in turn, or from standard input when no
FILE is given or FILE is "-", parses them and writes CoNLL-U to standard
output.

Input formats (--format):

  conllu  CoNLL-U. Comments, multiword tokens and empty nodes are kept, and
          the LEMMA, UPOS, XPOS and FEATS given are used; the model's
          taggers predict UPOS and XPOS only where they are missing ("_").
          HEAD and DEPREL are replaced.
  tokens  One pre-tokenized sentence per line, tokens separated by spaces.
          The output has ID, FORM, the predicted UPOS and XPOS, HEAD and
          DEPREL; LEMMA, FEATS, DEPS and MISC are "_".
  auto    (default) Decided per input from its first non-blank line: CoNLL-U
          if that line starts with '#' or has 10 tab-separated fields,
          tokens otherwise. Use --format tokens for text whose first
          sentence starts with '#'.

Sentences are parsed --threads at a time (default: the number of CPUs); the
output keeps the input order, and an error stops the parse where one thread
would stop it, after writing the sentences before it. --threads is capped at
4 per CPU, and a thread is started only for a batch of 64 sentences to parse,
so a short input uses few.

--no-tags (or --strip-tags) blanks LEMMA, UPOS, XPOS and FEATS of CoNLL-U
input before parsing, so that the model tags the words itself (UPOS and
XPOS; LEMMA and FEATS stay "_"): the way to measure parsing from plain
tokens on a treebank. Tokens input has no tags to blank.

XPOS is predicted only by a model with an XPOS tagger (one trained on a
treebank with XPOS, as the bundled model is); with other models it stays
"_" where it is not given.

` + modelHelp,
		Example: `  # Parse pre-tokenized text, one sentence per line:
  echo "The cat sat on the mat ." | transparse parse

  # Re-parse a treebank with its gold tags, with a given model:
  transparse parse -m en_ewt.tpm en_ewt-ud-test.conllu > pred.conllu

  # Parse a treebank from its word forms only, then score it:
  transparse parse --no-tags en_ewt-ud-test.conllu > pred.conllu
  transparse eval en_ewt-ud-test.conllu pred.conllu`,
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			switch o.format {
			case formatAuto, formatCoNLLU, formatTokens:
			default:
				return usage("invalid --format %q: want auto, conllu or tokens", o.format)
			}
			if o.threads < 1 {
				return usage("invalid --threads %d: want 1 or more", o.threads)
			}
			o.threads = min(o.threads, parser.MaxWorkers())
			m, _, err := loadModel(o.model)
			if err != nil {
				return err
			}
			if len(args) == 0 {
				args = []string{"-"}
			}
			out := bufio.NewWriterSize(cmd.OutOrStdout(), 64<<10)
			p := &parseRun{model: m, opt: o, out: out}
			for _, name := range args {
				if err := p.file(cmd, name); err != nil {
					out.Flush()
					return err
				}
			}
			return out.Flush()
		}),
	}
	f := cmd.Flags()
	f.StringVarP(&o.model, "model", "m", "", "model file (default: $"+ModelEnv+" or the installed en_ewt model)")
	f.StringVar(&o.format, "format", formatAuto, "input format: auto, conllu or tokens")
	f.BoolVar(&o.noTags, "no-tags", false, "blank LEMMA, UPOS, XPOS and FEATS of CoNLL-U input so the model predicts UPOS and XPOS")
	f.BoolVar(&o.noTags, "strip-tags", false, "same as --no-tags")
	f.IntVarP(&o.threads, "threads", "t", runtime.NumCPU(), "sentences parsed at once (the output keeps the input order)")
	return cmd
}

// modelHelp is the paragraph on model lookup shared by several commands.
const modelHelp = `Without -m the model is $` + ModelEnv + `, or else models/en_ewt.tpm looked for
in the executable's directory, its parent, ../share/transparse and the
current directory.`

// parseRun parses a sequence of inputs with one model.
type parseRun struct {
	model *parser.Model
	opt   parseOptions
	out   io.Writer
	sents int // sentences written in tokens format, for sent_id
}

// file parses the input called name ("-" for standard input).
func (p *parseRun) file(cmd *cobra.Command, name string) error {
	r, display, closeInput, err := openInput(cmd, name)
	if err != nil {
		return err
	}
	defer closeInput()
	format := p.opt.format
	if format == formatAuto {
		var err error
		format, r, err = sniffFormat(r)
		if err != nil {
			return fmt.Errorf("reading %s: %w", display, err)
		}
	}
	if format == formatTokens {
		return p.tokens(r, display)
	}
	return parseCoNLLU(p.model, r, p.out, display, p.opt.noTags, p.opt.threads)
}

// tokens parses one pre-tokenized sentence per line.
func (p *parseRun) tokens(r io.Reader, name string) error {
	n, err := p.model.ParseTokensWorkers(r, p.out, name, p.sents, p.opt.threads)
	p.sents += n
	return err
}

// sniffFormat decides between CoNLL-U and tokens from the first non-blank
// line of r: CoNLL-U if it starts with '#' or has 10 tab-separated fields.
// It returns a reader that still yields all of r.
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
		if t := bytes.TrimSpace(bytes.TrimPrefix(line, []byte("\xEF\xBB\xBF"))); len(t) > 0 {
			return classifyLine(line), io.MultiReader(&seen, br), nil
		}
		if err == io.EOF {
			return formatTokens, &seen, nil // nothing but blank lines
		}
	}
}

// classifyLine applies the auto-detection rule to the first non-blank line.
func classifyLine(line []byte) string {
	line = bytes.TrimPrefix(line, []byte("\xEF\xBB\xBF"))
	line = bytes.TrimRight(line, "\r\n")
	if bytes.HasPrefix(bytes.TrimLeft(line, " \t"), []byte("#")) || bytes.Count(line, []byte("\t")) == 9 {
		return formatCoNLLU
	}
	return formatTokens
}

// parseCoNLLU parses CoNLL-U from r to w with m.ParseCoNLLUWorkers. With
// noTags, the LEMMA, UPOS, XPOS and FEATS columns are blanked on the way in.
func parseCoNLLU(m *parser.Model, r io.Reader, w io.Writer, name string, noTags bool, threads int) error {
	if !noTags {
		return m.ParseCoNLLUWorkers(r, w, name, threads)
	}
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	sink := &errWriter{w: pw}
	go func() {
		err := stripTags(r, sink, name)
		pw.CloseWithError(err) // nil closes with io.EOF
		done <- err
	}()
	perr := m.ParseCoNLLUWorkers(pr, w, name, threads)
	pr.Close() // stops the stripping goroutine if parsing ended early
	serr := <-done
	if serr != nil && sink.err == nil {
		return serr // an input error, not a consequence of pr.Close
	}
	return perr
}

// stripTags copies CoNLL-U from r to w with LEMMA, UPOS, XPOS and FEATS set
// to "_".
func stripTags(r io.Reader, w io.Writer, name string) error {
	cr := conllu.NewReader(r, name)
	bw := bufio.NewWriterSize(w, 64<<10)
	for {
		s, err := cr.Next()
		if err == io.EOF {
			return bw.Flush()
		}
		if err != nil {
			bw.Flush() // the sentences before the error still get parsed
			return err
		}
		s.StripTags()
		if err := conllu.Write(bw, s); err != nil {
			return err
		}
	}
}

// errWriter remembers the first write error.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(b []byte) (int, error) {
	n, err := e.w.Write(b)
	if err != nil && e.err == nil {
		e.err = err
	}
	return n, err
}
