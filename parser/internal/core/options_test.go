package core

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/transparse/transparse/internal/testenv"
	"github.com/transparse/transparse/parser/conllu"
	"github.com/transparse/transparse/parser/tree"
)

// fixtureSentences returns the sentences of every committed UD fixture,
// each once as given (gold tags) and once with its tags blanked (plain
// tokens).
func fixtureSentences(t *testing.T) (gold, plain [][]conllu.Word) {
	t.Helper()
	for _, name := range []string{"en_ewt-dev-slice.conllu", "en_ewt-dev-40.conllu", "en_ewt-train-150.conllu"} {
		sents, err := conllu.ReadFile(testenv.Fixture(t, name))
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range sents {
			gold = append(gold, slices.Clone(s.Words))
			s.StripTags()
			plain = append(plain, slices.Clone(s.Words))
		}
	}
	return gold, plain
}

// TestOptionsK1IsParse: at K = 1 (and 0), with confidences and the one
// best tree asked or not, ParseWithOptions writes into the words exactly
// what Parse writes, every column, with gold tags and from plain tokens;
// Trees[0] is that tree and the confidences are in [0, 1].
func TestOptionsK1IsParse(t *testing.T) {
	if testenv.Race {
		t.Skip("computes only, over every fixture sentence: checked without -race")
	}
	m := testModel(t)
	gold, plain := fixtureSentences(t)
	var r Result
	for _, opt := range []Options{{}, {Beam: 1}, {Beam: 1, Confidence: true, KBest: 1}, {Confidence: true}} {
		for k, s := range append(gold, plain...) {
			want := slices.Clone(s)
			if err := m.Parse(want); err != nil {
				t.Fatal(err)
			}
			got := slices.Clone(s)
			if err := m.ParseWithOptions(got, opt, &r); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("%+v: sentence %d: ParseWithOptions gives %v, Parse %v", opt, k, got, want)
			}
			if (r.Confidence != nil) != opt.Confidence || len(r.Trees) != opt.KBest {
				t.Fatalf("%+v: sentence %d: %d confidences, %d trees", opt, k, len(r.Confidence), len(r.Trees))
			}
			checkOptionsResult(t, got, &r, opt)
		}
	}
}

// checkOptionsResult checks r for the parsed words: one confidence in
// [0, 1] per word when asked, distinct trees best first, Trees[0] the
// words' tree, every tree a tree.
func checkOptionsResult(t *testing.T, words []conllu.Word, r *Result, opt Options) {
	t.Helper()
	if opt.Confidence && len(r.Confidence) != len(words) {
		t.Fatalf("%d confidences for %d words", len(r.Confidence), len(words))
	}
	for i, c := range r.Confidence {
		if !(c >= 0 && c <= 1) {
			t.Fatalf("word %d: confidence %v", i+1, c)
		}
	}
	if opt.KBest > 0 && len(r.Trees) == 0 || len(r.Trees) > opt.KBest {
		t.Fatalf("%d trees for KBest %d", len(r.Trees), opt.KBest)
	}
	for j, tr := range r.Trees {
		if len(tr.Head) != len(words) || len(tr.Deprel) != len(words) {
			t.Fatalf("tree %d has %d heads, %d deprels for %d words", j, len(tr.Head), len(tr.Deprel), len(words))
		}
		h := []int32{-1}
		for i := range words {
			h = append(h, int32(tr.Head[i]))
			if tr.Deprel[i] == "" {
				t.Fatalf("tree %d word %d: no deprel", j, i+1)
			}
			if j == 0 && (tr.Head[i] != words[i].Head || tr.Deprel[i] != words[i].Deprel) {
				t.Fatalf("word %d: Trees[0] has %d %s, the words %d %s", i+1, tr.Head[i], tr.Deprel[i], words[i].Head, words[i].Deprel)
			}
		}
		if err := tree.Check(h); err != nil {
			t.Fatalf("tree %d: %v", j, err)
		}
		if j > 0 && tr.Score > r.Trees[j-1].Score {
			t.Fatalf("tree %d scores %v above tree %d's %v", j, tr.Score, j-1, r.Trees[j-1].Score)
		}
		for i := range j {
			if slices.Equal(tr.Head, r.Trees[i].Head) && slices.Equal(tr.Deprel, r.Trees[i].Deprel) {
				t.Fatalf("trees %d and %d are the same", i, j)
			}
		}
	}
}

// TestOptionsBeamTrees: with a beam (K = 4 and 8), every sentence of the
// committed fixtures, with gold tags and from plain tokens, gets a
// well-formed tree, its k best trees and confidences; the columns other
// than HEAD and DEPREL are those Parse gives (the same completion of the
// annotation; predicted FEATS chosen again from the beam's tree and
// agreeing with its subjects), and
// K = 8 gets up to 8 distinct trees.
func TestOptionsBeamTrees(t *testing.T) {
	if testenv.Race {
		t.Skip("computes only, beam searches of every fixture sentence: checked without -race")
	}
	m := testModel(t)
	gold, plain := fixtureSentences(t)
	var r Result
	for _, k := range []int{4, 8} {
		opt := Options{Beam: k, KBest: k, Confidence: true}
		more := 0
		for n, s := range append(gold, plain...) {
			got := slices.Clone(s)
			if err := m.ParseWithOptions(got, opt, &r); err != nil {
				t.Fatal(err)
			}
			if err := checkTree(got); err != nil {
				t.Fatalf("K=%d sentence %d: %v", k, n, err)
			}
			// The annotation Parse completes before parsing, then, with
			// the beam's tree, predicted FEATS chosen again and agreeing
			// with the subjects as Parse does it.
			want := slices.Clone(s)
			_, sc, err := m.prepare(want)
			if err != nil {
				t.Fatal(err)
			}
			for i := range want {
				want[i].Head, want[i].Deprel, want[i].Deps = got[i].Head, got[i].Deprel, "_" // as Model.write
			}
			m.taggers.refine(want, &sc.tags)
			m.pool.Put(sc)
			for i := range got {
				g, w := got[i], want[i]
				g.Head, g.Deprel, w.Head, w.Deprel = 0, "", 0, ""
				if g != w {
					t.Fatalf("K=%d sentence %d word %d: %+v, Parse gives %+v", k, n, i+1, got[i], want[i])
				}
			}
			checkOptionsResult(t, got, &r, opt)
			if len(r.Trees) > 1 {
				more++
			}
			alone := slices.Clone(s)
			if err := m.ParseWithOptions(alone, Options{Beam: k}, nil); err != nil || !slices.Equal(alone, got) {
				t.Fatalf("K=%d sentence %d: without a result: %v, another tree", k, n, err)
			}
		}
		if more == 0 {
			t.Fatalf("K=%d: no sentence has more than one tree", k)
		}
	}
}

