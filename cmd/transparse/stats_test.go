package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/transparse/transparse/parser/transition"
)

// runStats runs "transparse stats ARGS..." in process, as run does, with
// the stats command added to the root if main.go does not add it yet.
func runStats(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	root := newRootCmd()
	if c, _, err := root.Find([]string{"stats"}); err != nil || c == root {
		root.AddCommand(newStatsCmd())
	}
	var out, errb bytes.Buffer
	root.SetArgs(append([]string{"stats"}, args...))
	root.SetOut(&out)
	root.SetErr(&errb)
	_, err := root.ExecuteC()
	code := exitOK
	if err != nil {
		fmt.Fprintf(&errb, "transparse: %v\n", err)
		code = exitUsage
		var fe *failure
		if errors.As(err, &fe) {
			code = exitFailure
		}
	}
	return code, out.String(), errb.String()
}

// conlluFixture writes sentences given as (heads, deprels) to a CoNLL-U
// file and returns its path.
func conlluFixture(t *testing.T, name string, sents [][2][]string) string {
	t.Helper()
	var b strings.Builder
	for k, s := range sents {
		fmt.Fprintf(&b, "# sent_id = s%d\n", k+1)
		for i := range s[0] {
			fmt.Fprintf(&b, "%d\tw%d\tw\tX\t_\t_\t%s\t%s\t_\t_\n", i+1, i+1, s[0][i], s[1][i])
		}
		b.WriteString("\n")
	}
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func sent(heads, deprels string) [2][]string {
	return [2][]string{strings.Fields(heads), strings.Fields(deprels)}
}

// The fixture's trees, with the classes each belongs to (hand-checked; the
// planarity classes without the arcs from node 0):
//
//	S1 projective                       all classes
//	S2 Czech TV-C1, word 8 (punct) → 3  5→1 spans 3; crosses 0→3 and 3→6: not
//	                                    planar; 2-planar, well-nested, gap 1, 1-EC, 2-CI {3,5}
//	S3 punct 3 (→1) crosses 4→2         like S2 with punctuation; projective without
//	S4 1 ← 3 ← 2 ← 0: covered root 2    not projective but planar (GN13: 3→1 and 2→3
//	                                    share 3); gap 1; 2-CI {2,3}
//	S5 5→{1,3}, 4→2, 6→{4,5}           yields {1,3,5}, {2,4} interleave: ill-nested,
//	                                    gap 2; crossings 4→2/5→3, 5→3/6→4, 5→1/6→4 form a
//	                                    path: 2-planar; 1-EC; 2-CI {4,5}
//	S6 4→{1,5,6}, 5→2, 6→3             4→1, 5→2, 6→3 cross pairwise: not 2-planar,
//	                                    3-planar; 5→2 crossed by 4→1 and 6→3: not 1-EC,
//	                                    not 2-CI; {2,5}, {3,6} interleave; gap 1
var statsFixture = [][2][]string{
	sent("2 0 2", "nsubj root obj"),
	sent("5 1 0 5 3 3 6 3", "case nmod root advmod nsubj obl nmod punct"),
	sent("0 4 1 1", "root nsubj punct obj"),
	sent("3 0 2", "nsubj root obj"),
	sent("5 4 5 6 6 0", "dep dep dep dep dep root"),
	sent("4 5 6 0 4 4", "dep dep dep root dep dep"),
}

// tsvValues parses stats TSV output into "treebank/group/measure" → value.
func tsvValues(t *testing.T, out string) map[string]string {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) == 0 || lines[0] != "treebank\tgroup\tmeasure\tvalue" {
		t.Fatalf("no TSV header:\n%s", out)
	}
	m := map[string]string{}
	for _, l := range lines[1:] {
		f := strings.Split(l, "\t")
		if len(f) != 4 {
			t.Fatalf("bad TSV line %q", l)
		}
		m[f[0]+"/"+f[1]+"/"+f[2]] = f[3]
	}
	return m
}

