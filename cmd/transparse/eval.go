package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/transparse/transparse/internal/outfile"
	"github.com/transparse/transparse/parser"
	"github.com/transparse/transparse/parser/conllu"
	"github.com/transparse/transparse/parser/eval"
)

type evalOptions struct {
	model    string
	noTags   bool
	json     bool
	output   string
	beam     int
	conf     bool
	accurate bool
}

// evalReport is what eval prints.
type evalReport struct {
	Gold       string  `json:"gold"`
	Prediction string  `json:"prediction,omitempty"` // GOLD PRED form
	Model      string  `json:"model,omitempty"`      // -m form
	ModelName  string  `json:"model_name,omitempty"`
	System     string  `json:"system,omitempty"`
	Tags       string  `json:"tags,omitempty"` // -m form: "gold", "partly gold", "none in gold" or "predicted"
	Seconds    float64 `json:"parse_seconds,omitempty"`
	Beam       int     `json:"beam,omitempty"`     // -m form: the beam width K
	Accurate   bool    `json:"accurate,omitempty"` // -m form: --accurate
	// ConfidenceDeciles (-m form with --confidence) is the accuracy (head
	// and universal deprel, %) of each tenth of the words by confidence,
	// lowest first.
	ConfidenceDeciles []float64 `json:"confidence_deciles,omitempty"`

	Scores eval.Scores `json:"scores"`
}

// evalLong is the help of eval.
const evalLong = `Eval scores dependency parses against gold CoNLL-U with the metrics of the
CoNLL 2018 shared task, computed as its scorer conll18_ud_eval.py does: every
syntactic word counts, punctuation included, and each metric is an F1 score
(precision over the predicted words, recall over the gold ones).

  Tokens,     tokens and sentences with the same span of text as in GOLD,
  Sentences   and words aligned with gold words (below)
  Words
  UPOS, XPOS  correct tags
  UFeats      correct universal features of FEATS (PronType, Gender, Number,
              Case, Tense, ...; others ignored), compared as a set
  AllTags     correct UPOS, XPOS and UFeats together
  Lemmas      correct LEMMA (a gold LEMMA "_" matches anything)
  UAS         correct heads
  LAS         correct heads and universal deprels (the part before ':')
  FullLAS     correct heads and complete deprels, subtypes included
  CLAS        LAS over content words only
  MLAS        CLAS with correct UPOS, UFeats and function-word children
  BLEX        CLAS with correct LEMMA
  ExactUAS,   sentences whose every word is correct under UAS / LAS
  ExactLAS

With two files, PRED is scored against GOLD. PRED may tokenize and split
sentences differently (a parse of raw text): as the scorer does, both are
read as the characters of their tokens without whitespace, which must be
the same text (else the error names the first character offset where they
differ), and words are aligned by their tokens' character spans, inside
multiword tokens by their FORMs. With the same tokenization every word
aligns and F1 is the accuracy. As the scorer requires, both files must be
annotated trees: a sentence whose HEADs are "_" or that has several roots
is an error, not a score.

With one file, GOLD is parsed by a model first (its HEAD, DEPREL and DEPS
are blanked) and the parse is scored. The gold LEMMA,
UPOS, XPOS and FEATS are given to the parser unless --no-tags is set, in
which case the model predicts them as far as it has the components (see
"transparse parse --help"; the others stay blank); the output says which.
--beam K parses with a beam of width K, as "transparse parse --beam K"
does, and as it is refused above 1 for a model without classifiers
trained for the beam. Without --beam, the model's default width, as
"transparse parse". --accurate parses in the accurate mode, as
"transparse parse --accurate" (the beam's and the greedy parser's trees
revoted; about the beam's time plus a greedy parse). --confidence adds the accuracy of
each tenth of the words by confidence. Either file may be "-" for
standard input.

` + modelHelp

