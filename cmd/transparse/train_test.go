package main

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/spf13/pflag"

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
