package eval

import (
	"fmt"
	"sort"

	"github.com/transparse/transparse/parser/conllu"
)

// ConfidenceBins measures how well per-word confidences rank a parse:
// the words of pred, sorted by confidence (conf[k][i] for word i of
// sentence k; ties keep the document's order), are cut into bins parts
// of equal size, lowest first, and each part's accuracy is the
// percentage of its words whose head and universal deprel equal gold's
// (LAS per word). gold and pred must have the same syntactic words.
func ConfidenceBins(gold, pred []*conllu.Sentence, conf [][]float64, bins int) ([]float64, error) {
	if len(gold) != len(pred) || len(conf) != len(pred) {
		return nil, fmt.Errorf("%d gold sentences, %d parsed, %d with confidences", len(gold), len(pred), len(conf))
	}
	if bins < 1 {
		return nil, fmt.Errorf("%d bins", bins)
	}
	var confs []float64
	var right []bool
	for k := range gold {
		g, p := gold[k].Words, pred[k].Words
		if len(g) != len(p) || len(conf[k]) != len(p) {
			return nil, fmt.Errorf("%s: %d gold words, %d parsed, %d confidences", sentenceName(k+1, gold[k]), len(g), len(p), len(conf[k]))
		}
		for i := range g {
			confs = append(confs, conf[k][i])
			right = append(right, g[i].Head == p[i].Head && UniversalDeprel(g[i].Deprel) == UniversalDeprel(p[i].Deprel))
		}
	}
	if len(confs) < bins {
		return nil, fmt.Errorf("%d words for %d bins", len(confs), bins)
	}
	return AccuracyBins(confs, right, bins), nil
}

// AccuracyBins sorts items by conf (ties keep their order), cuts them into
// bins parts of equal size, lowest first, and returns the percentage of
// each part's items that are right (0 for an empty part).
func AccuracyBins(conf []float64, right []bool, bins int) []float64 {
	idx := make([]int, len(conf))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return conf[idx[a]] < conf[idx[b]] })
	acc := make([]float64, bins)
	for b := range bins {
		part := idx[b*len(idx)/bins : (b+1)*len(idx)/bins]
		n := 0
		for _, i := range part {
			if right[i] {
				n++
			}
		}
		acc[b] = 100 * float64(n) / float64(max(len(part), 1))
	}
	return acc
}
