package core

import (
	"fmt"
	"maps"
	"math"
	"slices"

	"github.com/transparse/transparse/internal/par"
	"github.com/transparse/transparse/modelfmt"
	"github.com/transparse/transparse/parser/calib"
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
	// confSuffix names a calibrator: the classifier's name (a
	// variant's, or its beam classifier's) + confSuffix.
	confSuffix = ".confidence"
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
		if l := v.v.lazyBeam; l != nil && v.v.Beam == nil {
			c := l.src // as the file holds it, maps copied
			c.Blobs, c.Params = maps.Clone(c.Blobs), maps.Clone(c.Params)
			doc.Classifiers = append(doc.Classifiers, c)
		} else if b := v.v.Beam; b != nil {
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
	addSegmenter(doc, m.seg)
	return doc
}

// classifier encodes a parser classifier with its templates and feature
// hash version (Params["feature_hash"]; absent means feature.HashV1).
func (v *Variant) classifier(name string, classes []string) modelfmt.Classifier {
	c := v.Clf.Classifier(name, v.Ext.Templates(), classes)
	c.Params["feature_hash"] = int64(v.Ext.HashVersion())
	return c
}

// corrupt returns an error wrapping modelfmt.ErrCorrupt.
func corrupt(format string, args ...any) error {
	return fmt.Errorf("%w: %s", modelfmt.ErrCorrupt, fmt.Sprintf(format, args...))
}

// decoder decodes the parts of a model document.
type decoder struct {
	classes *transition.Classes
	byName  map[string]*modelfmt.Classifier
}

// built is a variant decoded by a step of FromDocument.
type built struct {
	v   Variant
	err error
}

// docClasses decodes the class table of doc.
func docClasses(doc *modelfmt.Model) (*transition.Classes, error) {
	sys, err := transition.Lookup(doc.System)
	if err != nil {
		return nil, corrupt("%v", err)
	}
	deprels := doc.Strings["deprels"]
	if len(deprels) == 0 {
		return nil, corrupt("no deprels")
	}
	// modelfmt has checked every string as text and for repeats; a deprel
	// is also a CoNLL-U field, which is never empty.
	if i := slices.Index(deprels, ""); i >= 0 {
		return nil, corrupt("deprels[%d] is empty", i)
	}
	root := doc.Params["root_deprel"]
	if root < 0 || root >= int64(len(deprels)) {
		return nil, corrupt("root deprel %d out of range", root)
	}
	return transition.NewClasses(sys, deprels, int32(root)), nil
}

// variant decodes the classifier name with its templates.
func (d *decoder) variant(name string, morph bool) (Variant, error) {
	c := d.byName[name]
	if c == nil {
		return Variant{}, corrupt("classifier %q missing", name)
	}
	if len(c.Classes) != d.classes.Len() {
		return Variant{}, corrupt("classifier %q has %d classes, the system needs %d", name, len(c.Classes), d.classes.Len())
	}
	ext, err := feature.NewVersion(c.Templates, featureHash(c))
	if err != nil {
		return Variant{}, corrupt("classifier %q: %v", name, err)
	}
	clf, err := linear.FromClassifier(c)
	if err != nil {
		return Variant{}, fmt.Errorf("%w: classifier %q: %v", modelfmt.ErrCorrupt, name, err)
	}
	if clf.NumClasses() != d.classes.Len() {
		return Variant{}, corrupt("classifier %q weights have %d classes, want %d", name, clf.NumClasses(), d.classes.Len())
	}
	return Variant{Morph: morph, Ext: ext, Clf: clf}, nil
}

// withFast returns the variant of b with its fast classifier f, if the
// file has one.
func (d *decoder) withFast(b, f *built, name string) (Variant, error) {
	if b.err != nil || f.v.Clf == nil && f.err == nil {
		return b.v, b.err
	}
	if f.err != nil {
		return b.v, f.err
	}
	milli, ok := d.byName[name+fastSuffix].Params[fastMarginParam]
	if !ok || milli < 0 || milli > 1<<40 {
		return b.v, corrupt("classifier %q: param %q missing or out of range", name+fastSuffix, fastMarginParam)
	}
	v := b.v
	v.Fast, v.FastMargin = &f.v, float32(milli)/1000
	return v, nil
}

// withBeam adds to v the classifier trained for beam search of the file
// when it has one, to be decoded at its first use (lazyClassifier): it
// must have the system's classes and read v's templates with v's hash.
func (d *decoder) withBeam(v Variant, name string, err error) (Variant, error) {
	c := d.byName[name+beamSuffix]
	if err != nil || c == nil || v.Clf == nil {
		return v, err
	}
	if len(c.Classes) != d.classes.Len() {
		return v, corrupt("classifier %q has %d classes, the system needs %d", c.Name, len(c.Classes), d.classes.Len())
	}
	if !slices.Equal(c.Templates, v.Ext.Templates()) || featureHash(c) != v.Ext.HashVersion() {
		return v, corrupt("classifier %q: templates or feature hash differ from %q's", c.Name, name)
	}
	v.lazyBeam = &lazyClassifier{src: *c, classes: d.classes.Len()}
	return v, nil
}

// featureHash is the feature hash version of a parser classifier
// (Params["feature_hash"]; absent means feature.HashV1).
func featureHash(c *modelfmt.Classifier) int {
	if h, ok := c.Params["feature_hash"]; ok {
		return int(h)
	}
	return feature.HashV1
}

// FromDocument builds a model from a decoded document. Inconsistent content
// gives an error wrapping modelfmt.ErrCorrupt.
//
// The classifiers and the taggers decode independently: one step each
// (and the tag dictionary), run on all CPUs largest first (load time is
// their decoding). The classifiers trained for beam search are checked
// against their parser here but decoded at the first parse that needs
// them (lazyClassifier): a damaged weight table of theirs is an error of
// that parse, wrapping modelfmt.ErrCorrupt.
func FromDocument(doc *modelfmt.Model) (*Model, error) {
	// A decoded document has passed these checks; one built in memory
	// has not. Every string of a model is data from outside.
	if err := doc.Validate(); err != nil {
		return nil, corrupt("%v", err)
	}
	classes, err := docClasses(doc)
	if err != nil {
		return nil, err
	}
	d := &decoder{classes: classes, byName: map[string]*modelfmt.Classifier{}}
	for i := range doc.Classifiers {
		d.byName[doc.Classifiers[i].Name] = &doc.Classifiers[i]
	}
	var gold, goldFast, plain, plainFast built
	var steps []par.Step
	add := func(b *built, name string, morph bool) {
		if d.byName[name] != nil || b == &gold {
			steps = append(steps, par.Step{Cost: linear.BuildCost(d.byName[name]), Run: func() { b.v, b.err = d.variant(name, morph) }})
		}
	}
	add(&gold, clfGold, true)
	add(&goldFast, clfGold+fastSuffix, true)
	// A gold-tags-only model (trained for comparing systems) has no
	// plain-token classifier and no taggers.
	if d.byName[clfPlain] != nil {
		add(&plain, clfPlain, false)
		add(&plainFast, clfPlain+fastSuffix, false)
	}
	var tg Taggers
	tsteps, taggers := tagger.PairSteps(doc.Classifiers)
	msteps, morphErr := morphSteps(doc, d.byName, &tg)
	par.Do(append(append(steps, tsteps...), msteps...))
	var errs [5]error
	var goldV, plainV Variant
	goldV, errs[0] = d.withFast(&gold, &goldFast, clfGold)
	plainV, errs[1] = d.withFast(&plain, &plainFast, clfPlain)
	goldV, errs[0] = d.withBeam(goldV, clfGold, errs[0])
	plainV, errs[1] = d.withBeam(plainV, clfPlain, errs[1])
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
	return assembleDecoded(doc, d, Parts{Card: doc.Card, Classes: classes, Gold: goldV, Plain: plainV, Taggers: tg})
}

// assembleDecoded adds to the decoded parts p their calibrators and
// pseudo-projective encoding, checks them and returns their model.
func assembleDecoded(doc *modelfmt.Model, d *decoder, p Parts) (*Model, error) {
	n := len(p.Classes.Deprels)
	if err := readCalibrators(d.byName, clfGold, &p.Gold, n); err != nil {
		return nil, err
	}
	if p.Plain.Clf != nil {
		if err := readCalibrators(d.byName, clfPlain, &p.Plain, n); err != nil {
			return nil, err
		}
	}
	if p.Taggers.UPOS == nil && p.Plain.Clf != nil {
		return nil, corrupt("classifier %q missing", tagger.ClassifierName(tagger.UPOS))
	}
	if p.Gold.HasBeam() || p.Plain.HasBeam() {
		if _, err := cardBeam(doc.Card); err != nil {
			return nil, corrupt("%v", err)
		}
	}
	seg, err := readSegmenter(d.byName)
	if err != nil {
		return nil, err
	}
	p.Segmenter = seg
	if s, ok := doc.SystemOptions["pseudo_projective"]; ok {
		enc, err := pseudoproj.Parse(s)
		if err != nil {
			return nil, corrupt("system option pseudo_projective: %v", err)
		}
		p.PseudoProjective = enc
	}
	return Assemble(p), nil
}

// addCalibrators appends the calibrators of v, stored under the
// classifier name name, to doc.
func addCalibrators(doc *modelfmt.Model, name string, v *Variant, deprels []string) {
	if v.Conf != nil {
		doc.Classifiers = append(doc.Classifiers, v.Conf.Classifier(name+confSuffix, deprels))
	}
	if v.BeamConf != nil {
		doc.Classifiers = append(doc.Classifiers, v.BeamConf.Classifier(name+beamSuffix+confSuffix, deprels))
	}
}

// readCalibrators sets v's calibrators from doc's classifiers (by name),
// those the file has.
func readCalibrators(byName map[string]*modelfmt.Classifier, name string, v *Variant, deprels int) error {
	for _, c := range []struct {
		name string
		to   **calib.Calibrator
	}{{name + confSuffix, &v.Conf}, {name + beamSuffix + confSuffix, &v.BeamConf}} {
		mc := byName[c.name]
		if mc == nil {
			continue
		}
		cal, err := calib.FromClassifier(mc, deprels)
		if err != nil {
			return err
		}
		*c.to = cal
	}
	return nil
}
