package parser

import (
	"fmt"
	"math"
	"slices"

	"github.com/transparse/transparse/internal/par"
	"github.com/transparse/transparse/modelfmt"
	"github.com/transparse/transparse/parser/feature"
	"github.com/transparse/transparse/parser/linear"
	"github.com/transparse/transparse/parser/pseudoproj"
	"github.com/transparse/transparse/parser/tagger"
	"github.com/transparse/transparse/parser/transition"
)

// Classifier names inside the model file. A variant's fast classifier (a
// cascade, Variant.Fast) is stored as its name + fastSuffix, with
// Params[fastMarginParam] = round(1000 * FastMargin); its classifier
// trained for beam search (Variant.Beam), optional, as its name +
// beamSuffix, with the variant's templates and feature hash.
const (
	clfGold         = "parser.gold"
	clfPlain        = "parser.plain"
	fastSuffix      = ".fast"
	beamSuffix      = ".beam"
	fastMarginParam = "fast_margin_milli"
)

// Document returns the model as a model-file document.
func (m *Model) Document() *modelfmt.Model {
	names := m.classes.Names()
	doc := &modelfmt.Model{
		Card:          m.card,
		System:        m.classes.Sys.Name(),
		SystemOptions: map[string]string{"pseudo_projective": m.pproj.String()},
		Strings:       map[string][]string{"deprels": m.classes.Deprels},
		Params:        map[string]int64{"root_deprel": int64(m.classes.RootLabel)},
	}
	for _, v := range []struct {
		name string
		v    *Variant
	}{{clfGold, &m.gold}, {clfPlain, &m.plain}} {
		if v.v.Clf == nil {
			continue
		}
		doc.Classifiers = append(doc.Classifiers, v.v.classifier(v.name, names))
		if f := v.v.Fast; f != nil {
			c := f.classifier(v.name+fastSuffix, names)
			c.Params[fastMarginParam] = int64(math.Round(1000 * float64(v.v.FastMargin)))
			doc.Classifiers = append(doc.Classifiers, c)
		}
		if b := v.v.Beam; b != nil {
			bv := Variant{Ext: v.v.Ext, Clf: b}
			doc.Classifiers = append(doc.Classifiers, bv.classifier(v.name+beamSuffix, names))
		}
		addCalibrators(doc, v.name, v.v, m.classes.Deprels)
	}
	doc.Classifiers = append(doc.Classifiers, tagger.Classifiers(m.taggers.UPOS, m.taggers.XPOS)...)
	if m.taggers.Lemmas != nil {
		addMorph(doc, "lemma", m.taggers.Lemmas.Data())
	}
	if m.taggers.Feats != nil {
		addMorph(doc, "feats", m.taggers.Feats.Data())
	}
	if m.taggers.XPOSTable != nil {
		addMorph(doc, "xpos", m.taggers.XPOSTable.Data())
	}
	return doc
}

// classifier encodes a parser classifier with its templates and feature
// hash version (Params["feature_hash"]; absent means feature.HashV1).
func (v *Variant) classifier(name string, classes []string) modelfmt.Classifier {
	c := v.Clf.Classifier(name, v.Ext.Templates(), classes)
	c.Params["feature_hash"] = int64(v.Ext.HashVersion())
	return c
}

// Save writes the model file to path (atomically: a temporary file renamed;
// see modelfmt.WriteFile). A symbolic link is written through; a
// directory, device, FIFO or socket at path is refused, untouched.
func (m *Model) Save(path string) error { return modelfmt.WriteFile(path, m.Document()) }

// MarshalBinary returns the bytes of the model file.
func (m *Model) MarshalBinary() ([]byte, error) { return modelfmt.Marshal(m.Document()) }

// Load reads a model file from path, which may also be a pipe or a device:
// it is read as a stream within the bounds of modelfmt.ReadFile. Errors
// wrap the modelfmt sentinels (modelfmt.ErrNotModel, ErrNewerVersion,
// ErrCorrupt) or the os error.
func Load(path string) (*Model, error) {
	doc, err := modelfmt.ReadFile(path)
	if err != nil {
		return nil, err
	}
	m, err := FromDocument(doc)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return m, nil
}

// LoadBytes reads a model from the bytes of a model file. data is not
// retained.
func LoadBytes(data []byte) (*Model, error) {
	doc, err := modelfmt.Decode(data)
	if err != nil {
		return nil, err
	}
	return FromDocument(doc)
}

