package tagger

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/transparse/transparse/internal/par"
	"github.com/transparse/transparse/modelfmt"
	"github.com/transparse/transparse/parser/linear"
)

// Classifier encodes the tagger for the model file, named
// ClassifierName(Column()): Classes are the tags, Templates name the feature
// templates, and besides the linear model's params and blobs (layout
// linear.Layout) it holds the tag dictionary in the blobs
// "tagger.dict.keys" (sorted 40-bit key hashes as uvarint deltas) and
// "tagger.dict.masks" (one uvarint tag bit set per key), and the params
// "tagger.feature_version" (see FeatureVersion; a tagger that reads
// spacing also has "tagger.spacing" = 1), "tagger.passes",
// "tagger.dict_entries" and "tagger.pass2_margin_bits" (the float32 bits of
// the second-pass margin threshold); an XPOS tagger trained on data with
// UPOS also holds the UPOS/XPOS pairs seen in training (see
// Analysis.Reconcile) in the blobs "tagger.pairs" (for each tag, a uvarint
// bit set of UPOS tag ids) and "tagger.pairs.upos" (the sorted UPOS tags
// those ids index, one a line); a tagger with a guesser (feature version
// 3) holds its lemma rules in the blobs "tagger.guess.rules" (one a line,
// the suffix stripped and the suffix added separated by a tab, sorted) and
// "tagger.guess.masks" (a uvarint tag bit set per rule), and the tags of
// the training lemmas in its dictionary. The result shares no memory with
// the tagger. It does not hold the fast model (Classifiers encodes it as a
// classifier of its own): FromClassifier of it gives the tagger without.
func (t *Tagger) Classifier() modelfmt.Classifier {
	names := templateNames[1:]
	if t.guess != nil {
		names = append(slices.Clone(names), guessTemplateNames[:]...)
	}
	if t.clusters != nil {
		names = append(slices.Clone(names), clusterTemplateNames[:]...)
	}
	if t.spacing {
		names = append(slices.Clone(names), spaceTemplateNames[:]...)
	}
	c := t.model.Classifier(ClassifierName(t.Column()), names, t.tags)
	c.Params["tagger.feature_version"] = t.featureVersion()
	if t.spacing {
		c.Params[spacingParam] = 1
	}
	c.Params["tagger.passes"] = passes
	c.Params[dictEntries] = int64(t.dict.n)
	c.Params["tagger.pass2_margin_bits"] = int64(math.Float32bits(t.margin))
	keys, masks := t.dict.encode()
	c.Blobs[dictKeysBlob] = keys
	c.Blobs[dictMasksBlob] = masks
	if len(t.pairs) > 0 {
		var b []byte
		for _, m := range t.pairs {
			b = binary.AppendUvarint(b, m)
		}
		c.Blobs[pairsBlob] = b
		c.Blobs[pairUPOSBlob] = []byte(strings.Join(t.pairUPOS, "\n"))
	}
	if t.guess != nil {
		c.Blobs[guessRulesBlob], c.Blobs[guessMasksBlob] = t.guess.encode()
	}
	if t.clusters != nil {
		c.Blobs[clusterWordsBlob], c.Blobs[clusterCodesBlob] = t.clusters.encode()
	}
	return c
}

// Blobs of an XPOS tagger's UPOS/XPOS pairs (Tagger.pairs): one uvarint
// set of UPOS tag ids per XPOS tag, and the UPOS tags, one a line.
const (
	pairsBlob    = "tagger.pairs"
	pairUPOSBlob = "tagger.pairs.upos"
)