func wantValue(t *testing.T, m map[string]string, key string, want float64) {
	t.Helper()
	v, ok := m[key]
	if !ok {
		t.Errorf("no value for %s", key)
		return
	}
	got, err := strconv.ParseFloat(v, 64)
	if err != nil || got < want-5e-7 || got > want+5e-7 {
		t.Errorf("%s = %s, want %.6f", key, v, want)
	}
}

func TestStatsHandCount(t *testing.T) {
	path := conlluFixture(t, "fixture.conllu", statsFixture)
	code, out, stderr := runStats(t, "--format", "tsv", "--systems", "arc-standard,arc-eager", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	m := tsvValues(t, out)
	tb := "fixture/"
	wantValue(t, m, tb+"treebank/words", 3+8+4+3+6+6)
	wantValue(t, m, tb+"treebank/punct-words", 2)
	// Non-projective arcs (the head does not dominate a word in between):
	// S2 5→1 (over 3); S3 4→2 (over 3); S4 3→1 (over 2); S5 5→1 (over 2,
	// 4), 4→2 (over 3), 5→3 (over 4); S6 5→2 (over 3, 4), 6→3 (over 4, 5).
	wantValue(t, m, tb+"treebank/non-projective-arcs", float64(1+1+1+3+2)/30)
	for _, c := range []struct {
		group string
		want  map[string]int // trees of 6
	}{
		{"with-punct", map[string]int{"projective": 1, "planar": 2, "2-planar": 5, "3-planar": 6,
			"well-nested": 4, "gap-degree-le-1": 5, "1-endpoint-crossing": 5, "2-crossing-interval": 5}},
		{"without-punct", map[string]int{"projective": 2, "planar": 3, "2-planar": 5, "3-planar": 6,
			"well-nested": 4, "gap-degree-le-1": 5, "1-endpoint-crossing": 5, "2-crossing-interval": 5}},
	} {
		wantValue(t, m, tb+c.group+"/trees", 6)
		for k, n := range c.want {
			wantValue(t, m, tb+c.group+"/"+k, float64(n)/6)
		}
	}
	// Arc-standard derives only S1 (projective), with 2n = 6 transitions.
	for _, sys := range []string{"arc-standard", "arc-eager"} {
		wantValue(t, m, tb+sys+"/in-class", 1.0/6)
		wantValue(t, m, tb+sys+"/derivable", 1.0/6)
		wantValue(t, m, tb+sys+"/oracle-failures", 0)
		if _, ok := m[tb+sys+"/swaps-per-sentence"]; ok {
			t.Errorf("%s reports swaps", sys)
		}
	}
	wantValue(t, m, tb+"arc-standard/transitions-per-word", 2)
	wantValue(t, m, tb+"arc-standard/fit-c", 2)
	// Arc-eager on S1 (w1 ← w2 → w3): SHIFT, LEFT-ARC, RIGHT-ARC(root),
	// RIGHT-ARC, and the buffer is empty: 4 transitions for 3 words.
	wantValue(t, m, tb+"arc-eager/transitions-per-word", 4.0/3)
	wantValue(t, m, tb+"arc-eager/fit-c", 4.0*3/9)
}

// The Markdown output has the tables with the hand-counted percentages.
func TestStatsMarkdown(t *testing.T) {
	path := conlluFixture(t, "fix.conllu", statsFixture)
	code, out, stderr := runStats(t, "--systems", "arc-standard", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	wantContains(t, "markdown", out,
		"| Treebank | Punct. | Trees | Projective | Planar | 2-planar | 3-planar | Well-nested | Gap degree ≤ 1 | 1-EC | 2-CI |",
		"| fix | with | 6 | 16.67 | 33.33 | 83.33 | 100.00 | 66.67 | 83.33 | 83.33 | 83.33 |",
		"| fix | without | 6 | 33.33 | 50.00 | 83.33 | 100.00 | 66.67 | 83.33 | 83.33 | 83.33 |",
		"| fix | 30 | 2 | 26.67 |",
		"| fix | arc-standard | 16.67 | 16.67 | 2.000 | 2.000 | – |")
	if strings.Contains(out, "Oracle failures") {
		t.Errorf("oracle failures reported:\n%s", out)
	}
}

// Systems with SWAP report swaps per sentence. The swap system derives
// every tree in 2n + 2k transitions with k swaps (Nivre 2009); on S1 (k = 0),
// S2 (TV-C2's tree with word 8 under 3; projective order 3 1 2 4 5 6 7 8,
// one swap) and S4 (projective order 2 1 3, one swap) both oracles swap
// once per non-projective tree.
func TestStatsSwaps(t *testing.T) {
	for _, name := range []string{"swap-eager", "swap-lazy"} {
		if _, err := transition.Lookup(name); err != nil {
			t.Skipf("%s not registered", name)
		}
	}
	path := conlluFixture(t, "swap.conllu", [][2][]string{statsFixture[0], statsFixture[1], statsFixture[3]})
	code, out, stderr := runStats(t, "--format", "tsv", "--systems", "swap-eager,swap-lazy", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	m := tsvValues(t, out)
	for _, sys := range []string{"swap-eager", "swap-lazy"} {
		wantValue(t, m, "swap/"+sys+"/derivable", 1)
		wantValue(t, m, "swap/"+sys+"/swaps-per-sentence", 2.0/3)
		wantValue(t, m, "swap/"+sys+"/transitions-per-word", float64(6+18+8)/14)
		wantValue(t, m, "swap/"+sys+"/fit-c", float64(6*3+18*8+8*3)/float64(9+64+9))
	}
}

func TestStatsRemovePunct(t *testing.T) {
	for _, c := range []struct {
		head    []int32
		deprel  []string
		want    []int32
		removed int
	}{
		{[]int32{-1, 2, 0, 2}, []string{"", "nsubj", "root", "punct"}, []int32{-1, 2, 0}, 1},
		// 4 depends on punct 3, which depends on punct 5, under 2.
		{[]int32{-1, 2, 0, 5, 3, 2}, []string{"", "nsubj", "root", "punct", "dep", "punct:x"}, []int32{-1, 2, 0, 2}, 2},
		// A punctuation root's dependents go to node 0.
		{[]int32{-1, 2, 0, 2}, []string{"", "dep", "punct", "dep"}, []int32{-1, 0, 0}, 1},
		{[]int32{-1, 0}, []string{"", "punct"}, []int32{-1}, 1},
		{[]int32{-1, 0, 1}, []string{"", "root", "punctuation"}, []int32{-1, 0, 1}, 0},
	} {
		got, removed := removePunct(c.head, c.deprel)
		if !slices.Equal(got, c.want) || removed != c.removed {
			t.Errorf("removePunct(%v, %q) = %v, %d; want %v, %d", c.head, c.deprel, got, removed, c.want, c.removed)
		}
	}
}

func TestStatsErrors(t *testing.T) {
	good := conlluFixture(t, "ok.conllu", statsFixture[:1])
	cycle := conlluFixture(t, "cycle.conllu", [][2][]string{sent("2 1 0", "dep dep root")})
	roots := conlluFixture(t, "roots.conllu", [][2][]string{statsFixture[0], sent("0 0", "root root")})
	for _, c := range []struct {
		args []string
		code int
		msg  string
	}{
		{nil, exitUsage, "requires at least 1 arg"},
		{[]string{"--format", "xml", good}, exitUsage, `invalid --format "xml"`},
		{[]string{"--systems", "arc-eager,nope", good}, exitUsage, `unknown transition system "nope"`},
		{[]string{filepath.Join(t.TempDir(), "missing.conllu")}, exitFailure, "missing.conllu"},
		{[]string{cycle}, exitFailure, "cycle"},
		{[]string{good, roots}, exitFailure, "roots.conllu: sentence 2"},
	} {
		code, out, stderr := runStats(t, c.args...)
		if code != c.code || !strings.Contains(stderr, c.msg) {
			t.Errorf("stats %q: exit %d, stderr %q; want %d and %q", c.args, code, stderr, c.code, c.msg)
		}
		if out != "" {
			t.Errorf("stats %q wrote %q", c.args, out)
		}
	}
}
