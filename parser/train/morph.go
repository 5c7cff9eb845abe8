package train

import (
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/transparse/transparse/parser/conllu"
	"github.com/transparse/transparse/parser/eval"
	"github.com/transparse/transparse/parser/internal/core"
	"github.com/transparse/transparse/parser/morph"
)

// trainMorph trains the lemmatizer and the FEATS tagger (parser/morph) on
// the gold FORM, UPOS, XPOS, LEMMA and FEATS columns of sents (as
// morphSents gives them), side by
// side, and sets them in tg. A treebank without lemmas (or without FEATS)
// gets no lemmatizer (FEATS tagger); the log says so when verbose.
func trainMorph(sents []*conllu.Sentence, opt Options, seed int64, verbose bool, tg *core.Taggers) error {
	lemmas, feats := morphColumns(sents)
	logf := func(format string, args ...any) {
		if verbose {
			fmt.Fprintf(opt.Log, format, args...)
		}
	}
	o := morph.Options{Seed: seed, WeightBits: opt.WeightBits, NoShape: opt.Morph.LemmaRankWithoutShape}
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

// chooseOnDev decides on dev whether the model m keeps a component that
// set switches on and off: it parses dev from plain tokens without it and
// with it, keeps it if the dev metric ("UFeats" or "Lemmas") rises, logs
// the decision under what, and returns the card's note ("kept: " or
// "dropped: ", detail and ", " when detail is not empty, then the two
// figures). On a small treebank a component's evidence may be too sparse
// to help.
func chooseOnDev(m *core.Model, dev []*conllu.Sentence, opt Options, what, detail, metric string, set func(on bool)) string {
	score := func() float64 {
		sc := devScores(m, dev)
		if metric == "Lemmas" {
			return sc.Lemmas.F1()
		}
		return sc.UFeats.F1()
	}
	set(false)
	without := score()
	set(true)
	with := score()
	verdict := "kept"
	if with <= without {
		set(false)
		verdict = "dropped"
	}
	if detail != "" {
		detail += ", "
	}
	note := fmt.Sprintf("%s: %sdev %s %.2f with, %.2f without", verdict, detail, metric, with, without)
	fmt.Fprintf(opt.Log, "%s %s [%.0f s]\n", what, note, time.Since(opt.start).Seconds())
	return note
}

// chooseSyntax decides on dev whether the FEATS tagger ft of the model m
// keeps the syntactic choice of FEATS syn (morph.FeatsTagger.Refine).
func chooseSyntax(m *core.Model, ft *morph.FeatsTagger, syn *morph.Syntax, dev []*conllu.Sentence, opt Options) string {
	return chooseOnDev(m, dev, opt, "FEATS from the tree", "", "UFeats", func(on bool) {
		if on {
			ft.SetSyntax(syn)
		} else {
			ft.SetSyntax(nil)
		}
	})
}

// chooseAgreement decides on dev whether the FEATS tagger ft of the model
// m keeps the agreement table a (morph.FeatsTagger.Agree).
func chooseAgreement(m *core.Model, ft *morph.FeatsTagger, a *morph.Agreement, dev []*conllu.Sentence, opt Options) string {
	return chooseOnDev(m, dev, opt, "verbs' Person and Number from their subjects", fmt.Sprintf("%d rules", a.Len()), "UFeats",
		func(on bool) {
			if on {
				ft.SetAgreement(a)
			} else {
				ft.SetAgreement(nil)
			}
		})
}

// chooseLemmaCase decides on dev Lemmas whether the lemmatizer l of the
// model m gives capitals back for the tags of lc (morph.LemmaCase).
func chooseLemmaCase(m *core.Model, l *morph.Lemmatizer, lc *morph.LemmaCase, dev []*conllu.Sentence, opt Options) string {
	return chooseOnDev(m, dev, opt, "capitals kept in lemmas", strings.Join(lc.Tags(), " "), "Lemmas", func(on bool) {
		if on {
			l.SetLemmaCase(lc)
		} else {
			l.SetLemmaCase(nil)
		}
	})
}

// chooseDictionaryFirst decides on dev Lemmas whether the known words of
// the lemmatizer l of the model m take their dictionary's most frequent
// lemma rule instead of the classifier's choice among their candidates
// (morph.Lemmatizer.SetDictionaryFirst).
func chooseDictionaryFirst(m *core.Model, l *morph.Lemmatizer, dev []*conllu.Sentence, opt Options) string {
	return chooseOnDev(m, dev, opt, "known words' lemmas from the dictionary", "", "Lemmas", l.SetDictionaryFirst)
}

// chooseConsistentTags decides on dev UFeats whether the FEATS tagger ft
// of the model m keeps to the FEATS seen with a known word's UPOS and XPOS
// (morph.FeatsTagger.SetConsistentTags).
func chooseConsistentTags(m *core.Model, ft *morph.FeatsTagger, dev []*conllu.Sentence, opt Options) string {
	return chooseOnDev(m, dev, opt, "FEATS consistent with the tags", "", "UFeats", ft.SetConsistentTags)
}

// devScores are the scores of m on dev from plain tokens (zero when the
// parse cannot be scored).
func devScores(m *core.Model, dev []*conllu.Sentence) eval.Scores {
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
		return eval.Scores{}
	}
	return sc
}
