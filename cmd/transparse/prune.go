package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/transparse/transparse/modelfmt"
	"github.com/transparse/transparse/parser"
	"github.com/transparse/transparse/parser/linear"
)

func newPruneCmd() *cobra.Command {
	var out string
	var gold, plain, tagger float32
	var levels, weightBits int
	cmd := &cobra.Command{
		Use:   "prune [flags] MODEL -o OUT",
		Short: "Drop small weights from a model: smaller file, faster parsing",
		Long: `Prune writes a copy of MODEL without the weights whose absolute value is
below the given thresholds (per classifier: the gold-tag parser, the
plain-token parser, the taggers; a parser's fast classifier and its
classifier trained for the beam go with it), and without the features
left with no weight. Fewer features make the file smaller and the scoring tables fit
better in the processor's caches, at some cost in accuracy: measure it on
dev with "transparse eval". --weight-bits rounds the weights of every
classifier to that many bits (the trainers store 12; older models 16):
the file shrinks by about one bit per weight per bit dropped. --levels
rounds them to a codebook of that many values instead.
The thresholds are recorded in the model card; the card's scores are those
of the unpruned model.`,
		Example: `  transparse prune --weight-bits 12 old.tpm -o smaller.tpm
  transparse prune --gold-min-abs 3 --plain-min-abs 1 models/en_ewt.tpm -o small.tpm
  transparse eval -m small.tpm ../shared/data/ud/en_ewt-ud-dev.conllu`,
		Args: cobra.ExactArgs(1),
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			if out == "" {
				return usage("-o OUT is required")
			}
			if err := checkPrune(cmd, args[0], out, gold, plain, tagger); err != nil {
				return err
			}
			doc, err := modelfmt.ReadFile(args[0])
			if err != nil {
				return err
			}
			var notes []string
			for i := range doc.Classifiers {
				c := &doc.Classifiers[i]
				t := tagger
				switch name := parserOf(c.Name); {
				case name == "parser.gold":
					t = gold
				case name == "parser.plain":
					t = plain
				case !strings.HasPrefix(c.Name, "tagger."):
					continue
				}
				if t > 0 {
					before := c.Params["entries"]
					p, err := linear.Prune(c, t)
					if err != nil {
						return fmt.Errorf("%s: %w", c.Name, err)
					}
					*c = *p
					notes = append(notes, fmt.Sprintf("%s min_abs %g: %d of %d weights kept", c.Name, t, p.Params["entries"], before))
				}
				if weightBits > 0 {
					p, err := linear.RoundWeights(c, weightBits)
					if err != nil {
						return fmt.Errorf("%s: %w", c.Name, err)
					}
					*c = *p
					notes = append(notes, fmt.Sprintf("%s: weights rounded to %d bits", c.Name, weightBits))
				}
				if levels > 0 {
					p, err := linear.Requantize(c, levels)
					if err != nil {
						return fmt.Errorf("%s: %w", c.Name, err)
					}
					*c = *p
					notes = append(notes, fmt.Sprintf("%s: weights rounded to %d levels", c.Name, len(p.Blobs["codebook"])/2))
				}
			}
			if doc.Card.Options == nil {
				doc.Card.Options = map[string]string{}
			}
			doc.Card.Options["pruned"] = strings.Join(notes, "; ")
			if err := modelfmt.WriteFile(out, doc); err != nil {
				return err
			}
			if _, err := parser.Load(out); err != nil {
				os.Remove(out)
				return fmt.Errorf("pruned model does not load: %w", err)
			}
			for _, n := range notes {
				fmt.Fprintln(cmd.ErrOrStderr(), n)
			}
			return nil
		}),
	}
	f := cmd.Flags()
	f.StringVarP(&out, "output", "o", "", "write the pruned model here")
	f.Float32Var(&gold, "gold-min-abs", 0, "drop gold-tag parser weights smaller than this (0: keep)")
	f.Float32Var(&plain, "plain-min-abs", 0, "drop plain-token parser weights smaller than this (0: keep)")
	f.Float32Var(&tagger, "tagger-min-abs", 0, "drop tagger weights smaller than this (0: keep)")
	f.IntVar(&weightBits, "weight-bits", 0, "round every classifier's weights to this many bits, sign included (2..16; 0: keep)")
	f.IntVar(&levels, "levels", 0, "round every classifier's weights to this many values (2..256: one byte per weight; 0: keep)")
	return cmd
}

// parserOf is the parser a classifier belongs to: a parser's fast
// classifier (its name + ".fast") and its classifier trained for the beam
// (+ ".beam") are pruned as it is.
func parserOf(name string) string {
	for _, suffix := range []string{".fast", ".beam"} {
		if p, ok := strings.CutSuffix(name, suffix); ok {
			return p
		}
	}
	return name
}

// checkPrune checks, before any work, the thresholds of the flags
// --gold-min-abs, --plain-min-abs and --tagger-min-abs (a usage error),
// and that the output out is not the input model.
func checkPrune(cmd *cobra.Command, model, out string, gold, plain, tagger float32) error {
	for _, f := range []struct {
		name string
		v    float32
	}{{"gold-min-abs", gold}, {"plain-min-abs", plain}, {"tagger-min-abs", tagger}} {
		if err := linear.CheckMinAbs(f.v); err != nil {
			return usage("--%s: %v", f.name, err)
		}
	}
	return inputGuard(cmd, model).Check(out)
}
