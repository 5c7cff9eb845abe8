package linear_test

import (
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/transparse/transparse/internal/testenv"

	"github.com/transparse/transparse/parser/conllu"
	"github.com/transparse/transparse/parser/feature"
	"github.com/transparse/transparse/parser/linear"
	"github.com/transparse/transparse/parser/tagger"
	"github.com/transparse/transparse/parser/transition"
)

// The benchmarks and tests of this file use the bundled model
// (../../models/en_ewt.tpm, or $TRANSPARSE_MODEL) and EWT test; they skip
// when either is missing (and fail when $CI is set).

func ewtTest(tb testing.TB) []*conllu.Sentence {
	tb.Helper()
	sents, err := conllu.ReadFile(testenv.UDFile(tb, "en_ewt-ud-test.conllu"))
	if err != nil {
		tb.Fatal(err)
	}
	return sents
}

// recording is the feature vectors of the parser states visited by a
// greedy parse of every sample-th sentence of EWT test with the bundled
// model, flattened: vector i is feats[i*width : (i+1)*width].
type recording struct {
	clf   *linear.Model
	width int
	feats []uint64
}

func (r *recording) vectors() int { return len(r.feats) / r.width }

var recordings sync.Map // name and sample -> *recording

// record parses every sample-th sentence of EWT test with the classifier
// name ("parser.gold" with the gold tags, "parser.plain" with the tags and
// ambiguity classes of the bundled taggers) and records the features of
// every state. A sample of 1/8 of the sentences keeps the recording (about
// 6 MB) in proportion to what a parser touches besides the model, so that
// the model's table, not the recording, decides what stays in the caches.
func record(tb testing.TB, name string, sample int) *recording {
	tb.Helper()
	type key struct {
		name   string
		sample int
	}
	if r, ok := recordings.Load(key{name, sample}); ok {
		return r.(*recording)
	}
	doc := testenv.BundledDoc(tb)
	c := testenv.Classifier(tb, name)
	clf, err := linear.FromClassifier(c)
	if err != nil {
		tb.Fatal(err)
	}
	sys, err := transition.Lookup(doc.System)
	if err != nil {
		tb.Fatal(err)
	}
	classes := transition.NewClasses(sys, doc.Strings["deprels"], int32(doc.Params["root_deprel"]))
	// The parser's model loader picks the feature hash version the same way.
	hash := int64(feature.HashV1)
	if h, ok := c.Params["feature_hash"]; ok {
		hash = h
	}
	ext, err := feature.NewVersion(c.Templates, int(hash))
	if err != nil {
		tb.Fatal(err)
	}
	morph := name == "parser.gold"
	var upos, xpos *tagger.Tagger
	if !morph {
		if upos, err = tagger.FromDocument(testenv.BundledDoc(tb).Classifiers, tagger.UPOS); err != nil {
			tb.Fatal(err)
		}
		if xpos, err = tagger.FromDocument(testenv.BundledDoc(tb).Classifiers, tagger.XPOS); err != nil {
			tb.Fatal(err)
		}
	}
	r := &recording{clf: clf, width: ext.Len()}
	var (
		st     transition.State
		words  feature.Words
		fsc    feature.Scratch
		scores = make([]float32, classes.Len())
		legal  = make([]bool, classes.Len())
	)
	for k, s := range ewtTest(tb) {
		if k%sample != 0 {
			continue
		}
		ws := append([]conllu.Word(nil), s.Words...)
		if !morph {
			for i := range ws {
				ws[i].UPOS, ws[i].XPOS, ws[i].Lemma, ws[i].Feats = "_", "_", "_", "_"
			}
			upos.Tag(ws)
			xpos.Tag(ws)
		}
		feature.FillWords(&words, ws, morph)
		if !morph {
			for i := range ws {
				v := &words.Values[i+1]
				v[feature.A], v[feature.AX] = upos.AmbiguityClass(ws[i].Form), xpos.AmbiguityClass(ws[i].Form)
			}
		}
		sys.Init(&st, len(ws))
		for bound := sys.MaxTransitions(len(ws)); !sys.Terminal(&st) && st.Steps < bound; {
			feats := ext.Extract(&st, &words, &fsc)
			r.feats = append(r.feats, feats...)
			clf.Scores(feats, scores)
			classes.Legal(&st, legal)
			best := transition.Best(scores, legal)
			if best < 0 {
				break
			}
			transition.Step(sys, &st, classes.AttachLabel(&st, classes.Transition(best), scores))
		}
	}
	recordings.Store(key{name, sample}, r)
	return r
}

