package main

/*
#include "internal.h"
*/
import "C"

import (
	"errors"
	"slices"
	"unsafe"

	"github.com/transparse/transparse/parser"
	"github.com/transparse/transparse/parser/conllu"
)

// withModelState runs f with the model of hm, the state of hs (locked) and
// the n words of forms and tags, after checking that the state is of the
// model's system and class table.
func withModelState(hm, hs C.uintptr_t, forms **C.char, tags *C.tp_tags, n C.size_t,
	f func(m *parser.Model, st *stateEntry, words []conllu.Word) error) error {
	if hm == 0 {
		return argErr("model is NULL")
	}
	if forms == nil {
		return argErr("forms is NULL")
	}
	if err := checkWords(n); err != nil {
		return err
	}
	in := new(callScratch)
	if err := in.readWords(forms, int(n), tags, nil); err != nil {
		return err
	}
	return withModel(hm, func(e *modelEntry) error {
		return withState(hs, func(st *stateEntry) error {
			mc, c := e.model.Classes(), st.sys.classes
			if mc.Sys.Name() != c.Sys.Name() || !slices.Equal(mc.Deprels, c.Deprels) {
				return argErr("the state is not of the model's system: make its system with tp_system_new(%q, the deprels of tp_model_deprels, ...)", mc.Sys.Name())
			}
			return f(e.model, st, in.words)
		})
	})
}

// scorerErr turns an error of parser.Model.Features or Scores into the
// API's: a bad sentence is an input error, anything else (an unknown
// scorer, no fast classifier, a state of another length) an argument
// error.
func scorerErr(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, parser.ErrInput):
		return inputErr("%v", err)
	}
	return argErr("%v", err)
}

//export tpgo_state_features
func tpgo_state_features(hm C.uintptr_t, scorer C.int, hs C.uintptr_t, forms **C.char, tags *C.tp_tags, n C.size_t,
	ids *C.uint64_t, capacity C.size_t, length *C.size_t, msg **C.char) C.int {
	return call("tp_state_features", msg, C.TP_ERR_INTERNAL, func() error {
		if length == nil || (capacity > 0 && ids == nil) {
			return argErr("ids or len is NULL")
		}
		return withModelState(hm, hs, forms, tags, n, func(m *parser.Model, st *stateEntry, words []conllu.Word) error {
			fs, err := m.Features(parser.Scorer(scorer), &st.state, words)
			if err != nil {
				return scorerErr(err)
			}
			*length = C.size_t(len(fs))
			if len(fs) > int(capacity) {
				return argErr("%d features; capacity is %d", len(fs), capacity)
			}
			out := unsafe.Slice(ids, len(fs))
			for i, f := range fs {
				out[i] = C.uint64_t(f)
			}
			return nil
		})
	})
}

//export tpgo_state_scores
func tpgo_state_scores(hm C.uintptr_t, scorer C.int, hs C.uintptr_t, forms **C.char, tags *C.tp_tags, n C.size_t,
	scores *C.float, nClasses C.size_t, msg **C.char) C.int {
	return call("tp_state_scores", msg, C.TP_ERR_INTERNAL, func() error {
		if scores == nil {
			return argErr("scores is NULL")
		}
		return withModelState(hm, hs, forms, tags, n, func(m *parser.Model, st *stateEntry, words []conllu.Word) error {
			if int(nClasses) != m.Classes().Len() {
				return argErr("scores must hold the model's %d classes (got %d)", m.Classes().Len(), nClasses)
			}
			out := unsafe.Slice((*float32)(unsafe.Pointer(scores)), int(nClasses))
			return scorerErr(m.Scores(parser.Scorer(scorer), &st.state, words, out))
		})
	})
}