// decodePairs checks and decodes the pair blobs of c, a classifier of
// numTags tags: nil, nil if it has none.
func decodePairs(c *modelfmt.Classifier, numTags int) (pairs []uint64, upos []string, err error) {
	pb, ub := c.Blobs[pairsBlob], c.Blobs[pairUPOSBlob]
	if pb == nil && ub == nil {
		return nil, nil, nil
	}
	upos = strings.Split(string(ub), "\n")
	if len(upos) > MaxTags || !slices.IsSorted(upos) || slices.Contains(upos, "") || len(slices.Compact(slices.Clone(upos))) != len(upos) {
		return nil, nil, fmt.Errorf("blob %q: not a sorted set of at most %d non-empty tags", pairUPOSBlob, MaxTags)
	}
	r := maskReader{b: pb, numTags: len(upos)}
	pairs = make([]uint64, numTags)
	for i := range pairs {
		// A tag seen without UPOS has no pairs (an empty set).
		if r.at < len(r.b) && r.b[r.at] == 0 {
			r.at++
			continue
		}
		if pairs[i], err = r.next(i); err != nil {
			return nil, nil, fmt.Errorf("blob %q: %v", pairsBlob, err)
		}
	}
	if err := r.end(); err != nil {
		return nil, nil, fmt.Errorf("blob %q: %v", pairsBlob, err)
	}
	return pairs, upos, nil
}

// FromClassifier decodes a tagger written by Tagger.Classifier; its column
// comes from the classifier name. A corrupted or incompatible classifier
// (an unknown name, another feature version or pass count, empty or
// repeated tags, inconsistent sizes, a bad dictionary or linear model) gives
// an error, never a panic. The result shares no memory with c.
func FromClassifier(c *modelfmt.Classifier) (*Tagger, error) { return fromClassifier(c, true, true) }

// fromClassifier is FromClassifier, without the dictionary unless
// withDict, and without the clusters of a tagger of feature version 4
// unless withClusters (the caller then decodes or attaches them).
func fromClassifier(c *modelfmt.Classifier, withDict, withClusters bool) (*Tagger, error) {
	if c == nil {
		return nil, errors.New("tagger: nil classifier")
	}
	fail := func(format string, args ...any) (*Tagger, error) { return nil, classifierError(c, format, args...) }
	version := c.Params["tagger.feature_version"]
	if version < featureVersionNoGuess || version > FeatureVersion {
		return fail("feature version %d, this tagger computes versions %d to %d", version, featureVersionNoGuess, FeatureVersion)
	}
	if p := c.Params["tagger.passes"]; p != passes {
		return fail("%d passes, this tagger runs %d", p, passes)
	}
	if len(c.Classes) == 0 || len(c.Classes) > MaxTags {
		return fail("%d tags, want 1..%d", len(c.Classes), MaxTags)
	}
	seen := map[string]bool{}
	for _, tag := range c.Classes {
		if tag == "" || seen[tag] {
			return fail("empty or repeated tag %q", tag)
		}
		seen[tag] = true
	}
	m, err := linear.FromClassifier(c)
	if err != nil {
		return nil, fmt.Errorf("tagger: %w", err)
	}
	margin, ok := float32Param(c, "tagger.pass2_margin_bits")
	if !ok {
		return fail("missing or invalid param \"tagger.pass2_margin_bits\"")
	}
	var d dict
	if withDict {
		if d, err = decodeDict(c.Blobs[dictKeysBlob], c.Blobs[dictMasksBlob], c.Params[dictEntries], len(c.Classes)); err != nil {
			return fail("%v", err)
		}
	}
	col := columnFromName(c.Name)
	if col == "" {
		return fail("unknown tagger name (want %q or %q)", ClassifierName(UPOS), ClassifierName(XPOS))
	}
	pairs, pairUPOS, err := decodePairs(c, len(c.Classes))
	if err != nil {
		return fail("%v", err)
	}
	if pairs != nil && col != XPOS {
		return fail("UPOS/XPOS pairs in a %s tagger", col)
	}
	var g *guesser
	rb, mb := c.Blobs[guessRulesBlob], c.Blobs[guessMasksBlob]
	switch {
	case version == featureVersionGuess || (version >= featureVersionClusters && (rb != nil || mb != nil)):
		if g, err = decodeGuesser(rb, mb, len(c.Classes)); err != nil {
			return fail("%v", err)
		}
	case rb != nil || mb != nil:
		return fail("guesser blobs in a tagger of feature version %d", version)
	}
	var cl *Clusters
	wb, cb := c.Blobs[clusterWordsBlob], c.Blobs[clusterCodesBlob]
	switch {
	case hasClusters(c) && !withClusters:
	case hasClusters(c):
		if cl, err = decodeClusters(wb, cb); err != nil {
			return fail("%v", err)
		}
	case wb != nil || cb != nil:
		return fail("cluster blobs in a tagger of feature version %d", version)
	}
	spacing := version == FeatureVersion
	if p, ok := c.Params[spacingParam]; ok != spacing || (ok && p != 1) {
		return fail("param %q = %d at feature version %d (version %d has it, = 1; others lack it)", spacingParam, p, version, FeatureVersion)
	}
	return &Tagger{tags: slices.Clone(c.Classes), model: m, dict: d, margin: margin, column: col, pairs: pairs, pairUPOS: pairUPOS, guess: g, clusters: cl, spacing: spacing}, nil
}

