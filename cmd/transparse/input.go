package main

import (
	"io"
	"os"

	"github.com/spf13/cobra"
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
