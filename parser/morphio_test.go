package parser_test

import (
	"encoding/binary"
	"errors"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/transparse/transparse/internal/testenv"
	"github.com/transparse/transparse/modelfmt"
	"github.com/transparse/transparse/parser"
	"github.com/transparse/transparse/parser/conllu"
	"github.com/transparse/transparse/parser/train"
)

var (
	fixtureOnce  sync.Once
	fixtureModel []byte
	fixtureErr   error
)

// fixtureModelFile trains (once per process) a small model with a
// lemmatizer and a FEATS tagger on the committed EWT slices and returns
// its file.
func fixtureModelFile(t *testing.T) []byte {
	t.Helper()
	trainPath := testenv.Fixture(t, "en_ewt-train-150.conllu")
	devPath := testenv.Fixture(t, "en_ewt-dev-40.conllu")
	fixtureOnce.Do(func() {
		o := train.DefaultOptions()
		o.TrainPath, o.DevPath = trainPath, devPath
		o.Gold.Epochs, o.Plain.Epochs, o.Taggers.Epochs, o.JackknifeFolds, o.Plain.Runs = 1, 1, 1, 2, 1
		var m *parser.Model
		if m, fixtureErr = train.Train(o); fixtureErr == nil {
			fixtureModel, fixtureErr = m.MarshalBinary()
		}
	})
	if fixtureErr != nil {
		t.Fatal(fixtureErr)
	}
	return fixtureModel
}

// saveLoad returns m written to a model file's bytes, loaded back, and
// the bytes.
func saveLoad(t *testing.T, m *parser.Model) (*parser.Model, []byte) {
	t.Helper()
	b, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	back, err := parser.LoadBytes(b)
	if err != nil {
		t.Fatal(err)
	}
	return back, b
}

// The lemmatizer and the FEATS tagger are stored in the model file and
// come back the same: the same Data, the same predictions, the same file
// when saved again.
func TestMorphPartsRoundTrip(t *testing.T) {
	file := fixtureModelFile(t)
	m, err := parser.LoadBytes(file)
	if err != nil {
		t.Fatal(err)
	}
	tg := parser.Core(m).Taggers()
	if tg.Lemmas == nil || tg.Feats == nil {
		t.Fatalf("the model has no lemmatizer (%v) or no FEATS tagger (%v)", tg.Lemmas, tg.Feats)
	}
	m2, b := saveLoad(t, m)
	tg2 := parser.Core(m2).Taggers()
	if !reflect.DeepEqual(tg.Lemmas.Data(), tg2.Lemmas.Data()) {
		t.Error("the lemmatizer changed in the file")
	}
	if !reflect.DeepEqual(tg.Feats.Data(), tg2.Feats.Data()) {
		t.Error("the FEATS tagger changed in the file")
	}
	if b2, err := m2.MarshalBinary(); err != nil || string(b2) != string(b) {
		t.Errorf("saving the model again gives another file (%v)", err)
	}
	dev, err := conllu.ReadFile(testenv.Fixture(t, "en_ewt-dev-40.conllu"))
	if err != nil {
		t.Fatal(err)
	}
	lemmas := 0
	for _, s := range dev {
		a, b := slices.Clone(s.Words), slices.Clone(s.Words)
		if !slices.Equal(tg.Lemmas.Lemmas(a, nil), tg2.Lemmas.Lemmas(b, nil)) ||
			!slices.Equal(tg.Feats.Feats(a, nil), tg2.Feats.Feats(b, nil)) {
			t.Fatalf("sentence %s: other predictions after loading", s.SentID())
		}
		for i, l := range tg.Lemmas.Lemmas(a, nil) {
			if l == s.Words[i].Lemma {
				lemmas++
			}
		}
	}
	if lemmas == 0 {
		t.Error("no lemma of the dev slice predicted right")
	}
	// The lemmatizer's dictionary-first setting and the FEATS tagger's
	// consistent tags are stored both ways.
	for _, on := range []bool{true, false} {
		tg.Lemmas.SetDictionaryFirst(on)
		tg.Feats.SetConsistentTags(!on)
		m3, _ := saveLoad(t, m)
		if got := parser.Core(m3).Taggers().Lemmas.DictionaryFirst(); got != on {
			t.Errorf("DictionaryFirst %v saved, %v loaded", on, got)
		}
		if got := parser.Core(m3).Taggers().Feats.ConsistentTags(); got != !on {
			t.Errorf("ConsistentTags %v saved, %v loaded", !on, got)
		}
	}
}

