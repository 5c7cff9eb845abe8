// Package eval scores predicted dependency trees and tags against gold ones,
// following the conventions of the CoNLL 2018 shared task evaluation script
// (conll18_ud_eval.py) for the case of gold tokenization: the gold and the
// predicted file have the same sentences and the same syntactic words, so
// words are aligned one to one by position.
//
// Every syntactic word counts, punctuation included; multiword-token lines
// and empty nodes are ignored. As the script does, both files must be
// annotated trees: a sentence with HEAD "_" or with several roots is an
// error (see Check), not a score. The metrics are:
//
//   - UPOS, XPOS: tag accuracy.
//   - UFeats: the universal features (UniversalFeatures) of FEATS are
//     correct, compared as a set; other features are ignored, and "_" is
//     the empty set.
//   - AllTags: UPOS, XPOS and UFeats are all correct (FEATS restricted to
//     the universal features, as the script compares them).
//   - Lemmas: LEMMA is correct; a gold LEMMA "_" matches any predicted one.
//   - UAS: the head is correct.
//   - LAS: the head and the universal part of the deprel (before the first
//     ':') are correct, as in CoNLL 2018.
//   - FullLAS: the head and the complete deprel, subtypes included, are
//     correct.
//   - CLAS: LAS restricted to content words, those whose universal deprel is
//     one of ContentDeprels (so aux, case, cc, clf, cop, det, mark and punct,
//     and any unknown label, do not count). It is an F1 score: precision
//     divides by the predicted content words, recall by the gold ones, and
//     a word is correct only when the gold word is a content word whose head
//     and universal deprel are both predicted correctly.
//   - ExactUAS, ExactLAS: the share of sentences whose every word is correct
//     under UAS or LAS.
//
// With gold tokenization precision, recall and F1 coincide for every metric
// but CLAS, where they differ only through predicted deprels.
package eval

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode"

	"github.com/transparse/transparse/parser/conllu"
)

// ContentDeprels are the universal dependency relations of content words,
// the words CLAS counts. The set is CONTENT_DEPRELS of the CoNLL 2018
// evaluation script.
var ContentDeprels = map[string]bool{
	"nsubj": true, "obj": true, "iobj": true, "csubj": true, "ccomp": true,
	"xcomp": true, "obl": true, "vocative": true, "expl": true,
	"dislocated": true, "advcl": true, "advmod": true, "discourse": true,
	"nmod": true, "appos": true, "nummod": true, "acl": true, "amod": true,
	"conj": true, "fixed": true, "flat": true, "compound": true, "list": true,
	"parataxis": true, "orphan": true, "goeswith": true, "reparandum": true,
	"root": true, "dep": true,
}

// UniversalFeatures are the feature names UFeats and AllTags compare; other
// features of FEATS (language-specific ones, layered ones such as
// Number[psor]) are ignored. The set is UNIVERSAL_FEATURES of the CoNLL 2018
// evaluation script.
var UniversalFeatures = map[string]bool{
	"PronType": true, "NumType": true, "Poss": true, "Reflex": true,
	"Foreign": true, "Abbr": true, "Gender": true, "Animacy": true,
	"Number": true, "Case": true, "Definite": true, "Degree": true,
	"VerbForm": true, "Mood": true, "Tense": true, "Aspect": true,
	"Voice": true, "Evident": true, "Polarity": true, "Person": true,
	"Polite": true,
}

// UniversalFeats returns the universal features of a FEATS value, sorted and
// joined by '|' ("Number=Sing|Typo=Yes|Case=Nom" → "Case=Nom|Number=Sing");
// "" when there are none, as for "_".
func UniversalFeats(feats string) string {
	var keep []string
	for _, f := range strings.Split(feats, "|") {
		name, _, _ := strings.Cut(f, "=")
		if UniversalFeatures[name] {
			keep = append(keep, f)
		}
	}
	slices.Sort(keep)
	return strings.Join(keep, "|")
}

