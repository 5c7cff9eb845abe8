package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
	"unicode"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/transparse/transparse/parser"
	"github.com/transparse/transparse/parser/eval"
)

// inspectReport is what inspect prints.
type inspectReport struct {
	Path      string             `json:"path"`
	FileBytes int64              `json:"file_bytes"`
	Name      string             `json:"name"`
	Treebank  string             `json:"treebank"`
	System    string             `json:"system"`
	Options   map[string]string  `json:"options"`
	TrainedAt string             `json:"trained_at"`
	Version   string             `json:"version"`
	Scores    map[string]float64 `json:"scores"`
	Notes     string             `json:"notes,omitempty"`
	// DefaultBeam is the beam width parse uses without --beam
	// (parser.Model.DefaultBeam).
	DefaultBeam int      `json:"default_beam"`
	Deprels     []string `json:"deprels"`
	UPOSTags    []string `json:"upos_tags"`
	// XPOSTags are the tags of the model's XPOS tagger or XPOS table
	// (parser.Model.XPOSTags), empty when it has neither.
	XPOSTags []string `json:"xpos_tags"`
}

func newInspectCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "inspect [flags] [MODEL]",
		Short: "Print a model's card: training data, options, scores",
		Long: `Inspect prints the model card stored in a model file: its name, the
treebank and transition system it was trained with, the training options,
when and by which transparse version it was trained, and its scores on the
development and test sets (with gold or predicted tags); then the size of
the file and of its label and tag sets (XPOS: those of its XPOS tagger, or
of its XPOS table, card option xpos_table), and the default beam width: the
width "transparse parse" uses without --beam, K for a model trained with
"transparse train --beam K" and 1 (the greedy parser) for others.

Without MODEL it inspects the default model: $` + ModelEnv + `, or else the
first models/en_ewt.tpm found beside the executable (in its directory, in
../share/transparse, in its parent), then ./models/en_ewt.tpm of the
current directory.`,
		Example: `  transparse inspect models/en_ewt.tpm
  transparse inspect --json models/en_ewt.tpm | jq .scores`,
		Args: cobra.MaximumNArgs(1),
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			flag := ""
			if len(args) == 1 {
				flag = args[0]
			}
			m, path, err := loadModel(flag)
			if err != nil {
				return err
			}
			rep := newInspectReport(m, path)
			out := cmd.OutOrStdout()
			if asJSON {
				enc := json.NewEncoder(out)
				enc.SetIndent("", "  ")
				return enc.Encode(rep)
			}
			_, err = io.WriteString(out, rep.String())
			return err
		}),
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the card as JSON")
	return cmd
}

func newInspectReport(m *parser.Model, path string) *inspectReport {
	c := m.Card()
	r := &inspectReport{
		Path: path, FileBytes: -1,
		Name: c.Name, Treebank: c.Treebank, System: c.System, Options: c.Options,
		TrainedAt: c.TrainedAt, Version: c.Version, Scores: c.Scores, Notes: c.Notes,
		Deprels: m.Deprels(), UPOSTags: m.UPOSTags(), XPOSTags: m.XPOSTags(), DefaultBeam: m.DefaultBeam(),
	}
	if fi, err := os.Stat(path); err == nil {
		r.FileBytes = fi.Size()
	}
	if r.Options == nil {
		r.Options = map[string]string{}
	}
	if r.Scores == nil {
		r.Scores = map[string]float64{}
	}
	if r.Deprels == nil {
		r.Deprels = []string{}
	}
	if r.UPOSTags == nil {
		r.UPOSTags = []string{}
	}
	if r.XPOSTags == nil {
		r.XPOSTags = []string{}
	}
	return r
}

// escaped returns s with its control characters (a terminal would act
// on them) and bytes that are not UTF-8 written as Go escapes (\x1b,
// \u009b, \xff): the card is data from the model file.
func escaped(s string) string { return escapedKeep(s, "") }

// escapedKeep is escaped, keeping the characters of keep as they are.
func escapedKeep(s, keep string) string {
	var b strings.Builder
	for i, w := 0, 0; i < len(s); i += w {
		r, n := utf8.DecodeRuneInString(s[i:])
		w = n
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, "\\x%02x", s[i])
		case unicode.IsControl(r) && !strings.ContainsRune(keep, r):
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteString(s[i : i+n])
		}
	}
	return b.String()
}