// TestOptionsErrors: bad options are refused with ErrOptions before the
// words are looked at, and nothing is written into them.
func TestOptionsErrors(t *testing.T) {
	m := testModel(t)
	var r Result
	for _, opt := range []Options{{Beam: -1}, {Beam: MaxBeam + 1}, {Beam: 4, KBest: 5}, {KBest: 2}, {KBest: -1}, {Temperature: -1}, {Accurate: true, KBest: 1}, {Beam: 8, Accurate: true, KBest: 1}} {
		words := []conllu.Word{{Form: "Hello"}}
		err := m.ParseWithOptions(words, opt, &r)
		if !errors.Is(err, ErrOptions) {
			t.Fatalf("%+v: got %v, want ErrOptions", opt, err)
		}
		if words[0].Head != 0 || words[0].Deprel != "" {
			t.Fatalf("%+v: the words were parsed", opt)
		}
	}
	if err := m.ParseWithOptions([]conllu.Word{{Form: "Hello"}}, Options{Beam: 2, Confidence: true}, nil); !errors.Is(err, ErrOptions) {
		t.Fatalf("confidences without a result: got %v", err)
	}
	if err := m.ParseWithOptions(nil, Options{Beam: 2}, &r); !errors.Is(err, ErrInput) {
		t.Fatalf("empty sentence: got %v, want ErrInput", err)
	}
}

// TestBeamNeedsBeamClassifiers: the model without its classifiers trained
// for the beam refuses a width above 1 (ResolveOptions, ParseWithOptions,
// Calibrate) with ErrOptions, the words untouched; it parses at width 1
// and at its default width, 1; the model with them takes any width.
func TestBeamNeedsBeamClassifiers(t *testing.T) {
	m := testModel(t)
	g := withoutBeam(m)
	if g.HasBeam() || g.DefaultBeam() != 1 || g.TrainedBeam() != 0 {
		t.Fatalf("without beam classifiers: HasBeam %v, DefaultBeam %d, TrainedBeam %d", g.HasBeam(), g.DefaultBeam(), g.TrainedBeam())
	}
	const why = "no classifiers trained for the beam"
	var r Result
	for _, k := range []int{2, 8, MaxBeam} {
		if _, err := g.ResolveOptions(Options{Beam: k}); !errors.Is(err, ErrOptions) || !strings.Contains(err.Error(), why) {
			t.Errorf("ResolveOptions beam %d: %v", k, err)
		}
		words := []conllu.Word{{Form: "They"}, {Form: "left"}}
		if err := g.ParseWithOptions(words, Options{Beam: k, KBest: 2}, &r); !errors.Is(err, ErrOptions) || !strings.Contains(err.Error(), why) {
			t.Errorf("ParseWithOptions beam %d: %v", k, err)
		}
		if words[0].Head != 0 || words[0].UPOS != "" || words[1].Deprel != "" {
			t.Errorf("beam %d: the words were parsed: %+v", k, words)
		}
		if err := g.Calibrate(nil, k); !errors.Is(err, ErrOptions) {
			t.Errorf("Calibrate beam %d: %v", k, err)
		}
	}
	for _, k := range []int{0, 1} {
		opt, err := g.ResolveOptions(Options{Beam: k, Confidence: true})
		words := []conllu.Word{{Form: "They"}, {Form: "left"}}
		if err != nil || opt.Beam != 1 {
			t.Fatalf("ResolveOptions beam %d: %+v, %v", k, opt, err)
		}
		if err := g.ParseWithOptions(words, opt, &r); err != nil || len(r.Confidence) != 2 {
			t.Errorf("beam %d: %v, confidences %v", k, err, r.Confidence)
		}
	}
	if m.HasBeam() {
		if opt, err := m.ResolveOptions(Options{Beam: 8, KBest: 8}); err != nil || opt.Beam != 8 {
			t.Errorf("with beam classifiers, beam 8: %+v, %v", opt, err)
		}
	}
}

// withoutBeam returns m without its classifiers trained for the beam.
func withoutBeam(m *Model) *Model {
	gold, plain := m.gold, m.plain
	gold, plain = gold.WithoutBeam(), plain.WithoutBeam()
	gold.BeamConf, plain.BeamConf = nil, nil
	return Assemble(Parts{Card: m.card, Classes: m.classes, Gold: gold, Plain: plain, Taggers: m.taggers, PseudoProjective: m.pproj})
}
