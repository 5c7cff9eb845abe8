package main

/*
#include "internal.h"
*/
import "C"

import (
	"encoding/json"
	"errors"
	"strings"
	"unsafe"

	"github.com/transparse/transparse/parser/train"
	"github.com/transparse/transparse/parser/transition"
)

//export tpgo_systems
func tpgo_systems(out **C.char, msg **C.char) C.int {
	return call("tp_systems", msg, C.TP_ERR_INTERNAL, func() error { return systems(out) })
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
func tpgo_train(options *C.char, out *C.uintptr_t, msg **C.char) C.int {
	return call("tp_train", msg, C.TP_ERR_INPUT, func() error { return trainModel(options, nil, nil, out) })
}

//export tpgo_train_with_progress
func tpgo_train_with_progress(options *C.char, progress C.tp_progress_fn, user unsafe.Pointer, out *C.uintptr_t, msg **C.char) C.int {
	return call("tp_train_with_progress", msg, C.TP_ERR_INPUT, func() error { return trainModel(options, progress, user, out) })
}

// errCanceled is the error of a training stopped by the caller's callback.
var errCanceled = &apiError{C.TP_ERR_CANCELED, "canceled by the progress callback"}

func trainModel(options *C.char, progress C.tp_progress_fn, user unsafe.Pointer, out *C.uintptr_t) error {
	if options == nil {
		return argErr("options is NULL")
	}
	if out == nil {
		return argErr("model is NULL")
	}
	opt, err := parseTrainOptions(C.GoString(options))
	if err != nil {
		return err
	}
	if progress != nil {
		opt.Progress = func(p train.Progress) error {
			if callProgress(progress, user, p) != 0 {
				return errCanceled
			}
			return nil
		}
	}
	defer growing()()
	m, err := train.Train(opt)
	if err != nil {
		return trainError(err)
	}
	h, err := register(m)
	if err != nil {
		return err
	}
	*out = C.uintptr_t(h)
	return nil
}

// trainError translates an error of train.Train: an option error is an
// argument error, a stop asked by the callback TP_ERR_CANCELED.
func trainError(err error) error {
	var oe *train.OptionError
	switch {
	case errors.Is(err, errCanceled):
		return errCanceled
	case errors.As(err, &oe):
		return argErr("%v", err)
	}
	return err
}

// callProgress passes p to the caller's callback.
func callProgress(fn C.tp_progress_fn, user unsafe.Pointer, p train.Progress) C.int {
	phase := C.CString(p.Phase)
	defer C.free(unsafe.Pointer(phase))
	cp := C.tp_progress{phase: phase, epoch: C.int(p.Epoch), epochs: C.int(p.Epochs),
		done: C.int64_t(p.Done), total: C.int64_t(p.Total), dev_uas: C.double(p.DevUAS), dev_las: C.double(p.DevLAS)}
	if p.EpochEnd {
		cp.epoch_end = 1
	}
	if p.Best {
		cp.best = 1
	}
	return C.tp__call_progress(fn, &cp, user)
}

//export tpgo_model_save
func tpgo_model_save(h C.uintptr_t, path *C.char, msg **C.char) C.int {
	return call("tp_model_save", msg, C.TP_ERR_IO, func() error { return modelSave(h, path) })
}

func modelSave(h C.uintptr_t, path *C.char) error {
	if h == 0 {
		return argErr("model is NULL")
	}
	if path == nil {
		return argErr("path is NULL")
	}
	return withModel(h, func(e *modelEntry) error { return e.model.Save(C.GoString(path)) })
}

// parseTrainOptions decodes tp_train's JSON options into train.Options
// (from train.DefaultOptions; unknown keys are an error, an argument
// error). Train checks them.
func parseTrainOptions(js string) (train.Options, error) {
	opt := train.DefaultOptions()
	dec := json.NewDecoder(strings.NewReader(js))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&opt); err != nil {
		return train.Options{}, argErr("options: %v", err)
	}
	if dec.More() {
		return train.Options{}, argErr("options: more than one JSON value")
	}
	return opt, nil
}
