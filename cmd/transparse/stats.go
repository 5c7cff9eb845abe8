package main

import (
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/transparse/transparse/parser/conllu"
	"github.com/transparse/transparse/parser/transition"
	"github.com/transparse/transparse/parser/tree"
)

// statsClass is a tree class counted by stats.
type statsClass struct {
	title string // Markdown column title
	key   string // TSV measure name
	// in reports membership; noRoot is head without the arcs from node 0.
	in func(head, noRoot []int32) bool
}

// statsClasses are the tree classes of parser/tree that stats counts, in
// output order. Planarity follows Gómez-Rodríguez & Nivre (2013) Table 1,
// which has no artificial root: the arcs from node 0 are left out (with
// them, planar would be projective). The other classes include the arcs
// from node 0, as Pitler & McDonald (2015) Table 1 does.
var statsClasses = []statsClass{
	{"Projective", "projective", func(h, _ []int32) bool { return tree.Projective(h) }},
	{"Planar", "planar", func(_, r []int32) bool { return tree.Planar(r) }},
	{"2-planar", "2-planar", func(_, r []int32) bool { return tree.KPlanar(r, 2) }},
	{"3-planar", "3-planar", func(_, r []int32) bool { return tree.KPlanar(r, 3) }},
	{"Well-nested", "well-nested", func(h, _ []int32) bool { return tree.WellNested(h) }},
	{"Gap degree ≤ 1", "gap-degree-le-1", func(h, _ []int32) bool { return tree.GapDegree(h) <= 1 }},
	{"1-EC", "1-endpoint-crossing", func(h, _ []int32) bool { return tree.OneEndpointCrossing(h) }},
	{"2-CI", "2-crossing-interval", func(h, _ []int32) bool { return tree.KCrossingInterval(h, 2) }},
}

// classCounts counts the trees of a treebank in each of statsClasses.
type classCounts struct {
	Trees int
	In    []int // In[i]: trees in statsClasses[i]
}

// systemStats is the static oracle's behaviour on a treebank.
type systemStats struct {
	Name        string
	Trees       int
	InClass     int     // trees for which sys.InClass is true
	Derivable   int     // trees for which transition.Derive succeeds
	Words       int     // words of the derivable trees
	Transitions int     // transitions of their derivations
	SumMN       float64 // Σ m·n over derivable trees (m transitions, n words)
	SumNN       float64 // Σ n²
	UsesSwap    bool    // the system has the SWAP move
	Swaps       int     // SWAP transitions over the derivable trees
	FirstError  string  // the first Derive error on an in-class tree
	OracleFails int     // in-class trees that Derive failed on
}

// treebankStats is what stats computes for one treebank file.
type treebankStats struct {
	Name         string
	WithPunct    classCounts
	WithoutPunct classCounts
	PunctRemoved int // punctuation words removed
	Words        int
	Systems      []systemStats
	NonProjArcs  int // arcs (with punctuation) whose head does not dominate the words they span
}

type statsOptions struct {
	format  string
	systems string
}

