package morph

import (
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/transparse/transparse/parser/conllu"
	"github.com/transparse/transparse/parser/linear"
)

// perFeature is the alternative FEATS tagger: one averaged perceptron per
// feature name over its values (index 0: absent), for the words whose
// whole-string candidates are several; with consistent set, the candidate
// with the highest sum of its values' scores, else the argmax of each
// feature among the values seen with the UPOS.
type perFeature struct {
	names  []string
	vals   [][]string         // per name: "" then the values
	byUPOS map[string][][]int // per UPOS, per name: allowed value indexes
	tr     []*linear.Trainer
	m      []*linear.Model
}

func splitFV(feats string) map[string]string {
	m := map[string]string{}
	if feats == "_" || feats == "" {
		return m
	}
	for _, p := range strings.Split(feats, "|") {
		n, v, _ := strings.Cut(p, "=")
		m[n] = v
	}
	return m
}

func trainPerFeature(c *component, sents []*conllu.Sentence, epochs int) *perFeature {
	pf := &perFeature{byUPOS: map[string][][]int{}}
	nameID := map[string]int{}
	valID := []map[string]int{}
	for _, s := range sents {
		for _, w := range s.Words {
			for n, v := range splitFV(w.Feats) {
				id, ok := nameID[n]
				if !ok {
					id = len(pf.names)
					nameID[n] = id
					pf.names = append(pf.names, n)
					pf.vals = append(pf.vals, []string{""})
					valID = append(valID, map[string]int{"": 0})
				}
				if _, ok := valID[id][v]; !ok {
					valID[id][v] = len(pf.vals[id])
					pf.vals[id] = append(pf.vals[id], v)
				}
			}
		}
	}
	seen := map[string][]map[int]bool{}
	for _, s := range sents {
		for _, w := range s.Words {
			if seen[w.UPOS] == nil {
				seen[w.UPOS] = make([]map[int]bool, len(pf.names))
				for i := range seen[w.UPOS] {
					seen[w.UPOS][i] = map[int]bool{}
				}
			}
			fv := splitFV(w.Feats)
			for i, n := range pf.names {
				seen[w.UPOS][i][valID[i][fv[n]]] = true
			}
		}
	}
	for u, l := range seen {
		pf.byUPOS[u] = make([][]int, len(l))
		for i, m := range l {
			for v := range m {
				pf.byUPOS[u][i] = append(pf.byUPOS[u][i], v)
			}
			slices.Sort(pf.byUPOS[u][i])
		}
	}
	for i := range pf.names {
		pf.tr = append(pf.tr, linear.NewTrainer(len(pf.vals[i])))
	}
	rng := rand.New(rand.NewSource(1))
	order := rng.Perm(len(sents))
	var sc scratch
	scores := make([]float32, 256)
	for e := 0; e < epochs; e++ {
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		for _, si := range order {
			ws := sents[si].Words
			sc.ws = analyze(ws, sc.ws)
			for i := range ws {
				cands, _, _ := c.candidates(&ws[i], &sc, func(k string) bool { return false })
				if len(cands) <= 1 {
					continue
				}
				sc.feats = extract(sc.feats[:0], sc.ws, i, -1)
				fv := splitFV(ws[i].Feats)
				for n := range pf.names {
					allowed := pf.byUPOS[ws[i].UPOS][n]
					if len(allowed) <= 1 {
						continue
					}
					g := valID[n][fv[pf.names[n]]]
					pf.tr[n].Scores(sc.feats, scores)
					p := allowed[0]
					for _, v := range allowed {
						if scores[v] > scores[p] {
							p = v
						}
					}
					pf.tr[n].Update(sc.feats, g, p)
					pf.tr[n].Tick()
				}
			}
		}
	}
	for _, t := range pf.tr {
		pf.m = append(pf.m, t.Freeze(linear.FreezeOptions{}))
	}
	return pf
}

func (pf *perFeature) predict(c *component, ws []conllu.Word, out []string, consistent, sum bool) {
	var sc scratch
	ids := map[string]int32{}
	for i, n := range c.classes {
		ids[n] = int32(i)
	}
	cs := make([]float32, len(c.classes))
	c.predict(ws, out, &sc)
	sc.ws = analyze(ws, sc.ws)
	scores := make([][]float32, len(pf.names))
	for i := range ws {
		cands, _, _ := c.candidates(&ws[i], &sc, nil)
		if len(cands) <= 1 {
			continue
		}
		sc.feats = extract(sc.feats[:0], sc.ws, i, -1)
		for n := range pf.names {
			scores[n] = make([]float32, len(pf.vals[n]))
			pf.m[n].Scores(sc.feats, scores[n])
		}
		if consistent {
			best, bs := "", float32(-1e30)
			if sum {
				prev := int32(-1)
				if i > 0 {
					if id, ok := ids[out[i-1]]; ok {
						prev = id
					}
				}
				c.model.Scores(extract(nil, sc.ws, i, prev), cs)
			}
			for _, id := range cands {
				fv := splitFV(c.classes[id])
				var s float32
				if sum {
					var r [1]float32
					c.rank.Scores(c.candFeatures(nil, &ws[i], false, i, &sc, id), r[:])
					s = cs[id] + r[0]
				}
				for n, name := range pf.names {
					v := fv[name]
					for k, val := range pf.vals[n] {
						if val == v {
							s += scores[n][k]
						}
					}
				}
				if s > bs {
					best, bs = c.classes[id], s
				}
			}
			out[i] = best
			continue
		}
		var parts []string
		for n, name := range pf.names {
			allowed := pf.byUPOS[ws[i].UPOS][n]
			if len(allowed) == 0 {
				continue
			}
			p := allowed[0]
			for _, v := range allowed {
				if scores[n][v] > scores[n][p] {
					p = v
				}
			}
			if p != 0 {
				parts = append(parts, name+"="+pf.vals[n][p])
			}
		}
		slices.SortFunc(parts, func(a, b string) int { return strings.Compare(strings.ToLower(a), strings.ToLower(b)) })
		if len(parts) == 0 {
			out[i] = "_"
		} else {
			out[i] = strings.Join(parts, "|")
		}
	}
}

func TestPerFeatureExperiment(t *testing.T) {
	for _, tb := range []string{"en_ewt", "tr_imst", "hu_szeged"} {
		t.Run(tb, func(t *testing.T) {
			train := readUD(t, tb+"-ud-train.conllu")
			dev := readUD(t, tb+"-ud-dev.conllu")
			f, err := TrainFeatsTagger(train, Options{})
			if err != nil {
				t.Fatal(err)
			}
			pf := trainPerFeature(f.c, train, DefaultEpochs)
			for _, mode := range []string{"whole", "per-feature", "per-feature+consistent", "sum"} {
				var n, uf, fe int
				var out []string
				for _, s := range dev {
					out = make([]string, len(s.Words))
					switch mode {
					case "whole":
						out = f.Feats(s.Words, out)
					default:
						pf.predict(f.c, s.Words, out, mode != "per-feature", mode == "sum")
					}
					for i, w := range s.Words {
						n++
						if ufeats(out[i]) == ufeats(w.Feats) {
							uf++
						}
						if out[i] == w.Feats {
							fe++
						}
					}
				}
				t.Logf("%s %s: UFeats %.2f FEATS %.2f", tb, mode, 100*float64(uf)/float64(n), 100*float64(fe)/float64(n))
			}
		})
	}
}
