package train

import (
	"fmt"
	"os"
	"slices"
	"sort"
	"strings"

	"github.com/transparse/transparse/parser/internal/core"

	"github.com/transparse/transparse/parser/conllu"
	"github.com/transparse/transparse/parser/eval"
	"github.com/transparse/transparse/parser/tagger"
)

// readTreebank reads a CoNLL-U treebank in full and checks that it has
// something to learn from or score: at least one sentence whose words all
// have a HEAD and a DEPREL.
func readTreebank(what, path string) ([]*conllu.Sentence, error) {
	sents, err := conllu.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if len(sents) == 0 {
		return nil, fmt.Errorf("train: %s treebank %s has no sentences", what, path)
	}
	for _, s := range sents {
		if annotated(s) {
			return sents, nil
		}
	}
	return nil, fmt.Errorf("train: %s treebank %s has no annotated sentence (every word with a HEAD and a DEPREL): nothing to learn or score", what, path)
}

// hasUPOS reports whether some word of sents has a UPOS tag.
func hasUPOS(sents []*conllu.Sentence) bool {
	for _, s := range sents {
		for _, w := range s.Words {
			if !conllu.Absent(w.UPOS) {
				return true
			}
		}
	}
	return false
}

// annotated reports whether every word of s has a HEAD and a DEPREL.
func annotated(s *conllu.Sentence) bool {
	for _, w := range s.Words {
		if w.Head < 0 || conllu.Absent(w.Deprel) {
			return false
		}
	}
	return len(s.Words) > 0
}

// scoreInto parses sents with gold morphology and from plain tokens and
// records the scores in scores: UAS, LAS, CLAS and UPOS, and from plain
// tokens also XPOS, UFeats, AllTags and Lemmas (parser/eval); greedily,
// and for a model with beam classifiers also at its default width and
// at the width they were trained at, when above 1 (the rows "gold, beam
// K" and "predicted, beam K"), and in the accurate mode (the rows "gold,
// accurate" and "predicted, accurate").
func scoreInto(m *core.Model, split string, sents []*conllu.Sentence, scores map[string]float64) error {
	widths := []int{1}
	for _, k := range []int{m.DefaultBeam(), m.TrainedBeam()} {
		if k > 1 && !slices.Contains(widths, k) {
			widths = append(widths, k)
		}
	}
	for _, k := range widths {
		mode := ""
		if k > 1 {
			mode = fmt.Sprintf(", beam %d", k)
		}
		if err := scoreMode(m, split, sents, scores, core.Options{Beam: k}, mode); err != nil {
			return err
		}
	}
	if m.HasBeam() {
		return scoreMode(m, split, sents, scores, core.Options{Accurate: true}, ", accurate")
	}
	return nil
}

// scoreMode is scoreInto with the parse options opt, in the rows
// "<tags><mode>".
func scoreMode(m *core.Model, split string, sents []*conllu.Sentence, scores map[string]float64, opt core.Options, mode string) error {
	for _, tags := range []string{"gold", "predicted"} {
		if tags == "predicted" && m.GoldTagsOnly() {
			continue
		}
		row := tags + mode
		pred := make([]*conllu.Sentence, len(sents))
		for i, s := range sents {
			c := cloneSentence(s)
			if tags == "predicted" {
				c.StripTags()
			}
			for j := range c.Words {
				c.Words[j].Head, c.Words[j].Deprel = -1, "_"
			}
			if err := m.ParseWithOptions(c.Words, opt, nil); err != nil {
				return err
			}
			pred[i] = c
		}
		sc, err := eval.Score(sents, pred)
		if err != nil {
			return err
		}
		scores[split+"/"+row+"/UAS"] = sc.UAS.F1()
		scores[split+"/"+row+"/LAS"] = sc.LAS.F1()
		scores[split+"/"+row+"/CLAS"] = sc.CLAS.F1()
		scores[split+"/"+row+"/UPOS"] = sc.UPOS.F1()
		if tags == "predicted" {
			scores[split+"/"+row+"/XPOS"] = sc.XPOS.F1()
			scores[split+"/"+row+"/UFeats"] = sc.UFeats.F1()
			scores[split+"/"+row+"/AllTags"] = sc.AllTags.F1()
			scores[split+"/"+row+"/Lemmas"] = sc.Lemmas.F1()
		}
	}
	return nil
}