func newEvalCmd() *cobra.Command {
	var o evalOptions
	cmd := &cobra.Command{
		Use:   "eval [flags] GOLD [PRED]",
		Short: "Score a parse against a gold treebank (UAS, LAS, CLAS, UFeats, ...)",
		Long:  evalLong,
		Example: `  # Score an existing parse:
  transparse eval en_ewt-ud-test.conllu pred.conllu

  # Parse the test set with gold tags and score it:
  transparse eval -m en_ewt.tpm en_ewt-ud-test.conllu

  # With a beam of 8 (a model trained with "transparse train --beam 8"):
  transparse eval -m en_ewt.tpm --beam 8 en_ewt-ud-test.conllu

  # In the accurate mode (the beam's and the greedy parser's trees revoted):
  transparse eval -m en_ewt.tpm --accurate en_ewt-ud-test.conllu

  # The same from plain tokens (tags predicted), as JSON:
  transparse eval -m en_ewt.tpm --no-tags --json en_ewt-ud-test.conllu`,
		Args: cobra.RangeArgs(1, 2),
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			if len(args) == 2 && (o.model != "" || o.noTags || o.output != "" || cmd.Flags().Changed("beam") || o.conf || o.accurate) {
				return usage("-m, --no-tags, --output, --beam, --accurate and --confidence apply only when eval parses GOLD itself (one argument)")
			}
			if o.beam < 0 || o.beam > parser.MaxBeam {
				return usage("invalid --beam %d: want 1 to %d (0: the model's default)", o.beam, parser.MaxBeam)
			}
			if len(args) == 2 && args[0] == "-" && args[1] == "-" {
				return usage("GOLD and PRED cannot both be standard input")
			}
			var rep *evalReport
			var err error
			if len(args) == 2 {
				rep, err = evalFiles(cmd, args[0], args[1])
			} else {
				rep, err = evalModel(cmd, args[0], o)
			}
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			if o.json {
				enc := json.NewEncoder(out)
				enc.SetIndent("", "  ")
				return enc.Encode(rep)
			}
			_, err = io.WriteString(out, rep.String())
			return err
		}),
	}
	f := cmd.Flags()
	f.StringVarP(&o.model, "model", "m", "", "parse GOLD with this model (default: $"+ModelEnv+", else models/en_ewt.tpm, see above)")
	f.BoolVar(&o.noTags, "no-tags", false, "blank GOLD's LEMMA, UPOS, XPOS and FEATS before parsing, so that the model predicts them")
	f.BoolVar(&o.json, "json", false, "print the scores as JSON")
	f.StringVarP(&o.output, "output", "o", "", "also write the model's parse of GOLD to this CoNLL-U file")
	f.IntVar(&o.beam, "beam", 0, "parse GOLD with a beam of width K (1: the greedy parser; 0: the model's default, as parse)")
	f.BoolVar(&o.accurate, "accurate", false, "parse GOLD in the accurate mode, as parse --accurate (about the beam's time plus a greedy parse)")
	f.BoolVar(&o.conf, "confidence", false, "also report the accuracy of each tenth of the words by confidence (parse --confidence)")
	return cmd
}

