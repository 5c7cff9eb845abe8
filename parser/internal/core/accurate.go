package core

import (
	"github.com/transparse/transparse/internal/reuse"
	"github.com/transparse/transparse/parser/conllu"
	"github.com/transparse/transparse/parser/tree"
)

// voter is one parser's tree of a sentence for the accurate mode: the
// head, deprel and confidence of each word (0-based), pseudo-projective
// encoding undone.
type voter struct {
	head   []int
	deprel []string
	conf   []float64
}

// take copies the tree written into words and the confidences conf.
func (v *voter) take(words []conllu.Word, conf []float64) {
	n := len(words)
	v.head = reuse.Fill(v.head, n, 0)
	v.deprel = reuse.Fill(v.deprel, n, "")
	for i := range words {
		v.head[i], v.deprel[i] = words[i].Head, words[i].Deprel
	}
	v.conf = append(v.conf[:0], conf...)
}

// parseAccurate is ParseWithOptions for opt.Accurate (checked, the model
// has beam classifiers): the words, tagged once, are parsed by the beam
// (width opt.Beam if above 1, else TrainedBeam) and by the greedy parser,
// both with confidences, and the revoted tree (revote) is written into
// them; r gets revote's confidences when asked.
func (m *Model) parseAccurate(words []conllu.Word, opt Options, r *Result) error {
	v, sc, err := m.prepare(words)
	if err != nil {
		return err
	}
	defer m.pool.Put(sc)
	if r == nil {
		r = &sc.acc.res
	}
	k := opt.Beam
	if k <= 1 {
		k = m.TrainedBeam()
	}
	beamOpt := Options{Beam: k, Confidence: true, Temperature: opt.Temperature}
	m.parseBeam(words, v, sc, beamOpt, r)
	sc.acc.beam.take(words, r.Confidence)
	m.parseGreedy(words, v, sc, Options{Confidence: true, Temperature: opt.Temperature}, r)
	sc.acc.greedy.take(words, r.Confidence)
	conf := revote(words, &sc.acc.beam, &sc.acc.greedy, m.classes.Deprels[m.classes.RootLabel])
	m.taggers.refine(words, &sc.tags)
	r.Confidence, r.Trees = nil, nil
	if opt.Confidence {
		r.Confidence = append(r.confidence(len(words))[:0], conf...)
	}
	return nil
}

// accurateScratch holds the two voters' trees of ParseWithOptions in the
// accurate mode, and a result for a caller that gave none.
type accurateScratch struct {
	beam, greedy voter
	res          Result
}

// revote writes into words the maximum spanning tree with one root word
// over the arcs of the beam's tree b and the greedy parser's tree g
// (Sagae & Lavie 2006, "Parser combination by reparsing"): each parser's
// arc weighs 0.5 plus its confidence, the weights of an arc both propose
// add up, and each word's deprel is that of the heavier voter of its
// chosen arc (the beam's on a tie; root, the model's root deprel, for the
// root word). Each
// parser's tree is a spanning tree of these arcs, so a tree always exists
// without arcs neither parser proposed. It returns the confidence of each
// word's arc: the beam's if the arc (head and deprel) is the beam's, else
// the greedy parser's if it is its, else 0; the slice is b.conf's storage.
func revote(words []conllu.Word, b, g *voter, root string) []float64 {
	n := len(words)
	arcs := make([]tree.Arc, 0, 2*n)
	for _, v := range []*voter{b, g} {
		for i := range n {
			arcs = append(arcs, tree.Arc{Head: int32(v.head[i]), Dep: int32(i + 1), Weight: 0.5 + v.conf[i]})
		}
	}
	head, _, ok := tree.MaxSpanning(n, arcs)
	if !ok { // unreachable while b is a tree: keep the beam's tree
		head = append(head[:0], -1)
		for _, h := range b.head {
			head = append(head, int32(h))
		}
	}
	for i := range words {
		h := int(head[i+1])
		words[i].Head = h
		bw, gw := -1.0, -1.0
		if b.head[i] == h {
			bw = 0.5 + b.conf[i]
		}
		if g.head[i] == h {
			gw = 0.5 + g.conf[i]
		}
		switch {
		case h == 0:
			words[i].Deprel = root
		case bw >= gw:
			words[i].Deprel = b.deprel[i]
		default:
			words[i].Deprel = g.deprel[i]
		}
		c := 0.0
		switch d := words[i].Deprel; {
		case b.head[i] == h && b.deprel[i] == d:
			c = b.conf[i]
		case g.head[i] == h && g.deprel[i] == d:
			c = g.conf[i]
		}
		b.conf[i] = c
	}
	return b.conf
}
