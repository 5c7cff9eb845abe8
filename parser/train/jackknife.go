package train

import (
	"fmt"
	"runtime"
	"strings"
	"time"

	"github.com/transparse/transparse/parser/internal/core"

	"github.com/transparse/transparse/parser/conllu"
	"github.com/transparse/transparse/parser/form"
	"github.com/transparse/transparse/parser/morph"
)

// jackknife returns copies of sents with UPOS (and XPOS) predicted by
// taggers trained on the other folds and the other morphology removed, as
// at parse time from plain tokens, and the words' ambiguity classes in
// those taggers' dictionaries with their path codes in the word clusters
// (opt.clusters; 0 without). With withMorph, LEMMA and FEATS are predicted
// too, by a lemmatizer and a FEATS tagger trained on the other folds (on
// their gold tags, as the model's), from the fold's predicted tags; with
// an XPOS table (opt.xposTable), XPOS by the fold's table after them.
// The jackknife taggers train as many epochs as the taggers of like kept.
func jackknife(sents, dev []*conllu.Sentence, cols []string, opt Options, like core.Taggers, withMorph bool) ([]*conllu.Sentence, [][][3]uint64, error) {
	k := opt.JackknifeFolds
	out := make([]*conllu.Sentence, len(sents))
	amb := make([][][3]uint64, len(sents))
	type res struct {
		fold int
		tg   core.Taggers
		err  error
	}
	results := make(chan res, k)
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for f := 0; f < k; f++ {
		go func(f int) {
			sem <- struct{}{}
			defer func() { <-sem }()
			if opt.rep.stopped() { // the progress callback asked to stop
				results <- res{f, core.Taggers{}, opt.rep.error()}
				return
			}
			var part []*conllu.Sentence
			for i, s := range sents {
				if i%k != f {
					part = append(part, s)
				}
			}
			tg, err := trainTaggers(part, dev, cols, opt, opt.Seed+int64(f)+1, false, like)
			if err == nil && opt.xposTable {
				tg.XPOSTable = morph.TrainXPOSTable(part)
			}
			if err == nil && withMorph {
				err = trainMorph(morphSents(part, opt), opt, opt.Seed+int64(f)+1, false, &tg)
			}
			results <- res{f, tg, err}
		}(f)
	}
	opt.rep.report(Progress{Phase: "jackknife", Done: 0, Total: int64(k)})
	for f := 0; f < k; f++ {
		r := <-results
		if r.err != nil {
			return nil, nil, r.err
		}
		opt.rep.report(Progress{Phase: "jackknife", Done: int64(f + 1), Total: int64(k)})
		for i, s := range sents {
			if i%k == r.fold {
				out[i] = plainCopy([]*conllu.Sentence{s}, r.tg)[0]
				amb[i] = make([][3]uint64, len(s.Words))
				for j, w := range s.Words {
					amb[i][j][0], amb[i][j][1] = r.tg.AmbiguityClasses(w.Form)
					if opt.clusters != nil {
						amb[i][j][2] = opt.clusters.Code(form.Of(w.Form))
					}
				}
			}
		}
	}
	what := strings.Join(cols, " and ")
	if withMorph {
		what = strings.Join(cols, ", ") + ", LEMMA and FEATS"
	}
	fmt.Fprintf(opt.Log, "jackknifed %s for %d training sentences (%d folds) [%.0f s]\n", what, len(sents), k, time.Since(opt.start).Seconds())
	return out, amb, nil
}

// clusterCodes returns, for the gold-tag parser's training examples, each
// word's path code in opt.clusters (example.amb, ambiguity classes 0);
// nil without clusters.
func clusterCodes(sents []*conllu.Sentence, opt Options) [][][3]uint64 {
	if opt.clusters == nil {
		return nil
	}
	out := make([][][3]uint64, len(sents))
	for i, s := range sents {
		out[i] = make([][3]uint64, len(s.Words))
		for j, w := range s.Words {
			out[i][j][2] = opt.clusters.Code(form.Of(w.Form))
		}
	}
	return out
}

// plainCopy returns copies of sents as the parser sees plain tokens: tags
// predicted by tg, no lemma or FEATS. Heads and deprels are kept.
func plainCopy(sents []*conllu.Sentence, tg core.Taggers) []*conllu.Sentence {
	out := make([]*conllu.Sentence, len(sents))
	for i, s := range sents {
		c := cloneSentence(s)
		c.StripTags()
		tg.Fill(c.Words)
		out[i] = c
	}
	return out
}