// spacingParam, set to 1, marks a tagger that reads spacing (feature
// version FeatureVersion; see setSpacing).
const spacingParam = "tagger.spacing"

// hasClusters reports whether the tagger classifier c reads word
// clusters: always at feature version 4; at version 5 when it has the
// cluster blobs or shares the UPOS tagger's (ClustersShared).
func hasClusters(c *modelfmt.Classifier) bool {
	switch c.Params["tagger.feature_version"] {
	case featureVersionClusters:
		return true
	case FeatureVersion:
		return c.Blobs[clusterWordsBlob] != nil || c.Blobs[clusterCodesBlob] != nil || c.Params[ClustersShared] == 1
	}
	return false
}

// Params and blobs of the dictionary shared by a model's two taggers.
const (
	dictKeysBlob  = "tagger.dict.keys"
	dictMasksBlob = "tagger.dict.masks"
	dictEntries   = "tagger.dict_entries"
	// DictKeysShared is the XPOS tagger's param that, set to 1, says its
	// dictionary keys are the UPOS tagger's blob "tagger.dict.keys" (both
	// taggers are trained on the same words), which it then does not hold.
	DictKeysShared = "tagger.dict.keys_shared"
)

// Classifiers encodes a model's taggers for its document, UPOS first,
// then their fast models (ClassifierName(column) + FastSuffix); either
// tagger may be nil. When the two dictionaries have the same keys, the
// XPOS tagger's are not stored again (DictKeysShared): FromDocument and
// PairFromDocument restore them.
func Classifiers(upos, xpos *Tagger) []modelfmt.Classifier {
	var out []modelfmt.Classifier
	if upos != nil {
		out = append(out, upos.Classifier())
	}
	if xpos != nil {
		x := xpos.Classifier()
		if upos != nil && bytes.Equal(x.Blobs[dictKeysBlob], out[0].Blobs[dictKeysBlob]) {
			delete(x.Blobs, dictKeysBlob)
			x.Params[DictKeysShared] = 1
		}
		if upos != nil && x.Blobs[clusterWordsBlob] != nil && bytes.Equal(x.Blobs[clusterWordsBlob], out[0].Blobs[clusterWordsBlob]) &&
			bytes.Equal(x.Blobs[clusterCodesBlob], out[0].Blobs[clusterCodesBlob]) {
			delete(x.Blobs, clusterWordsBlob)
			delete(x.Blobs, clusterCodesBlob)
			x.Params[ClustersShared] = 1
		}
		out = append(out, x)
	}
	for _, t := range []*Tagger{upos, xpos} {
		if t != nil && t.fast != nil {
			out = append(out, t.fastClassifier())
		}
	}
	return out
}

// FastSuffix ends the name of a tagger's fast model in a model file:
// ClassifierName(column) + FastSuffix.
const FastSuffix = ".fast"

// fastMarginParam is the param of a fast model's classifier holding the
// float32 bits of its margin (Tagger.fastMargin).
const fastMarginParam = "tagger.fast_margin_bits"

// fastClassifier encodes t's fast model (t.fast must not be nil): a
// linear classifier named ClassifierName(Column()) + FastSuffix with the
// tagger's tags as classes, fastTemplates as templates, and the params
// "tagger.feature_version" and "tagger.fast_margin_bits" (the float32
// bits of the margin from which its decisions stand).
func (t *Tagger) fastClassifier() modelfmt.Classifier {
	c := t.fast.Classifier(ClassifierName(t.Column())+FastSuffix, fastTemplateNames(), t.tags)
	c.Params["tagger.feature_version"] = t.featureVersion()
	c.Params[fastMarginParam] = int64(math.Float32bits(t.fastMargin))
	return c
}

