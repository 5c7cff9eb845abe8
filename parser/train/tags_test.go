package train

import (
	"github.com/transparse/transparse/parser/internal/core"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/transparse/transparse/parser/conllu"
	"github.com/transparse/transparse/parser/eval"
)

// TestTagsDev trains the taggers, the lemmatizer and the FEATS tagger as a
// model's training does (no parser) on the training set of each treebank
// named in $TRANSPARSE_TAGS_DEV (comma-separated, e.g. tr_imst,hu_szeged)
// and logs what they predict for its plain-token development set: UPOS,
// XPOS, UFeats, AllTags and Lemmas (CoNLL 2018), as a model fills them
// before parsing. It is the cheap measurement of a change to any of them.
// $TRANSPARSE_TAGS_SEED sets the seed (default 1); with
// $TRANSPARSE_TAGS_DEV_TEST set it also scores the test set; with
// $TRANSPARSE_TAGS_DEV_OUT, a directory, it writes the predictions there
// (TREEBANK-SPLIT.conllu).
func TestTagsDev(t *testing.T) {
	tbs := os.Getenv("TRANSPARSE_TAGS_DEV")
	if tbs == "" {
		t.Skip("set TRANSPARSE_TAGS_DEV=tr_imst[,en_ewt,...] to measure the taggers on dev")
	}
	for _, tb := range strings.Split(tbs, ",") {
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
			if v, err := strconv.ParseInt(os.Getenv("TRANSPARSE_TAGS_SEED"), 10, 64); err == nil {
				opt.Seed = v
			}
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
			splits := []string{"dev"}
			if os.Getenv("TRANSPARSE_TAGS_DEV_TEST") != "" {
				splits = append(splits, "test")
			}
			for _, split := range splits {
				gold := dev
				if split == "test" {
					gold = read("test")
				}
				pred := plainCopy(gold, tg)
				if dir := os.Getenv("TRANSPARSE_TAGS_DEV_OUT"); dir != "" {
					f, err := os.Create(filepath.Join(dir, tb+"-"+split+".conllu"))
					if err != nil {
						t.Fatal(err)
					}
					if err := conllu.WriteAll(f, pred); err != nil {
						t.Fatal(err)
					}
					if err := f.Close(); err != nil {
						t.Fatal(err)
					}
				}
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
