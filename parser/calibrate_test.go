package parser_test

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/transparse/transparse/internal/testenv"
	"github.com/transparse/transparse/modelfmt"
	"github.com/transparse/transparse/parser"
	"github.com/transparse/transparse/parser/conllu"
	"github.com/transparse/transparse/parser/eval"
)

// arcConfidences parses sents (stripped to forms when plain) with opt
// and returns each word's confidence and whether its head and deprel
// (universal part) are right.
func arcConfidences(t *testing.T, m *parser.Model, sents []*conllu.Sentence, plain bool, opt parser.Options) (conf []float64, right []bool) {
	t.Helper()
	for _, s := range sents {
		words := append([]conllu.Word(nil), s.Words...)
		for i := range words {
			words[i].Head, words[i].Deprel = -1, "_"
			if plain {
				words[i].Lemma, words[i].UPOS, words[i].XPOS, words[i].Feats = "_", "_", "_", "_"
			}
		}
		r, err := m.Parse(words, &opt)
		if err != nil {
			t.Fatal(err)
		}
		for i, w := range words {
			conf = append(conf, r.Confidence[i])
			g := s.Words[i]
			right = append(right, w.Head == g.Head && eval.UniversalDeprel(w.Deprel) == eval.UniversalDeprel(g.Deprel))
		}
	}
	return conf, right
}

// document returns the model file of m, decoded.
func document(t *testing.T, m *parser.Model) *modelfmt.Model {
	t.Helper()
	data, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	doc, err := modelfmt.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// hasPart reports whether d has a classifier named name.
func hasPart(d *modelfmt.Model, name string) bool {
	return slices.ContainsFunc(d.Classifiers, func(c modelfmt.Classifier) bool { return c.Name == name })
}

// bundledSlice returns the bundled model (or skips, or fails under $CI)
// and the committed EWT dev slice.
func bundledSlice(t *testing.T) (*parser.Model, []*conllu.Sentence) {
	t.Helper()
	m := bundled()
	if m == nil {
		testenv.SkipOrFail(t, "no bundled model")
	}
	sents, err := conllu.ReadFile(testenv.Fixture(t, "en_ewt-dev-slice.conllu"))
	if err != nil {
		t.Fatal(err)
	}
	return m, sents
}

// TestCalibratedConfidenceRises: the bundled model has confidence
// calibrators for both parsers, and on the committed EWT dev slice the
// accuracy of the arcs rises from each fifth of the words by confidence
// to the next, from gold tags and from plain tokens; the calibrated
// probabilities are close to the accuracy they claim.
func TestCalibratedConfidenceRises(t *testing.T) {
	m, sents := bundledSlice(t)
	for _, plain := range []bool{false, true} {
		if name := map[bool]string{false: "parser.gold", true: "parser.plain"}[plain]; !hasPart(document(t, m), name+".confidence") {
			t.Fatalf("plain %v: the bundled model has no confidence calibrator", plain)
		}
		conf, right := arcConfidences(t, m, sents, plain, parser.Options{Confidence: true})
		acc := eval.AccuracyBins(conf, right, 5)
		t.Logf("plain %v: accuracy by confidence fifth %.1f", plain, acc)
		for b := 1; b < len(acc); b++ {
			if acc[b] <= acc[b-1] {
				t.Errorf("plain %v: accuracy by confidence fifth %.1f does not rise", plain, acc)
				break
			}
		}
		mean, n := 0.0, 0
		for i, c := range conf {
			mean += c
			if right[i] {
				n++
			}
		}
		mean, got := 100*mean/float64(len(conf)), 100*float64(n)/float64(len(conf))
		if math.Abs(mean-got) > 3 {
			t.Errorf("plain %v: mean confidence %.1f %%, but %.1f %% of the arcs are right", plain, mean, got)
		}
	}
}

// TestCalibrateSaveLoad: a model calibrated on some sentences keeps its
// calibrators through its model file, reports calibrated confidences
// (not the raw ones of an explicit temperature), and a model without
// calibrators reports the raw ones.
func TestCalibrateSaveLoad(t *testing.T) {
	if bundled() == nil {
		testenv.SkipOrFail(t, "no bundled model")
	}
	m, err := parser.Load(testenv.ModelPath())
	if err != nil {
		t.Fatal(err)
	}
	sents, err := conllu.ReadFile(testenv.Fixture(t, "en_ewt-dev-40.conllu"))
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Calibrate(sents, 2); err != nil {
		t.Fatal(err)
	}
	doc := document(t, m)
	for _, name := range []string{"parser.gold", "parser.plain"} {
		if !hasPart(doc, name+".confidence") || !hasPart(doc, name+".beam.confidence") {
			t.Fatalf("%s: calibrators missing after Calibrate", name)
		}
	}
	back, _ := saveLoad(t, m)
	raw := parser.Options{Confidence: true, Temperature: parser.DefaultTemperature}
	for _, k := range []int{1, 2} {
		opt := parser.Options{Beam: k, Confidence: true}
		a, _ := arcConfidences(t, m, sents[:10], false, opt)
		b, _ := arcConfidences(t, back, sents[:10], false, opt)
		raw.Beam = k
		c, _ := arcConfidences(t, back, sents[:10], false, raw)
		if fmt.Sprint(a) != fmt.Sprint(b) {
			t.Fatalf("K=%d: confidences %v before saving, %v after", k, a[:5], b[:5])
		}
		if fmt.Sprint(a) == fmt.Sprint(c) {
			t.Fatalf("K=%d: calibrated confidences are the raw ones", k)
		}
	}
	// Without calibrators: the raw confidence at the default temperature.
	kept := doc.Classifiers[:0]
	for _, c := range doc.Classifiers {
		if !strings.HasSuffix(c.Name, ".confidence") {
			kept = append(kept, c)
		}
	}
	doc.Classifiers = kept
	plainModel, err := parser.FromDocument(doc)
	if err != nil {
		t.Fatal(err)
	}
	raw.Beam = 1
	a, _ := arcConfidences(t, plainModel, sents[:10], false, parser.Options{Confidence: true})
	b, _ := arcConfidences(t, plainModel, sents[:10], false, raw)
	if fmt.Sprint(a) != fmt.Sprint(b) {
		t.Fatal("a model without calibrators does not report raw confidences")
	}
}
