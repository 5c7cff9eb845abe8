package morph

import (
	"errors"
	"fmt"
	"slices"

	"github.com/transparse/transparse/modelfmt"
	"github.com/transparse/transparse/parser/linear"
)

// Data is the serialisable form of a lemmatizer or a FEATS tagger: plain
// fields that msgpack (github.com/vmihailenco/msgpack/v5) encodes as they
// are, for storing beside the other classifiers of a model file.
type Data struct {
	// Kind is "lemma" or "feats".
	Kind string `msgpack:"kind"`
	// Classes are the class names: lemma rules (Rule.String) or FEATS
	// strings, in class-id order.
	Classes []string `msgpack:"classes"`
	// Keys are the dictionary and candidate-index keys, sorted; the
	// candidates of Keys[i] are Cands[Ends[i-1]:Ends[i]] (Ends[-1] = 0),
	// class ids, most frequent first. A key is a level byte and
	// tab-separated fields (see the package documentation).
	Keys  []string `msgpack:"keys"`
	Ends  []uint32 `msgpack:"ends"`
	Cands []uint32 `msgpack:"cands"`
	// Weights is the perceptron that scores classes, and Rank the one
	// that scores candidates by their own features, in the layout of
	// parser/linear.
	Weights modelfmt.Classifier `msgpack:"weights"`
	Rank    modelfmt.Classifier `msgpack:"rank"`
	// Lemmas (lemmatizers only) are the lowercased lemmas seen in
	// training, each as "lemma\tUPOS", sorted; "lemma\t" for a lemma seen
	// only without a UPOS (older files also list every lemma so, which
	// adds nothing).
	Lemmas []string `msgpack:"lemmas"`
	// Parts (FEATS taggers whose classes have features) are the classes
	// of the per-feature classifiers, PartWeights their weights: for each
	// feature name in order, "Name=" (its absence) then "Name=Value" for
	// each value, sorted.
	Parts       []string            `msgpack:"parts"`
	PartWeights modelfmt.Classifier `msgpack:"part_weights"`
	// SyntaxWeights (FEATS taggers, optional) is the perceptron that
	// chooses FEATS again after parsing (FeatsTagger.Refine); empty
	// (no layout) when the tagger has none.
	SyntaxWeights modelfmt.Classifier `msgpack:"syntax_weights"`
	// Agreement (FEATS taggers, optional) is the agreement table
	// (FeatsTagger.Agree): one rule a string, the word's XPOS, the
	// subject's XPOS, Person and Number, then the Person and Number it
	// gives, separated by tabs, sorted; nil when the tagger has none.
	Agreement []string `msgpack:"agreement"`
	// LemmaCase (lemmatizers, optional) are the XPOS tags whose
	// capitalized words keep their capital in the lemma (LemmaCase),
	// sorted; nil when the lemmatizer has none.
	LemmaCase []string `msgpack:"lemma_case"`
	// DictionaryFirst (lemmatizers, optional): a word found in the
	// dictionary takes its most frequent lemma rule there, without the
	// classifier (Lemmatizer.SetDictionaryFirst).
	DictionaryFirst bool `msgpack:"dictionary_first"`
	// ConsistentTags (FEATS taggers, optional): a known word's candidates
	// are only those seen with its UPOS and XPOS
	// (FeatsTagger.SetConsistentTags).
	ConsistentTags bool `msgpack:"consistent_tags"`
}

// data returns the serialisable form of c.
func (c *component) data() *Data {
	d := &Data{Kind: c.kind.String(), Classes: slices.Clone(c.classes)}
	d.Keys = slices.Clone(c.dict.keys)
	d.Ends = slices.Clone(c.dict.ends)
	d.Cands = make([]uint32, len(c.dict.ids))
	for i, id := range c.dict.ids {
		d.Cands[i] = uint32(id)
	}
	d.Weights = c.model.Classifier("morph."+c.kind.String(), c.templateNames(), nil)
	d.Rank = c.rank.Classifier("morph."+c.kind.String()+".rank", c.rankNames(), nil)
	d.Lemmas = c.seen.keys()
	if c.parts != nil {
		d.Parts = slices.Clone(c.parts.classes)
		d.PartWeights = c.parts.model.Classifier("morph.feats.parts", c.templateNames(), nil)
	}
	if c.agree != nil {
		d.Agreement = c.agree.data()
	}
	if c.lemmaCase != nil {
		d.LemmaCase = slices.Clone(c.lemmaCase.xpos)
	}
	d.DictionaryFirst = c.dictFirst
	d.ConsistentTags = c.tagsFirst
	if c.syntax != nil {
		d.SyntaxWeights = c.syntax.Classifier("morph.feats.syntax", syntaxTemplateNames, nil)
	}
	return d
}

