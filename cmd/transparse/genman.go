package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"
)

// newGenManCmd is the hidden command that writes the manual pages of the
// command tree (section 1: transparse.1 and one transparse-COMMAND.1 per
// command) into a directory; `./build.sh install` and the Debian build run
// it. The pages' date is $SOURCE_DATE_EPOCH when set (reproducible builds),
// else today.
func newGenManCmd() *cobra.Command {
	return &cobra.Command{
		Use:    "gen-man DIR",
		Short:  "Write the manual pages of transparse into DIR",
		Hidden: true,
		Args:   cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := os.MkdirAll(args[0], 0o755); err != nil {
				return &failure{err}
			}
			header := &doc.GenManHeader{
				Title:   "TRANSPARSE",
				Section: "1",
				Source:  "transparse " + versionString(),
				Manual:  "transparse manual",
			}
			root := cmd.Root()
			root.DisableAutoGenTag = true
			markdownLong(root)
			if err := doc.GenManTree(root, header, args[0]); err != nil {
				return &failure{fmt.Errorf("writing manual pages: %w", err)}
			}
			return nil
		},
	}
}

// markdownLong escapes, in the long help of c and its subcommands, what
// the man page generator would read as Markdown markup rather than text
// (an HTML tag such as <message> would vanish).
func markdownLong(c *cobra.Command) {
	c.Long = strings.NewReplacer("<", `\<`, ">", `\>`).Replace(c.Long)
	for _, sub := range c.Commands() {
		markdownLong(sub)
	}
}