// String formats the report as a header and the scores table.
func (r *evalReport) String() string {
	var b bytes.Buffer
	fmt.Fprintf(&b, "Gold:        %s\n", r.Gold)
	if r.Prediction != "" {
		fmt.Fprintf(&b, "Prediction:  %s\n", r.Prediction)
	} else {
		name := r.ModelName
		if name == "" {
			name = "unnamed"
		}
		fmt.Fprintf(&b, "Parsed by:   %s (%s, %s)\n", r.Model, name, r.System)
		if r.Accurate {
			fmt.Fprintf(&b, "Accurate:    the beam's and the greedy parser's trees revoted\n")
		}
		if r.Beam > 1 {
			fmt.Fprintf(&b, "Beam:        %d\n", r.Beam)
		}
		switch r.Tags {
		case "gold":
			fmt.Fprintf(&b, "Tags:        gold (LEMMA, UPOS, XPOS, FEATS given from GOLD)\n")
		case "partly gold":
			fmt.Fprintf(&b, "Tags:        partly gold (given from GOLD where it has them, predicted elsewhere)\n")
		case "none in gold":
			fmt.Fprintf(&b, "Tags:        predicted (GOLD has no tags: parsed from word forms only)\n")
		default:
			fmt.Fprintf(&b, "Tags:        predicted (--no-tags: parsed from word forms only)\n")
		}
		if r.Seconds > 0 {
			fmt.Fprintf(&b, "Speed:       %d words in %.2fs (%.0f words/s)\n",
				r.Scores.Words, r.Seconds, float64(r.Scores.Words)/r.Seconds)
		}
	}
	b.WriteString("\n")
	b.WriteString(r.Scores.String())
	if len(r.ConfidenceDeciles) > 0 {
		b.WriteString("\nAccuracy (head and deprel, %) per tenth of the words by confidence, lowest first:\n")
		for i, a := range r.ConfidenceDeciles {
			if i > 0 {
				b.WriteString(" ")
			}
			fmt.Fprintf(&b, "%.1f", a)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// readTreebank reads all sentences of name ("-" for standard input).
func readTreebank(cmd *cobra.Command, name string) ([]*conllu.Sentence, error) {
	if name == "-" {
		return conllu.ReadAll(cmd.InOrStdin(), "<stdin>")
	}
	return conllu.ReadFile(name)
}

func evalFiles(cmd *cobra.Command, goldPath, predPath string) (*evalReport, error) {
	gold, err := readTreebank(cmd, goldPath)
	if err != nil {
		return nil, err
	}
	pred, err := readTreebank(cmd, predPath)
	if err != nil {
		return nil, err
	}
	s, err := eval.Score(gold, pred)
	if err != nil {
		return nil, fmt.Errorf("%s against %s: %w", predPath, goldPath, err)
	}
	return &evalReport{Gold: goldPath, Prediction: predPath, Scores: s}, nil
}

func evalModel(cmd *cobra.Command, goldPath string, o evalOptions) (*evalReport, error) {
	if modelPath, _, err := resolveModel(o.model); err == nil {
		if err := inputGuard(cmd, goldPath, modelPath).Check(o.output); err != nil {
			return nil, err
		}
	}
	m, modelPath, err := loadModel(o.model)
	if err != nil {
		return nil, err
	}
	if o.beam == 0 {
		o.beam = m.DefaultBeam()
	}
	if err := checkBeam(m, o.beam, o.accurate); err != nil {
		return nil, err
	}
	gold, lines, err := readTreebankLines(cmd, goldPath)
	if err != nil {
		return nil, err
	}
	name := goldPath
	if name == "-" {
		name = "<stdin>"
	}
	// GOLD must be annotated to be scored: checked before parsing.
	for k, s := range gold {
		if err := eval.Check(s); err != nil {
			return nil, fmt.Errorf("%s:%d: sentence %s %w", name, lines[k], sentenceID(k, s), err)
		}
	}

	// The parser's input: GOLD without its syntax (and without its tags
	// when asked), parsed sentence by sentence so that errors name the
	// sentence's line in GOLD.
	pred := make([]*conllu.Sentence, len(gold))
	withTags := 0
	var elapsed time.Duration
	var conf [][]float64
	for k, s := range gold {
		c := *s
		c.Words = append([]conllu.Word(nil), s.Words...)
		for i := range c.Words {
			w := &c.Words[i]
			w.Head, w.Deprel, w.Deps = -1, "_", "_"
		}
		if o.noTags {
			c.StripTags()
		}
		if parser.HasMorphology(c.Words) {
			withTags++
		}
		start := time.Now()
		res, err := m.Parse(c.Words, &parser.Options{Beam: o.beam, Confidence: o.conf, Accurate: o.accurate})
		elapsed += time.Since(start)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: sentence %s: %w", name, lines[k], sentenceID(k, s), err)
		}
		if o.conf {
			conf = append(conf, res.Confidence)
		}
		pred[k] = &c
	}
	if o.output != "" {
		if err := outfile.Write(o.output, func(w io.Writer) error { return conllu.WriteAll(w, pred) }); err != nil {
			return nil, err
		}
	}
	s, err := eval.Score(gold, pred)
	if err != nil {
		return nil, fmt.Errorf("the parse of %s does not match it: %w", goldPath, err)
	}
	card := m.Card()
	tags := "gold"
	switch {
	case o.noTags:
		tags = "predicted"
	case withTags == 0:
		tags = "none in gold"
	case withTags < len(gold):
		tags = "partly gold"
	}
	r := &evalReport{
		Gold: goldPath, Model: modelPath, ModelName: card.Name, System: card.System,
		Tags: tags, Seconds: elapsed.Seconds(), Beam: o.beam, Accurate: o.accurate, Scores: s,
	}
	if o.conf {
		if r.ConfidenceDeciles, err = eval.ConfidenceBins(gold, pred, conf, 10); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// readTreebankLines reads all sentences of name ("-" for standard input)
// and the line of each.
func readTreebankLines(cmd *cobra.Command, name string) ([]*conllu.Sentence, []int, error) {
	r, display, closer, err := openInput(cmd, name)
	if err != nil {
		return nil, nil, err
	}
	defer closer()
	rd := conllu.NewReader(r, display)
	var sents []*conllu.Sentence
	var lines []int
	for {
		s, err := rd.Next()
		if err == io.EOF {
			return sents, lines, nil
		}
		if err != nil {
			return nil, nil, err
		}
		sents, lines = append(sents, s), append(lines, rd.SentenceLine())
	}
}

// sentenceID names sentence k (0-based) by its sent_id, or else by its
// number.
func sentenceID(k int, s *conllu.Sentence) string {
	if id := s.SentID(); id != "" {
		return id
	}
	return fmt.Sprint(k + 1)
}
