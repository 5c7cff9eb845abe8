package parser

import (
	"errors"
	"slices"
	"testing"

	"github.com/transparse/transparse/modelfmt"
	"github.com/transparse/transparse/parser/conllu"
	"github.com/transparse/transparse/parser/tagger"
)

// The XPOS tagger's dictionary keys, equal to the UPOS tagger's, are stored
// once; the saved model decodes to taggers that tag EWT dev exactly as the
// original, and a document that claims shared keys without a UPOS tagger,
// or with keys of its own, is rejected.
func TestSharedDictionaryKeys(t *testing.T) {
	m := testModel(t)
	if m.taggers.UPOS == nil || m.taggers.XPOS == nil {
		t.Skip("model without two taggers")
	}
	doc := m.Document()
	var upos, xpos *modelfmt.Classifier
	for i := range doc.Classifiers {
		switch doc.Classifiers[i].Name {
		case tagger.ClassifierName(tagger.UPOS):
			upos = &doc.Classifiers[i]
		case tagger.ClassifierName(tagger.XPOS):
			xpos = &doc.Classifiers[i]
		}
	}
	if xpos.Params[tagger.DictKeysShared] != 1 || xpos.Blobs["tagger.dict.keys"] != nil || len(upos.Blobs["tagger.dict.keys"]) == 0 {
		t.Fatalf("XPOS tagger: shared %d, own keys %d bytes; UPOS keys %d bytes",
			xpos.Params[tagger.DictKeysShared], len(xpos.Blobs["tagger.dict.keys"]), len(upos.Blobs["tagger.dict.keys"]))
	}
	b, err := modelfmt.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	m2, err := LoadBytes(b)
	if err != nil {
		t.Fatal(err)
	}
	sents, err := conllu.ReadFile("../../shared/data/ud/en_ewt-ud-dev.conllu")
	if err != nil {
		t.Skip(err)
	}
	for _, s := range sents {
		s.StripTags()
		a, b := slices.Clone(s.Words), slices.Clone(s.Words)
		if err := m.Parse(a); err != nil {
			t.Fatal(err)
		}
		if err := m2.Parse(b); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(a, b) {
			t.Fatalf("sentence %s: the reloaded model parses differently", s.SentID())
		}
	}

	own := *xpos
	own.Blobs = map[string][]byte{"tagger.dict.keys": upos.Blobs["tagger.dict.keys"]}
	for k, v := range xpos.Blobs {
		own.Blobs[k] = v
	}
	noUPOS := *doc
	noUPOS.Classifiers = slices.DeleteFunc(slices.Clone(doc.Classifiers), func(c modelfmt.Classifier) bool { return c.Name == upos.Name })
	withKeys := *doc
	withKeys.Classifiers = slices.Clone(doc.Classifiers)
	for i := range withKeys.Classifiers {
		if withKeys.Classifiers[i].Name == xpos.Name {
			withKeys.Classifiers[i] = own
		}
	}
	for name, d := range map[string]*modelfmt.Model{"no UPOS tagger": &noUPOS, "own keys": &withKeys} {
		b, err := modelfmt.Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := LoadBytes(b); err == nil || !errors.Is(err, modelfmt.ErrCorrupt) {
			t.Errorf("%s: got %v, want a corrupt-model error", name, err)
		}
	}
}