// lemmaCorrect reports whether a predicted LEMMA counts as correct: it
// equals the gold one, or the gold one is "_" (unannotated).
func lemmaCorrect(gold, pred string) bool { return gold == "_" || gold == pred }

// alignForm returns a FORM as the script compares it: without the Unicode
// space separators (category Zs).
func alignForm(form string) string {
	if !strings.ContainsFunc(form, isZs) {
		return form
	}
	return strings.Map(func(r rune) rune {
		if isZs(r) {
			return -1
		}
		return r
	}, form)
}

func isZs(r rune) bool { return unicode.Is(unicode.Zs, r) }

// UniversalDeprel returns the universal part of a deprel: the text before
// the first ':' ("nsubj:pass" → "nsubj").
func UniversalDeprel(deprel string) string {
	if i := strings.IndexByte(deprel, ':'); i >= 0 {
		return deprel[:i]
	}
	return deprel
}

// IsContent reports whether a word with this deprel is a content word for
// CLAS.
func IsContent(deprel string) bool { return ContentDeprels[UniversalDeprel(deprel)] }

// Metric holds the counts of one metric. Gold is the number of items the
// gold data has for the metric, System the number the prediction has and
// Correct the number of items that match. For accuracies Gold == System.
type Metric struct {
	Gold    int `json:"gold"`
	System  int `json:"system"`
	Correct int `json:"correct"`
}

// Precision returns Correct/System as a percentage (0 when System is 0).
func (m Metric) Precision() float64 { return percent(m.Correct, m.System) }

// Recall returns Correct/Gold as a percentage (0 when Gold is 0).
func (m Metric) Recall() float64 { return percent(m.Correct, m.Gold) }

// F1 returns the harmonic mean of precision and recall as a percentage,
// 2·Correct/(Gold+System); for an accuracy it is the accuracy.
func (m Metric) F1() float64 { return percent(2*m.Correct, m.Gold+m.System) }

// MarshalJSON encodes the counts and the percentages.
func (m Metric) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Gold      int     `json:"gold"`
		System    int     `json:"system"`
		Correct   int     `json:"correct"`
		Precision float64 `json:"precision"`
		Recall    float64 `json:"recall"`
		F1        float64 `json:"f1"`
	}{m.Gold, m.System, m.Correct, round4(m.Precision()), round4(m.Recall()), round4(m.F1())})
}

func percent(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return 100 * float64(a) / float64(b)
}

func round4(x float64) float64 { return math.Round(x*1e4) / 1e4 }

// Scores are the results of scoring a prediction against gold data.
type Scores struct {
	Sentences int `json:"sentences"` // sentences scored
	Words     int `json:"words"`     // syntactic words scored

	UPOS     Metric `json:"UPOS"`
	XPOS     Metric `json:"XPOS"`
	UFeats   Metric `json:"UFeats"`
	AllTags  Metric `json:"AllTags"`
	Lemmas   Metric `json:"Lemmas"`
	UAS      Metric `json:"UAS"`
	LAS      Metric `json:"LAS"`
	FullLAS  Metric `json:"FullLAS"`
	CLAS     Metric `json:"CLAS"`
	ExactUAS Metric `json:"ExactUAS"` // counts sentences, not words
	ExactLAS Metric `json:"ExactLAS"` // counts sentences, not words

	// PredictedUPOS, PredictedXPOS, PredictedFeats and PredictedLemmas
	// count the predicted words that have the column at all (not "_" or
	// ""). When one is 0 the prediction carries no such annotation (a
	// parser that does not predict XPOS, say), and String says so under the
	// table.
	PredictedUPOS   int `json:"predicted_upos_words"`
	PredictedXPOS   int `json:"predicted_xpos_words"`
	PredictedFeats  int `json:"predicted_feats_words"`
	PredictedLemmas int `json:"predicted_lemma_words"`
}

// MetricNames lists the metrics of Scores in table order. They are the keys
// of Percentages and the <metric> part of model card score keys.
var MetricNames = []string{"UPOS", "XPOS", "UFeats", "AllTags", "Lemmas", "UAS", "LAS", "FullLAS", "CLAS", "ExactUAS", "ExactLAS"}

