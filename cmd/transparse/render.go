package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/transparse/transparse/internal/outfile"
	"github.com/transparse/transparse/parser/conllu"
	"github.com/transparse/transparse/render"
)

type renderOptions struct {
	outDir string
	html   string
}

func newRenderCmd() *cobra.Command {
	var o renderOptions
	cmd := &cobra.Command{
		Use:   "render (-o DIR | --html FILE) [FILE...]",
		Short: "Draw the trees of CoNLL-U sentences as SVG pictures",
		Long: `Render reads CoNLL-U from each FILE in turn, or from standard input when no
FILE is given or FILE is "-", and draws each sentence's dependency tree: the
words left to right with their UPOS under them, and above them one arc per
dependency from the head to the dependent, labelled with its DEPREL.

With -o DIR each sentence becomes one SVG file in DIR (created if needed),
named by its number in the input: 0001.svg, 0002.svg, ... With --html FILE
all of them go into one HTML page, each with its sent_id and text as
caption ("-" writes the page to standard output).

The pictures are drawn from HEAD, DEPREL and UPOS as they are in the input:
parse first to draw a parser's trees. A sentence of more than 1000 words
is an error: placing its arcs takes time that grows with the square of
its length, and so wide a picture cannot be read.`,
		Example: `  # One SVG file per sentence:
  transparse render -o trees/ en_ewt-ud-dev.conllu

  # Parse text and look at the trees in a browser:
  echo "The cat sat on the mat ." | transparse parse | transparse render --html trees.html -`,
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			if (o.outDir == "") == (o.html == "") {
				return usage("give one of -o DIR (one SVG file per sentence) or --html FILE (one page)")
			}
			if len(args) == 0 {
				args = []string{"-"}
			}
			return renderFiles(cmd, o, args)
		}),
	}
	f := cmd.Flags()
	f.StringVarP(&o.outDir, "out", "o", "", "directory to write one SVG file per sentence to")
	f.StringVar(&o.html, "html", "", `write one HTML page of all the pictures to this file ("-": standard output)`)
	return cmd
}

func renderFiles(cmd *cobra.Command, o renderOptions, args []string) error {
	guard := inputGuard(cmd, args...)
	if o.html == "" {
		if err := os.MkdirAll(o.outDir, 0o755); err != nil {
			return err
		}
		n := 0
		return renderAll(cmd, args, func(s *conllu.Sentence) error {
			n++
			path := filepath.Join(o.outDir, fmt.Sprintf("%04d.svg", n))
			if err := guard.CheckEntry(path); err != nil {
				return err
			}
			// A symbolic link left in the directory is replaced, not
			// written through.
			return outfile.Replace(path, func(w io.Writer) error { return render.SVG(w, s) })
		})
	}
	if err := guard.Check(o.html); err != nil {
		return err
	}
	page := func(w io.Writer) error {
		p, err := render.NewHTMLPage(w, "transparse trees")
		if err != nil {
			return err
		}
		if err := renderAll(cmd, args, p.Add); err != nil {
			return err
		}
		return p.Close()
	}
	if o.html == "-" {
		bw := bufio.NewWriter(cmd.OutOrStdout())
		if err := page(bw); err != nil {
			return err
		}
		return bw.Flush()
	}
	return outfile.Write(o.html, page)
}

// renderAll calls each for every sentence of the inputs, and fails when
// there is none.
func renderAll(cmd *cobra.Command, args []string, each func(*conllu.Sentence) error) error {
	n := 0
	for _, name := range args {
		if err := renderFile(cmd, name, func(s *conllu.Sentence) error { n++; return each(s) }); err != nil {
			return err
		}
	}
	if n == 0 {
		return errors.New("the input has no sentences")
	}
	return nil
}

// renderFile calls each for every sentence of the CoNLL-U input name ("-"
// for standard input).
func renderFile(cmd *cobra.Command, name string, each func(*conllu.Sentence) error) error {
	r, display, closeInput, err := openInput(cmd, name)
	if err != nil {
		return err
	}
	defer closeInput()
	cr := conllu.NewReader(r, display)
	for {
		s, err := cr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if err := each(s); err != nil {
			return fmt.Errorf("%s:%d: %w", display, cr.SentenceLine(), err)
		}
	}
}