// BenchmarkScoresEWT measures Model.Scores of the bundled parser
// classifiers on the feature vectors of real parser states (see record), in
// ns per call (ns/op is wall time per call; cpu-ns/op the thread's CPU time
// per call, steadier on a shared machine).
func BenchmarkScoresEWT(b *testing.B) {
	for _, name := range []string{"parser.gold", "parser.plain"} {
		b.Run(name, func(b *testing.B) {
			r := record(b, name, 8)
			scores := make([]float32, r.clf.NumClasses())
			n := r.vectors()
			cpu := testenv.Bench(b, func(i int) {
				j := i % n
				r.clf.Scores(r.feats[j*r.width:(j+1)*r.width], scores)
			})
			b.ReportMetric(float64(cpu)/float64(b.N), "cpu-ns/op")
		})
	}
}

// BenchmarkFromClassifier measures decoding each linear classifier of the
// bundled model (the msgpack document is decoded once, beforehand).
func BenchmarkFromClassifier(b *testing.B) {
	for _, name := range []string{"parser.gold", "parser.plain", "tagger.upos", "tagger.xpos", "parser.gold.fast", "parser.plain.fast", "tagger.upos.fast", "tagger.xpos.fast"} {
		b.Run(name, func(b *testing.B) {
			c := testenv.Classifier(b, name)
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			b.ReportAllocs()
			b.ResetTimer()
			cpu := testenv.ThreadCPU()
			for i := 0; i < b.N; i++ {
				if _, err := linear.FromClassifier(c); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(testenv.ThreadCPU()-cpu)/float64(b.N)/1e6, "cpu-ms/op")
		})
	}
}

// TestBundledModelStats logs the shape of the bundled parser classifiers
// as the parser uses them: the share of looked-up features that are known,
// and the mean row length per looked-up known feature. It also checks
// that decoding, re-encoding and decoding again scores the recorded
// vectors identically.
func TestBundledModelStats(t *testing.T) {
	for _, name := range []string{"parser.gold", "parser.plain"} {
		start := time.Now()
		if _, err := linear.FromClassifier(testenv.Classifier(t, name)); err != nil {
			t.Fatal(err)
		}
		load := time.Since(start)
		sample := 8
		if testenv.Race {
			sample = 64 // the race detector makes parsing 10 times slower
		}
		r := record(t, name, sample)
		t.Logf("%s: %d features, %d weights, load %v; %d recorded vectors of %d features",
			name, r.clf.NumFeatures(), r.clf.NumWeights(), load, r.vectors(), r.width)
		// Row lengths as seen by lookups: a single feature's non-zero
		// scores are its row (stored weights are never 0).
		known, lookups, entries := 0, 0, 0
		one := make([]float32, r.clf.NumClasses())
		for _, f := range r.feats[:min(len(r.feats), 2000*r.width)] {
			r.clf.Scores([]uint64{f}, one)
			lookups++
			n := 0
			for _, v := range one {
				if v != 0 {
					n++
				}
			}
			if n > 0 {
				known++
				entries += n
			}
		}
		t.Logf("%s: %.1f%% of lookups find a row; %.1f entries per row found",
			name, 100*float64(known)/float64(lookups), float64(entries)/float64(max(known, 1)))
		if known < lookups/2 {
			// Measured 80 %: fewer means the recording's features are
			// not the model's (a different feature hash).
			t.Errorf("%s: only %d of %d lookups find a row", name, known, lookups)
		}
		c := r.clf.Classifier(name, nil, nil)
		m2, err := linear.FromClassifier(&c)
		if err != nil {
			t.Fatal(err)
		}
		s1 := make([]float32, r.clf.NumClasses())
		s2 := make([]float32, r.clf.NumClasses())
		for j := 0; j < r.vectors(); j++ {
			f := r.feats[j*r.width : (j+1)*r.width]
			r.clf.Scores(f, s1)
			m2.Scores(f, s2)
			for k := range s1 {
				if s1[k] != s2[k] {
					t.Fatalf("%s: vector %d: class %d scores %v after a round trip, %v before", name, j, k, s2[k], s1[k])
				}
			}
		}
	}
}
