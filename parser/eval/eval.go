// Package eval scores predicted dependency trees and tags against gold ones
// as the CoNLL 2018 shared task evaluation script (conll18_ud_eval.py)
// does. The prediction may tokenize and split sentences differently: both
// files are read as the characters of their tokens without whitespace,
// which must be the same text, and words are aligned by character spans
// (see Score). Tokens, Sentences and Words measure the segmentation.
//
// Every syntactic word counts, punctuation included; empty nodes are
// ignored. As the script does, both files must be
// annotated trees: a sentence with HEAD "_" or with several roots is an
// error (see Check), not a score. The other metrics count aligned words:
//
//   - UPOS, XPOS: the tag is correct.
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
//   - MLAS: CLAS that also requires UPOS, UFeats and the functional
//     children (deprels in FunctionalDeprels) with their head, universal
//     deprel, UPOS and UFeats to be correct.
//   - BLEX: CLAS that also requires the LEMMA to be correct.
//   - ExactUAS, ExactLAS: the share of gold sentences that the prediction
//     has with the same span, every word aligned and correct under UAS or
//     LAS.
//
// Each is an F1 score: precision divides by the predicted words, recall by
// the gold ones. With gold tokenization precision, recall and F1 coincide
// for every metric but CLAS, MLAS and BLEX, where they differ only through
// predicted deprels.
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
	Sentences int `json:"sentences"` // gold sentences scored
	Words     int `json:"words"`     // gold syntactic words scored

	// Tokens, SentenceSpans and AlignedWords measure the segmentation:
	// the tokens and sentences of the prediction whose character span is
	// a gold one, and the predicted words aligned with gold words (see
	// Score). With gold tokenization all three are 100%.
	Tokens        Metric `json:"Tokens"`
	SentenceSpans Metric `json:"SentenceSpans"`
	AlignedWords  Metric `json:"AlignedWords"`

	UPOS     Metric `json:"UPOS"`
	XPOS     Metric `json:"XPOS"`
	UFeats   Metric `json:"UFeats"`
	AllTags  Metric `json:"AllTags"`
	Lemmas   Metric `json:"Lemmas"`
	UAS      Metric `json:"UAS"`
	LAS      Metric `json:"LAS"`
	FullLAS  Metric `json:"FullLAS"`
	CLAS     Metric `json:"CLAS"`
	MLAS     Metric `json:"MLAS"`
	BLEX     Metric `json:"BLEX"`
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
// of Percentages and the <metric> part of model card score keys. "Tokens",
// "Sentences" and "Words" name the fields Tokens, SentenceSpans and
// AlignedWords.
var MetricNames = []string{"Tokens", "Sentences", "Words", "UPOS", "XPOS", "UFeats", "AllTags", "Lemmas",
	"UAS", "LAS", "FullLAS", "CLAS", "MLAS", "BLEX", "ExactUAS", "ExactLAS"}

// metrics returns the metrics of s in the order of MetricNames.
func (s *Scores) metrics() []*Metric {
	return []*Metric{&s.Tokens, &s.SentenceSpans, &s.AlignedWords, &s.UPOS, &s.XPOS, &s.UFeats, &s.AllTags, &s.Lemmas,
		&s.UAS, &s.LAS, &s.FullLAS, &s.CLAS, &s.MLAS, &s.BLEX, &s.ExactUAS, &s.ExactLAS}
}

