package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"reflect"
	"strings"
	"syscall"
	"testing"

	"github.com/transparse/transparse/modelfmt"
	"github.com/transparse/transparse/parser"
	"github.com/transparse/transparse/parser/train"
)

func TestClassify(t *testing.T) {
	_, openErr := os.Open("/nonexistent/model.tpm")
	cases := []struct {
		name string
		err  error
		def  int
		want int
	}{
		{"argument", argErr("x is NULL"), codeInternal, codeArgument},
		{"input", inputErr("n_words is 0"), codeInternal, codeInput},
		{"nomem", errNoMem, codeInternal, codeNoMem},
		{"parser input", fmt.Errorf("parser: word 3: %w", parser.ErrInput), codeInternal, codeInput},
		{"not a model", fmt.Errorf("x: %w", modelfmt.ErrNotModel), codeInternal, codeModelFormat},
		{"corrupt", fmt.Errorf("x: %w", modelfmt.ErrCorrupt), codeInternal, codeModelFormat},
		{"newer", fmt.Errorf("x: %w", modelfmt.ErrNewerVersion), codeInternal, codeModelVersion},
		{"open", openErr, codeInternal, codeIO},
		{"wrapped open", &modelfmt.Error{Path: "m", Err: openErr}, codeInternal, codeIO},
		{"permission", fmt.Errorf("x: %w", fs.ErrPermission), codeInternal, codeIO},
		{"bare errno", &modelfmt.Error{Path: "d", Err: fmt.Errorf("read: %w", syscall.EISDIR)}, codeInternal, codeIO},
		{"modelfmt other io", &modelfmt.Error{Path: "d", Err: io.ErrUnexpectedEOF}, codeInternal, codeIO},
		{"unknown", errors.New("something"), codeInternal, codeInternal},
		{"unknown, input default", errors.New("conllu: text:3: bad"), codeInput, codeInput},
	}
	for _, c := range cases {
		if got := int(classify(c.err, status(c.def))); got != c.want {
			t.Errorf("%s: classify(%v) = %d, want %d", c.name, c.err, got, c.want)
		}
	}
}

// The card's JSON keys are its msgpack names, one per exported field.
func TestCardJSON(t *testing.T) {
	c := modelfmt.Card{Name: "en", Scores: map[string]float64{"dev/gold/LAS": 88.5}, Options: map[string]string{"epochs": "10"}}
	js, err := cardJSON(c)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(js), &m); err != nil {
		t.Fatalf("%v: %s", err, js)
	}
	typ := reflect.TypeOf(c)
	for i := 0; i < typ.NumField(); i++ {
		name := strings.Split(typ.Field(i).Tag.Get("msgpack"), ",")[0]
		if _, ok := m[name]; !ok {
			t.Errorf("key %q missing from %s", name, js)
		}
	}
	if len(m) != typ.NumField() {
		t.Errorf("%d keys for %d fields: %s", len(m), typ.NumField(), js)
	}
	if m["name"] != "en" || m["scores"].(map[string]any)["dev/gold/LAS"] != 88.5 {
		t.Errorf("values: %s", js)
	}
}

