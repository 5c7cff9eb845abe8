package morph

import (
	"runtime"
	"testing"

	"github.com/transparse/transparse/internal/testenv"
)

// BenchmarkAnnotateEWT lemmatizes and tags FEATS for the EWT development
// set, one sentence per iteration, from gold UPOS and XPOS (the FEATS
// tagger reading the set's LEMMA column, as it reads predicted lemmas in a
// model's pipeline), with models
// trained on the EWT training set (once, outside the timing), on one
// goroutine: words/s on the wall clock and cpu-ns/word of the thread.
func BenchmarkAnnotateEWT(b *testing.B) {
	train := readUD(b, "en_ewt-ud-train.conllu")
	dev := readUD(b, "en_ewt-ud-dev.conllu")
	l, f := trainBoth(b, train)
	var lemmas, feats []string
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	b.ReportAllocs()
	b.ResetTimer()
	cpu := testenv.ThreadCPU()
	n := 0
	for i := 0; i < b.N; i++ {
		ws := dev[i%len(dev)].Words
		lemmas = l.Lemmas(ws, lemmas)
		feats = f.Feats(ws, feats)
		n += len(ws)
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "words/s")
	b.ReportMetric(float64(testenv.ThreadCPU()-cpu)/float64(n), "cpu-ns/word")
}
