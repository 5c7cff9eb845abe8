package morph

import (
	"fmt"
	"math/rand"
	"slices"
	"strings"

	"github.com/transparse/transparse/parser/conllu"
	"github.com/transparse/transparse/parser/linear"
)

// featParts are the per-feature classifiers of a FEATS tagger: one
// averaged perceptron whose classes are the values of every feature,
// grouped by feature name, each group led by the feature's absence. A
// FEATS candidate's score gains, for every feature name, the score of its
// value of that feature (or of its absence), so that whole-string classes
// that are rare share evidence with the frequent ones that have the same
// case or number, and the prediction stays a FEATS string seen in
// training.
type featParts struct {
	classes []string  // "Name=" (absent) or "Name=Value", grouped by name
	idx     [][]int32 // per FEATS class: a class of each group
	model   *linear.Model
}

// splitFeatures returns the name and value of each feature of a FEATS
// string ("_" has none).
func splitFeatures(feats string) map[string]string {
	m := map[string]string{}
	if conllu.Absent(feats) {
		return m
	}
	for _, p := range strings.Split(feats, "|") {
		n, v, _ := strings.Cut(p, "=")
		m[n] = v
	}
	return m
}

// newFeatParts returns the parts of the FEATS classes, with the given part
// classes (nil: those of the FEATS classes) and no model.
func newFeatParts(feats []string, classes []string) (*featParts, error) {
	if classes == nil {
		vals := map[string]map[string]bool{}
		for _, f := range feats {
			for n, v := range splitFeatures(f) {
				if vals[n] == nil {
					vals[n] = map[string]bool{"": true}
				}
				vals[n][v] = true
			}
		}
		for n, vs := range vals {
			for v := range vs {
				classes = append(classes, n+"="+v)
			}
		}
		slices.Sort(classes) // "Name=" sorts before "Name=Value"
	}
	p := &featParts{classes: classes}
	absent := map[string]int32{} // name -> class of its absence
	ids := map[string]int32{}
	var names []string
	for i, c := range classes {
		n, v, ok := strings.Cut(c, "=")
		if !ok || ids[c] != 0 || i == 0 && c == "" {
			return nil, fmt.Errorf("morph: FEATS part %d (%q) is not a unique Name=Value", i, c)
		}
		if _, seen := absent[n]; !seen {
			if v != "" || len(names) > 0 && names[len(names)-1] > n {
				return nil, fmt.Errorf("morph: FEATS part %d (%q): the parts of a feature must be grouped, in order, its absence first", i, c)
			}
			absent[n] = int32(i)
			names = append(names, n)
		}
		ids[c] = int32(i) + 1
	}
	p.idx = make([][]int32, len(feats))
	for fi, f := range feats {
		fv := splitFeatures(f)
		row := make([]int32, len(names))
		for j, n := range names {
			v, ok := fv[n]
			if !ok {
				row[j] = absent[n]
				continue
			}
			id := ids[n+"="+v]
			if id == 0 || v == "" {
				return nil, fmt.Errorf("morph: FEATS class %q: no part %s=%s", f, n, v)
			}
			row[j] = id - 1
			delete(fv, n)
		}
		if len(fv) > 0 {
			return nil, fmt.Errorf("morph: FEATS class %q has features without parts", f)
		}
		p.idx[fi] = row
	}
	return p, nil
}

// trainFeatParts trains the parts of c (a FEATS component) on every word
// whose candidates as an unknown word are several, over the values seen
// with its UPOS. It returns nil when no class has a feature.
func trainFeatParts(c *component, sents []*conllu.Sentence, epochs int, opt Options) (*featParts, error) {
	p, err := newFeatParts(c.classes, nil)
	if err != nil {
		return nil, err
	}
	ngroups := 0
	if len(p.idx) > 0 {
		ngroups = len(p.idx[0])
	}
	if ngroups == 0 {
		return nil, nil
	}
	// allowed[UPOS][group] are the part classes seen with the UPOS.
	allowed := map[string][][]int32{}
	classID := map[string]int32{}
	for i, n := range c.classes {
		classID[n] = int32(i)
	}
	for _, s := range sents {
		for _, w := range s.Words {
			id, ok := classID[w.Feats]
			if !ok {
				continue
			}
			a := allowed[w.UPOS]
			if a == nil {
				a = make([][]int32, ngroups)
				allowed[w.UPOS] = a
			}
			for g, pc := range p.idx[id] {
				if !slices.Contains(a[g], pc) {
					a[g] = append(a[g], pc)
				}
			}
		}
	}
	tr := linear.NewTrainer(len(p.classes))
	scores := make([]float32, len(p.classes))
	rng := rand.New(rand.NewSource(opt.Seed + 1))
	order := rng.Perm(len(sents))
	var sc scratch
	never := func(string) bool { return false }
	for e := 0; e < epochs; e++ {
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		for _, si := range order {
			ws := sents[si].Words
			sc.ws = analyze(ws, sc.ws, &sc.offs, &sc.lowers, c.lemmaUse())
			for i := range ws {
				id, ok := classID[ws[i].Feats]
				if !ok {
					continue
				}
				if cands, _, _ := c.candidates(&ws[i], i, &sc, never); len(cands) <= 1 {
					continue
				}
				sc.feats = extract(sc.feats[:0], sc.ws, i, -1)
				tr.Scores(sc.feats, scores)
				for g, a := range allowed[ws[i].UPOS] {
					if len(a) <= 1 {
						continue
					}
					pred := a[0]
					for _, pc := range a {
						if scores[pc] > scores[pred] {
							pred = pc
						}
					}
					tr.Update(sc.feats, int(p.idx[id][g]), int(pred))
				}
				tr.Tick()
			}
		}
	}
	p.model = tr.Freeze(opt.freeze())
	return p, nil
}
