package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/transparse/transparse/parser/feature"
	"github.com/transparse/transparse/parser/train"
	"github.com/transparse/transparse/parser/transition"
)

type trainOptions struct {
	train.Options
	output                                string
	progress                              string
	goldTemplates, plainTemplates         string // files
	goldFastTemplates, plainFastTemplates string // files
}

func newTrainCmd() *cobra.Command {
	var o trainOptions
	cmd := &cobra.Command{
		Use:   "train --train T.conllu --dev D.conllu [--test X.conllu] -o MODEL [flags]",
		Short: "Train a tagger and parser on a CoNLL-U treebank",
		Long: `Train trains a UPOS tagger (and an XPOS tagger when the treebank has
XPOS) and a transition-based parser on the --train treebank, keeps the epoch that scores best on the --dev treebank, scores the
result on --dev (and on --test when given) with gold tags and from plain
tokens, stores those scores in the model card and saves the model to -o.

Progress bars go to standard error when it is a terminal (see --progress);
one line of development scores per epoch always goes to standard error. The
path of the saved model is printed on standard output.

--system names the transition system; available: ` + strings.Join(transition.Names(), ", ") + `.`,
		Example: `  # Train the English model:
  transparse train --system arc-eager \
      --train en_ewt-ud-train.conllu --dev en_ewt-ud-dev.conllu \
      --test en_ewt-ud-test.conllu --name en_ewt -o models/en_ewt.tpm

  # A quick smoke test on the first 200 sentences:
  transparse train --train train.conllu --dev dev.conllu \
      --max-sentences 200 --epochs 2 --tagger-epochs 1 -o /tmp/small.tpm`,
		Args: cobra.NoArgs,
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			switch o.progress {
			case "auto", "always", "never":
			default:
				return usage("invalid --progress %q: want auto, always or never", o.progress)
			}
			if o.Epochs < 0 || o.TaggerEpochs < 0 || o.MaxSentences < 0 || o.Folds < 0 || o.Folds == 1 {
				return usage("--epochs, --tagger-epochs, --max-sentences and --folds cannot be negative, and --folds cannot be 1")
			}
			if o.Explore > 1 {
				return usage("--explore is a probability: at most 1")
			}
			// Fail now rather than after hours of training.
			for _, p := range []string{o.TrainPath, o.DevPath, o.TestPath} {
				if p == "" {
					continue
				}
				if _, err := os.Stat(p); err != nil {
					return err
				}
			}
			if dir := filepath.Dir(o.output); dir != "" {
				if fi, err := os.Stat(dir); err != nil {
					return fmt.Errorf("output directory: %w", err)
				} else if !fi.IsDir() {
					return fmt.Errorf("output directory %s is not a directory", dir)
				}
			}

			for _, f := range []struct {
				list *[]string
				path string
			}{{&o.GoldTemplates, o.goldTemplates}, {&o.PlainTemplates, o.plainTemplates},
				{&o.GoldFastTemplates, o.goldFastTemplates}, {&o.PlainFastTemplates, o.plainFastTemplates}} {
				var err error
				if *f.list, err = readTemplates(f.path); err != nil {
					return err
				}
			}
			stderr := cmd.ErrOrStderr()
			opt := o.Options
			opt.Log = stderr
			if o.progress == "always" || (o.progress == "auto" && isTerminal(stderr)) {
				opt.Progress = stderr
			}
			if opt.Name == "" {
				opt.Name = modelNameFromPath(o.output)
			}
			m, err := train.Train(opt)
			if err != nil {
				return fmt.Errorf("training: %w", err)
			}
			if err := m.Save(o.output); err != nil {
				return fmt.Errorf("saving the model: %w", err)
			}
			size := ""
			if fi, err := os.Stat(o.output); err == nil {
				size = " (" + humanBytes(fi.Size()) + ")"
			}
			_, err = fmt.Fprintf(cmd.OutOrStdout(), "saved model %s to %s%s\n", opt.Name, o.output, size)
			return err
		}),
	}
	f := cmd.Flags()
	f.StringVar(&o.System, "system", "arc-eager", "transition system")
	f.StringVar(&o.TrainPath, "train", "", "training treebank (CoNLL-U)")
	f.StringVar(&o.DevPath, "dev", "", "development treebank (CoNLL-U), for model selection and the card")
	f.StringVar(&o.TestPath, "test", "", "test treebank (CoNLL-U), scored once at the end for the card")
	f.IntVar(&o.Epochs, "epochs", 0, "parser training epochs (0: the trainer's default)")
	f.IntVar(&o.TaggerEpochs, "tagger-epochs", 0, "tagger training epochs (0: the trainer's default)")
	f.IntVar(&o.MaxSentences, "max-sentences", 0, "train on the first N sentences only (0: all)")
	f.Int64Var(&o.Seed, "seed", 1, "random seed")
	f.IntVar(&o.Folds, "folds", 0, "jackknife folds that give the plain-token parser predicted training tags (0: the trainer's default)")
	f.Float64Var(&o.Explore, "explore", 0, "with a dynamic oracle, probability of following the model's own prediction (0: the trainer's default; negative: never)")
	f.IntVar(&o.MinUpdates, "min-updates", 0, "drop parser features updated fewer times (0: the trainer's default)")
	f.Float32Var(&o.MinAbs, "min-abs", 0, "drop gold-tag parser weights smaller than this (0: the trainer's default)")
	f.Float32Var(&o.PlainMinAbs, "plain-min-abs", 0, "drop plain-token parser weights smaller than this (0: the trainer's default)")
	f.IntVar(&o.WeightBits, "weight-bits", 0, "bits (sign included, 2..16) of the stored parser weights (0: 12)")
	f.IntVar(&o.PlainRuns, "plain-runs", 0, "plain-token parsers trained with different seeds and averaged into one (0: the trainer's default, 2)")
	f.BoolVar(&o.GoldOnly, "gold-only", false, "train only the gold-tag parser (no taggers, no plain-token parser): for comparing transition systems")
	f.StringVar(&o.PseudoProjective, "pseudo-projective", "", "label encoding of lifted arcs for trees outside the system's class (Nivre & Nilsson 2005): baseline, head, path or head+path (default baseline: lift only)")
	f.StringVar(&o.goldTemplates, "gold-templates", "", "file of feature templates for the gold-tag parser, one per line (default: the system's)")
	f.StringVar(&o.plainTemplates, "plain-templates", "", "file of feature templates for the plain-token parser, one per line (default: the system's)")
	f.StringVar(&o.goldFastTemplates, "gold-fast-templates", "", "file of feature templates of a fast classifier put in front of the gold-tag parser (a cascade; default: none)")
	f.StringVar(&o.plainFastTemplates, "plain-fast-templates", "", "file of feature templates of a fast classifier put in front of the plain-token parser (default: none)")
	f.Float64Var(&o.FastMaxLoss, "fast-max-loss", 0, "dev LAS a fast classifier may cost; its margin is tuned to stay within it (0: 0.1)")
	f.StringVar(&o.Name, "name", "", "model name for the card (default: the output file name without extension)")
	f.StringVarP(&o.output, "output", "o", "", "where to save the model")
	f.StringVar(&o.progress, "progress", "auto", "progress bars on standard error: auto (when a terminal), always or never")
	for _, name := range []string{"train", "dev", "output"} {
		_ = cmd.MarkFlagRequired(name)
	}
	return cmd
}

// readTemplates reads a file of feature templates (parser/feature syntax):
// one per line, blank lines and lines starting with # ignored. An empty
// path gives nil (the trainer's default templates).
func readTemplates(path string) ([]string, error) {
	if path == "" {
		return nil, nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("templates: %w", err)
	}
	var out []string
	for i, line := range strings.Split(string(data), "\n") {
		t := strings.TrimSpace(line)
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		if _, err := feature.New([]string{t}); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, i+1, err)
		}
		out = append(out, t)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no templates", path)
	}
	return out, nil
}

// modelNameFromPath returns the base name of path without its extension.
func modelNameFromPath(path string) string {
	base := filepath.Base(path)
	return base[:len(base)-len(filepath.Ext(base))]
}

// isTerminal reports whether w is a terminal (a character device).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