func newStatsCmd() *cobra.Command {
	var o statsOptions
	cmd := &cobra.Command{
		Use:   "stats [--format md|tsv] [--systems LIST] TREEBANK...",
		Short: "Tree-class coverage and oracle statistics of treebanks",
		Long: `Stats reads CoNLL-U treebanks and prints, for each, the number of trees
and the share (%) of trees in each tree class, with punctuation and
without it:

  Projective      no arc spans a word its head does not dominate (Nivre 2008, Def. 3)
  Planar          no two arcs cross (Gómez-Rodríguez & Nivre 2013, Def. 2)
  2-, 3-planar    the arcs split into 2 (3) planar sets (GN13 §4.1)
  Well-nested     no two disjoint subtrees interleave (Bodirsky et al. 2005)
  Gap degree ≤ 1  every subtree's yield has at most one gap (Kuhlmann & Nivre 2006)
  1-EC            1-Endpoint-Crossing (Pitler, Kannan & Marcus 2013)
  2-CI            2-Crossing-Interval (Pitler & McDonald 2015, Def. 3)

The planarity classes leave out the arcs from the artificial root, as
GN13 Table 1 does (with them, planar is projective); the other classes
include them. Without punctuation (as in PM15 Table 1), every word whose
DEPREL is punct (or a punct: subtype) is removed and its dependents are
attached to its nearest ancestor that is not punctuation.

Then, for every transition system (all registered ones, or --systems),
on the trees with punctuation: the share of trees in the system's class
(InClass) and of trees the static oracle derives exactly, the mean number
of transitions per word of the derivations (Σm/Σn, and the least-squares
slope c of m = c·n as in Nivre 2009 Fig. 5), and for systems with SWAP
the mean number of swaps per sentence.

--format md (the default) prints Markdown tables; --format tsv prints one
line per value: treebank, group, measure, value (fractions, not percents).`,
		Example: `  transparse stats en_ewt-ud-train.conllu hu_szeged-ud-train.conllu
  transparse stats --systems arc-eager,swap-lazy --format tsv *.conllu`,
		Args: cobra.MinimumNArgs(1),
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			if o.format != "md" && o.format != "tsv" {
				return usage("invalid --format %q: want md or tsv", o.format)
			}
			names := transition.Names()
			if o.systems != "" {
				names = nil
				for _, s := range strings.Split(o.systems, ",") {
					s = strings.TrimSpace(s)
					if s == "" {
						continue
					}
					if _, err := transition.Lookup(s); err != nil {
						return usage("--systems: %v", err)
					}
					names = append(names, s)
				}
			}
			var all []*treebankStats
			for _, path := range args {
				st, err := computeStats(path, names)
				if err != nil {
					return err
				}
				all = append(all, st)
			}
			out := cmd.OutOrStdout()
			if o.format == "tsv" {
				return writeStatsTSV(out, all)
			}
			return writeStatsMarkdown(out, all)
		}),
	}
	f := cmd.Flags()
	f.StringVar(&o.format, "format", "md", "output format: md or tsv")
	f.StringVar(&o.systems, "systems", "", "comma-separated transition systems (default: all registered)")
	return cmd
}

// isPunct reports whether a DEPREL marks punctuation.
func isPunct(deprel string) bool { return deprel == "punct" || strings.HasPrefix(deprel, "punct:") }

// removePunct returns the tree without its punctuation words (DEPREL punct):
// every other word keeps its order, and a word whose head is punctuation is
// attached to the nearest ancestor that is not (PM15 Table 1 excludes
// punctuation; how dependents of punctuation are reattached is not said).
// head is indexed 0..n with head[0] = -1 and must be a tree.
func removePunct(head []int32, deprel []string) (out []int32, removed int) {
	n := len(head) - 1
	newID := make([]int32, n+1) // old word → new word, -1 if removed
	k := int32(0)
	for d := 1; d <= n; d++ {
		if isPunct(deprel[d]) {
			newID[d] = -1
			removed++
		} else {
			k++
			newID[d] = k
		}
	}
	out = make([]int32, k+1)
	out[0] = -1
	for d := 1; d <= n; d++ {
		if newID[d] < 0 {
			continue
		}
		h := head[d]
		for steps := 0; h > 0 && newID[h] < 0 && steps <= n; steps++ {
			h = head[h]
		}
		if h > 0 {
			h = newID[h]
		}
		out[newID[d]] = h
	}
	return out, removed
}

func countClasses(c *classCounts, head []int32) {
	c.Trees++
	noRoot := slices.Clone(head)
	for d := 1; d < len(noRoot); d++ {
		if noRoot[d] == 0 {
			noRoot[d] = -1
		}
	}
	for i, cl := range statsClasses {
		if cl.in(head, noRoot) {
			c.In[i]++
		}
	}
}

