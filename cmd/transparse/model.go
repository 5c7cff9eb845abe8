package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/transparse/transparse/internal/modelpath"
	"github.com/transparse/transparse/parser"
)

// ModelEnv is the environment variable that names the model to use when no
// -m flag is given.
const ModelEnv = modelpath.Env

// defaultModelFile is the default model, relative to the current directory.
var defaultModelFile = filepath.Join("models", modelpath.File)

// Hooks for tests.
var (
	getenv     = os.Getenv
	executable = os.Executable
)

// defaultModelPaths lists, in order, the places where the default model is
// looked for: the library's order (internal/modelpath) seen from the
// executable's directory, then models/en_ewt.tpm in the current directory.
func defaultModelPaths() []string {
	var paths []string
	if exe, err := executable(); err == nil {
		paths = modelpath.Candidates(modelpath.Dir(exe))
	}
	if abs, err := filepath.Abs(defaultModelFile); err == nil {
		return append(paths, abs)
	}
	return append(paths, defaultModelFile)
}

// resolveModel returns the model file to use: flag when given, else
// $TRANSPARSE_MODEL, else the first default model that exists. how says
// where the path came from, for messages.
func resolveModel(flag string) (path, how string, err error) {
	if flag != "" {
		return flag, "-m", nil
	}
	if p := getenv(ModelEnv); p != "" {
		return p, "$" + ModelEnv, nil
	}
	paths := defaultModelPaths()
	for _, p := range paths {
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
			return p, "default", nil
		}
	}
	return "", "", fmt.Errorf("no model given and no default model found; looked for:\n  %s\n"+
		"give a model with -m MODEL or set %s", strings.Join(paths, "\n  "), ModelEnv)
}

// loadModel resolves (see resolveModel) and loads a model. It returns the
// model and the path it was loaded from.
func loadModel(flag string) (*parser.Model, string, error) {
	path, how, err := resolveModel(flag)
	if err != nil {
		return nil, "", err
	}
	m, err := parser.Load(path)
	if err != nil {
		msg := "loading model"
		if !strings.Contains(err.Error(), path) { // Load's errors usually name it
			msg += " " + path
		}
		if how != "-m" {
			msg += " (from " + how + ")"
		}
		return nil, "", fmt.Errorf("%s: %w", msg, err)
	}
	return m, path, nil
}

// checkBeam refuses a beam width above 1, and the accurate mode, for a
// model without classifiers trained for the beam (parser.Model.HasBeam):
// its beam would parse worse than its greedy parser.
func checkBeam(m *parser.Model, k int, accurate bool) error {
	if k > 1 && !m.HasBeam() {
		return usage("invalid --beam %d: the model has no classifiers trained for the beam (transparse train --beam K); "+
			"parse it with --beam 1, the greedy parser", k)
	}
	if accurate && !m.HasBeam() {
		return usage("invalid --accurate: the model has no classifiers trained for the beam (transparse train --beam K), " +
			"whose tree the accurate mode revotes with the greedy parser's")
	}
	return nil
}