// A model without the parts (trained with NoMorph, or an older file) loads
// and leaves LEMMA and FEATS as given; damaged or foreign parts give an
// error that names them.
func TestMorphPartsOptional(t *testing.T) {
	file := fixtureModelFile(t)
	doc, err := modelfmt.Decode(file)
	if err != nil {
		t.Fatal(err)
	}
	without := *doc
	without.Classifiers = slices.DeleteFunc(slices.Clone(doc.Classifiers), func(c modelfmt.Classifier) bool {
		return strings.HasPrefix(c.Name, "morph.")
	})
	without.Strings = map[string][]string{}
	for k, v := range doc.Strings {
		if !strings.HasPrefix(k, "morph.") {
			without.Strings[k] = v
		}
	}
	m, err := parser.FromDocument(&without)
	if err != nil {
		t.Fatal(err)
	}
	if tg := parser.Core(m).Taggers(); tg.Lemmas != nil || tg.Feats != nil {
		t.Fatal("a model without the parts has a lemmatizer or a FEATS tagger")
	}
	words := conllu.FromForms([]string{"Dogs", "barked", "."}).Words
	words[1].Lemma = "bark"
	if _, err := m.Parse(words, nil); err != nil {
		t.Fatal(err)
	}
	for i, w := range words {
		if w.Lemma != [...]string{"_", "bark", "_"}[i] || w.Feats != "_" || conllu.Absent(w.UPOS) {
			t.Errorf("word %d: %+v: want LEMMA and FEATS as given, UPOS predicted", i+1, w)
		}
	}

	for _, c := range []struct {
		name string
		edit func(d *modelfmt.Model)
		want string
	}{
		{"foreign layout", func(d *modelfmt.Model) { part(d, "morph.lemma").Layout = "morph-data/v9" },
			`classifier "morph.lemma": layout "morph-data/v9", want "morph-data/v1"`},
		{"newer version", func(d *modelfmt.Model) { part(d, "morph.feats").Params["morph.version"] = 3 },
			`classifier "morph.feats": param "morph.version" = 3`},
		{"unsorted keys", func(d *modelfmt.Model) {
			p := part(d, "morph.lemma")
			keys := unpack(t, p.Blobs["keys"], p.Blobs["keys.lens"])
			slices.Reverse(keys)
			p.Blobs["keys"], p.Blobs["keys.lens"] = pack(keys)
		}, `classifier "morph.lemma": morph: lemma: key 1`},
		{"key lengths past the bytes", func(d *modelfmt.Model) {
			p := part(d, "morph.lemma")
			p.Blobs["keys.lens"] = binary.AppendUvarint(slices.Clone(p.Blobs["keys.lens"]), 1)
		}, `classifier "morph.lemma": blob "keys"`},
		{"no weights", func(d *modelfmt.Model) {
			d.Classifiers = slices.DeleteFunc(d.Classifiers, func(c modelfmt.Classifier) bool { return c.Name == "morph.feats.weights" })
		}, `classifier "morph.feats": morph: feats: linear`},
		{"bad varint", func(d *modelfmt.Model) { part(d, "morph.lemma").Blobs["ends"] = []byte{1, 2, 0x80} },
			`classifier "morph.lemma": blob "ends"`},
		{"bool param not 1", func(d *modelfmt.Model) { part(d, "morph.lemma").Params["morph.dictionary_first"] = 2 },
			`classifier "morph.lemma": param "morph.dictionary_first" = 2, want 1 or none`},
		{"lemma setting in the FEATS tagger", func(d *modelfmt.Model) { part(d, "morph.feats").Params["morph.dictionary_first"] = 1 },
			`classifier "morph.feats": morph: feats: dictionary_first in a feats`},
		{"FEATS setting in the lemmatizer", func(d *modelfmt.Model) { part(d, "morph.lemma").Params["morph.consistent_tags"] = 1 },
			`classifier "morph.lemma": morph: lemma: consistent_tags in a lemma`},
	} {
		d, err := modelfmt.Decode(file)
		if err != nil {
			t.Fatal(err)
		}
		c.edit(d)
		b, err := modelfmt.Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		_, err = parser.LoadBytes(b)
		if err == nil || !errors.Is(err, modelfmt.ErrCorrupt) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want ErrCorrupt with %q", c.name, err, c.want)
		}
	}
}

// pack stores strings as a morph part does: their bytes, and their
// lengths as varints.
func pack(ss []string) (data, lens []byte) {
	for _, s := range ss {
		data = append(data, s...)
		lens = binary.AppendUvarint(lens, uint64(len(s)))
	}
	return data, lens
}

// unpack undoes pack.
func unpack(t *testing.T, data, lens []byte) []string {
	t.Helper()
	var out []string
	for len(lens) > 0 {
		n, k := binary.Uvarint(lens)
		if k <= 0 || int(n) > len(data) {
			t.Fatalf("bad packed strings")
		}
		out = append(out, string(data[:n]))
		data, lens = data[n:], lens[k:]
	}
	return out
}