// Metric returns the metric called name (one of MetricNames).
func (s Scores) Metric(name string) (Metric, bool) {
	switch name {
	case "UPOS":
		return s.UPOS, true
	case "XPOS":
		return s.XPOS, true
	case "UFeats":
		return s.UFeats, true
	case "AllTags":
		return s.AllTags, true
	case "Lemmas":
		return s.Lemmas, true
	case "UAS":
		return s.UAS, true
	case "LAS":
		return s.LAS, true
	case "FullLAS":
		return s.FullLAS, true
	case "CLAS":
		return s.CLAS, true
	case "ExactUAS":
		return s.ExactUAS, true
	case "ExactLAS":
		return s.ExactLAS, true
	}
	return Metric{}, false
}

// Percentages returns the F1 score of every metric in MetricNames, as a
// percentage, keyed by metric name. It is the form stored in model cards.
func (s Scores) Percentages() map[string]float64 {
	p := make(map[string]float64, len(MetricNames))
	for _, n := range MetricNames {
		m, _ := s.Metric(n)
		p[n] = m.F1()
	}
	return p
}

// String formats the scores as a table in the layout of the CoNLL 2018
// evaluation script's verbose output.
func (s Scores) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Sentences: %d   Words: %d\n", s.Sentences, s.Words)
	fmt.Fprintf(&b, "Metric     | Precision |    Recall |  F1 Score |   Correct |      Gold\n")
	fmt.Fprintf(&b, "-----------+-----------+-----------+-----------+-----------+-----------\n")
	for _, n := range MetricNames {
		m, _ := s.Metric(n)
		fmt.Fprintf(&b, "%-10s | %9.2f | %9.2f | %9.2f | %9d | %9d\n",
			n, m.Precision(), m.Recall(), m.F1(), m.Correct, m.Gold)
	}
	if s.Words > 0 {
		for _, t := range []struct {
			name string
			n    int
		}{{"UPOS", s.PredictedUPOS}, {"XPOS", s.PredictedXPOS},
			{"FEATS", s.PredictedFeats}, {"LEMMA", s.PredictedLemmas}} {
			if t.n == 0 {
				fmt.Fprintf(&b, "(the prediction has no %s: every %s is \"_\")\n", t.name, t.name)
			}
		}
	}
	return b.String()
}

// Score scores pred against gold. Both must have the same sentences with the
// same words (gold tokenization); otherwise the error names the first
// sentence that differs by index and sent_id.
func Score(gold, pred []*conllu.Sentence) (Scores, error) {
	if len(gold) != len(pred) {
		return Scores{}, fmt.Errorf("eval: gold has %d sentences, prediction has %d", len(gold), len(pred))
	}
	var sc Scorer
	for i := range gold {
		if err := sc.Add(gold[i], pred[i]); err != nil {
			return Scores{}, err
		}
	}
	return sc.Scores(), nil
}

// Scorer accumulates scores sentence by sentence. The zero value is ready to
// use. A Scorer is not safe for concurrent use.
type Scorer struct {
	s Scores
}