// FromDocument builds a model from a decoded document. Inconsistent content
// gives an error wrapping modelfmt.ErrCorrupt.
func FromDocument(doc *modelfmt.Model) (*Model, error) {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", modelfmt.ErrCorrupt, fmt.Sprintf(format, args...))
	}
	sys, err := transition.Lookup(doc.System)
	if err != nil {
		return nil, bad("%v", err)
	}
	deprels := doc.Strings["deprels"]
	if len(deprels) == 0 {
		return nil, bad("no deprels")
	}
	root := doc.Params["root_deprel"]
	if root < 0 || root >= int64(len(deprels)) {
		return nil, bad("root deprel %d out of range", root)
	}
	classes := transition.NewClasses(sys, deprels, int32(root))
	byName := map[string]*modelfmt.Classifier{}
	for i := range doc.Classifiers {
		byName[doc.Classifiers[i].Name] = &doc.Classifiers[i]
	}
	variant := func(name string, morph bool) (Variant, error) {
		c := byName[name]
		if c == nil {
			return Variant{}, bad("classifier %q missing", name)
		}
		if len(c.Classes) != classes.Len() {
			return Variant{}, bad("classifier %q has %d classes, the system needs %d", name, len(c.Classes), classes.Len())
		}
		hash := int64(feature.HashV1)
		if h, ok := c.Params["feature_hash"]; ok {
			hash = h
		}
		ext, err := feature.NewVersion(c.Templates, int(hash))
		if err != nil {
			return Variant{}, bad("classifier %q: %v", name, err)
		}
		clf, err := linear.FromClassifier(c)
		if err != nil {
			return Variant{}, fmt.Errorf("%w: classifier %q: %v", modelfmt.ErrCorrupt, name, err)
		}
		if clf.NumClasses() != classes.Len() {
			return Variant{}, bad("classifier %q weights have %d classes, want %d", name, clf.NumClasses(), classes.Len())
		}
		return Variant{Morph: morph, Ext: ext, Clf: clf}, nil
	}
	// The classifiers and the taggers decode independently: one step each
	// (and the tag dictionary), run on all CPUs largest first (load time
	// is their decoding).
	type built struct {
		v   Variant
		err error
	}
	var gold, goldFast, plain, plainFast built
	var steps []par.Step
	add := func(b *built, name string, morph bool) {
		steps = append(steps, par.Step{Cost: linear.BuildCost(byName[name]), Run: func() { b.v, b.err = variant(name, morph) }})
	}
	add(&gold, clfGold, true)
	if byName[clfGold+fastSuffix] != nil {
		add(&goldFast, clfGold+fastSuffix, true)
	}
	// A gold-tags-only model (trained for comparing systems) has no
	// plain-token classifier and no taggers.
	if byName[clfPlain] != nil {
		add(&plain, clfPlain, false)
		if byName[clfPlain+fastSuffix] != nil {
			add(&plainFast, clfPlain+fastSuffix, false)
		}
	}
	var tg Taggers
	tsteps, taggers := tagger.PairSteps(doc.Classifiers)
	msteps, morphErr := morphSteps(doc, byName, &tg)
	par.Do(append(append(steps, tsteps...), msteps...))
	// withFast is the variant of b with its fast classifier f, if the file
	// has one.
	withFast := func(b, f *built, name string) (Variant, error) {
		if b.err != nil || f.v.Clf == nil && f.err == nil {
			return b.v, b.err
		}
		if f.err != nil {
			return b.v, f.err
		}
		milli, ok := byName[name+fastSuffix].Params[fastMarginParam]
		if !ok || milli < 0 || milli > 1<<40 {
			return b.v, bad("classifier %q: param %q missing or out of range", name+fastSuffix, fastMarginParam)
		}
		v := b.v
		v.Fast, v.FastMargin = &f.v, float32(milli)/1000
		return v, nil
	}
	// withBeam adds to v the classifier trained for beam search of the
	// file, if it has one: it must read v's templates with v's hash.
	withBeam := func(v Variant, name string, err error) (Variant, error) {
		c := byName[name+beamSuffix]
		if err != nil || c == nil {
			return v, err
		}
		b, err := variant(name+beamSuffix, v.Morph)
		if err != nil {
			return v, err
		}
		if !slices.Equal(b.Ext.Templates(), v.Ext.Templates()) || b.Ext.HashVersion() != v.Ext.HashVersion() {
			return v, bad("classifier %q: templates or feature hash differ from %q's", name+beamSuffix, name)
		}
		v.Beam = b.Clf
		return v, nil
	}
	var errs [5]error
	var goldV, plainV Variant
	goldV, errs[0] = withFast(&gold, &goldFast, clfGold)
	plainV, errs[1] = withFast(&plain, &plainFast, clfPlain)
	goldV, errs[0] = withBeam(goldV, clfGold, errs[0])
	if plainV.Clf != nil {
		plainV, errs[1] = withBeam(plainV, clfPlain, errs[1])
	}
	var errU, errX error
	tg.UPOS, tg.XPOS, errU, errX = taggers()
	for k, e := range [...]error{errU, errX} {
		if e != nil {
			col := [...]string{tagger.UPOS, tagger.XPOS}[k]
			errs[2+k] = fmt.Errorf("%w: %s: %v", modelfmt.ErrCorrupt, tagger.ClassifierName(col), e)
		}
	}
	errs[4] = morphErr()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	if err := readCalibrators(byName, clfGold, &goldV, len(deprels)); err != nil {
		return nil, err
	}
	if plainV.Clf != nil {
		if err := readCalibrators(byName, clfPlain, &plainV, len(deprels)); err != nil {
			return nil, err
		}
	}
	if tg.UPOS == nil && plainV.Clf != nil {
		return nil, bad("classifier %q missing", tagger.ClassifierName(tagger.UPOS))
	}
	if goldV.Beam != nil || plainV.Beam != nil {
		if _, err := cardBeam(doc.Card); err != nil {
			return nil, bad("%v", err)
		}
	}
	m := NewModel(doc.Card, classes, goldV, plainV, tg)
	if p, ok := doc.SystemOptions["pseudo_projective"]; ok {
		enc, err := pseudoproj.Parse(p)
		if err != nil {
			return nil, bad("system option pseudo_projective: %v", err)
		}
		m.pproj = enc
	}
	return m, nil
}
