package core

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/transparse/transparse/internal/testenv"
	"github.com/transparse/transparse/parser/conllu"
	"github.com/transparse/transparse/parser/eval"
	"github.com/transparse/transparse/parser/pseudoproj"
)

// accurateCheck parses a copy of s in the accurate mode with confidences
// and returns it, checking it against the beam's and the greedy parser's
// trees of s (parsed with confidences here): a well-formed tree, each
// word's arc one of the two parsers' arcs (head; the deprel one of theirs,
// or root for the root word), its confidence the beam's when the arc
// (head and deprel) is the beam's, else the greedy parser's when it is
// its, else 0; the tags those of the one tagging pass. It also returns
// the beam's parse.
func accurateCheck(t *testing.T, m *Model, s []conllu.Word, k int) (got, b []conllu.Word) {
	t.Helper()
	var r, rb, rg Result
	got, b, g := slices.Clone(s), slices.Clone(s), slices.Clone(s)
	if err := m.ParseWithOptions(got, Options{Accurate: true, Confidence: true}, &r); err != nil {
		t.Fatal(err)
	}
	if err := m.ParseWithOptions(b, Options{Beam: k, Confidence: true}, &rb); err != nil {
		t.Fatal(err)
	}
	if err := m.ParseWithOptions(g, Options{Beam: 1, Confidence: true}, &rg); err != nil {
		t.Fatal(err)
	}
	if err := checkTree(got); err != nil {
		t.Fatalf("%v: %v", got, err)
	}
	if len(r.Confidence) != len(s) || r.Trees != nil {
		t.Fatalf("%d confidences for %d words, %d trees", len(r.Confidence), len(s), len(r.Trees))
	}
	for i, w := range got {
		isB := w.Head == b[i].Head && w.Deprel == b[i].Deprel
		isG := w.Head == g[i].Head && w.Deprel == g[i].Deprel
		if w.Head != b[i].Head && w.Head != g[i].Head || !isB && !isG && w.Head != 0 {
			t.Fatalf("word %d: voted %d %s, beam %d %s, greedy %d %s", i+1, w.Head, w.Deprel, b[i].Head, b[i].Deprel, g[i].Head, g[i].Deprel)
		}
		want := 0.0
		if isB {
			want = rb.Confidence[i]
		} else if isG {
			want = rg.Confidence[i]
		}
		if r.Confidence[i] != want {
			t.Fatalf("word %d: confidence %v, want %v", i+1, r.Confidence[i], want)
		}
		if w.UPOS != g[i].UPOS || w.XPOS != g[i].XPOS || w.Lemma != g[i].Lemma {
			t.Fatalf("word %d: tags %+v, greedy parse's %+v", i+1, w, g[i])
		}
	}
	alone := slices.Clone(s)
	if err := m.ParseWithOptions(alone, Options{Accurate: true}, nil); err != nil || !slices.Equal(alone, got) {
		t.Fatalf("without a result: %v, another parse", err)
	}
	return got, b
}

// TestAccurateFixtures: every sentence of the committed fixtures, with gold
// tags and from plain tokens, gets a well-formed voted tree built from the
// two parsers' arcs (accurateCheck), also (gold tags) with the
// pseudo-projective encoding Head+Path decoded from both parsers' trees
// before the vote; on
// some sentences the vote differs from the beam's tree.
func TestAccurateFixtures(t *testing.T) {
	if testenv.Race {
		t.Skip("computes only, three parses of every fixture sentence: checked without -race")
	}
	m := testModel(t)
	if !m.HasBeam() {
		t.Skip("the model has no classifiers trained for the beam")
	}
	gold, plain := fixtureSentences(t)
	hp := Assemble(Parts{Card: m.card, Classes: m.classes, Gold: m.gold, Plain: m.plain, Taggers: m.taggers, PseudoProjective: pseudoproj.HeadPath})
	for _, mm := range []*Model{m, hp} {
		sents := append(gold, plain...)
		if mm == hp {
			sents = gold
		}
		differ := 0
		for _, s := range sents {
			got, b := accurateCheck(t, mm, s, m.TrainedBeam())
			if !slices.Equal(b, got) {
				differ++
			}
		}
		if differ == 0 {
			t.Fatalf("encoding %v: the vote never changes the beam's tree", mm.pproj)
		}
	}
}

// TestAccurateEWTDev: on EWT dev with gold tags the accurate mode parses
// more accurately (LAS, CoNLL 2018 definition) than the beam at the
// trained width and than the greedy parser, every tree well-formed.
func TestAccurateEWTDev(t *testing.T) {
	if testing.Short() || testenv.Race {
		t.Skip("parses EWT dev three times")
	}
	m := testModel(t)
	if !m.HasBeam() {
		t.Skip("the model has no classifiers trained for the beam")
	}
	gold, err := conllu.ReadFile(testenv.UDFile(t, "en_ewt-ud-dev.conllu"))
	if err != nil {
		t.Fatal(err)
	}
	las := map[string]float64{}
	for name, opt := range map[string]Options{"greedy": {Beam: 1}, "beam": {Beam: m.TrainedBeam()}, "accurate": {Accurate: true}} {
		pred := make([]*conllu.Sentence, len(gold))
		for i, s := range gold {
			p := *s
			p.Words = slices.Clone(s.Words)
			pred[i] = &p
			if err := m.ParseWithOptions(pred[i].Words, opt, nil); err != nil {
				t.Fatal(err)
			}
			if err := checkTree(pred[i].Words); err != nil {
				t.Fatalf("%s: sentence %d: %v", name, i+1, err)
			}
		}
		sc, err := eval.Score(gold, pred)
		if err != nil {
			t.Fatal(err)
		}
		las[name] = sc.LAS.F1()
	}
	t.Logf("EWT dev LAS, gold tags: %v", las)
	if !(las["accurate"] > las["beam"] && las["accurate"] > las["greedy"]) {
		t.Fatalf("EWT dev LAS: accurate %.2f, beam %.2f, greedy %.2f", las["accurate"], las["beam"], las["greedy"])
	}
}

// TestAccurateNeedsBeamClassifiers: the model without classifiers trained
// for the beam refuses the accurate mode (ResolveOptions,
// ParseWithOptions) with ErrOptions, the words untouched.
func TestAccurateNeedsBeamClassifiers(t *testing.T) {
	g := withoutBeam(testModel(t))
	for _, k := range []int{0, 1, 8} {
		opt := Options{Beam: k, Accurate: true}
		if _, err := g.ResolveOptions(opt); !errors.Is(err, ErrOptions) || !strings.Contains(err.Error(), "no classifiers trained for the beam") {
			t.Errorf("ResolveOptions %+v: %v", opt, err)
		}
		words := []conllu.Word{{Form: "They"}, {Form: "left"}}
		if err := g.ParseWithOptions(words, opt, &Result{}); !errors.Is(err, ErrOptions) || words[0].UPOS != "" || words[0].Head != 0 {
			t.Errorf("ParseWithOptions %+v: %v, words %+v", opt, err, words)
		}
	}
}
