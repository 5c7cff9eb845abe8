package core

import (
	"errors"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/transparse/transparse/internal/testenv"
	"github.com/transparse/transparse/modelfmt"
	"github.com/transparse/transparse/parser/conllu"
	"github.com/transparse/transparse/parser/morph"
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

// TestHostileModelStrings: a document whose deprels or tags hold a NUL,
// bytes that are not UTF-8, a tab or a line feed, repeat a label, or
// have an empty deprel is refused with ErrCorrupt naming the field.
func TestHostileModelStrings(t *testing.T) {
	m := testModel(t)
	for _, c := range []struct {
		name, want string
		damage     func(doc *modelfmt.Model)
	}{
		{"NUL in a deprel", `strings["deprels"][3]`, func(d *modelfmt.Model) { d.Strings["deprels"][3] = "ns\x00ubj" }},
		{"invalid UTF-8 in a deprel", `strings["deprels"][1]`, func(d *modelfmt.Model) { d.Strings["deprels"][1] = "a\xffb" }},
		{"repeated deprel", `strings["deprels"][2]`, func(d *modelfmt.Model) { d.Strings["deprels"][2] = d.Strings["deprels"][0] }},
		{"empty deprel", "deprels[4] is empty", func(d *modelfmt.Model) { d.Strings["deprels"][4] = "" }},
		{"tab in a UPOS tag", "classes[0]: contains the control character U+0009", func(d *modelfmt.Model) { classesOf(d, tagger.ClassifierName(tagger.UPOS))[0] = "NO\tUN" }},
		{"line feed in an XPOS tag", "classes[1]: contains the control character U+000A", func(d *modelfmt.Model) { classesOf(d, tagger.ClassifierName(tagger.XPOS))[1] = "N\nN" }},
		{"escape in the card", "card.name", func(d *modelfmt.Model) { d.Card.Name = "\x1b]0;x\a" }},
	} {
		t.Run(c.name, func(t *testing.T) {
			doc := m.Document()
			doc.Strings = map[string][]string{"deprels": slices.Clone(doc.Strings["deprels"])}
			for i := range doc.Classifiers {
				doc.Classifiers[i].Classes = slices.Clone(doc.Classifiers[i].Classes)
			}
			c.damage(doc)
			_, err := FromDocument(doc)
			if !errors.Is(err, modelfmt.ErrCorrupt) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want ErrCorrupt naming %s", err, c.want)
			}
		})
	}
}

// classesOf returns the classes of the classifier name of doc.
func classesOf(doc *modelfmt.Model, name string) []string {
	for i := range doc.Classifiers {
		if doc.Classifiers[i].Name == name {
			return doc.Classifiers[i].Classes
		}
	}
	panic("no classifier " + name)
}

// TestMorphStringsProblem: a morphology part whose output strings hold a
// control character or invalid UTF-8 is refused, naming the field and
// index; tabs (the fields of a lemma) are allowed.
func TestMorphStringsProblem(t *testing.T) {
	ok := &morph.Data{Classes: []string{"Number=Sing", "_"}, Lemmas: []string{"dog\tNOUN"}, Agreement: []string{"VBZ\tNN\t3\tSing\t3\tSing"}}
	if err := morphStringsProblem(ok); err != nil {
		t.Fatalf("valid strings refused: %v", err)
	}
	for _, c := range []struct {
		d    morph.Data
		want string
	}{
		{morph.Data{Classes: []string{"_", "Num\x00ber=Sing"}}, "classes[1] contains the control character U+0000"},
		{morph.Data{Lemmas: []string{"dog\tNOUN", "ca\nt\tNOUN"}}, "lemmas[1] contains the control character U+000A"},
		{morph.Data{Parts: []string{"Case=\xff"}}, "parts[0] is not valid UTF-8"},
		{morph.Data{LemmaCase: []string{"NNP\x1b"}}, "lemma_case[0] contains the control character U+001B"},
	} {
		if err := morphStringsProblem(&c.d); err == nil || err.Error() != c.want {
			t.Errorf("got %v, want %s", err, c.want)
		}
	}
}
