package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/transparse/transparse/internal/outfile"
	"github.com/transparse/transparse/modelfmt"
	"github.com/transparse/transparse/parser"
)

func newCalibrateCmd() *cobra.Command {
	var model, out string
	var beam int
	cmd := &cobra.Command{
		Use:   "calibrate -m MODEL [--beam K] DEV -o OUT",
		Short: "Fit a model's confidences to annotated data",
		Long: `Calibrate writes a copy of MODEL whose confidences (parse --confidence)
are fitted to DEV, a CoNLL-U treebank with gold heads and deprels: for
each parser of the model (gold tags, plain tokens), a logistic regression
turns the raw confidence of an arc, its deprel and how sure the taggers
were of predicted tags into the probability that the arc is right
(docs/beam-search.md). Training does this on its
development treebank; calibrate redoes it on data of your own domain, or
after "transparse prune". The parsers are fitted greedily and, when K > 1,
at beam width K (default: the model's default width, "transparse
inspect"; a K above 1 needs a model with classifiers trained for the
beam). The parsers' weights and
trees are unchanged. Each parser must get some arcs of DEV right and some
wrong: on data it parses all right (or all wrong) every confidence would
become 1 (or 0), so calibrate refuses it, counting the arcs.

` + modelHelp,
		Example: `  transparse calibrate -m en_ewt.tpm my-dev.conllu -o en_ewt-mine.tpm
  transparse eval -m en_ewt-mine.tpm --confidence my-test.conllu`,
		Args: cobra.ExactArgs(1),
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			if out == "" {
				return usage("-o OUT is required")
			}
			if beam < 0 || beam > parser.MaxBeam {
				return usage("invalid --beam %d: want 1 to %d", beam, parser.MaxBeam)
			}
			if err := checkModelOutput(cmd, out, model, args...); err != nil {
				return err
			}
			m, _, err := loadModel(model)
			if err != nil {
				return err
			}
			if beam == 0 {
				beam = m.DefaultBeam()
			}
			if err := checkBeam(m, beam, false); err != nil {
				return err
			}
			dev, err := readTreebank(cmd, args[0])
			if err != nil {
				return err
			}
			if err := m.Calibrate(dev, beam); err != nil {
				return err
			}
			if err := m.Save(out); err != nil {
				return fmt.Errorf("writing %s: %w", out, err)
			}
			return nil
		}),
	}
	f := cmd.Flags()
	f.StringVarP(&model, "model", "m", "", "the model to calibrate (default: $"+ModelEnv+", else models/en_ewt.tpm, see above)")
	f.StringVarP(&out, "output", "o", "", "write the calibrated model here")
	f.IntVar(&beam, "beam", 0, "also fit the beam's confidences at this width (default: the model's default width)")
	return cmd
}

// checkModelOutput checks, before any work, that a model can be saved at
// out: not over an input (the model, resolved as loadModel does, or one
// of inputs), and where a model file can be written.
func checkModelOutput(cmd *cobra.Command, out, model string, inputs ...string) error {
	if path, _, err := resolveModel(model); err == nil {
		inputs = append(inputs, path)
	}
	if err := inputGuard(cmd, inputs...).Check(out); err != nil {
		return err
	}
	if _, err := modelfmt.ResolveSavePath(out); err != nil {
		return err
	}
	return outfile.CheckWritable(out)
}
