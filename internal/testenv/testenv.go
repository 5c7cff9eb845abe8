// Package testenv is what the tests and benchmarks of several packages
// share: the bundled model's document, skipping (or, in CI, failing) when
// data is missing, and a steadier clock for benchmarks. Only tests import
// it.
package testenv

import (
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"

	"github.com/transparse/transparse/modelfmt"
)

// SkipOrFail skips the test, or fails it when $CI is set (CI has the data).
func SkipOrFail(tb testing.TB, format string, args ...any) {
	tb.Helper()
	if os.Getenv("CI") != "" {
		tb.Fatalf(format, args...)
	}
	tb.Skipf(format, args...)
}

// ModelPath is $TRANSPARSE_MODEL, or the bundled model models/en_ewt.tpm.
func ModelPath() string {
	if p := os.Getenv("TRANSPARSE_MODEL"); p != "" {
		return p
	}
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "models", "en_ewt.tpm")
}

var bundled struct {
	once sync.Once
	doc  *modelfmt.Model
	err  error
}

// BundledDoc returns the decoded document of the model at ModelPath,
// decoded once per test binary (callers must not modify it), or
// SkipOrFail.
func BundledDoc(tb testing.TB) *modelfmt.Model {
	tb.Helper()
	bundled.once.Do(func() { bundled.doc, bundled.err = modelfmt.ReadFile(ModelPath()) })
	if bundled.err != nil {
		SkipOrFail(tb, "no model: %v", bundled.err)
	}
	return bundled.doc
}

// Classifier returns the classifier of BundledDoc with the given name.
func Classifier(tb testing.TB, name string) *modelfmt.Classifier {
	tb.Helper()
	doc := BundledDoc(tb)
	for i := range doc.Classifiers {
		if doc.Classifiers[i].Name == name {
			return &doc.Classifiers[i]
		}
	}
	tb.Fatalf("the bundled model has no classifier %q", name)
	return nil
}
