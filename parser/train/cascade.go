package train

import (
	"fmt"
	"runtime"
	"sync"
	"time"

	"github.com/transparse/transparse/parser/conllu"
	"github.com/transparse/transparse/parser/internal/core"
	"github.com/transparse/transparse/parser/pseudoproj"
	"github.com/transparse/transparse/parser/transition"
)

// fastMargins are the margins addFast tries, smallest first (score units:
// perceptron updates).
var fastMargins = []float32{5, 10, 15, 20, 25, 30, 35, 40, 45, 50, 60, 70, 80, 100, 125, 150, 200, 300}

// addFast trains a fast classifier with the templates tpls on the examples
// of v (the first run's) and puts it in front of v (a cascade,
// core.Variant.Fast) with the smallest margin of fastMargins at which
// the cascade's dev LAS is at most maxLoss below v's alone. If no margin
// is, v is left as it is. The margins are tried in parallel.
func addFast(v *core.Variant, classes *transition.Classes, runExs [][]example, dev []*conllu.Sentence, tg core.Taggers, enc pseudoproj.Encoding, opt Options, tpls []string, maxLoss float64, what string) error {
	f, err := trainVariant(classes, v.Morph, runExs[:1], dev, tg, enc, opt, tpls, what+", fast")
	if err != nil {
		return err
	}
	full, _ := devScore(classes, *v, dev, tg, enc, opt.Log)
	las := make([]float64, len(fastMargins))
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for i, margin := range fastMargins {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			c := *v
			c.Fast, c.FastMargin = &f, margin
			las[i], _ = devScore(classes, c, dev, tg, enc, opt.Log)
		}()
	}
	wg.Wait()
	if i := pickMargin(full, las, maxLoss); i >= 0 {
		v.Fast, v.FastMargin = &f, fastMargins[i]
		fmt.Fprintf(opt.Log, "parser (%s): fast classifier (%d templates) in front, margin %g: dev LAS %.2f (%.2f alone, %g allowed below) [%.0f s]\n",
			what, len(tpls), v.FastMargin, las[i], full, maxLoss, time.Since(opt.start).Seconds())
		return nil
	}
	fmt.Fprintf(opt.Log, "parser (%s): no margin keeps the fast classifier within %.2f dev LAS (%.2f alone, %.2f at margin %g): not used\n",
		what, maxLoss, full, las[len(las)-1], fastMargins[len(fastMargins)-1])
	return nil
}

// pickMargin returns the index of the first LAS (of the margins in
// increasing order) at most maxLoss below full, or -1. LAS are percentages
// of whole words: a loss equal to maxLoss up to rounding counts as within.
func pickMargin(full float64, las []float64, maxLoss float64) int {
	for i, l := range las {
		if l >= full-maxLoss-1e-9 {
			return i
		}
	}
	return -1
}

// fastNote describes the fast classifier of v for the model card.
func fastNote(v core.Variant) string {
	if v.Fast == nil {
		return "none"
	}
	return fmt.Sprintf("%d templates, margin %g", v.Fast.Ext.Len(), v.FastMargin)
}