// attachFast decodes the fast model of t from classifiers, if there is
// one (see fastModel).
func (t *Tagger) attachFast(classifiers []modelfmt.Classifier) error {
	m, margin, err := fastModel(classifiers, t.Column(), t.tags, t.featureVersion())
	if err == nil && m != nil {
		t.fast, t.fastMargin = m, margin
	}
	return err
}

// fastModel decodes the fast model of the tagger of column with the given
// tags from classifiers: nil without error if there is none. Its tags
// must be the tagger's, its feature version the tagger's (version), its
// margin a float32 that is not NaN.
func fastModel(classifiers []modelfmt.Classifier, column string, tags []string, version int64) (*linear.Model, float32, error) {
	c := findClassifier(classifiers, ClassifierName(column)+FastSuffix)
	if c == nil {
		return nil, 0, nil
	}
	if v := c.Params["tagger.feature_version"]; v != version {
		return nil, 0, classifierError(c, "feature version %d, its tagger has version %d", v, version)
	}
	if !slices.Equal(c.Classes, tags) {
		return nil, 0, classifierError(c, "its %d tags are not those of its tagger", len(c.Classes))
	}
	margin, ok := float32Param(c, fastMarginParam)
	if !ok {
		return nil, 0, classifierError(c, "missing or invalid param %q", fastMarginParam)
	}
	m, err := linear.FromClassifier(c)
	if err != nil {
		return nil, 0, fmt.Errorf("tagger: %w", err)
	}
	return m, margin, nil
}

// FromDocument decodes the tagger of column (UPOS or XPOS) from the
// classifiers of a model document, with its fast model if the document
// has one, nil without error if there is no tagger. An XPOS tagger whose
// dictionary keys are shared (DictKeysShared) takes them from the UPOS
// tagger; sharing without a UPOS tagger, or with keys of its own, is an
// error, as is anything FromClassifier rejects or a fast model that does
// not fit its tagger.
func FromDocument(classifiers []modelfmt.Classifier, column string) (*Tagger, error) {
	c := findClassifier(classifiers, ClassifierName(column))
	if c == nil {
		return nil, nil
	}
	u, err := sharedKeys(classifiers, c, column)
	if err != nil {
		return nil, err
	}
	if u != nil {
		shared := *c
		shared.Blobs = make(map[string][]byte, len(c.Blobs)+1) // c.Blobs may be nil
		maps.Copy(shared.Blobs, c.Blobs)
		shared.Blobs[dictKeysBlob] = u.Blobs[dictKeysBlob]
		c = &shared
	}
	if c, err = sharedClusters(classifiers, c, column); err != nil {
		return nil, err
	}
	t, err := FromClassifier(c)
	if err != nil {
		return nil, err
	}
	if t.Column() != column {
		return nil, fmt.Errorf("tagger: classifier %q tags %s", c.Name, t.Column())
	}
	if err := t.attachFast(classifiers); err != nil {
		return nil, err
	}
	return t, nil
}

// findClassifier returns the classifier called name, nil if there is none.
func findClassifier(classifiers []modelfmt.Classifier, name string) *modelfmt.Classifier {
	for i := range classifiers {
		if classifiers[i].Name == name {
			return &classifiers[i]
		}
	}
	return nil
}

// classifierError is the error for what is wrong with classifier c.
func classifierError(c *modelfmt.Classifier, format string, args ...any) error {
	return fmt.Errorf("tagger: classifier %q: %s", c.Name, fmt.Sprintf(format, args...))
}

// float32Param returns the float32 whose bits param name of c holds; ok
// is false if the param is missing, out of range or NaN.
func float32Param(c *modelfmt.Classifier, name string) (v float32, ok bool) {
	b, ok := c.Params[name]
	v = math.Float32frombits(uint32(b))
	return v, ok && b >= 0 && b <= math.MaxUint32 && !math.IsNaN(float64(v))
}

