package morph

import (
	"fmt"
	"strings"
	"testing"

	"github.com/transparse/transparse/parser/conllu"
)

// With SetDictionaryFirst, a word the dictionary knows takes the lemma of
// its first (most frequent) candidate rule, and only such words change;
// the setting survives Data and is refused in a FEATS tagger.
func TestDictionaryFirst(t *testing.T) {
	// "saw" VBD is "see" four times and "saw" twice: a known word with two
	// lemma rules, "see" first.
	var b strings.Builder
	for k := 0; k < 6; k++ {
		obj, lemma := "him", "see"
		if k >= 4 {
			obj, lemma = "wood", "saw"
		}
		fmt.Fprintf(&b, "1\tI\tI\tPRON\tPRP\t_\t2\tnsubj\t_\t_\n2\tsaw\t%s\tVERB\tVBD\t_\t0\troot\t_\t_\n3\t%s\t%s\tNOUN\tNN\t_\t2\tobj\t_\t_\n\n", lemma, obj, obj)
	}
	extra, err := conllu.ReadAll(strings.NewReader(b.String()), "saw")
	if err != nil {
		t.Fatal(err)
	}
	train := append(readFixture(t, "en_ewt-train-150.conllu"), extra...)
	l, f := trainBoth(t, train)
	c := l.c
	changed, ambiguous := 0, 0
	var sc scratch
	var off, on []string
	// The training sentences: their words are known.
	for _, s := range train {
		ws := s.Words
		l.SetDictionaryFirst(false)
		off = l.Lemmas(ws, off)
		l.SetDictionaryFirst(true)
		on = l.Lemmas(ws, on)
		sc.ws = analyze(ws, sc.ws, &sc.offs, &sc.lowers, c.lemmaUse())
		for i := range ws {
			cands, lower, known := c.candidates(&ws[i], i, &sc, nil)
			if !known || len(cands) < 2 {
				if on[i] != off[i] {
					t.Errorf("%q (not an ambiguous known word): %q with the dictionary first, %q without", ws[i].Form, on[i], off[i])
				}
				continue
			}
			ambiguous++
			form := ws[i].Form
			if lower {
				form = strings.ToLower(form)
			}
			want, ok := c.rules[cands[0]].Apply(form)
			if !ok || want == "" {
				continue
			}
			if on[i] != want {
				t.Errorf("%q: %q with the dictionary first, want its first rule's %q", ws[i].Form, on[i], want)
			}
			if on[i] != off[i] {
				changed++
			}
		}
	}
	if ambiguous == 0 {
		t.Fatal("no ambiguous known word in the fixture")
	}
	if changed == 0 {
		t.Error("the dictionary's first rule changed no lemma (the classifier chose \"saw\" after \"wood\" contexts)")
	}

	l2, err := LemmatizerFromData(l.Data())
	if err != nil {
		t.Fatal(err)
	}
	if !l2.DictionaryFirst() {
		t.Error("DictionaryFirst did not survive Data")
	}
	l.SetDictionaryFirst(false)
	if l3, err := LemmatizerFromData(l.Data()); err != nil || l3.DictionaryFirst() {
		t.Errorf("off: %v, %v", l3.DictionaryFirst(), err)
	}
	d := f.Data()
	d.DictionaryFirst = true
	if _, err := FeatsTaggerFromData(d); err == nil {
		t.Error("a FEATS tagger with dictionary_first decoded")
	}
}