// fromData checks d and builds the component it describes.
func fromData(d *Data, want kind) (*component, error) {
	if d == nil {
		return nil, errors.New("morph: nil data")
	}
	if d.Kind != want.String() {
		return nil, fmt.Errorf("morph: data of kind %q, want %q", d.Kind, want)
	}
	n := len(d.Classes)
	if n == 0 || n > linear.MaxClasses {
		return nil, fmt.Errorf("morph: %s: %d classes, want 1..%d", want, n, linear.MaxClasses)
	}
	if len(d.Ends) != len(d.Keys) {
		return nil, fmt.Errorf("morph: %s: %d keys but %d ends", want, len(d.Keys), len(d.Ends))
	}
	c := &component{kind: want, classes: slices.Clone(d.Classes), endPrefix: want == kindFeats && slices.Contains(d.Weights.Templates, endPrefixFirst),
		candShape: want == kindLemma && slices.Contains(d.Rank.Templates, candShapeFirst)}
	if err := c.parseRules(); err != nil {
		return nil, err
	}
	ids, err := candidatesFromData(d, want)
	if err != nil {
		return nil, err
	}
	c.dict = newDict(slices.Clone(d.Keys), slices.Clone(d.Ends), ids)
	c.words = newWordIndex(c.dict)
	m, err := linear.FromClassifier(&d.Weights)
	if err != nil {
		return nil, fmt.Errorf("morph: %s: %w", want, err)
	}
	if m.NumClasses() != n {
		return nil, fmt.Errorf("morph: %s: the weights have %d classes, want %d", want, m.NumClasses(), n)
	}
	c.model = m
	if c.rank, err = linear.FromClassifier(&d.Rank); err != nil {
		return nil, fmt.Errorf("morph: %s: %w", want, err)
	}
	if c.rank.NumClasses() != 1 {
		return nil, fmt.Errorf("morph: %s: the rank weights have %d classes, want 1", want, c.rank.NumClasses())
	}
	c.seen = newSeenLemmas(d.Lemmas)
	c.splitFeats()
	if err := c.optionalFromData(d); err != nil {
		return nil, err
	}
	return c, nil
}

// candidatesFromData checks the dictionary of d, a component of kind
// want: its keys sorted and each with candidates, the candidates' classes
// and ends in range; and returns the candidates.
func candidatesFromData(d *Data, want kind) ([]int32, error) {
	n := len(d.Classes)
	ids := make([]int32, len(d.Cands))
	for i, id := range d.Cands {
		if id >= uint32(n) {
			return nil, fmt.Errorf("morph: %s: candidate %d: class %d of %d", want, i, id, n)
		}
		ids[i] = int32(id)
	}
	start := uint32(0)
	for i, k := range d.Keys {
		end := d.Ends[i]
		if end < start || end > uint32(len(ids)) {
			return nil, fmt.Errorf("morph: %s: key %d: candidates end at %d, want %d..%d", want, i, end, start, len(ids))
		}
		if i > 0 && k <= d.Keys[i-1] {
			return nil, fmt.Errorf("morph: %s: key %d (%q) is not after the one before", want, i, k)
		}
		if end == start || k == "" {
			return nil, fmt.Errorf("morph: %s: key %d (%q) is empty or has no candidates", want, i, k)
		}
		start = end
	}
	return ids, nil
}

// optionalFromData sets the optional parts of c, of kind c.kind, from d:
// each must be of c's kind.
func (c *component) optionalFromData(d *Data) error {
	want, n := c.kind, len(c.classes)
	var err error
	if d.SyntaxWeights.Layout != "" {
		if want != kindFeats {
			return fmt.Errorf("morph: %s: syntactic FEATS weights in a %s", want, want)
		}
		if c.syntax, err = linear.FromClassifier(&d.SyntaxWeights); err != nil {
			return fmt.Errorf("morph: %s: syntax: %w", want, err)
		}
		if c.syntax.NumClasses() != n {
			return fmt.Errorf("morph: %s: the syntax weights have %d classes, want %d", want, c.syntax.NumClasses(), n)
		}
	}
	if len(d.LemmaCase) > 0 {
		if want != kindLemma {
			return fmt.Errorf("morph: %s: lemma case tags in a %s", want, want)
		}
		if c.lemmaCase, err = lemmaCaseFromData(d.LemmaCase); err != nil {
			return fmt.Errorf("morph: %s: %w", want, err)
		}
	}
	if d.DictionaryFirst {
		if want != kindLemma {
			return fmt.Errorf("morph: %s: dictionary_first in a %s", want, want)
		}
		c.dictFirst = true
	}
	if d.ConsistentTags {
		if want != kindFeats {
			return fmt.Errorf("morph: %s: consistent_tags in a %s", want, want)
		}
		c.tagsFirst = true
	}
	if len(d.Agreement) > 0 {
		if want != kindFeats {
			return fmt.Errorf("morph: %s: an agreement table in a %s", want, want)
		}
		a, err := agreementFromData(d.Agreement)
		if err != nil {
			return fmt.Errorf("morph: %s: %w", want, err)
		}
		c.setAgreement(a)
	}
	if len(d.Parts) > 0 {
		if want != kindFeats {
			return fmt.Errorf("morph: %s: FEATS parts in a %s", want, want)
		}
		if c.parts, err = newFeatParts(c.classes, slices.Clone(d.Parts)); err != nil {
			return err
		}
		if c.parts.model, err = linear.FromClassifier(&d.PartWeights); err != nil {
			return fmt.Errorf("morph: %s: %w", want, err)
		}
		if c.parts.model.NumClasses() != len(d.Parts) {
			return fmt.Errorf("morph: %s: the part weights have %d classes, want %d", want, c.parts.model.NumClasses(), len(d.Parts))
		}
	}
	return nil
}
