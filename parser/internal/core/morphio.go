package core

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"math"
	"reflect"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/transparse/transparse/internal/par"
	"github.com/transparse/transparse/modelfmt"
	"github.com/transparse/transparse/parser/linear"
	"github.com/transparse/transparse/parser/morph"
)

// The lemmatizer and the FEATS tagger (parser/morph) are optional parts of
// a model file. Each is stored from its morph.Data, field by field, in the
// document's own structures, so that the document decoder checks them as
// it checks the rest of the file and the weights are entropy-coded like
// every classifier's:
//
//   - a classifier named morphPrefix + kind ("morph.lemma", "morph.feats",
//     "morph.xpos")
//     of layout morphLayout marks the part; its params hold
//     morphVersionParam, its blobs the []uint32 and []string fields of
//     morph.Data, by their msgpack names;
//   - a []uint32 field is a blob of unsigned varints (Ends: the
//     differences of consecutive values, the number of candidates of each
//     key; others: the values);
//   - a []string field is two blobs: the strings' bytes one after the
//     other (name), and their lengths in bytes as unsigned varints
//     (name + ".lens"), so that decoding makes one string, not one per
//     key;
//   - each modelfmt.Classifier field of morph.Data is a classifier named
//     the part's name + "." + the field's msgpack name
//     ("morph.lemma.weights", "morph.feats.part_weights"), absent when
//     the field is empty (no layout);
//   - a bool field is the param "morph." + the field's msgpack name
//     ("morph.dictionary_first"), 1 when true, absent when false (any
//     other value is corrupt); a reader that predates it ignores it.
//
// Version 1 of the part, still read, stored the []uint32 fields as
// little-endian arrays and each []string field as the document's string
// table of the part's name + "." + the field's name.
//
// A model without the part classifier has no such component and parses
// without it; a part of another layout or version, or one whose fields do
// not decode into a component (morph.LemmatizerFromData), is corrupt.
const (
	morphPrefix       = "morph."
	morphLayout       = "morph-data/v1"
	morphVersionParam = "morph.version"
	morphVersion      = 2
	morphDeltaField   = "ends" // the []uint32 field stored as differences
)

// morphField is a field of morph.Data as stored.
type morphField struct {
	index int
	name  string // msgpack name
	kind  int    // fieldStrings, fieldUint32s, fieldClassifier, fieldBool or fieldKind
}

const (
	fieldKind = iota
	fieldStrings
	fieldUint32s
	fieldClassifier
	fieldBool
)

// morphFields are the fields of morph.Data: its "kind" string (the part's
// name says it) and fields of the four stored types. A field of another
// type would be lost: TestMorphDataFieldsStored fails on one.
var morphFields = func() []morphField {
	t := reflect.TypeOf(morph.Data{})
	var out []morphField
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("msgpack"), ",")
		if name == "" {
			name = strings.ToLower(f.Name)
		}
		k := -1
		switch {
		case f.Type.Kind() == reflect.String && name == "kind":
			k = fieldKind
		case f.Type == reflect.TypeOf([]string(nil)):
			k = fieldStrings
		case f.Type == reflect.TypeOf([]uint32(nil)):
			k = fieldUint32s
		case f.Type == reflect.TypeOf(modelfmt.Classifier{}):
			k = fieldClassifier
		case f.Type.Kind() == reflect.Bool:
			k = fieldBool
		}
		if k >= 0 {
			out = append(out, morphField{index: i, name: name, kind: k})
		}
	}
	return out
}()

// morphStoredFields reports the number of fields of morph.Data and of
// those stored (for the test that they are the same).
func morphStoredFields() (all, stored int) {
	return reflect.TypeOf(morph.Data{}).NumField(), len(morphFields)
}

