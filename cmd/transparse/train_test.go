package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/transparse/transparse/internal/gcpolicy"
	"github.com/transparse/transparse/internal/testenv"
	"github.com/transparse/transparse/parser"
	"github.com/transparse/transparse/parser/train"
)

// Every flag of `transparse train` but --options and --progress sets the
// option its help names in brackets, by its JSON path (a template flag
// names the file of the list), with the default of train.DefaultOptions;
// every option is a key of the --options file, and a flag given on the
// command line overrides the file.
func TestTrainFlagsMatchOptions(t *testing.T) {
	data, err := json.Marshal(train.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	var defaults map[string]any
	if err := json.Unmarshal(data, &defaults); err != nil {
		t.Fatal(err)
	}
	flags := newTrainCmd().Flags()
	flags.VisitAll(func(fl *pflag.Flag) {
		if fl.Name == "options" || fl.Name == "progress" || fl.Name == "help" {
			return
		}
		open, end := strings.LastIndex(fl.Usage, "["), strings.LastIndex(fl.Usage, "]")
		if open < 0 || end < open {
			t.Errorf("--%s names no option: %q", fl.Name, fl.Usage)
			return
		}
		for _, path := range strings.Split(fl.Usage[open+1:end], ", ") {
			var v any = defaults
			for _, k := range strings.Split(path, ".") {
				m, _ := v.(map[string]any)
				var ok bool
				if v, ok = m[k]; !ok {
					t.Errorf("--%s names %q, not an option", fl.Name, path)
					return
				}
			}
			want := fmt.Sprint(v)
			if v == nil { // a template list: the flag names a file
				want = ""
			}
			if fl.DefValue != want {
				t.Errorf("--%s defaults to %q, option %q to %q", fl.Name, fl.DefValue, path, want)
			}
		}
	})
}

// The --options file sets any option, by the JSON names of tp_train; the
// flags given override it; an unknown key is a usage error.
func TestTrainOptionsFile(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "options.json")
	args := []string{"train", "--options", file, "--train", "t.conllu", "--dev", "d.conllu", "-o", filepath.Join(dir, "m.tpm")}
	for _, c := range []struct {
		json  string
		flags []string
		want  string
	}{
		{`{"plain": {"runs": -2}}`, nil, "train: plain.runs: -2"},
		{`{"gold": {"epochs": -1}, "plain": {"runs": -2}}`, nil, "train: gold.epochs: -1"},
		{`{"gold": {"epochs": -1}, "plain": {"runs": -2}}`, []string{"--epochs", "2"}, "train: plain.runs: -2"},
		{`{"system": "arc-wobbly"}`, []string{"--system", "arc-standard", "--beam", "99"}, "train: beam.width: 99"},
		{`{"gold": {"epoch": 1}}`, nil, `unknown field "epoch"`},
	} {
		if err := os.WriteFile(file, []byte(c.json), 0o644); err != nil {
			t.Fatal(err)
		}
		code, stdout, stderr := runCmd(t, "", append(args, c.flags...)...)
		if code != 2 || stdout != "" || !strings.Contains(stderr, c.want) {
			t.Errorf("%s %q: exit status %d, stdout %q, stderr %q; want 2 and %q", c.json, c.flags, code, stdout, stderr, c.want)
		}
	}
}

// train runs the collector at gcpolicy.Percent (unless GOGC is set), as the
// C library's tp_train does: a lower peak resident memory than the Go
// default's at the same speed (docs/decisions.md).
func TestTrainCollectsOften(t *testing.T) {
	if _, set := os.LookupEnv("GOGC"); set {
		t.Skip("GOGC is set in the environment: train leaves the collector alone")
	}
	old := debug.SetGCPercent(100)
	defer debug.SetGCPercent(old)
	dir := t.TempDir()
	// The training fails at its first check (the file is missing), after
	// the collector is set.
	code, _, stderr := runCmd(t, "", "train", "--train", filepath.Join(dir, "nope.conllu"),
		"--dev", filepath.Join(dir, "nope.conllu"), "-o", filepath.Join(dir, "m.tpm"))
	if code == 0 {
		t.Fatalf("train of a missing treebank succeeded; stderr:\n%s", stderr)
	}
	p := debug.SetGCPercent(old)
	if p != gcpolicy.Percent {
		t.Errorf("GC percent after train: %d, want %d", p, gcpolicy.Percent)
	}
}

// --no-segmenter trains a model without a segmenter of raw text, and the
// card says so.
func TestTrainNoSegmenter(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "noseg.tpm")
	code, _, stderr := runCmd(t, "", "train", "--train", absPath(t, testenv.Fixture(t, "en_ewt-train-150.conllu")),
		"--dev", absPath(t, testenv.Fixture(t, "en_ewt-dev-40.conllu")), "--epochs", "1", "--tagger-epochs", "1", "--no-morph",
		"--options", writeFile(t, dir, "options.json", `{"jackknife_folds": 2}`), "--no-segmenter", "--progress", "never", "-o", model)
	if code != 0 {
		t.Fatalf("train --no-segmenter: exit status %d, stderr:\n%s", code, stderr)
	}
	m, err := parser.Load(model)
	if err != nil {
		t.Fatal(err)
	}
	if m.HasSegmenter() || m.Card().Options["segment.skip"] != "true" || strings.Contains(stderr, "segmenter: dev") {
		t.Errorf("--no-segmenter: segmenter %v, card segment.skip %q", m.HasSegmenter(), m.Card().Options["segment.skip"])
	}
}
