package core

import (
	"github.com/transparse/transparse/modelfmt"
	"math"
	"slices"
	"testing"

	"github.com/transparse/transparse/internal/testenv"
	"github.com/transparse/transparse/parser/conllu"
	"github.com/transparse/transparse/parser/feature"
)

// parseAll parses copies of sents with v (gold tags) and returns the
// heads and deprels of every word.
func parseAll(t *testing.T, m *Model, v *Variant, sents []*conllu.Sentence) ([]int, []string) {
	t.Helper()
	var heads []int
	var deprels []string
	sc := m.scratch()
	defer m.pool.Put(sc)
	for _, s := range sents {
		words := append([]conllu.Word(nil), s.Words...)
		m.parse(v, words, sc, nil)
		for _, w := range words {
			heads = append(heads, w.Head)
			deprels = append(deprels, w.Deprel)
		}
	}
	return heads, deprels
}

// A cascade (Variant.Fast) decides with its fast classifier exactly where
// that one beats every other legal class by FastMargin: at margin +Inf it
// parses as the parser alone, at margin 0 as the fast classifier alone,
// and in between it differs from both, on EWT dev with gold tags; saved
// and loaded, it keeps its classifier and margin. The fast classifier here
// is the bundled gold-tag parser's own weights on the first 30 of its
// templates (the same keys: a template's key depends on its index).
func TestCascade(t *testing.T) {
	if testenv.Race {
		t.Skip("computes only, over whole treebanks: checked without -race")
	}
	m := testModel(t)
	sents, err := conllu.ReadFile(testenv.UDFiles(t, "en_ewt-ud-dev.conllu")[0])
	if err != nil {
		t.Fatal(err)
	}
	full := m.gold
	full.Fast = nil
	ext, err := feature.NewVersion(full.Ext.Templates()[:30], full.Ext.HashVersion())
	if err != nil {
		t.Fatal(err)
	}
	fast := Variant{Morph: true, Ext: ext, Clf: full.Clf}
	wantH, wantD := parseAll(t, m, &full, sents)
	fastH, fastD := parseAll(t, m, &fast, sents)
	same := func(h []int, d []string, h2 []int, d2 []string) bool {
		for i := range h {
			if h[i] != h2[i] || d[i] != d2[i] {
				return false
			}
		}
		return true
	}
	if same(wantH, wantD, fastH, fastD) {
		t.Fatal("the fast classifier parses as the full one: the test cannot tell them apart")
	}
	cascade := func(margin float32) *Variant {
		v := full
		v.Fast, v.FastMargin = &fast, margin
		return &v
	}
	for _, c := range []struct {
		margin float32
		h      []int
		d      []string
		name   string
	}{{float32(math.Inf(1)), wantH, wantD, "the parser alone"}, {0, fastH, fastD, "the fast classifier alone"}} {
		if h, d := parseAll(t, m, cascade(c.margin), sents); !same(h, d, c.h, c.d) {
			t.Errorf("margin %v: the cascade does not parse as %s", c.margin, c.name)
		}
	}
	v := cascade(100)
	h, d := parseAll(t, m, v, sents)
	if same(h, d, wantH, wantD) || same(h, d, fastH, fastD) {
		t.Errorf("at margin 100 the cascade parses as one of its classifiers")
	}
	m2 := Assemble(Parts{Card: m.card, Classes: m.classes, Gold: *v, Plain: m.plain, Taggers: m.taggers})
	data, err := modelfmt.Marshal(m2.Document())
	if err != nil {
		t.Fatal(err)
	}
	m3, err := loadBytes(data)
	if err != nil {
		t.Fatal(err)
	}
	if m3.gold.Fast == nil || m3.gold.FastMargin != 100 || !slices.Equal(m3.gold.Fast.Ext.Templates(), ext.Templates()) {
		t.Fatalf("after save and load: fast %v, margin %v", m3.gold.Fast != nil, m3.gold.FastMargin)
	}
	if h3, d3 := parseAll(t, m3, &m3.gold, sents); !same(h, d, h3, d3) {
		t.Error("the cascade parses differently after save and load")
	}
}
