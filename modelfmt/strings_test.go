package modelfmt

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

// checkModelStrings fails if a decoded model holds a string that is not
// valid UTF-8 or holds a NUL, tab, line break or escape, or a label that
// repeats one of its table or classifier (the fuzz targets' oracle).
func checkModelStrings(t *testing.T, m *Model) {
	t.Helper()
	bad := func(s string) bool { return !utf8.ValidString(s) || strings.ContainsAny(s, "\x00\t\n\r\x1b") }
	labels := func(where string, ls []string) {
		seen := map[string]bool{}
		for _, s := range ls {
			if bad(s) || seen[s] {
				t.Fatalf("%s: decoded the label %q", where, s)
			}
			seen[s] = true
		}
	}
	c := &m.Card
	notes := strings.NewReplacer("\n", " ", "\t", " ").Replace(c.Notes) // the notes may hold both
	for _, s := range []string{c.Name, c.Treebank, c.System, c.TrainedAt, c.Version, notes} {
		if bad(s) {
			t.Fatalf("decoded the card string %q", s)
		}
	}
	for k, v := range c.Options {
		if bad(k) || bad(v) {
			t.Fatalf("decoded the card option %q = %q", k, v)
		}
	}
	for k, ls := range m.Strings {
		labels("strings "+k, ls)
	}
	for i := range m.Classifiers {
		labels("classes of "+m.Classifiers[i].Name, m.Classifiers[i].Classes)
	}
}

// TestHostileStrings decodes models whose strings were damaged in the
// document (same length, so the msgpack stays well formed): each is
// refused with ErrCorrupt, its Section naming the field.
func TestHostileStrings(t *testing.T) {
	doc := rawDoc(t, fullModel())
	for _, c := range []struct {
		name, old, new, section string
	}{
		{"NUL in a deprel", "\xa3obj", "\xa3o\x00j", `strings["deprel"][1]`},
		{"invalid UTF-8 in a deprel", "\xa3obj", "\xa3o\xffj", `strings["deprel"][1]`},
		{"tab in a tag", "\xa5PUNCT", "\xa5PU\tCT", `strings["upos"][2]`},
		{"line feed in a class", "\xa5SHIFT", "\xa5SH\nFT", "classifiers[0].classes[0]"},
		{"escape sequence in the card", "en_ewt-arc-eager", "\x1b[2J\x1b[31marc-eag", "card.name"},
		{"NUL in the notes", "vu", "v\x00", "card.notes"},
		{"invalid UTF-8 in an option", "\xa210", "\xa2\xc3(", `card.options["epochs"]`},
		{"C1 control in a template", "s0.form", "s0.\xc2\x9brm", "classifiers[0].templates[0]"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if bytes.Count(doc, []byte(c.old)) != 1 {
				t.Fatalf("%q is not once in the document", c.old)
			}
			var buf bytes.Buffer
			if err := writeContainer(&buf, bytes.Replace(doc, []byte(c.old), []byte(c.new), 1)); err != nil {
				t.Fatal(err)
			}
			_, err := Decode(buf.Bytes())
			e := checkErr(t, err, ErrCorrupt)
			if e.Section != c.section {
				t.Errorf("section %q, want %q (%v)", e.Section, c.section, err)
			}
		})
	}
}

// TestDuplicateLabels: a label that repeats one of its table or classifier
// is refused by Encode and Decode.
func TestDuplicateLabels(t *testing.T) {
	m := fullModel()
	m.Strings["deprel"] = []string{"nsubj", "obj", "nsubj"}
	err := m.Validate()
	e := checkErr(t, err, ErrInvalid)
	if e.Section != `strings["deprel"][2]` {
		t.Errorf("section %q (%v)", e.Section, err)
	}
	m = fullModel()
	m.Classifiers[1].Classes = []string{"NOUN", "NOUN"}
	if _, err := Marshal(m); !errors.Is(err, ErrInvalid) || checkErr(t, err, ErrInvalid).Section != "classifiers[1].classes[1]" {
		t.Errorf("duplicate class: %v", err)
	}
	// Decoding: the same label twice, written by damaging the document.
	m = fullModel()
	m.Strings["deprel"] = []string{"nsubj", "root", "ROOT"}
	doc := rawDoc(t, m)
	var buf bytes.Buffer
	if err := writeContainer(&buf, bytes.Replace(doc, []byte("\xa4ROOT"), []byte("\xa4root"), 1)); err != nil {
		t.Fatal(err)
	}
	_, err = Decode(buf.Bytes())
	if e := checkErr(t, err, ErrCorrupt); e.Section != `strings["deprel"][2]` {
		t.Errorf("section %q (%v)", e.Section, err)
	}
}
