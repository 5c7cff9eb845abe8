package main

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/transparse/transparse/internal/gcpolicy"
	"github.com/transparse/transparse/parser/train"
)

// Every option of train.Options (its JSON names, the keys of tp_train and
// Python's transparse.train) is a flag of `transparse train` with the
// default of train.DefaultOptions, and every flag but --progress is an
// option: the CLI, C and Python take the same options.
func TestTrainFlagsMatchOptions(t *testing.T) {
	flags := newTrainCmd().Flags()
	d := reflect.ValueOf(train.DefaultOptions())
	typ := d.Type()
	options := map[string]bool{}
	for i := 0; i < typ.NumField(); i++ {
		f := typ.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if !f.IsExported() || name == "-" {
			continue
		}
		if name == "" {
			t.Errorf("train.Options.%s has no JSON name", f.Name)
			continue
		}
		flagName := strings.ReplaceAll(name, "_", "-")
		options[flagName] = true
		fl := flags.Lookup(flagName)
		if fl == nil {
			t.Errorf("option %q has no flag --%s", name, flagName)
			continue
		}
		want := fmt.Sprint(d.Field(i).Interface())
		if f.Type.Kind() == reflect.Slice { // template lists: the flag names a file
			if !d.Field(i).IsNil() {
				t.Errorf("option %q: a default list", name)
			}
			want = ""
		}
		if fl.DefValue != want {
			t.Errorf("--%s defaults to %q, option %q to %q", flagName, fl.DefValue, name, want)
		}
	}
	flags.VisitAll(func(fl *pflag.Flag) {
		if !options[fl.Name] && fl.Name != "progress" {
			t.Errorf("flag --%s is not an option of train.Options", fl.Name)
		}
	})
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