// addMorph adds the component d (nil: none) to doc under the part name
// morphPrefix + kind.
func addMorph(doc *modelfmt.Model, kind string, d *morph.Data) {
	if d == nil {
		return
	}
	name := morphPrefix + kind
	part := modelfmt.Classifier{Name: name, Layout: morphLayout,
		Params: map[string]int64{morphVersionParam: morphVersion}, Blobs: map[string][]byte{}}
	v := reflect.ValueOf(d).Elem()
	var clfs []modelfmt.Classifier
	for _, f := range morphFields {
		fv := v.Field(f.index)
		switch f.kind {
		case fieldStrings:
			if !fv.IsNil() {
				part.Blobs[f.name], part.Blobs[f.name+".lens"] = packStrings(fv.Interface().([]string))
			}
		case fieldUint32s:
			if !fv.IsNil() {
				part.Blobs[f.name] = packUint32s(fv.Interface().([]uint32), f.name == morphDeltaField)
			}
		case fieldClassifier:
			c := fv.Interface().(modelfmt.Classifier)
			if c.Layout != "" {
				c.Name = name + "." + f.name
				clfs = append(clfs, c)
			}
		case fieldBool:
			if fv.Bool() {
				part.Params[morphPrefix+f.name] = 1
			}
		}
	}
	doc.Classifiers = append(doc.Classifiers, part)
	doc.Classifiers = append(doc.Classifiers, clfs...)
}

// morphData returns the morph.Data of the part morphPrefix + kind of doc,
// nil when the document has none. byName indexes doc's classifiers.
func morphData(doc *modelfmt.Model, byName map[string]*modelfmt.Classifier, kind string) (*morph.Data, error) {
	name := morphPrefix + kind
	part := byName[name]
	if part == nil {
		return nil, nil
	}
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: classifier %q: %s", modelfmt.ErrCorrupt, name, fmt.Sprintf(format, args...))
	}
	if part.Layout != morphLayout {
		return nil, bad("layout %q, want %q", part.Layout, morphLayout)
	}
	version := part.Params[morphVersionParam]
	if version != 1 && version != morphVersion {
		return nil, bad("param %q = %d, this library reads versions 1 and %d", morphVersionParam, version, morphVersion)
	}
	d := &morph.Data{}
	v := reflect.ValueOf(d).Elem()
	for _, f := range morphFields {
		fv := v.Field(f.index)
		switch f.kind {
		case fieldKind:
			fv.SetString(kind)
		case fieldStrings:
			if version == 1 {
				if s, ok := doc.Strings[name+"."+f.name]; ok {
					fv.Set(reflect.ValueOf(s))
				}
			} else if b, ok := part.Blobs[f.name]; ok {
				s, err := unpackStrings(b, part.Blobs[f.name+".lens"])
				if err != nil {
					return nil, bad("blob %q: %v", f.name, err)
				}
				fv.Set(reflect.ValueOf(s))
			}
		case fieldUint32s:
			if b, ok := part.Blobs[f.name]; ok {
				var u []uint32
				var err error
				if version == 1 {
					u, err = modelfmt.Uint32s(b)
				} else {
					u, err = unpackUint32s(b, f.name == morphDeltaField)
				}
				if err != nil {
					return nil, bad("blob %q: %v", f.name, err)
				}
				fv.Set(reflect.ValueOf(u))
			}
		case fieldClassifier:
			if c := byName[name+"."+f.name]; c != nil {
				fv.Set(reflect.ValueOf(*c))
			}
		case fieldBool:
			if p, ok := part.Params[morphPrefix+f.name]; ok {
				if p != 1 {
					return nil, bad("param %q = %d, want 1 or none", morphPrefix+f.name, p)
				}
				fv.SetBool(true)
			}
		}
	}
	return d, nil
}

// morphCost estimates the time decoding the part of kind takes (for
// par.Do's order): its classifiers' and about 100 ns per dictionary key.
func morphCost(doc *modelfmt.Model, byName map[string]*modelfmt.Classifier, kind string) int64 {
	name := morphPrefix + kind
	keys := len(doc.Strings[name+".keys"])
	if part := byName[name]; part != nil && keys == 0 {
		keys = len(part.Blobs["keys.lens"])
	}
	cost := 100 * int64(keys)
	for _, f := range morphFields {
		if f.kind == fieldClassifier {
			cost += linear.BuildCost(byName[name+"."+f.name])
		}
	}
	return cost
}

