package train

import (
	"io"
	"testing"
	"time"

	"github.com/transparse/transparse/parser/internal/core"

	"github.com/transparse/transparse/internal/testenv"
	"github.com/transparse/transparse/parser/conllu"
	"github.com/transparse/transparse/parser/eval"
)

// TestTagsDev trains the taggers, the lemmatizer and the FEATS tagger as a
// model's training does (no parser, seed 1) on the training set of
// Turkish IMST, Hungarian Szeged and English EWT, one subtest each, and
// logs what they predict for the plain-token development and test sets:
// UPOS, XPOS, UFeats, AllTags and Lemmas (CoNLL 2018), as a model fills
// them before parsing. It is the cheap measurement of a change to any of
// them, and an experiment (testenv.Experiment): run one treebank with
//
//	go test -tags experiment -run 'TestTagsDev/tr_imst' -v ./parser/train/
func TestTagsDev(t *testing.T) {
	testenv.Experiment(t)
	for _, tb := range []string{"tr_imst", "hu_szeged", "en_ewt"} {
		t.Run(tb, func(t *testing.T) {
			start := time.Now()
			read := func(split string) []*conllu.Sentence {
				s, err := conllu.ReadFile(need(t, tb+"-ud-"+split+".conllu"))
				if err != nil {
					t.Fatal(err)
				}
				return s
			}
			train, dev := read("train"), read("dev")
			opt := DefaultOptions()
			opt.defaults()
			opt.Log = io.Discard
			cols, _, _ := tagColumns(train)
			tg, err := trainTaggers(train, dev, cols, opt, opt.Seed, false, core.Taggers{})
			if err != nil {
				t.Fatal(err)
			}
			if err := trainMorph(train, opt, opt.Seed, false, &tg); err != nil {
				t.Fatal(err)
			}
			t.Logf("%s trained in %.0f s", tb, time.Since(start).Seconds())
			for _, split := range []string{"dev", "test"} {
				gold := dev
				if split == "test" {
					gold = read("test")
				}
				pred := plainCopy(gold, tg)
				sc, err := eval.Score(gold, pred)
				if err != nil {
					t.Fatal(err)
				}
				t.Logf("%s %s: UPOS %.2f XPOS %.2f UFeats %.2f AllTags %.2f Lemmas %.2f", tb, split,
					sc.UPOS.F1(), sc.XPOS.F1(), sc.UFeats.F1(), sc.AllTags.F1(), sc.Lemmas.F1())
			}
		})
	}
}