// computeStats reads the treebank at path and computes its statistics for
// the named transition systems. Every sentence must be a tree.
func computeStats(path string, systems []string) (*treebankStats, error) {
	sents, err := conllu.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if len(sents) == 0 {
		return nil, fmt.Errorf("%s: no sentences: stats needs a treebank", path)
	}
	st := &treebankStats{
		Name:         strings.TrimSuffix(filepath.Base(path), ".conllu"),
		WithPunct:    classCounts{In: make([]int, len(statsClasses))},
		WithoutPunct: classCounts{In: make([]int, len(statsClasses))},
	}
	type sys struct {
		s     transition.System
		state transition.State
		swap  bool
	}
	syss := make([]*sys, len(systems))
	st.Systems = make([]systemStats, len(systems))
	for i, name := range systems {
		s, err := transition.Lookup(name)
		if err != nil {
			return nil, err
		}
		syss[i] = &sys{s: s, swap: slices.Contains(s.Moves(), transition.Swap)}
		st.Systems[i] = systemStats{Name: name, UsesSwap: syss[i].swap}
	}
	labels := map[string]int32{}
	for k, s := range sents {
		if err := s.CheckTree(); err != nil {
			return nil, fmt.Errorf("%s: sentence %d: %w", path, k+1, err)
		}
		n := len(s.Words)
		head := make([]int32, n+1)
		deprel := make([]string, n+1)
		lab := make([]int32, n+1)
		head[0], lab[0] = -1, -1
		for i, w := range s.Words {
			head[i+1] = int32(w.Head)
			deprel[i+1] = w.Deprel
			l, ok := labels[w.Deprel]
			if !ok {
				l = int32(len(labels))
				labels[w.Deprel] = l
			}
			lab[i+1] = l
		}
		st.Words += n
		for d := 1; d <= n; d++ {
			if !tree.ArcProjective(head, int32(d)) {
				st.NonProjArcs++
			}
		}
		countClasses(&st.WithPunct, head)
		np, removed := removePunct(head, deprel)
		st.PunctRemoved += removed
		countClasses(&st.WithoutPunct, np)

		g := transition.NewGold(head, lab)
		for i, x := range syss {
			ss := &st.Systems[i]
			ss.Trees++
			in := x.s.InClass(g)
			if in {
				ss.InClass++
			}
			seq, err := transition.Derive(x.s, &x.state, g)
			if err != nil {
				if in {
					ss.OracleFails++
					if ss.FirstError == "" {
						ss.FirstError = fmt.Sprintf("sentence %d: %v", k+1, err)
					}
				}
				continue
			}
			ss.Derivable++
			m := len(seq)
			ss.Words += n
			ss.Transitions += m
			ss.SumMN += float64(m) * float64(n)
			ss.SumNN += float64(n) * float64(n)
			if x.swap {
				for _, t := range seq {
					if t.Move == transition.Swap {
						ss.Swaps++
					}
				}
			}
		}
	}
	return st, nil
}

func pct(k, n int) float64 {
	if n == 0 {
		return 0
	}
	return 100 * float64(k) / float64(n)
}

func ratio(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}