// morphSteps returns the steps that decode the model's lemmatizer, FEATS
// tagger and XPOS table into tg, and a function that returns their first
// error once the steps have run.
func morphSteps(doc *modelfmt.Model, byName map[string]*modelfmt.Classifier, tg *Taggers) ([]par.Step, func() error) {
	var steps []par.Step
	var errs [3]error
	for i, kind := range [...]string{"lemma", "feats", "xpos"} {
		if byName[morphPrefix+kind] == nil {
			continue
		}
		steps = append(steps, par.Step{Cost: morphCost(doc, byName, kind), Run: func() {
			d, err := morphData(doc, byName, kind)
			if err != nil {
				errs[i] = err
				return
			}
			if err := morphStringsProblem(d); err != nil {
				errs[i] = fmt.Errorf("%w: classifier %q: %v", modelfmt.ErrCorrupt, morphPrefix+kind, err)
				return
			}
			switch kind {
			case "lemma":
				tg.Lemmas, err = morph.LemmatizerFromData(d)
			case "feats":
				tg.Feats, err = morph.FeatsTaggerFromData(d)
			default:
				tg.XPOSTable, err = morph.XPOSTableFromData(d)
			}
			if err != nil {
				errs[i] = fmt.Errorf("%w: classifier %q: %v", modelfmt.ErrCorrupt, morphPrefix+kind, err)
			}
		}})
	}
	return steps, func() error { return cmp.Or(errs[:]...) }
}

// morphStringsProblem checks the strings of a morphology part that reach
// the output (lemma rules or FEATS strings, lemmas, the features of FEATS
// values, the agreement rules and the XPOS tags of lemma capitals): valid
// UTF-8 without control characters, tabs aside (they separate the fields
// of a lemma and of a rule). The dictionary keys are binary and are not
// text.
func morphStringsProblem(d *morph.Data) error {
	for _, f := range [...]struct {
		name string
		ss   []string
	}{{"classes", d.Classes}, {"lemmas", d.Lemmas}, {"parts", d.Parts}, {"agreement", d.Agreement}, {"lemma_case", d.LemmaCase}} {
		for i, s := range f.ss {
			if !utf8.ValidString(s) {
				return fmt.Errorf("%s[%d] is not valid UTF-8", f.name, i)
			}
			for _, r := range s {
				if unicode.IsControl(r) && r != '\t' {
					return fmt.Errorf("%s[%d] contains the control character %U", f.name, i, r)
				}
			}
		}
	}
	return nil
}

// packStrings returns the bytes of ss one after the other and their
// lengths as unsigned varints.
func packStrings(ss []string) (data, lens []byte) {
	n := 0
	for _, x := range ss {
		n += len(x)
	}
	data = make([]byte, 0, n)
	for _, x := range ss {
		data = append(data, x...)
		lens = binary.AppendUvarint(lens, uint64(len(x)))
	}
	return data, lens
}

// unpackStrings undoes packStrings: the strings are parts of one string.
func unpackStrings(data, lens []byte) ([]string, error) {
	all := string(data)
	n := 0 // a varint ends with each byte below 0x80
	for _, b := range lens {
		if b < 0x80 {
			n++
		}
	}
	out := make([]string, 0, n)
	at := 0
	for len(lens) > 0 {
		n, k := binary.Uvarint(lens)
		if k <= 0 || n > uint64(len(all)-at) {
			return nil, fmt.Errorf("string %d: bad length at byte %d of %d (%d of %d bytes used)", len(out), at, len(all), at, len(all))
		}
		out = append(out, all[at:at+int(n)])
		at += int(n)
		lens = lens[k:]
	}
	if at != len(all) {
		return nil, fmt.Errorf("%d strings use %d of its %d bytes", len(out), at, len(all))
	}
	return out, nil
}

// packUint32s returns u as unsigned varints, of the differences of
// consecutive values (from 0) with delta (u must then not decrease).
func packUint32s(u []uint32, delta bool) []byte {
	out := make([]byte, 0, len(u))
	prev := uint32(0)
	for _, x := range u {
		v := x
		if delta {
			v, prev = x-prev, x
		}
		out = binary.AppendUvarint(out, uint64(v))
	}
	return out
}

// unpackUint32s undoes packUint32s.
func unpackUint32s(b []byte, delta bool) ([]uint32, error) {
	out := make([]uint32, 0, len(b))
	prev := uint64(0)
	for at := 0; at < len(b); {
		v, k := binary.Uvarint(b[at:])
		if k <= 0 {
			return nil, fmt.Errorf("value %d: bad varint at byte %d", len(out), at)
		}
		if delta {
			v += prev
		}
		if v > math.MaxUint32 {
			return nil, fmt.Errorf("value %d: %d overflows 32 bits", len(out), v)
		}
		prev = v
		out = append(out, uint32(v))
		at += k
	}
	return out, nil
}
