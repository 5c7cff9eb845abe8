package train

import (
	"fmt"
	"sync"
	"time"

	"github.com/transparse/transparse/parser"
	"github.com/transparse/transparse/parser/conllu"
	"github.com/transparse/transparse/parser/eval"
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

// chooseSyntax decides on dev whether the FEATS tagger ft of the model m
// keeps the syntactic choice of FEATS syn (morph.FeatsTagger.Refine): it
// parses dev from plain tokens without it and with it, keeps it if dev
// UFeats rise, and returns the card's note. On a small treebank the
// tree's evidence is too sparse to beat the first choice.
func chooseSyntax(m *parser.Model, ft *morph.FeatsTagger, syn *morph.Syntax, dev []*conllu.Sentence, opt Options) string {
	ft.SetSyntax(nil)
	without := devUFeats(m, dev)
	ft.SetSyntax(syn)
	with := devUFeats(m, dev)
	verdict := "kept"
	if with <= without {
		ft.SetSyntax(nil)
		verdict = "dropped"
	}
	note := fmt.Sprintf("%s: dev UFeats %.2f with, %.2f without", verdict, with, without)
	fmt.Fprintf(opt.Log, "FEATS from the tree %s [%.0f s]\n", note, time.Since(opt.start).Seconds())
	return note
}

// devUFeats is the UFeats F1 of m on dev from plain tokens (0 when the
// parse cannot be scored).
func devUFeats(m *parser.Model, dev []*conllu.Sentence) float64 {
	pred := make([]*conllu.Sentence, len(dev))
	for i, s := range dev {
		c := cloneSentence(s)
		c.StripTags()
		for j := range c.Words {
			c.Words[j].Head, c.Words[j].Deprel = -1, "_"
		}
		_ = m.Parse(c.Words)
		pred[i] = c
	}
	sc, err := eval.Score(dev, pred)
	if err != nil {
		return 0
	}
	return sc.UFeats.F1()
}
