package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/transparse/transparse/internal/gcpolicy"
	"github.com/transparse/transparse/parser/feature"
	"github.com/transparse/transparse/parser/train"
	"github.com/transparse/transparse/parser/transition"
)

// trainFlags are the flags of `transparse train`: --options, a JSON file
// of train.Options (the options object of tp_train), the most used options
// as flags on top of it (each names its option), and --progress.
type trainFlags struct {
	train.Options
	progress, options                     string
	goldTemplates, plainTemplates         string // files
	goldFastTemplates, plainFastTemplates string // files
}

const trainLong = `Train trains a UPOS tagger (and an XPOS tagger when the treebank has
XPOS of at most 64 tags; with more, as positional tag sets have, an XPOS
table that gives the XPOS seen with the form, UPOS and FEATS), a
lemmatizer and a FEATS tagger (unless --no-morph) and two
transition-based parsers (one for sentences given with their tags, one
for plain tokens) on the --train treebank, keeps the epochs that score
best on the --dev treebank, scores the result on --dev (and on --test
when given) with gold tags and from plain tokens, stores those scores and
the options in the model card and saves the model to -o.

The options are those of tp_train and of Python's transparse.train, with
the same defaults and the same checks: --options reads them from a JSON
file (the object tp_train takes, groups as nested objects, e.g.
{"plain": {"runs": 3}, "taggers": {"drop_weights_below": 0.5}}), and
the flags set the most used ones, named in brackets, over the file's.
Every option, the output path and the three treebanks are checked before
training starts.

Progress bars go to standard error when it is a terminal (see --progress);
one line of development scores per epoch and the saved model's name and
size always go to standard error. The path of the saved model is printed
on standard output.

--system names the transition system; available: `

func newTrainCmd() *cobra.Command {
	o := &trainFlags{Options: train.DefaultOptions()}
	cmd := &cobra.Command{
		Use:   "train --train T.conllu --dev D.conllu [--test X.conllu] -o MODEL [flags]",
		Short: "Train a tagger and parser on a CoNLL-U treebank",
		Long:  trainLong + strings.Join(transition.Names(), ", ") + ".",
		Example: `  # Train a model of English, scored on the test treebank too:
  transparse train --train en_ewt-ud-train.conllu --dev en_ewt-ud-dev.conllu --test en_ewt-ud-test.conllu -o en_ewt.tpm

  # A quick smoke test on the first 200 sentences:
  transparse train --max-sentences 200 --epochs 2 --tagger-epochs 1 --train train.conllu --dev dev.conllu -o /tmp/small.tpm

  # Options beyond the flags, from a file (models/README.md has the bundled model's):
  transparse train --options options.json --train train.conllu --dev dev.conllu -o m.tpm`,
		Args: cobra.NoArgs,
		RunE: runE(func(cmd *cobra.Command, args []string) error { return o.run(cmd) }),
	}
	o.addFlags(cmd)
	return cmd
}

