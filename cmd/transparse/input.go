package main

import (
	"io"
	"os"
	"slices"

	"github.com/spf13/cobra"

	"github.com/transparse/transparse/internal/outfile"
)

// openInput opens the input file called name, or the command's standard
// input for "-". It returns the reader, the name to show in messages
// ("<stdin>" for standard input) and a function that closes the file.
func openInput(cmd *cobra.Command, name string) (io.Reader, string, func(), error) {
	if name == "-" {
		return cmd.InOrStdin(), "<stdin>", func() {}, nil
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, "", nil, err
	}
	return f, name, func() { f.Close() }, nil
}

// inputGuard returns a guard of the command's inputs (outfile.Guard): the
// files named, and for "-" standard input when it is a file.
func inputGuard(cmd *cobra.Command, names ...string) *outfile.Guard {
	g := &outfile.Guard{}
	g.Add(names...)
	if f, ok := cmd.InOrStdin().(*os.File); ok && slices.Contains(names, "-") {
		g.AddFile("<stdin>", f)
	}
	return g
}
