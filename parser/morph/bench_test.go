package morph

import (
	"testing"
	"time"
)

// BenchmarkAnnotateEWT lemmatizes and tags FEATS for the EWT development
// set, from gold UPOS and XPOS, with models trained on the EWT training
// set (trained once, outside the timing). It reports words per second on
// one goroutine.
func BenchmarkAnnotateEWT(b *testing.B) {
	train := readUD(b, "en_ewt-ud-train.conllu")
	dev := readUD(b, "en_ewt-ud-dev.conllu")
	l, f := trainBoth(b, train)
	words := 0
	for _, s := range dev {
		words += len(s.Words)
	}
	var lemmas, feats []string
	b.ResetTimer()
	start := time.Now()
	for b.Loop() {
		for _, s := range dev {
			lemmas = l.Lemmas(s.Words, lemmas)
			feats = f.Feats(s.Words, feats)
		}
	}
	b.ReportMetric(float64(words*b.N)/time.Since(start).Seconds(), "words/s")
}