// addFlags adds the flags of o to cmd.
func (o *trainFlags) addFlags(cmd *cobra.Command) {
	d, f := train.DefaultOptions(), cmd.Flags()
	f.StringVar(&o.options, "options", "", "JSON file of training options (tp_train's object); the other flags override it")
	f.StringVar(&o.System, "system", d.System, "transition system [system]")
	f.StringVar(&o.TrainPath, "train", d.TrainPath, "training treebank (CoNLL-U) [train]")
	f.StringVar(&o.DevPath, "dev", d.DevPath, "development treebank (CoNLL-U), for model selection and the card [dev]")
	f.StringVar(&o.TestPath, "test", d.TestPath, "test treebank (CoNLL-U), scored once at the end for the card [test]")
	f.StringVarP(&o.Output, "output", "o", d.Output, "where to save the model [output]")
	f.StringVar(&o.Name, "name", d.Name, "model name for the card (default: the output file name without extension) [name]")
	f.StringVar(&o.ClustersPath, "clusters", d.ClustersPath, "word clusters, read by the taggers and by parser templates over them, c, c4 and c6 (Brown clustering paths file: path<TAB>word[<TAB>count] a line; default: none) [clusters]")
	f.IntVar(&o.MaxSentences, "max-sentences", d.MaxSentences, "train on the first N sentences only (0: all) [max_sentences]")
	f.Int64Var(&o.Seed, "seed", d.Seed, "random seed [seed]")
	f.Var(bothInts{&o.Gold.Epochs, &o.Plain.Epochs}, "epochs", "training epochs of both parsers (0: the trainer's default, 15) [gold.epochs, plain.epochs]")
	f.IntVar(&o.Taggers.Epochs, "tagger-epochs", d.Taggers.Epochs, "training epochs of the taggers (0: the trainer's default, 12) [taggers.epochs]")
	f.BoolVar(&o.GoldOnly, "gold-only", d.GoldOnly, "train only the gold-tag parser (no taggers, no plain-token parser): for comparing transition systems [gold_only]")
	f.BoolVar(&o.Morph.Skip, "no-morph", d.Morph.Skip, "train no lemmatizer and FEATS tagger: the model leaves LEMMA and FEATS as given [morph.skip]")
	f.BoolVar(&o.Segment.Skip, "no-segmenter", d.Segment.Skip, "train no segmenter: the model then parses CoNLL-U and pre-tokenized text only, not raw text [segment.skip]")
	f.StringVar(&o.PseudoProjective, "pseudo-projective", d.PseudoProjective, "label encoding of lifted arcs for trees outside the system's class (Nivre & Nilsson 2005): baseline, head, path or head+path (default baseline: lift only) [pseudo_projective]")
	f.StringVar(&o.goldTemplates, "gold-templates", "", "file of feature templates for the gold-tag parser, one per line (default: the system's) [gold.templates]")
	f.StringVar(&o.plainTemplates, "plain-templates", "", "file of feature templates for the plain-token parser, one per line (default: the system's) [plain.templates]")
	f.StringVar(&o.goldFastTemplates, "gold-fast-templates", "", "file of feature templates of a fast classifier put in front of the gold-tag parser (default: none) [gold.fast_templates]")
	f.StringVar(&o.plainFastTemplates, "plain-fast-templates", "", "file of feature templates of a fast classifier put in front of the plain-token parser (default: none) [plain.fast_templates]")
	f.IntVar(&o.Beam.Width, "beam", d.Beam.Width, "also train classifiers for beam search of this width K, 2 to 64, for both parsers (parse --beam K uses them; 0: none) [beam.width]")
	f.IntVar(&o.Beam.DefaultWidth, "default-beam", d.Beam.DefaultWidth, "the model's default beam width, chosen on dev (0: --beam); parse uses it unless given --beam [beam.default_width]")
	f.StringVar(&o.progress, "progress", "auto", "progress bars on standard error: auto (when a terminal), always or never")
}

// bothInts is a flag that sets two ints to its value.
type bothInts [2]*int

func (b bothInts) String() string {
	if b[0] == nil {
		return "0"
	}
	return strconv.Itoa(*b[0])
}

func (b bothInts) Set(s string) error {
	v, err := strconv.Atoi(s)
	if err != nil {
		return errors.New("want an integer")
	}
	*b[0], *b[1] = v, v
	return nil
}

func (bothInts) Type() string { return "int" }

// run trains the model of o's options (cmd's flags over the --options
// file), prints its path on standard output and its name and size on
// standard error.
func (o *trainFlags) run(cmd *cobra.Command) error {
	switch o.progress {
	case "auto", "always", "never":
	default:
		return usage("invalid --progress %q: want auto, always or never", o.progress)
	}
	if err := o.readOptions(cmd.Flags()); err != nil {
		return err
	}
	if o.Output == "" {
		return usage("train: output: the path is empty")
	}
	if err := inputGuard(cmd, o.options, o.TrainPath, o.DevPath, o.TestPath, o.ClustersPath, o.goldTemplates,
		o.plainTemplates, o.goldFastTemplates, o.plainFastTemplates).Check(o.Output); err != nil {
		return err
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
	fmt.Fprintf(stderr, "saved model %s to %s%s\n", m.Card().Name, opt.Output, size)
	_, err = fmt.Fprintln(cmd.OutOrStdout(), opt.Output)
	return err
}

// readOptions reads the --options file into o.Options, the flags given on
// the command line over it, and the template files.
func (o *trainFlags) readOptions(flags *pflag.FlagSet) error {
	if o.options != "" {
		given := map[*pflag.Flag]string{}
		flags.Visit(func(f *pflag.Flag) { given[f] = f.Value.String() })
		data, err := os.ReadFile(o.options)
		if err != nil {
			return fmt.Errorf("options: %w", err)
		}
		opt := train.DefaultOptions()
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&opt); err != nil {
			return usage("%s: %v", o.options, err)
		}
		o.Options = opt
		for f, v := range given {
			if err := f.Value.Set(v); err != nil {
				return err
			}
		}
	}
	for _, f := range []struct {
		list *[]string
		path string
	}{{&o.Gold.Templates, o.goldTemplates}, {&o.Plain.Templates, o.plainTemplates},
		{&o.Gold.FastTemplates, o.goldFastTemplates}, {&o.Plain.FastTemplates, o.plainFastTemplates}} {
		if f.path == "" {
			continue
		}
		var err error
		if *f.list, err = readTemplates(f.path); err != nil {
			return err
		}
	}
	return nil
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
// one per line, blank lines and lines starting with # ignored.
func readTemplates(path string) ([]string, error) {
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
