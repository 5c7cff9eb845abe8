package beam

import (
	"math"

	"github.com/transparse/transparse/internal/reuse"
	"github.com/transparse/transparse/parser/calib"
	"github.com/transparse/transparse/parser/transition"
)

// Result is the outcome of decoding one sentence of n words. Its slices
// are owned by the Result and reused by the next Decode into it.
type Result struct {
	// Head and Label are the best tree: Head[d] and Label[d] for word d in
	// 1..n (index 0 is None); Label[d] is None for a word attached by the
	// completion of an unfinished derivation (transition.State.Repair) to
	// the root word.
	Head, Label []int32
	// Score is the best tree's score: the sum of its transitions' scores.
	Score float64
	// Confidence[d], for word d in 1..n (nil unless Decoder.Confidence
	// is set), is a number in [0, 1] that grows
	// with the decoder's certainty in d's head and deprel together: the
	// product of two factors. The first is the share of the final beam's
	// mass that agrees with the best tree on both, each configuration
	// weighted exp((score − best score) / Temperature) (a derivation counts
	// once per configuration; 1 with K = 1). The second is the probability
	// of the transition that built d's arc in the best derivation, under
	// the same exp-normalisation over the legal classes of its
	// configuration (the classifier's margin over every alternative); it
	// is 0 for a word attached by a fallback rather than by a labeled arc
	// move: the completion of an unfinished derivation, or arc-eager's
	// REDUCE of a headless word at the end of the sentence (such arcs are
	// wrong far more often than the transition's score suggests). It is a
	// ranking, not a calibrated probability: higher-confidence arcs are
	// more often right (parser/calib calibrates it).
	Confidence []float64
	// LogOdds[d] is log(c / (1 − c)) of c = Confidence[d], computed
	// without its rounding near 0 and 1 (±Inf at the ends); nil unless
	// Decoder.Confidence is set.
	LogOdds []float64
	// Trees are the distinct trees (heads and deprels) of the final beam,
	// best first, at most K; Trees[0] is the best tree.
	Trees []Tree

	local  []float64
	heads  [][]int32 // storage of Trees
	labels [][]int32
}

// Tree is one tree of the final beam: Head and Label as in Result, and
// the score of its best derivation.
type Tree struct {
	Head, Label []int32
	Score       float64
}

// result completes every configuration of the final beam and fills r.
func (d *Decoder) result(n int, r *Result) {
	root := d.Classes.RootLabel
	for i := range d.cur {
		d.cur[i].st.Repair(root)
	}
	best := d.cur[0].st
	r.Score = d.cur[0].score
	r.Head = append(r.Head[:0], best.Head...)
	r.Label = append(r.Label[:0], best.Label...)
	r.Confidence = r.Confidence[:0]
	if d.Confidence {
		d.confidence(n, r)
	}
	r.Trees = r.Trees[:0]
	for i := range d.cur {
		s := d.cur[i].st
		if seen(r.Trees, s) {
			continue
		}
		j := len(r.Trees)
		if j == len(r.heads) {
			r.heads = append(r.heads, nil)
			r.labels = append(r.labels, nil)
		}
		r.heads[j] = append(r.heads[j][:0], s.Head...)
		r.labels[j] = append(r.labels[j][:0], s.Label...)
		r.Trees = append(r.Trees, Tree{Head: r.heads[j], Label: r.labels[j], Score: d.cur[i].score})
	}
}

// seen reports whether the tree of s is among ts.
func seen(ts []Tree, s *transition.State) bool {
next:
	for _, t := range ts {
		for x := range t.Head {
			if t.Head[x] != s.Head[x] || t.Label[x] != s.Label[x] {
				continue next
			}
		}
		return true
	}
	return false
}

// confidence fills r.Confidence and r.LogOdds for the final beam
// (Result.Confidence).
func (d *Decoder) confidence(n int, r *Result) {
	best := d.cur[0].st
	// The shares of the beam's mass that agree and that disagree with the
	// best tree on each word's arc...
	r.Confidence = reuse.Fill(r.Confidence, n+1, 0)
	r.LogOdds = reuse.Fill(r.LogOdds, n+1, 0)
	agree, disagree := r.Confidence, r.LogOdds
	sum := 0.0
	for i := range d.cur {
		it := &d.cur[i]
		w := math.Exp((it.score - r.Score) / d.Temperature)
		sum += w
		for x := 1; x <= n; x++ {
			if it.st.Head[x] == best.Head[x] && it.st.Label[x] == best.Label[x] {
				agree[x] += w
			} else {
				disagree[x] += w
			}
		}
	}
	// ... and the log-odds of the transition that built the arc in the
	// best derivation (−Inf for arcs made by a fallback).
	r.local = reuse.Fill(r.local, n+1, math.Inf(-1))
	local := r.local
	for s, j := d.steps(), int32(0); s >= 1; s-- {
		nd := d.row(s)[j]
		if nd.dep > 0 {
			local[nd.dep] = float64(nd.lodds)
		}
		j = nd.parent
	}
	for x := 1; x <= n; x++ {
		// c = a·p with a the agreeing share and p = σ(z) the transition's
		// probability: log-odds log(a·p) − log((1 − a) + a·(1 − p)).
		a, dis, z := agree[x]/sum, disagree[x]/sum, local[x]
		lo := math.Log(a) + calib.LogSigmoid(z) - math.Log(dis+a*calib.Sigmoid(-z))
		r.LogOdds[x] = lo
		r.Confidence[x] = calib.Sigmoid(lo)
	}
	r.Confidence[0], r.LogOdds[0] = 0, math.Inf(-1)
}