func writeStatsMarkdown(w io.Writer, all []*treebankStats) error {
	var b strings.Builder
	b.WriteString("### Tree classes (% of trees)\n\n")
	b.WriteString("| Treebank | Punct. | Trees |")
	for _, c := range statsClasses {
		b.WriteString(" " + c.title + " |")
	}
	b.WriteString("\n|---|---|--:|")
	for range statsClasses {
		b.WriteString("--:|")
	}
	b.WriteString("\n")
	for _, st := range all {
		for _, row := range []struct {
			label string
			c     classCounts
		}{{"with", st.WithPunct}, {"without", st.WithoutPunct}} {
			fmt.Fprintf(&b, "| %s | %s | %d |", st.Name, row.label, row.c.Trees)
			for i := range statsClasses {
				fmt.Fprintf(&b, " %.2f |", pct(row.c.In[i], row.c.Trees))
			}
			b.WriteString("\n")
		}
	}
	b.WriteString("\n| Treebank | Words | Punct. words | Non-projective arcs (%) |\n|---|--:|--:|--:|\n")
	for _, st := range all {
		fmt.Fprintf(&b, "| %s | %d | %d | %.2f |\n", st.Name, st.Words, st.PunctRemoved, pct(st.NonProjArcs, st.Words))
	}
	if len(all) > 0 && len(all[0].Systems) > 0 {
		b.WriteString("\n### Transition systems (static oracle, trees with punctuation)\n\n")
		b.WriteString("| Treebank | System | In class (%) | Derivable (%) | Transitions/word | Fit c (m = c·n) | Swaps/sentence |\n")
		b.WriteString("|---|---|--:|--:|--:|--:|--:|\n")
		for _, st := range all {
			for _, s := range st.Systems {
				swaps := "–"
				if s.UsesSwap {
					swaps = fmt.Sprintf("%.3f", ratio(float64(s.Swaps), float64(s.Derivable)))
				}
				fmt.Fprintf(&b, "| %s | %s | %.2f | %.2f | %.3f | %.3f | %s |\n", st.Name, s.Name,
					pct(s.InClass, s.Trees), pct(s.Derivable, s.Trees),
					ratio(float64(s.Transitions), float64(s.Words)), ratio(s.SumMN, s.SumNN), swaps)
			}
		}
		var fails []string
		for _, st := range all {
			for _, s := range st.Systems {
				if s.OracleFails > 0 {
					fails = append(fails, fmt.Sprintf("- %s %s: %d in-class trees not derived (first: %s)", st.Name, s.Name, s.OracleFails, s.FirstError))
				}
			}
		}
		if len(fails) > 0 {
			b.WriteString("\nOracle failures on trees InClass accepts:\n\n" + strings.Join(fails, "\n") + "\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func writeStatsTSV(w io.Writer, all []*treebankStats) error {
	var b strings.Builder
	b.WriteString("treebank\tgroup\tmeasure\tvalue\n")
	line := func(tb, group, measure string, v any) {
		fmt.Fprintf(&b, "%s\t%s\t%s\t%v\n", tb, group, measure, v)
	}
	frac := func(k, n int) string { return fmt.Sprintf("%.6f", ratio(float64(k), float64(n))) }
	for _, st := range all {
		line(st.Name, "treebank", "words", st.Words)
		line(st.Name, "treebank", "punct-words", st.PunctRemoved)
		line(st.Name, "treebank", "non-projective-arcs", frac(st.NonProjArcs, st.Words))
		for _, row := range []struct {
			group string
			c     classCounts
		}{{"with-punct", st.WithPunct}, {"without-punct", st.WithoutPunct}} {
			line(st.Name, row.group, "trees", row.c.Trees)
			for i, cl := range statsClasses {
				line(st.Name, row.group, cl.key, frac(row.c.In[i], row.c.Trees))
			}
		}
		for _, s := range st.Systems {
			line(st.Name, s.Name, "in-class", frac(s.InClass, s.Trees))
			line(st.Name, s.Name, "derivable", frac(s.Derivable, s.Trees))
			line(st.Name, s.Name, "transitions-per-word", fmt.Sprintf("%.6f", ratio(float64(s.Transitions), float64(s.Words))))
			line(st.Name, s.Name, "fit-c", fmt.Sprintf("%.6f", ratio(s.SumMN, s.SumNN)))
			if s.UsesSwap {
				line(st.Name, s.Name, "swaps-per-sentence", fmt.Sprintf("%.6f", ratio(float64(s.Swaps), float64(s.Derivable))))
			}
			line(st.Name, s.Name, "oracle-failures", s.OracleFails)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}
