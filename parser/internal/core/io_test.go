package core

import (
	"errors"
	"os"
	"slices"
	"testing"

	"github.com/transparse/transparse/internal/testenv"
	"github.com/transparse/transparse/modelfmt"
	"github.com/transparse/transparse/parser/conllu"
	"github.com/transparse/transparse/parser/tagger"
)

// The XPOS tagger's dictionary keys, equal to the UPOS tagger's, are stored
// once; the saved model decodes to taggers that tag EWT dev exactly as the
// original, and a document that claims shared keys without a UPOS tagger,
// or with keys of its own, is rejected.
func TestSharedDictionaryKeys(t *testing.T) {
	if testenv.Race {
		t.Skip("computes only, over whole treebanks: checked without -race")
	}
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
	m2, err := loadBytes(b)
	if err != nil {
		t.Fatal(err)
	}
	sents, err := conllu.ReadFile(testenv.UDFile(t, "en_ewt-ud-dev.conllu"))
	if err != nil {
		t.Fatal(err)
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
		if _, err := loadBytes(b); err == nil || !errors.Is(err, modelfmt.ErrCorrupt) {
			t.Errorf("%s: got %v, want a corrupt-model error", name, err)
		}
	}
}

// LoadBytes does not retain its input (the C API reads the caller's bytes in
// place and lets the caller free them when the call returns): a model
// loaded from bytes that are then overwritten parses EWT dev, with gold
// tags and from plain tokens, exactly as the model loaded from the file.
func TestLoadBytesDoesNotRetain(t *testing.T) {
	ref := testModel(t)
	data, err := os.ReadFile(testenv.ModelPath())
	if err != nil {
		t.Fatal(err)
	}
	m, err := loadBytes(data)
	if err != nil {
		t.Fatal(err)
	}
	for i := range data {
		data[i] = byte(i*7 + 3)
	}
	sents, err := conllu.ReadFile(testenv.UDFile(t, "en_ewt-ud-dev.conllu"))
	if err != nil {
		t.Fatal(err)
	}
	for k, s := range sents {
		for _, plain := range []bool{false, true} {
			a := append([]conllu.Word(nil), s.Words...)
			if plain {
				for i := range a {
					a[i].UPOS, a[i].XPOS, a[i].Lemma, a[i].Feats = "_", "_", "_", "_"
				}
			}
			b := append([]conllu.Word(nil), a...)
			if err := ref.Parse(a); err != nil {
				t.Fatal(err)
			}
			if err := m.Parse(b); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(a, b) {
				t.Fatalf("sentence %d (plain %v): the model loaded from overwritten bytes parses differently", k, plain)
			}
		}
	}
}