// TestMorphPartsVersion1 loads a model whose parts are stored as version
// 1 of their layout wrote them (string tables in the document, uint32
// arrays): it gives the same annotation as the current version.
func TestMorphPartsVersion1(t *testing.T) {
	file := fixtureModelFile(t)
	d, err := modelfmt.Decode(file)
	if err != nil {
		t.Fatal(err)
	}
	for _, kind := range []string{"lemma", "feats"} {
		p := part(d, "morph."+kind)
		p.Params["morph.version"] = 1
		for name, b := range p.Blobs {
			switch {
			case strings.HasSuffix(name, ".lens"):
			case p.Blobs[name+".lens"] != nil:
				d.Strings["morph."+kind+"."+name] = unpack(t, b, p.Blobs[name+".lens"])
				delete(p.Blobs, name)
				delete(p.Blobs, name+".lens")
			default:
				var u []uint32
				prev := uint64(0)
				for len(b) > 0 {
					v, k := binary.Uvarint(b)
					if name == "ends" {
						v += prev
						prev = v
					}
					u = append(u, uint32(v))
					b = b[k:]
				}
				p.Blobs[name] = modelfmt.Uint32Bytes(u)
			}
		}
	}
	b, err := modelfmt.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	old, err := parser.LoadBytes(b)
	if err != nil {
		t.Fatal(err)
	}
	cur, err := parser.LoadBytes(file)
	if err != nil {
		t.Fatal(err)
	}
	dev, err := conllu.ReadFile(testenv.Fixture(t, "en_ewt-dev-40.conllu"))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range dev {
		s.StripTags()
		a := slices.Clone(s.Words)
		c := slices.Clone(s.Words)
		if _, err := old.Parse(a, nil); err != nil {
			t.Fatal(err)
		}
		if _, err := cur.Parse(c, nil); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(a, c) {
			t.Fatalf("version 1 parts annotate %v, the current ones %v", a, c)
		}
	}
}

// part returns the classifier of d named name.
func part(d *modelfmt.Model, name string) *modelfmt.Classifier {
	for i := range d.Classifiers {
		if d.Classifiers[i].Name == name {
			return &d.Classifiers[i]
		}
	}
	panic("no classifier " + name)
}

// Parse completes the annotation: absent UPOS, XPOS, LEMMA and FEATS are
// predicted (LEMMA and FEATS from the given or predicted tags), given ones
// kept, and the predictions are those of Taggers.Fill (for the plain-token
// classifier, FEATS from the predicted lemmas), predicted FEATS chosen
// again from the parsed tree (morph.FeatsTagger.Refine).
func TestParseCompletesAnnotation(t *testing.T) {
	m, err := parser.LoadBytes(fixtureModelFile(t))
	if err != nil {
		t.Fatal(err)
	}
	dev, err := conllu.ReadFile(testenv.Fixture(t, "en_ewt-dev-40.conllu"))
	if err != nil {
		t.Fatal(err)
	}
	for k, s := range dev {
		in := slices.Clone(s.Words)
		for i := range in {
			w := &in[i]
			w.Head, w.Deprel, w.Deps = -1, "_", "_"
			// Every column absent on some words, given on others.
			if (i+k)%2 == 0 {
				w.UPOS = "_"
			}
			if (i+k)%3 == 0 {
				w.XPOS = "_"
			}
			if (i+k)%4 != 1 {
				w.Lemma = "_"
			}
			if k%2 == 0 { // FEATS are given or absent for a whole sentence
				w.Feats = "_"
			}
		}
		want := slices.Clone(in)
		parser.Core(m).Taggers().Fill(want)
		// The plain-token classifier reads the predicted lemmas, and so do
		// the FEATS predicted for it: the FEATS of Fill without the given
		// lemmas.
		wantFeats := want
		if !parser.Core(m).GoldInput(in) {
			wantFeats = slices.Clone(in)
			for i := range wantFeats {
				wantFeats[i].Lemma = "_"
			}
			parser.Core(m).Taggers().Fill(wantFeats)
		}
		got := slices.Clone(in)
		if _, err := m.Parse(got, nil); err != nil {
			t.Fatal(err)
		}
		// Predicted FEATS are then chosen again from the parsed tree.
		if k%2 == 0 && parser.Core(m).Taggers().Feats != nil {
			wantFeats = slices.Clone(wantFeats)
			for i := range wantFeats {
				wantFeats[i].Head, wantFeats[i].Deprel = got[i].Head, got[i].Deprel
			}
			parser.Core(m).Taggers().Feats.Refine(wantFeats)
		}
		for i := range got {
			g, w := got[i], want[i]
			if g.UPOS != w.UPOS || g.XPOS != w.XPOS || g.Lemma != w.Lemma || g.Feats != wantFeats[i].Feats {
				t.Fatalf("sentence %d word %d: %+v, want the columns of Taggers.Fill %+v", k+1, i+1, g, w)
			}
			if conllu.Absent(g.Lemma) && g.Form != "_" {
				t.Fatalf("sentence %d word %d: no lemma: %+v", k+1, i+1, g)
			}
			if !conllu.Absent(in[i].Lemma) && g.Lemma != in[i].Lemma || k%2 == 1 && g.Feats != in[i].Feats {
				t.Fatalf("sentence %d word %d: given LEMMA or FEATS changed: %+v -> %+v", k+1, i+1, in[i], g)
			}
		}
	}
}
