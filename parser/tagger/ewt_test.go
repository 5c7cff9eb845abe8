package tagger

import (
	"bytes"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/golang/snappy"
	"github.com/vmihailenco/msgpack/v5"

	"github.com/transparse/transparse/internal/testenv"
	"github.com/transparse/transparse/parser/conllu"
)

func readEWT(t testing.TB, split string) []*conllu.Sentence {
	s, err := conllu.ReadFile(testenv.UDFile(t, "en_ewt-ud-"+split+".conllu"))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// compressedSize is the size of the tagger's classifier as msgpack, and
// compressed with snappy's framing format as in a model file.
func compressedSize(t testing.TB, tg *Tagger) (raw, compressed int) {
	c := tg.Classifier()
	b, err := msgpack.Marshal(&c)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	w := snappy.NewBufferedWriter(&buf)
	if _, err := w.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return len(b), buf.Len()
}

// cpuTime is the user+system CPU time of the process.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// TestEWTFull trains the UPOS and the XPOS tagger (one subtest each) on
// all of EWT train with the default options and the bundled model's word
// clusters, and reports the training time, dev and test accuracy,
// classifier size and tagging speed. It is an experiment
// (testenv.Experiment); run one tagger with
//
//	go test -tags experiment -run 'EWTFull/UPOS' -v ./parser/tagger/
func TestEWTFull(t *testing.T) {
	testenv.Experiment(t)
	clusters := bundledTagger(t, "UPOS").clusters
	for _, col := range []string{"UPOS", "XPOS"} {
		t.Run(col, func(t *testing.T) { ewtFull(t, Options{Seed: 1, Log: os.Stderr, Column: col, Clusters: clusters}) })
	}
}

// ewtFull trains a tagger with opt on EWT train and reports it as
// TestEWTFull says.
func ewtFull(t *testing.T, opt Options) {
	train, dev := readEWT(t, "train"), readEWT(t, "dev")
	start := time.Now()
	tg, err := Train(train, dev, opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("training time %.1f s (wall)", time.Since(start).Seconds())
	acc, n := tg.Accuracy(dev)
	t.Logf("dev %s %.2f%% (%d words)", tg.Column(), 100*acc, n)
	raw, comp := compressedSize(t, tg)
	t.Logf("classifier: %d features, %d weights, %d dictionary entries; msgpack %d bytes, snappy-framed %d bytes",
		tg.model.NumFeatures(), tg.model.NumWeights(), tg.dict.n, raw, comp)

	var bufs [][]conllu.Word
	words := 0
	for _, s := range dev {
		bufs = append(bufs, append([]conllu.Word(nil), s.Words...))
		words += len(s.Words)
	}
	var bestWall, bestCPU float64
	for r := 0; r < 10; r++ {
		start, c0 := time.Now(), cpuTime()
		for _, b := range bufs {
			tg.Tag(b)
		}
		bestWall = max(bestWall, float64(words)/time.Since(start).Seconds())
		bestCPU = max(bestCPU, float64(words)/(cpuTime()-c0).Seconds())
	}
	t.Logf("tagging speed, one goroutine, best of 10 passes over dev: %.0f words/s (wall), %.0f words per CPU second", bestWall, bestCPU)
	acc, n = tg.Accuracy(readEWT(t, "test"))
	t.Logf("test %s %.2f%% (%d words)", tg.Column(), 100*acc, n)
}
