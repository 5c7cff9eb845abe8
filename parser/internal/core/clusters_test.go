package core

import (
	"testing"

	"github.com/transparse/transparse/parser/conllu"
	"github.com/transparse/transparse/parser/feature"
	"github.com/transparse/transparse/parser/form"
)

// Both parsers of a model with word clusters read the words' paths as
// training gave them (tagger.Clusters.Code): the gold-tag parser from the
// forms, the plain-token parser from the taggers' analysis.
func TestFillClusters(t *testing.T) {
	m := testModel(t)
	if m.taggers.UPOS == nil || m.taggers.UPOS.Clusters() == nil {
		t.Skip("the model has no word clusters")
	}
	c := m.taggers.UPOS.Clusters()
	ext, err := feature.New([]string{"n0.c", "s0.c4+n0.c6"})
	if err != nil {
		t.Fatal(err)
	}
	forms := []string{"The", "dog", "barked", "at", "Zzyzxq", "."}
	for _, gold := range []bool{true, false} {
		words := conllu.FromForms(forms).Words
		if gold {
			for i, u := range []string{"DET", "NOUN", "VERB", "ADP", "PROPN", "PUNCT"} {
				words[i].UPOS = u
			}
		}
		v := m.plain
		if gold {
			v = m.gold
		}
		v.Ext = ext
		sc := m.scratch()
		m.complete(words, sc, !gold)
		m.fill(&v, words, sc, nil)
		var want feature.Words
		feature.FillWords(&want, words, false)
		paths := 0
		for i, f := range forms {
			code := c.Code(form.Of(f))
			want.SetCluster(i+1, code)
			if code != 0 {
				paths++
			}
			for _, x := range []feature.Value{feature.C, feature.C4, feature.C6} {
				if got := sc.words.Values[i+1][x]; got != want.Values[i+1][x] {
					t.Errorf("gold %v, %q: value %d is %x, want %x", gold, f, x, got, want.Values[i+1][x])
				}
			}
		}
		m.pool.Put(sc)
		if paths < 4 || c.Code(form.Of("Zzyzxq")) != 0 {
			t.Errorf("%d of %d words have a path", paths, len(forms))
		}
	}
}
