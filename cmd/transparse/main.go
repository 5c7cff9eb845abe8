// Command transparse trains, runs, scores and inspects transparse dependency
// parsing models.
//
// Usage:
//
//	transparse train   --train T.conllu --dev D.conllu -o model.tpm   train a model
//	transparse parse   [-m MODEL] [FILE...]                            parse raw text or CoNLL-U to CoNLL-U
//	transparse tokenize [-m MODEL] [FILE...]                           split raw text into sentences and tokens
//	transparse eval    GOLD PRED | [-m MODEL] GOLD                     score (UAS, LAS, CLAS, ...)
//	transparse calibrate -m MODEL DEV -o OUT                           fit the confidences to DEV
//	transparse inspect [MODEL]                                         print a model card
//	transparse render  (-o DIR | --html FILE) [FILE...]                draw trees as SVG
//	transparse version                                                 print the version
//	transparse --version                                               the same
//
// Run "transparse help COMMAND" for the flags and examples of each command.
//
// Errors are printed to standard error as "transparse: <message>". The exit
// status is 0 on success, 1 when a command fails and 2 for a usage error
// (an unknown command or flag, a missing or invalid argument).
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"

	"github.com/transparse/transparse/modelfmt"
	"github.com/transparse/transparse/parser/train"
)

// version overrides the transparse version when set at link time with
// -ldflags "-X main.version=1.2.3".
var version = ""

// Exit statuses.
const (
	exitOK      = 0
	exitFailure = 1
	exitUsage   = 2
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run executes the command line args and returns the exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root := newRootCmd()
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	cmd, err := root.ExecuteC()
	if err == nil {
		return exitOK
	}
	fmt.Fprintf(stderr, "transparse: %v\n", err)
	var fe *failure
	if errors.As(err, &fe) {
		return exitFailure
	}
	// Everything else comes from cobra's own checks (unknown command or
	// flag, wrong number of arguments, missing required flag) or is a
	// usageError: a usage error.
	if cmd == nil {
		cmd = root
	}
	fmt.Fprintf(stderr, "Run '%s --help' for usage.\n", cmd.CommandPath())
	return exitUsage
}

// failure marks an error of a command that was used correctly but failed;
// it gives exit status 1.
type failure struct{ err error }

func (f *failure) Error() string { return f.err.Error() }
func (f *failure) Unwrap() error { return f.err }

// usageError marks errors returned by a RunE that are usage errors.
type usageError struct{ err error }

func (u *usageError) Error() string { return u.err.Error() }
func (u *usageError) Unwrap() error { return u.err }

// runE adapts a command body: its errors become failures (exit status 1)
// unless they are usage errors, and a panic on the command's goroutine
// becomes a failure that says it is a bug, not a crash.
func runE(f func(cmd *cobra.Command, args []string) error) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, args []string) (err error) {
		defer func() {
			if r := recover(); r != nil {
				err = &failure{fmt.Errorf("internal error (please report this bug): %v\n%s", r, debug.Stack())}
			}
		}()
		err = f(cmd, args)
		if err == nil {
			return nil
		}
		var ue *usageError
		if errors.As(err, &ue) {
			return err
		}
		return &failure{err}
	}
}

// usage returns a usage error (exit status 2) with the given message.
func usage(format string, args ...any) error {
	return &usageError{fmt.Errorf(format, args...)}
}

func newRootCmd() *cobra.Command {
	root := &cobra.Command{
		Use:   "transparse",
		Short: "Transition-based dependency parser",
		Long: `transparse is a transition-based dependency parser for Universal
Dependencies. It trains models on CoNLL-U treebanks, parses raw text, CoNLL-U or
pre-tokenized text to CoNLL-U, and scores parses with the CoNLL 2018 shared
task metrics (UAS, LAS, CLAS, MLAS, BLEX, ...).

Commands that need a model take -m MODEL.
` + modelHelp + `

Output files are written to a temporary file renamed over the target, so
a failed command leaves an old file whole; a command refuses, before any
work, an output that is the same file as one of its inputs (after
symbolic links; hard links too).

Errors are printed as "transparse: <message>". Exit status: 0 on success,
1 when a command fails, 2 for a usage error.`,
		Example: `  transparse parse sentences.txt > parsed.conllu
  transparse eval -m models/en_ewt.tpm en_ewt-ud-test.conllu
  transparse train --train en_ewt-ud-train.conllu --dev en_ewt-ud-dev.conllu -o en_ewt.tpm`,
		SilenceErrors: true,
		SilenceUsage:  true,
	}
	root.CompletionOptions.DisableDefaultCmd = true
	// --version prints what the version command prints.
	root.Version = versionLine()
	root.SetVersionTemplate("{{.Version}}\n")
	root.Flags().Bool("version", false, "print the version (as the version command does)")
	root.AddCommand(newTrainCmd(), newParseCmd(), newEvalCmd(), newCalibrateCmd(), newInspectCmd(), newVersionCmd(), newStatsCmd(), newPruneCmd(),
		newGenManCmd(), newRenderCmd(), newTokenizeCmd())
	return root
}

// versionString returns the version of this build: the one set at link
// time, else the version the trainer records in model cards.
func versionString() string {
	if version != "" {
		return version
	}
	return train.Version
}

func newVersionCmd() *cobra.Command {
	return &cobra.Command{
		Use:     "version",
		Short:   "Print the transparse version",
		Long:    "Version prints the version of transparse, the newest model file format version it reads, and the Go version and platform it was built for.",
		Example: "  transparse version",
		Args:    cobra.NoArgs,
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			_, err := fmt.Fprintln(cmd.OutOrStdout(), versionLine())
			return err
		}),
	}
}

// versionLine is the output of "transparse version" and "transparse
// --version", without the newline.
func versionLine() string {
	return fmt.Sprintf("transparse %s (model format %d, %s, %s/%s)",
		versionString(), modelfmt.FormatVersion, runtime.Version(), runtime.GOOS, runtime.GOARCH)
}