// sharedKeys returns the UPOS tagger's classifier if c, the tagger of
// column, shares its dictionary keys (DictKeysShared), nil if it does not,
// and an error if it claims to wrongly: in another column, without a UPOS
// tagger, or with keys of its own.
func sharedKeys(classifiers []modelfmt.Classifier, c *modelfmt.Classifier, column string) (*modelfmt.Classifier, error) {
	v, ok := c.Params[DictKeysShared]
	if !ok {
		return nil, nil
	}
	u := findClassifier(classifiers, ClassifierName(UPOS))
	switch {
	case v != 1 || column != XPOS:
		return nil, fmt.Errorf("tagger: classifier %q: param %q = %d", c.Name, DictKeysShared, v)
	case u == nil:
		return nil, fmt.Errorf("tagger: classifier %q shares the dictionary keys of a missing UPOS tagger", c.Name)
	case c.Blobs[dictKeysBlob] != nil:
		return nil, fmt.Errorf("tagger: classifier %q shares dictionary keys but has its own", c.Name)
	}
	return u, nil
}

// sharedClusters returns c, the classifier of the tagger of column, with
// the UPOS tagger's cluster blobs if it shares them (ClustersShared), and
// an error if it claims to wrongly: in another column, without a UPOS
// tagger with clusters, or with clusters of its own. c is not modified.
func sharedClusters(classifiers []modelfmt.Classifier, c *modelfmt.Classifier, column string) (*modelfmt.Classifier, error) {
	v, ok := c.Params[ClustersShared]
	if !ok {
		return c, nil
	}
	u := findClassifier(classifiers, ClassifierName(UPOS))
	switch {
	case v != 1 || column != XPOS || c.Params["tagger.feature_version"] < featureVersionClusters:
		return nil, fmt.Errorf("tagger: classifier %q: param %q = %d in a %s tagger of feature version %d", c.Name, ClustersShared, v, column, c.Params["tagger.feature_version"])
	case u == nil || u.Blobs[clusterWordsBlob] == nil:
		return nil, fmt.Errorf("tagger: classifier %q shares the clusters of a UPOS tagger that has none", c.Name)
	case c.Blobs[clusterWordsBlob] != nil || c.Blobs[clusterCodesBlob] != nil:
		return nil, fmt.Errorf("tagger: classifier %q shares clusters but has its own", c.Name)
	}
	shared := *c
	shared.Blobs = make(map[string][]byte, len(c.Blobs)+2) // c.Blobs may be nil
	maps.Copy(shared.Blobs, c.Blobs)
	shared.Blobs[clusterWordsBlob] = u.Blobs[clusterWordsBlob]
	shared.Blobs[clusterCodesBlob] = u.Blobs[clusterCodesBlob]
	return &shared, nil
}

// PairFromDocument decodes a model's UPOS and XPOS taggers as FromDocument
// does for each column (a tagger the document lacks is nil; errU and errX
// are the errors of each). When the XPOS tagger shares the UPOS tagger's
// dictionary keys, the two read one dictionary table holding both
// columns' tag sets, which an Analysis for both looks up once per key (and
// which is decoded once). The decoding steps run on all CPUs (PairSteps).
func PairFromDocument(classifiers []modelfmt.Classifier) (upos, xpos *Tagger, errU, errX error) {
	steps, done := PairSteps(classifiers)
	par.Do(steps)
	return done()
}

