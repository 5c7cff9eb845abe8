package train

import (
	"fmt"
	"sync"
	"time"

	"github.com/transparse/transparse/parser"
	"github.com/transparse/transparse/parser/conllu"
	"github.com/transparse/transparse/parser/morph"
)

// trainMorph trains the lemmatizer and the FEATS tagger (parser/morph) on
// the gold FORM, UPOS, XPOS, LEMMA and FEATS columns of sents, side by
// side, and sets them in tg. A treebank without lemmas (or without FEATS)
// gets no lemmatizer (FEATS tagger); the log says so when verbose.
func trainMorph(sents []*conllu.Sentence, opt Options, seed int64, verbose bool, tg *parser.Taggers) error {
	lemmas, feats := morphColumns(sents)
	logf := func(format string, args ...any) {
		if verbose {
			fmt.Fprintf(opt.Log, format, args...)
		}
	}
	o := morph.Options{Seed: seed, WeightBits: opt.WeightBits}
	var wg sync.WaitGroup
	var errL, errF error
	run := func(what string, ok bool, train func()) {
		if !ok {
			logf("no %s: the training treebank has no such column\n", what)
			return
		}
		logf("training the %s on %d sentences\n", what, len(sents))
		wg.Add(1)
		go func() {
			defer wg.Done()
			if verbose {
				opt.rep.report(Progress{Phase: what, Done: 0, Total: 1})
			}
			train()
			if verbose {
				opt.rep.report(Progress{Phase: what, Done: 1, Total: 1})
			}
		}()
	}
	run("lemmatizer", lemmas, func() { tg.Lemmas, errL = morph.TrainLemmatizer(sents, o) })
	run("FEATS tagger", feats, func() { tg.Feats, errF = morph.TrainFeatsTagger(sents, o) })
	wg.Wait()
	if errL != nil {
		return fmt.Errorf("train: the lemmatizer: %w", errL)
	}
	if errF != nil {
		return fmt.Errorf("train: the FEATS tagger: %w", errF)
	}
	if tg.Lemmas != nil {
		logf("%v [%.0f s]\n", tg.Lemmas, time.Since(opt.start).Seconds())
	}
	if tg.Feats != nil {
		logf("%v [%.0f s]\n", tg.Feats, time.Since(opt.start).Seconds())
	}
	return nil
}

// morphColumns reports whether a word of sents has a LEMMA and whether one
// has FEATS other than "_" (a treebank without features has nothing for a
// FEATS tagger to learn).
func morphColumns(sents []*conllu.Sentence) (lemmas, feats bool) {
	for _, s := range sents {
		for _, w := range s.Words {
			lemmas = lemmas || !conllu.Absent(w.Lemma)
			feats = feats || !conllu.Absent(w.Feats)
			if lemmas && feats {
				return
			}
		}
	}
	return
}
