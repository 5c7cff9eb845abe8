package beam_test

import (
	"slices"
	"testing"

	"github.com/transparse/transparse/modelfmt"
	"github.com/transparse/transparse/parser/internal/core"

	"github.com/transparse/transparse/internal/testenv"
	"github.com/transparse/transparse/parser/beam"
	"github.com/transparse/transparse/parser/conllu"
	"github.com/transparse/transparse/parser/feature"
)

// The tests of this file decode with the classifiers of a core.Model
// (which parses with a beam through core.Model.ParseWithOptions).

func fixture(t testing.TB, name string) []*conllu.Sentence {
	t.Helper()
	sents, err := conllu.ReadFile(testenv.Fixture(t, name))
	if err != nil {
		t.Fatal(err)
	}
	return sents
}

func bundled(t testing.TB) *core.Model {
	t.Helper()
	doc, err := modelfmt.ReadFile(testenv.ModelPath())
	if err != nil {
		t.Fatalf("bundled model: %v", err)
	}
	m, err := core.FromDocument(doc)
	if err != nil {
		t.Fatalf("bundled model: %v", err)
	}
	return m
}

// TestK1IsGreedy: with K = 1 the decoder gives, on every sentence of the
// EWT slice, the trees of the greedy parser with the same classifier (the
// bundled model's gold-tag classifier without its fast one), and one tree
// with confidences in [0, 1].
func TestK1IsGreedy(t *testing.T) {
	m := bundled(t)
	v := m.Variant(core.Gold)
	v.Fast = nil
	greedy := core.Assemble(core.Parts{Card: m.Card(), Classes: m.Classes(), Gold: v, PseudoProjective: m.PseudoProjective()})
	d := beam.NewDecoder(m.Classes(), v.Ext, 1)
	d.Confidence = true
	var r beam.Result
	var fw feature.Words
	for k, s := range fixture(t, "en_ewt-dev-slice.conllu") {
		want := slices.Clone(s.Words)
		if err := greedy.ParseWith(core.Gold, want); err != nil {
			t.Fatal(err)
		}
		got := slices.Clone(s.Words)
		feature.FillWords(&fw, got, true)
		d.Decode(&fw, len(got), v.Clf, &r)
		for i := range got {
			got[i].Head = int(r.Head[i+1])
			got[i].Deprel = "dep"
			if l := r.Label[i+1]; l >= 0 {
				got[i].Deprel = m.Deprels()[l]
			}
		}
		core.Deprojectivize(got, m.PseudoProjective())
		for i := range want {
			if got[i].Head != want[i].Head || got[i].Deprel != want[i].Deprel {
				t.Fatalf("sentence %d word %d: beam K=1 gives %d %s, greedy %d %s", k+1, i+1,
					got[i].Head, got[i].Deprel, want[i].Head, want[i].Deprel)
			}
		}
		if len(r.Trees) != 1 {
			t.Fatalf("sentence %d: K=1 gives %d trees", k+1, len(r.Trees))
		}
		for d := 1; d < len(r.Confidence); d++ {
			if c := r.Confidence[d]; !(c >= 0 && c <= 1) {
				t.Fatalf("sentence %d word %d: confidence %v", k+1, d, c)
			}
		}
	}
}