// Metric returns the metric called name (one of MetricNames).
func (s Scores) Metric(name string) (Metric, bool) {
	if i := slices.Index(MetricNames, name); i >= 0 {
		return *s.metrics()[i], true
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
// evaluation script's verbose output, with the correct and gold counts of
// each metric (precision gives the predicted one).
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
	if s.AlignedWords.System > 0 {
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

// Score scores pred against gold as the CoNLL 2018 evaluation script does,
// whatever the tokenization and sentence segmentation of pred. Both sides
// are read as the characters of their tokens (a multiword token's FORM, or
// a word's outside multiword tokens) without Unicode space separators; the
// two must be the same text, else the error names the first character
// offset where they differ (counting from 0) and the sentence and token of
// each side there. Every sentence of both sides must pass Check.
//
// Tokens and sentences count as correct when the prediction has one with
// the same character span. Words are aligned by their token's span, and
// inside multiword tokens by the longest common subsequence of their
// lowercased FORMs (AlignedWords). Every other metric counts the aligned
// words whose annotation is right, with precision over the predicted words
// and recall over the gold ones; a head is right when the predicted head
// is aligned with the gold head (or both are the root). With gold
// tokenization every word is aligned and F1 is the accuracy.
func Score(gold, pred []*conllu.Sentence) (Scores, error) { return score(gold, pred, 1) }

// score is Score with the sentences numbered from first in errors.
func score(gold, pred []*conllu.Sentence, first int) (Scores, error) {
	g, err := readText(gold, "gold", first)
	if err != nil {
		return Scores{}, err
	}
	p, err := readText(pred, "prediction", first)
	if err != nil {
		return Scores{}, err
	}
	if err := compareTexts(g, p, gold, pred); err != nil {
		return Scores{}, err
	}
	a := align(g, p)
	var s Scores
	s.Sentences, s.Words = len(gold), len(g.words)
	var sameSent []int
	s.Tokens, _ = spansMatch(g.tokens, p.tokens)
	s.SentenceSpans, sameSent = spansMatch(g.sents, p.sents)
	s.AlignedWords = Metric{Gold: len(g.words), System: len(p.words), Correct: len(a.pairs)}
	a.count(&s)
	a.exact(&s, sameSent)
	return s, nil
}

// Scorer accumulates scores sentence by sentence. The zero value is ready to
// use. A Scorer is not safe for concurrent use.
type Scorer struct {
	s Scores
}

// Add scores one predicted sentence against its gold sentence, as Score
// does (the two need the same text, not the same words), and adds the
// counts. On error it changes nothing; the error names the sentence by its
// position among the sentences added, counting from 1.
func (sc *Scorer) Add(gold, pred *conllu.Sentence) error {
	n := sc.s.Sentences + 1
	if gold == nil || pred == nil {
		return fmt.Errorf("eval: %s: nil sentence", sentenceName(n, gold))
	}
	s, err := score([]*conllu.Sentence{gold}, []*conllu.Sentence{pred}, n)
	if err != nil {
		return err
	}
	t := &sc.s
	t.Sentences += s.Sentences
	t.Words += s.Words
	ms := s.metrics()
	for i, m := range t.metrics() {
		m.Gold += ms[i].Gold
		m.System += ms[i].System
		m.Correct += ms[i].Correct
	}
	t.PredictedUPOS += s.PredictedUPOS
	t.PredictedXPOS += s.PredictedXPOS
	t.PredictedFeats += s.PredictedFeats
	t.PredictedLemmas += s.PredictedLemmas
	return nil
}

// Check reports whether s can be scored, as the CoNLL 2018 evaluation
// script requires of both files: every word has a HEAD (a sentence whose
// HEADs are "_" carries no annotation to score) and exactly one word has
// HEAD 0 (the script refuses "multiple roots in a sentence"), and every
// HEAD is a word of the sentence. The error's
// message is a predicate ("has no annotation: ...", "has 2 roots: ...").
func Check(s *conllu.Sentence) error {
	if len(s.Words) == 0 {
		return fmt.Errorf("has no words")
	}
	roots := 0
	first := 0
	for i := range s.Words {
		switch h := s.Words[i].Head; {
		case h == -1:
			return fmt.Errorf("has no annotation: the HEAD of word %d is \"_\"", i+1)
		case h < 0 || h > len(s.Words):
			return fmt.Errorf("has HEAD %d at word %d, outside the sentence of %d words", h, i+1, len(s.Words))
		case h == 0:
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