func orNone(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// String formats the report for people.
func (r *inspectReport) String() string {
	var b bytes.Buffer
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "Model file:\t%s (%s)\n", r.Path, humanBytes(r.FileBytes))
	fmt.Fprintf(tw, "Name:\t%s\n", orNone(escaped(r.Name)))
	fmt.Fprintf(tw, "Treebank:\t%s\n", orNone(escaped(r.Treebank)))
	fmt.Fprintf(tw, "System:\t%s\n", orNone(escaped(r.System)))
	fmt.Fprintf(tw, "Trained at:\t%s\n", orNone(escaped(r.TrainedAt)))
	fmt.Fprintf(tw, "Version:\t%s\n", orNone(escaped(r.Version)))
	fmt.Fprintf(tw, "Deprels:\t%d\n", len(r.Deprels))
	fmt.Fprintf(tw, "UPOS tags:\t%d\n", len(r.UPOSTags))
	fmt.Fprintf(tw, "XPOS tags:\t%d\n", len(r.XPOSTags))
	fmt.Fprintf(tw, "Default beam:\t%d\n", r.DefaultBeam)
	if len(r.Options) == 0 {
		fmt.Fprintf(tw, "Options:\t-\n")
	} else {
		keys := make([]string, 0, len(r.Options))
		for k := range r.Options {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for i, k := range keys {
			label := ""
			if i == 0 {
				label = "Options:"
			}
			fmt.Fprintf(tw, "%s\t%s = %s\n", label, escaped(k), escaped(r.Options[k]))
		}
	}
	tw.Flush()
	if r.Notes != "" {
		fmt.Fprintf(&b, "\nNotes:\n%s", wrap(escapedKeep(r.Notes, "\n"), "  ", 76))
	}
	b.WriteString("\n")
	b.WriteString(scoresTable(r.Scores))
	return b.String()
}

// scoresTable lays out card scores keyed "split/tags/metric" as a table
// with a row per split/tags and a column per metric.
func scoresTable(scores map[string]float64) string {
	if len(scores) == 0 {
		return "Scores: none\n"
	}
	cells := map[string]map[string]float64{}
	var rows, cols []string
	for k, v := range scores {
		k = escaped(k)
		row, col := "", k
		if i := strings.LastIndexByte(k, '/'); i >= 0 {
			row, col = k[:i], k[i+1:]
		}
		if cells[row] == nil {
			cells[row] = map[string]float64{}
			rows = append(rows, row)
		}
		if !slices.Contains(cols, col) {
			cols = append(cols, col)
		}
		cells[row][col] = v
	}
	sort.Slice(rows, func(i, j int) bool { return rowLess(rows[i], rows[j]) })
	sort.Slice(cols, func(i, j int) bool {
		a, b := slices.Index(eval.MetricNames, cols[i]), slices.Index(eval.MetricNames, cols[j])
		switch {
		case a >= 0 && b >= 0:
			return a < b
		case a >= 0 || b >= 0:
			return a >= 0
		}
		return cols[i] < cols[j]
	})

	var b bytes.Buffer
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "Scores (%)\t")
	for _, c := range cols {
		fmt.Fprintf(tw, "%s\t", c)
	}
	fmt.Fprintln(tw)
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t", r)
		for _, c := range cols {
			if v, ok := cells[r][c]; ok {
				fmt.Fprintf(tw, "%.2f\t", v)
			} else {
				fmt.Fprint(tw, "-\t")
			}
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
	return b.String()
}

// rowLess orders "split/tags" rows: train, dev, test, then other splits
// alphabetically; gold tags before predicted ones.
func rowLess(a, b string) bool {
	rank := func(s string, order ...string) int {
		if i := slices.Index(order, s); i >= 0 {
			return i
		}
		return len(order)
	}
	as, at, _ := strings.Cut(a, "/")
	bs, bt, _ := strings.Cut(b, "/")
	if ra, rb := rank(as, "train", "dev", "test"), rank(bs, "train", "dev", "test"); ra != rb {
		return ra < rb
	}
	if as != bs {
		return as < bs
	}
	if ra, rb := rank(at, "gold", "predicted"), rank(bt, "gold", "predicted"); ra != rb {
		return ra < rb
	}
	return at < bt
}

func humanBytes(n int64) string {
	switch {
	case n < 0:
		return "size unknown"
	case n < 1<<10:
		return fmt.Sprintf("%d bytes", n)
	case n < 1<<20:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	default:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	}
}

// wrap fills each paragraph (lines separated by a blank line) of text to
// width columns, each line starting with indent.
func wrap(text, indent string, width int) string {
	var b strings.Builder
	for i, para := range strings.Split(strings.TrimSpace(text), "\n\n") {
		if i > 0 {
			b.WriteString("\n")
		}
		n := 0
		for _, w := range strings.Fields(para) {
			switch {
			case n == 0:
				b.WriteString(indent)
				n = len(indent)
			case n+1+len(w) > width:
				b.WriteString("\n" + indent)
				n = len(indent)
			default:
				b.WriteString(" ")
				n++
			}
			b.WriteString(w)
			n += len(w)
		}
		b.WriteString("\n")
	}
	return b.String()
}
