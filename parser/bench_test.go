package parser

import (
	"runtime"
	"testing"

	"github.com/transparse/transparse/internal/testenv"
	"github.com/transparse/transparse/parser/conllu"
)

// benchModel is the model used by the benchmarks: $TRANSPARSE_MODEL or the
// bundled one.
func benchModel(b *testing.B) *Model {
	m, err := Load(testenv.ModelPath())
	if err != nil {
		b.Skipf("no model: %v", err)
	}
	return m
}

func benchSentences(b *testing.B, strip bool) ([]*conllu.Sentence, int) {
	sents, err := conllu.ReadFile(testenv.UDFile(b, "en_ewt-ud-test.conllu"))
	if err != nil {
		b.Fatal(err)
	}
	n := 0
	for _, s := range sents {
		if strip {
			s.StripTags()
		}
		n += len(s.Words)
	}
	return sents, n
}

func benchParse(b *testing.B, strip bool) {
	m := benchModel(b)
	sents, n := benchSentences(b, strip)
	words := make([][]conllu.Word, len(sents))
	for k, s := range sents {
		words[k] = make([]conllu.Word, len(s.Words))
	}
	// One warm-up pass grows the pooled per-call scratch; after it a parse
	// allocates nothing (allocs/op counts a whole pass over the test set).
	for k, s := range sents {
		copy(words[k], s.Words)
		if err := m.Parse(words[k]); err != nil {
			b.Fatal(err)
		}
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	b.ReportAllocs()
	b.ResetTimer()
	cpu := testenv.ThreadCPU()
	for i := 0; i < b.N; i++ {
		for k, s := range sents {
			copy(words[k], s.Words)
			if err := m.Parse(words[k]); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "words/s")
	// The thread's CPU time, steadier than the wall clock on a busy machine.
	b.ReportMetric(float64(testenv.ThreadCPU()-cpu)/float64(n)/float64(b.N), "cpu-ns/word")
}

// BenchmarkParseGoldTags parses EWT test with its gold UPOS/XPOS/FEATS/LEMMA.
func BenchmarkParseGoldTags(b *testing.B) { benchParse(b, false) }

// BenchmarkParsePlainTokens parses EWT test from forms only (tagging included).
func BenchmarkParsePlainTokens(b *testing.B) { benchParse(b, true) }