// tp_train's JSON options reach train.Options (templates and weight bits
// among them), from train.DefaultOptions; bad ones are argument errors
// with train.Options.Check's message.
func TestParseTrainOptions(t *testing.T) {
	opt, err := parseTrainOptions(`{"system":"arc-hybrid","train":"t.conllu","dev":"d.conllu","output":"m.tpm",
		"weight_bits":10,"gold":{"templates":["s0.w","s0.p+n0.p"],"drop_weights_below":2.5,"epochs":3,
		"fast_templates":["s0.p"],"fast_max_loss":0.25},"plain":{"templates":["n0.w"],"fast_templates":["n0.u"]},
		"beam":{"width":8,"epochs":4}}`)
	if err != nil {
		t.Fatal(err)
	}
	if opt.Output != "m.tpm" || opt.System != "arc-hybrid" || opt.TrainPath != "t.conllu" || opt.DevPath != "d.conllu" ||
		opt.WeightBits != 10 || opt.Gold.DropWeightsBelow != 2.5 || opt.Gold.Epochs != 3 ||
		!reflect.DeepEqual(opt.Gold.Templates, []string{"s0.w", "s0.p+n0.p"}) || !reflect.DeepEqual(opt.Plain.Templates, []string{"n0.w"}) ||
		!reflect.DeepEqual(opt.Gold.FastTemplates, []string{"s0.p"}) || !reflect.DeepEqual(opt.Plain.FastTemplates, []string{"n0.u"}) ||
		opt.Gold.FastMaxLoss != 0.25 || opt.Beam.Width != 8 || opt.Beam.Epochs != 4 {
		t.Errorf("options %+v", opt)
	}
	opt, err = parseTrainOptions(`{"train":"t","dev":"d","gold":{"templates":null}}`)
	if err != nil || !reflect.DeepEqual(opt, func() train.Options { o := train.DefaultOptions(); o.TrainPath, o.DevPath = "t", "d"; return o }()) {
		t.Errorf("defaults: %+v, %v", opt, err)
	}
	for js, want := range map[string]string{
		`{"system":"arc-eager","train":"t","dev":"d","gold":{"templates":"s0.w"}}`: "gold.templates",
		`{"system":"arc-eager","train":"t","dev":"d","colour":1}`:                  `unknown field "colour"`,
		`{"system":"arc-eager","train":"t","dev":"d"} {}`:                          "more than one JSON value",
		`[1]`: "options: json",
	} {
		_, err := parseTrainOptions(js)
		if err == nil || !strings.Contains(err.Error(), want) || classify(err, codeInternal) != codeArgument {
			t.Errorf("%s: %v, want an argument error with %q", js, err, want)
		}
	}
	for js, want := range map[string]string{
		`{"system":"arc-eager","train":"t","dev":"d","gold":{"templates":[]}}`:             "train: gold.templates: the list is empty",
		`{"system":"arc-eager","train":"t","dev":"d","plain":{"templates":["s0.w","zz"]}}`: "train: plain.templates[1]",
		`{"system":"arc-eager","train":"t","dev":"d","weight_bits":40}`:                    "train: weight_bits: 40",
		`{"system":"arc-eager","train":"t","dev":"d","gold":{"fast_templates":["x"]}}`:     "train: gold.fast_templates[0]",
		`{"system":"arc-eager","train":"t","dev":"d","gold":{"fast_max_loss":-0.5}}`:       "train: gold.fast_max_loss: -0.5",
		`{"system":"arc-eager","train":"t","dev":"d","pseudo_projective":"up"}`:            `train: pseudo_projective: pseudoproj: unknown encoding "up"`,
		`{"system":"arc-eager","train":"t"}`:                                               "train: dev: missing",
		`{"train":"t","dev":"d","gold":{"epochs":-1}}`:                                     "train: gold.epochs: -1",
		`{"train":"t","dev":"d","jackknife_folds":-2}`:                                     "train: jackknife_folds: -2",
		`{"train":"t","dev":"d","jackknife_folds":1}`:                                      "train: jackknife_folds: 1: want 0 (the default, 4) or at least 2",
		`{"train":"t","dev":"d","plain":{"explore":5}}`:                                    "train: plain.explore: 5",
		`{"train":"t","dev":"d","plain":{"runs":-1}}`:                                      "train: plain.runs: -1",
	} {
		opt, err := parseTrainOptions(js)
		if err != nil {
			t.Errorf("%s: %v", js, err)
			continue
		}
		cerr := opt.Check()
		_, terr := train.Train(opt)
		err = trainError(terr)
		if cerr == nil || err.Error() != cerr.Error() || !strings.HasPrefix(err.Error(), want) || classify(err, codeInternal) != codeArgument {
			t.Errorf("%s: %v, want an argument error starting %q", js, err, want)
		}
	}
}
