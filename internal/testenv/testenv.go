// Package testenv is what the tests and benchmarks of several packages
// share: the bundled model's document, skipping (or, in CI, failing) when
// data is missing, skipping the experiments unless built with -tags
// experiment, and a steadier clock for benchmarks. Only tests import it.
package testenv

import (
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"

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

// Experiment skips tb unless the test binary was built with -tags
// experiment. It marks the measurements and long runs that the ordinary
// test run leaves out: they train or parse whole treebanks, or run for
// hours, and are run one at a time when a change needs their figures
// (docs/benchmarks.md lists them). They are compiled in every build, so
// that they keep up with the code they measure.
func Experiment(tb testing.TB) {
	tb.Helper()
	if !experiment {
		tb.Skip("an experiment: run it with go test -tags experiment")
	}
}

// UDDir is $TRANSPARSE_UD_DIR, or the shared Universal Dependencies
// treebanks beside the repository (shared/data/ud next to its root).
func UDDir() string {
	if d := os.Getenv("TRANSPARSE_UD_DIR"); d != "" {
		return d
	}
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..", "shared", "data", "ud")
}

// UDFile returns the path of the treebank file name (e.g.
// "en_ewt-ud-dev.conllu") in UDDir, or skips tb when it is missing (fails
// it when $CI is set).
func UDFile(tb testing.TB, name string) string {
	tb.Helper()
	p := filepath.Join(UDDir(), name)
	if _, err := os.Stat(p); err != nil {
		SkipOrFail(tb, "no UD data: %v", err)
	}
	return p
}

// UDFiles returns the paths of the files of UDDir that match pattern
// (filepath.Match syntax), or skips tb when there are none (fails it when
// $CI is set).
func UDFiles(tb testing.TB, pattern string) []string {
	tb.Helper()
	files, _ := filepath.Glob(filepath.Join(UDDir(), pattern))
	if len(files) == 0 {
		SkipOrFail(tb, "no UD data: no %s in %s", pattern, UDDir())
	}
	return files
}

// Fixture returns the path of a committed UD test fixture, testdata/ud/name
// at the repository root (e.g. "en_ewt-dev-slice.conllu"; testdata/ud/README.md
// says where it comes from). It fails tb when the file is missing: fixtures
// are part of the repository, so tests that use them never skip.
func Fixture(tb testing.TB, name string) string {
	tb.Helper()
	_, file, _, _ := runtime.Caller(0)
	p := filepath.Join(filepath.Dir(file), "..", "..", "testdata", "ud", name)
	if _, err := os.Stat(p); err != nil {
		tb.Fatalf("test fixture missing: %v", err)
	}
	return p
}

// UDFilesOrFixture returns the paths of the files of UDDir that match
// pattern, for tests that check every sentence of the full treebanks. When
// there are none it fails tb if $CI is set, and otherwise returns the
// committed EWT slice (Fixture "en_ewt-dev-slice.conllu"), so that such a
// test still runs, on fewer sentences, in a clone without the treebanks.
func UDFilesOrFixture(tb testing.TB, pattern string) []string {
	tb.Helper()
	files, _ := filepath.Glob(filepath.Join(UDDir(), pattern))
	if len(files) > 0 {
		return files
	}
	if os.Getenv("CI") != "" {
		tb.Fatalf("no UD data: no %s in %s", pattern, UDDir())
	}
	tb.Logf("no %s in %s: using the committed EWT slice instead", pattern, UDDir())
	return []string{Fixture(tb, "en_ewt-dev-slice.conllu")}
}

// UDTool returns the path of a program of UD's official tools ("udvalidate",
// the validator; "udeval", the CoNLL 2018 shared task's scorer) in the
// cache that scripts/validate.sh installs them into:
// $TRANSPARSE_UDTOOLS_CACHE, else ${XDG_CACHE_HOME:-$HOME/.cache}/transparse/udtools.
// It skips tb when the program is not there: tests do not fetch it.
func UDTool(tb testing.TB, name string) string {
	tb.Helper()
	cache := os.Getenv("TRANSPARSE_UDTOOLS_CACHE")
	if cache == "" {
		base := os.Getenv("XDG_CACHE_HOME")
		if base == "" {
			home, err := os.UserHomeDir()
			if err != nil {
				tb.Skipf("no cache directory for UD's tools: %v", err)
			}
			base = filepath.Join(home, ".cache")
		}
		cache = filepath.Join(base, "transparse", "udtools")
	}
	p := filepath.Join(cache, "venv", "bin", name)
	if _, err := os.Stat(p); err != nil {
		tb.Skipf("UD's %s is not at %s (scripts/validate.sh --setup installs it)", name, p)
	}
	return p
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

// Bench runs pass(i) for i in 0..b.N-1 on one locked OS thread, timed
// from its first call, with allocations reported, and returns the CPU
// time the thread spent (steadier than the wall clock on a busy machine).
func Bench(b *testing.B, pass func(i int)) time.Duration {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	b.ReportAllocs()
	b.ResetTimer()
	cpu := ThreadCPU()
	for i := 0; i < b.N; i++ {
		pass(i)
	}
	return ThreadCPU() - cpu
}

// BenchWords is Bench for passes that handle different numbers of words:
// pass(i) returns how many it handled. It reports words/s on the wall
// clock and cpu-ns/word of the thread over all passes.
func BenchWords(b *testing.B, pass func(i int) int) {
	n := 0
	cpu := Bench(b, func(i int) { n += pass(i) })
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "words/s")
	b.ReportMetric(float64(cpu)/float64(n), "cpu-ns/word")
}

// ReportWords reports words/s on the wall clock and cpu-ns/word of the
// thread, for a benchmark whose passes each handle words words and took
// cpu (Bench's result).
func ReportWords(b *testing.B, words int, cpu time.Duration) {
	n := float64(words) * float64(b.N)
	b.ReportMetric(n/b.Elapsed().Seconds(), "words/s")
	b.ReportMetric(float64(cpu)/n, "cpu-ns/word")
}
