package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"

	"github.com/transparse/transparse/internal/gcpolicy"
	"github.com/transparse/transparse/parser/feature"
	"github.com/transparse/transparse/parser/train"
	"github.com/transparse/transparse/parser/transition"
)

// trainFlags are the flags of `transparse train`: one per JSON name of
// train.Options (underscores as dashes; the template options take files),
// with the defaults of train.DefaultOptions (TestTrainFlagsMatchOptions),
// and --progress.
type trainFlags struct {
	train.Options
	progress                              string
	goldTemplates, plainTemplates         string // files
	goldFastTemplates, plainFastTemplates string // files
}

func newTrainCmd() *cobra.Command {
	o := trainFlags{Options: train.DefaultOptions()}
	d := train.DefaultOptions()
	cmd := &cobra.Command{
		Use:   "train --train T.conllu --dev D.conllu [--test X.conllu] -o MODEL [flags]",
		Short: "Train a tagger and parser on a CoNLL-U treebank",
		Long: `Train trains a UPOS tagger (and an XPOS tagger when the treebank has
XPOS of at most 64 tags; with more, as positional tag sets have, an XPOS
table that gives the XPOS seen with the form, UPOS and FEATS), a lemmatizer and a FEATS tagger (unless --no-morph) and a
transition-based parser on the --train treebank, keeps the epoch that scores best on the --dev treebank, scores the
result on --dev (and on --test when given) with gold tags and from plain
tokens, stores those scores in the model card and saves the model to -o.

Every option, the output path and the three treebanks are checked before
training starts. The flags are the options of tp_train and of Python's
transparse.train (JSON names with dashes for underscores), with the same
defaults and the same checks.

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
			if o.Output == "" {
				return usage("train: output: the path is empty")
			}
			if err := inputGuard(cmd, o.TrainPath, o.DevPath, o.TestPath, o.ClustersPath, o.goldTemplates,
				o.plainTemplates, o.goldFastTemplates, o.plainFastTemplates).Check(o.Output); err != nil {
				return err
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
				opt.Progress = newBars(stderr).report
			}
			gcpolicy.CollectOften()
			m, err := train.Train(opt)
			var oe *train.OptionError
			if errors.As(err, &oe) {
				return usage("%v", err)
			}
			if err != nil {
				return err
			}
			size := ""
			if fi, err := os.Stat(opt.Output); err == nil {
				size = " (" + humanBytes(fi.Size()) + ")"
			}
			_, err = fmt.Fprintf(cmd.OutOrStdout(), "saved model %s to %s%s\n", m.Card().Name, opt.Output, size)
			return err
		}),
	}
	f := cmd.Flags()
	f.StringVar(&o.System, "system", d.System, "transition system")
	f.StringVar(&o.TrainPath, "train", d.TrainPath, "training treebank (CoNLL-U)")
	f.StringVar(&o.DevPath, "dev", d.DevPath, "development treebank (CoNLL-U), for model selection and the card")
	f.StringVar(&o.TestPath, "test", d.TestPath, "test treebank (CoNLL-U), scored once at the end for the card")
	f.StringVar(&o.ClustersPath, "clusters", d.ClustersPath, "word clusters for the taggers (Brown clustering paths file: path<TAB>word[<TAB>count] a line; default: none)")
	f.IntVar(&o.Epochs, "epochs", d.Epochs, "parser training epochs (0: the trainer's default)")
	f.IntVar(&o.TaggerEpochs, "tagger-epochs", d.TaggerEpochs, "tagger training epochs (0: the trainer's default)")
	f.IntVar(&o.TaggerRuns, "tagger-runs", d.TaggerRuns, "perceptrons trained with different sentence orders and averaged into each tagger (0: the trainer's default, 3)")
	f.Float32Var(&o.TaggerMinAbs, "tagger-min-abs", d.TaggerMinAbs, "drop tagger weights smaller than this (0: keep all)")
	f.IntVar(&o.MaxSentences, "max-sentences", d.MaxSentences, "train on the first N sentences only (0: all)")
	f.Int64Var(&o.Seed, "seed", d.Seed, "random seed")
	f.IntVar(&o.Folds, "folds", d.Folds, "jackknife folds that give the plain-token parser predicted training tags (0: the trainer's default; at most one per training sentence)")
	f.Float64Var(&o.Explore, "explore", d.Explore, "with a dynamic oracle, probability of following the model's own prediction (0: the trainer's default; negative: never)")
	f.IntVar(&o.MinUpdates, "min-updates", d.MinUpdates, "drop parser features updated fewer times (0: the trainer's default)")
	f.Float32Var(&o.MinAbs, "min-abs", d.MinAbs, "drop gold-tag parser weights smaller than this (0: the trainer's default)")
	f.Float32Var(&o.PlainMinAbs, "plain-min-abs", d.PlainMinAbs, "drop plain-token parser weights smaller than this (0: the trainer's default)")
	f.IntVar(&o.WeightBits, "weight-bits", d.WeightBits, "bits (sign included, 2..16) of the stored weights of every classifier (0: 12)")
	f.IntVar(&o.PlainRuns, "plain-runs", d.PlainRuns, "plain-token parsers trained with different seeds and averaged into one (0: the trainer's default, 2)")
	f.BoolVar(&o.GoldOnly, "gold-only", d.GoldOnly, "train only the gold-tag parser (no taggers, no plain-token parser): for comparing transition systems")
	f.BoolVar(&o.NoMorph, "no-morph", d.NoMorph, "train no lemmatizer and FEATS tagger: the model leaves LEMMA and FEATS as given")
	f.BoolVar(&o.NoLemmaShape, "no-lemma-shape", d.NoLemmaShape, "train the lemmatizer without its candidates' place and lemma ending features (as before them)")
	f.BoolVar(&o.NoXPOSSpacing, "no-xpos-spacing", d.NoXPOSSpacing, "train the XPOS tagger without reading whether punctuation is spaced in the text (MISC SpaceAfter=No; as before it)")
	f.StringVar(&o.PseudoProjective, "pseudo-projective", d.PseudoProjective, "label encoding of lifted arcs for trees outside the system's class (Nivre & Nilsson 2005): baseline, head, path or head+path (default baseline: lift only)")
	f.StringVar(&o.goldTemplates, "gold-templates", "", "file of feature templates for the gold-tag parser, one per line (default: the system's)")
	f.StringVar(&o.plainTemplates, "plain-templates", "", "file of feature templates for the plain-token parser, one per line (default: the system's)")
	f.StringVar(&o.goldFastTemplates, "gold-fast-templates", "", "file of feature templates of a fast classifier put in front of the gold-tag parser (a cascade; default: none)")
	f.StringVar(&o.plainFastTemplates, "plain-fast-templates", "", "file of feature templates of a fast classifier put in front of the plain-token parser (default: none)")
	f.Float64Var(&o.FastMaxLoss, "fast-max-loss", d.FastMaxLoss, "dev LAS a fast classifier may cost; its margin is tuned to stay within it (0: 0.1)")
	f.Float64Var(&o.PlainFastMaxLoss, "plain-fast-max-loss", d.PlainFastMaxLoss, "dev LAS the plain-token parser's fast classifier may cost (0: --fast-max-loss)")
	f.IntVar(&o.Beam, "beam", d.Beam, "also train classifiers for beam search of this width K, 2 to 64, for both parsers (parse --beam K uses them; 0: none)")
	f.IntVar(&o.BeamEpochs, "beam-epochs", d.BeamEpochs, "epochs of the beam classifier (0: the trainer's default, 10)")
	f.IntVar(&o.BeamRuns, "beam-runs", d.BeamRuns, "beam classifiers trained with different sentence orders and averaged into one (0: the trainer's default, 2)")
	f.IntVar(&o.DefaultBeam, "default-beam", d.DefaultBeam, "the model's default beam width, chosen on dev (0: --beam); parse uses it unless given --beam")
	f.StringVar(&o.Name, "name", d.Name, "model name for the card (default: the output file name without extension)")
	f.StringVarP(&o.Output, "output", "o", d.Output, "where to save the model")
	f.StringVar(&o.progress, "progress", "auto", "progress bars on standard error: auto (when a terminal), always or never")
	for _, name := range []string{"train", "dev", "output"} {
		_ = cmd.MarkFlagRequired(name)
	}
	return cmd
}

// bars draws training progress (train.Progress) as progress bars: one per
// phase and epoch; the gold-tag and plain-token parsers' bars alternate.
type bars struct {
	w    io.Writer
	bar  map[string]*progressbar.ProgressBar
	desc map[string]string
}

func newBars(w io.Writer) *bars {
	return &bars{w: w, bar: map[string]*progressbar.ProgressBar{}, desc: map[string]string{}}
}

// report is a train.Options.Progress (train calls it one call at a time).
func (b *bars) report(p train.Progress) error {
	if p.EpochEnd { // the log line has the scores
		return nil
	}
	desc := p.Phase
	if p.Epochs > 0 {
		desc += fmt.Sprintf(" epoch %d/%d", p.Epoch, p.Epochs)
	}
	bar := b.bar[p.Phase]
	if bar == nil || b.desc[p.Phase] != desc {
		if bar != nil {
			_ = bar.Finish()
		}
		bar = progressbar.NewOptions64(p.Total, progressbar.OptionSetWriter(b.w),
			progressbar.OptionSetDescription(desc), progressbar.OptionThrottle(200*time.Millisecond),
			progressbar.OptionShowCount(), progressbar.OptionClearOnFinish())
		b.bar[p.Phase], b.desc[p.Phase] = bar, desc
	}
	_ = bar.Set64(p.Done)
	if p.Done >= p.Total {
		_ = bar.Finish()
		delete(b.bar, p.Phase)
	}
	return nil
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

// isTerminal reports whether w is a terminal (a character device).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