// PairSteps returns the independent steps that decode a model's UPOS and
// XPOS taggers, for a caller to run with par.Do beside steps of its own,
// and done, which returns what PairFromDocument does once all the steps
// have run (not before). The steps are the taggers' linear models, their
// fast models and the shared dictionary, each with its cost estimate.
func PairSteps(classifiers []modelfmt.Classifier) (steps []par.Step, done func() (upos, xpos *Tagger, errU, errX error)) {
	u := findClassifier(classifiers, ClassifierName(UPOS))
	x := findClassifier(classifiers, ClassifierName(XPOS))
	var upos, xpos *Tagger
	var errU, errX error
	result := func() (*Tagger, *Tagger, error, error) { return upos, xpos, errU, errX }
	// alone decodes the tagger of column by itself (FromDocument).
	alone := func(c *modelfmt.Classifier, column string, t **Tagger, err *error) par.Step {
		return par.Step{Cost: linear.BuildCost(c) + dictCost(c), Run: func() { *t, *err = FromDocument(classifiers, column) }}
	}
	var uk *modelfmt.Classifier
	if x != nil {
		if uk, errX = sharedKeys(classifiers, x, XPOS); errX != nil {
			return []par.Step{alone(u, UPOS, &upos, &errU)}, result
		}
		if _, errX = sharedClusters(classifiers, x, XPOS); errX != nil {
			return []par.Step{alone(u, UPOS, &upos, &errU)}, result
		}
	}
	xShares := x != nil && x.Params[ClustersShared] == 1
	if uk == nil || u != uk || u.Params[ClustersShared] != 0 {
		// Two dictionaries (or none to share), or a UPOS tagger claiming
		// to share clusters (FromDocument says what is wrong): each
		// tagger on its own.
		return []par.Step{alone(u, UPOS, &upos, &errU), alone(x, XPOS, &xpos, &errX)}, result
	}
	var d dict
	var dictErr, colErr error
	var uf, xf *linear.Model
	var ufMargin, xfMargin float32
	var errUF, errXF error
	// The UPOS tagger's clusters (shared by the XPOS tagger, if it says
	// so) are decoded by a step of their own.
	uClusters := hasClusters(u)
	var cl *Clusters
	var clErr error
	steps = []par.Step{
		{Cost: linear.BuildCost(u), Run: func() { upos, errU = fromClassifier(u, false, false) }},
		{Cost: clustersCost(u), Run: func() {
			if uClusters {
				cl, clErr = decodeClusters(u.Blobs[clusterWordsBlob], u.Blobs[clusterCodesBlob])
			}
		}},
		{Cost: linear.BuildCost(x), Run: func() { xpos, errX = fromClassifier(x, false, !xShares) }},
		{Cost: dictCost(u), Run: func() {
			d, dictErr = decodeDict(u.Blobs[dictKeysBlob], u.Blobs[dictMasksBlob], u.Params[dictEntries], len(u.Classes))
			switch {
			case dictErr != nil:
			case x.Params[dictEntries] != u.Params[dictEntries]:
				colErr = classifierError(x, "%d dictionary entries for the %d shared keys", x.Params[dictEntries], u.Params[dictEntries])
			default:
				if err := d.addColumn(x.Blobs[dictMasksBlob], len(x.Classes)); err != nil {
					colErr = classifierError(x, "%v", err)
				}
			}
		}},
		{Cost: linear.BuildCost(findClassifier(classifiers, ClassifierName(UPOS)+FastSuffix)), Run: func() {
			uf, ufMargin, errUF = fastModel(classifiers, UPOS, u.Classes, u.Params["tagger.feature_version"])
		}},
		{Cost: linear.BuildCost(findClassifier(classifiers, ClassifierName(XPOS)+FastSuffix)), Run: func() {
			xf, xfMargin, errXF = fastModel(classifiers, XPOS, x.Classes, x.Params["tagger.feature_version"])
		}},
	}
	return steps, func() (*Tagger, *Tagger, error, error) {
		switch {
		case errU != nil:
			return nil, nil, errU, errX
		case clErr != nil:
			return nil, nil, classifierError(u, "%v", clErr), errX
		case dictErr != nil:
			return nil, nil, classifierError(u, "%v", dictErr), errX
		case errX != nil:
			return nil, nil, nil, errX
		case colErr != nil:
			return nil, nil, nil, colErr
		case errUF != nil:
			return nil, nil, errUF, nil
		case errXF != nil:
			return nil, nil, nil, errXF
		}
		if uClusters {
			upos.clusters = cl
		}
		if xShares {
			xpos.clusters = cl
		}
		upos.fast, upos.fastMargin = uf, ufMargin
		xpos.fast, xpos.fastMargin = xf, xfMargin
		upos.dict = d
		xpos.dict = d
		xpos.dict.col = 1
		return upos, xpos, nil, nil
	}
}

// clustersCost estimates the time decoding the clusters of c takes, in
// nanoseconds of one core: about 7 per byte of its words.
func clustersCost(c *modelfmt.Classifier) int64 {
	return 7 * int64(len(c.Blobs[clusterWordsBlob]))
}

// dictCost estimates the time decoding the tag dictionary of c takes, in
// nanoseconds of one core: about 65 per entry, both columns
// (linear.BuildCost's unit).
func dictCost(c *modelfmt.Classifier) int64 {
	if c == nil {
		return 0
	}
	return 65 * min(max(0, c.Params[dictEntries]), 1<<40)
}