func cloneSentence(s *conllu.Sentence) *conllu.Sentence {
	c := *s
	c.Words = append([]conllu.Word(nil), s.Words...)
	return &c
}

// inventory returns the sorted deprels of the treebank and the index of the
// deprel used on arcs from the root (the most frequent one, "root" in UD).
func inventory(sents []*conllu.Sentence) ([]string, int32) {
	count := map[string]int{}
	rootCount := map[string]int{}
	for _, s := range sents {
		for _, w := range s.Words {
			if conllu.Absent(w.Deprel) {
				continue
			}
			count[w.Deprel]++
			if w.Head == 0 {
				rootCount[w.Deprel]++
			}
		}
	}
	var labels []string
	for l := range count {
		labels = append(labels, l)
	}
	sort.Strings(labels)
	best, bestN := "root", -1
	for l, n := range rootCount {
		if n > bestN || (n == bestN && l < best) {
			best, bestN = l, n
		}
	}
	root := sort.SearchStrings(labels, best)
	if root == len(labels) || labels[root] != best {
		labels = append(labels, best)
		sort.Strings(labels)
		root = sort.SearchStrings(labels, best)
	}
	return labels, int32(root)
}

// minCaseShare is the share of words with a Case feature above which the
// gold-morphology parser gets the Case templates (training sets: EWT 7 %,
// Hungarian Szeged 48 %, Turkish IMST 43 %).
const minCaseShare = 0.2

// caseShare returns the share of words whose FEATS have Case=.
func caseShare(sents []*conllu.Sentence) float64 {
	words, withCase := 0, 0
	for _, s := range sents {
		for _, w := range s.Words {
			words++
			if strings.Contains(w.Feats, "Case=") {
				withCase++
			}
		}
	}
	return float64(withCase) / float64(max(words, 1))
}

// tagColumns returns the columns to train taggers for: UPOS, and XPOS when
// most training words have one and its tag set fits a tagger
// (tagger.MaxTags). table reports a treebank whose XPOS is predicted by an
// XPOS table instead (morph.XPOSTable): most words have one, from a larger
// tag set, of xposTags tags.
func tagColumns(sents []*conllu.Sentence) (cols []string, table bool, xposTags int) {
	words, xpos := 0, 0
	tags := map[string]bool{}
	for _, s := range sents {
		for _, w := range s.Words {
			words++
			if !conllu.Absent(w.XPOS) {
				xpos++
				tags[w.XPOS] = true
			}
		}
	}
	switch {
	case 2*xpos <= words:
		return []string{tagger.UPOS}, false, len(tags)
	case len(tags) > tagger.MaxTags:
		return []string{tagger.UPOS}, true, len(tags)
	}
	return []string{tagger.UPOS, tagger.XPOS}, false, len(tags)
}

// morphSents returns the sentences the lemmatizer, the FEATS tagger and
// the lemmas' capitals learn from: sents, or, for a model with an XPOS
// table (opt.xposTable), copies of them with their XPOS removed, since
// they run before the table gives XPOS.
func morphSents(sents []*conllu.Sentence, opt Options) []*conllu.Sentence {
	if !opt.xposTable {
		return sents
	}
	out := make([]*conllu.Sentence, len(sents))
	for i, s := range sents {
		c := cloneSentence(s)
		for j := range c.Words {
			c.Words[j].XPOS = "_"
		}
		out[i] = c
	}
	return out
}

// readClusters reads the word clusters file at path.
func readClusters(path string) (*tagger.Clusters, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("train: clusters: %w", err)
	}
	defer f.Close()
	c, err := tagger.ReadClusters(f)
	if err != nil {
		return nil, fmt.Errorf("train: %s: %w", path, err)
	}
	return c, nil
}
