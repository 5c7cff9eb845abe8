package main

/*
#include "internal.h"
*/
import "C"

import (
	"encoding/json"
	"strings"

	"github.com/transparse/transparse/parser/train"
	"github.com/transparse/transparse/parser/transition"
)

// trainOptions is the JSON object tp_train accepts (see the header).
type trainOptions struct {
	System           string   `json:"system"`
	Train            string   `json:"train"`
	Dev              string   `json:"dev"`
	Test             string   `json:"test"`
	Output           string   `json:"output"`
	Name             string   `json:"name"`
	Epochs           int      `json:"epochs"`
	TaggerEpochs     int      `json:"tagger_epochs"`
	Folds            int      `json:"folds"`
	MaxSentences     int      `json:"max_sentences"`
	Seed             int64    `json:"seed"`
	PseudoProjective string   `json:"pseudo_projective"`
	GoldOnly         bool     `json:"gold_only"`
	MinUpdates       int      `json:"min_updates"`
	MinAbs           *float32 `json:"min_abs"`
	PlainMinAbs      *float32 `json:"plain_min_abs"`
	PlainRuns        int      `json:"plain_runs"`
	Explore          *float64 `json:"explore"`
	WeightBits       int      `json:"weight_bits"`
	GoldTemplates    []string `json:"gold_templates"`
	PlainTemplates   []string `json:"plain_templates"`
	GoldFast         []string `json:"gold_fast_templates"`
	PlainFast        []string `json:"plain_fast_templates"`
	FastMaxLoss      *float64 `json:"fast_max_loss"`
}

//export tpgo_systems
func tpgo_systems(out **C.char, msg **C.char) (rc C.int) {
	const fn = "tp_systems"
	defer recoverTo(fn, msg, &rc)
	return finish(fn, msg, systems(out), C.TP_ERR_INTERNAL)
}

func systems(out **C.char) error {
	if out == nil {
		return argErr("names is NULL")
	}
	cs := cString(strings.Join(transition.Names(), "\n") + "\n")
	if cs == nil {
		return errNoMem
	}
	*out = cs
	return nil
}

//export tpgo_train
func tpgo_train(options *C.char, out *C.uintptr_t, msg **C.char) (rc C.int) {
	const fn = "tp_train"
	defer recoverTo(fn, msg, &rc)
	return finish(fn, msg, trainModel(options, out), C.TP_ERR_INPUT)
}

func trainModel(options *C.char, out *C.uintptr_t) error {
	if options == nil {
		return argErr("options is NULL")
	}
	if out == nil {
		return argErr("model is NULL")
	}
	opt, output, err := parseTrainOptions(C.GoString(options))
	if err != nil {
		return err
	}
	defer growing()()
	m, err := train.Train(opt)
	if err != nil {
		return err
	}
	if output != "" {
		if err := m.Save(output); err != nil {
			return err
		}
	}
	h, err := register(m)
	if err != nil {
		return err
	}
	*out = C.uintptr_t(h)
	return nil
}

//export tpgo_model_save
func tpgo_model_save(h C.uintptr_t, path *C.char, msg **C.char) (rc C.int) {
	const fn = "tp_model_save"
	defer recoverTo(fn, msg, &rc)
	return finish(fn, msg, modelSave(h, path), C.TP_ERR_IO)
}

func modelSave(h C.uintptr_t, path *C.char) error {
	if h == 0 {
		return argErr("model is NULL")
	}
	if path == nil {
		return argErr("path is NULL")
	}
	e, err := acquire(h)
	if err != nil {
		return err
	}
	defer e.mu.RUnlock()
	return e.model.Save(C.GoString(path))
}

// parseTrainOptions turns tp_train's JSON options into training options
// and the output path; every error is an argument error naming the option.
func parseTrainOptions(js string) (train.Options, string, error) {
	var o trainOptions
	dec := json.NewDecoder(strings.NewReader(js))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&o); err != nil {
		return train.Options{}, "", argErr("options: %v", err)
	}
	if dec.More() {
		return train.Options{}, "", argErr("options: more than one JSON value")
	}
	if o.System == "" || o.Train == "" || o.Dev == "" {
		return train.Options{}, "", argErr("options: \"system\", \"train\" and \"dev\" are required")
	}
	opt := train.Options{System: o.System, TrainPath: o.Train, DevPath: o.Dev, TestPath: o.Test,
		Name: o.Name, Epochs: o.Epochs, TaggerEpochs: o.TaggerEpochs, Folds: o.Folds,
		MaxSentences: o.MaxSentences, Seed: o.Seed, PseudoProjective: o.PseudoProjective,
		GoldOnly: o.GoldOnly, MinUpdates: o.MinUpdates, PlainRuns: o.PlainRuns,
		WeightBits: o.WeightBits, GoldTemplates: o.GoldTemplates, PlainTemplates: o.PlainTemplates,
		GoldFastTemplates: o.GoldFast, PlainFastTemplates: o.PlainFast}
	if o.MinAbs != nil {
		opt.MinAbs = *o.MinAbs
	}
	if o.PlainMinAbs != nil {
		opt.PlainMinAbs = *o.PlainMinAbs
	}
	if o.Explore != nil {
		opt.Explore = *o.Explore
	}
	if o.FastMaxLoss != nil {
		opt.FastMaxLoss = *o.FastMaxLoss
	}
	if err := opt.Check(); err != nil {
		return train.Options{}, "", argErr("options: %v", err)
	}
	return opt, o.Output, nil
}
