package core

import (
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/transparse/transparse/internal/testenv"
	"github.com/transparse/transparse/parser/conllu"
	"github.com/transparse/transparse/parser/eval"
)

// The model reproduces, to the card's precision, the dev and test scores
// its card recorded when it was trained (with gold tags and from plain
// tokens): a golden check of the whole parse path (tagging, feature
// extraction, hashing, scoring, the transition system) against the
// training run, over whole treebanks. Any change that moves one parse
// moves these counts.
func TestScoresMatchCard(t *testing.T) {
	if testenv.Race {
		t.Skip("computes only, over whole treebanks: checked without -race")
	}
	m := testModel(t)
	card := m.Card()
	checked := 0
	for _, split := range []string{"dev", "test"} {
		path := card.Options[split]
		if path == "" && split == "test" {
			// Older cards record no test path: the UD test file
			// beside the dev file.
			path = strings.Replace(card.Options["dev"], "-ud-dev.", "-ud-test.", 1)
		}
		if path == "" {
			continue
		}
		file := filepath.Join(testenv.UDDir(), filepath.Base(path))
		gold, err := conllu.ReadFile(file)
		if err != nil {
			testenv.SkipOrFail(t, "the card's %s treebank: %v", split, err)
			continue
		}
		for _, tags := range []string{"gold", "predicted"} {
			want := map[string]float64{}
			for _, metric := range []string{"UPOS", "XPOS", "UFeats", "AllTags", "Lemmas", "UAS", "LAS", "CLAS"} {
				if v, ok := card.Scores[split+"/"+tags+"/"+metric]; ok {
					want[metric] = v
				}
			}
			if len(want) == 0 || (tags == "predicted" && m.plain.Clf == nil) {
				continue
			}
			pred, err := conllu.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range pred {
				if tags == "predicted" {
					s.StripTags()
				}
				if err := m.Parse(s.Words); err != nil {
					t.Fatal(err)
				}
			}
			sc, err := eval.Score(gold, pred)
			if err != nil {
				t.Fatal(err)
			}
			got := sc.Percentages()
			for metric, w := range want {
				if math.Abs(got[metric]-w) > 0.005 {
					t.Errorf("%s %s/%s %s: %.4f, the card says %.4f", filepath.Base(file), split, tags, metric, got[metric], w)
				}
				checked++
			}
		}
	}
	if checked == 0 {
		testenv.SkipOrFail(t, "the card of %s records no dev or test scores", testenv.ModelPath())
	}
	t.Logf("%d scores compared with the card", checked)
}