// Add scores one predicted sentence against its gold sentence. The two must
// have the same number of words with the same forms (Unicode space
// separators aside); otherwise Add returns
// an error naming the sentence (its position among the sentences added,
// counting from 1, and its sent_id) and changes nothing.
func (sc *Scorer) Add(gold, pred *conllu.Sentence) error {
	n := sc.s.Sentences + 1
	if gold == nil || pred == nil {
		return fmt.Errorf("eval: %s: nil sentence", sentenceName(n, gold))
	}
	if len(gold.Words) != len(pred.Words) {
		return fmt.Errorf("eval: %s: gold has %d words, prediction has %d",
			sentenceName(n, gold), len(gold.Words), len(pred.Words))
	}
	for i := range gold.Words {
		if g, p := gold.Words[i].Form, pred.Words[i].Form; alignForm(g) != alignForm(p) {
			return fmt.Errorf("eval: %s: word %d is %s in gold but %s in prediction",
				sentenceName(n, gold), i+1, conllu.Quote(g), conllu.Quote(p))
		}
	}
	for _, side := range []struct {
		name string
		s    *conllu.Sentence
	}{{"gold", gold}, {"prediction", pred}} {
		if err := Check(side.s); err != nil {
			return fmt.Errorf("eval: %s: %s %w", sentenceName(n, gold), side.name, err)
		}
	}

	s := &sc.s
	s.Sentences++
	s.Words += len(gold.Words)
	exactU, exactL := true, true
	for i := range gold.Words {
		g, p := &gold.Words[i], &pred.Words[i]
		gu, pu := UniversalDeprel(g.Deprel), UniversalDeprel(p.Deprel)
		head := g.Head == p.Head
		label := head && gu == pu

		accuracy(&s.UPOS, g.UPOS == p.UPOS)
		accuracy(&s.XPOS, g.XPOS == p.XPOS)
		uf := UniversalFeats(g.Feats) == UniversalFeats(p.Feats)
		accuracy(&s.UFeats, uf)
		accuracy(&s.AllTags, g.UPOS == p.UPOS && g.XPOS == p.XPOS && uf)
		accuracy(&s.Lemmas, lemmaCorrect(g.Lemma, p.Lemma))
		for _, c := range []struct {
			n *int
			v string
		}{{&s.PredictedUPOS, p.UPOS}, {&s.PredictedXPOS, p.XPOS},
			{&s.PredictedFeats, p.Feats}, {&s.PredictedLemmas, p.Lemma}} {
			if !conllu.Absent(c.v) {
				*c.n++
			}
		}
		accuracy(&s.UAS, head)
		accuracy(&s.LAS, label)
		accuracy(&s.FullLAS, head && g.Deprel == p.Deprel)

		gc, pc := ContentDeprels[gu], ContentDeprels[pu]
		if gc {
			s.CLAS.Gold++
			if label {
				s.CLAS.Correct++
			}
		}
		if pc {
			s.CLAS.System++
		}
		exactU = exactU && head
		exactL = exactL && label
	}
	accuracy(&s.ExactUAS, exactU)
	accuracy(&s.ExactLAS, exactL)
	return nil
}

// Check reports whether s can be scored, as the CoNLL 2018 evaluation
// script requires of both files: every word has a HEAD (a sentence whose
// HEADs are "_" carries no annotation to score) and exactly one word has
// HEAD 0 (the script refuses "multiple roots in a sentence"). The error's
// message is a predicate ("has no annotation: ...", "has 2 roots: ...").
func Check(s *conllu.Sentence) error {
	roots := 0
	first := 0
	for i := range s.Words {
		switch s.Words[i].Head {
		case -1:
			return fmt.Errorf("has no annotation: the HEAD of word %d is \"_\"", i+1)
		case 0:
			roots++
			if roots == 1 {
				first = i + 1
			} else if roots == 2 {
				second := i + 1
				n := 2
				for _, w := range s.Words[i+1:] {
					if w.Head == 0 {
						n++
					}
				}
				return fmt.Errorf("has %d roots (the first two: words %d and %d); the CoNLL 2018 scorer refuses a sentence with several roots", n, first, second)
			}
		}
	}
	if roots == 0 {
		return fmt.Errorf("has no root (no word has HEAD 0)")
	}
	return nil
}

// Scores returns the scores of the sentences added so far.
func (sc *Scorer) Scores() Scores { return sc.s }

func accuracy(m *Metric, ok bool) {
	m.Gold++
	m.System++
	if ok {
		m.Correct++
	}
}

// sentenceName names sentence number n (1-based) for error messages, with
// its sent_id when the gold sentence has one.
func sentenceName(n int, s *conllu.Sentence) string {
	if s == nil {
		return fmt.Sprintf("sentence %d", n)
	}
	if id := s.SentID(); id != "" {
		return fmt.Sprintf("sentence %d (sent_id %s)", n, id)
	}
	return fmt.Sprintf("sentence %d", n)
}
