package eval

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/transparse/transparse/parser/conllu"
)

// sent builds a sentence from rows "FORM UPOS HEAD DEPREL".
func sent(id string, rows ...string) *conllu.Sentence {
	s := &conllu.Sentence{}
	if id != "" {
		s.Comments = []string{"# sent_id = " + id}
	}
	for i, r := range rows {
		f := strings.Fields(r)
		var head int
		for _, c := range f[2] {
			head = head*10 + int(c-'0')
		}
		s.Words = append(s.Words, conllu.Word{
			ID: i + 1, Form: f[0], Lemma: "_", UPOS: f[1], XPOS: "_", Feats: "_",
			Head: head, Deprel: f[3], Deps: "_", Misc: "_",
		})
	}
	return s
}

// fixture returns three gold sentences and a prediction with known errors.
func fixture() (gold, pred []*conllu.Sentence) {
	gold = []*conllu.Sentence{
		sent("s1",
			"The DET 2 det",
			"cat NOUN 3 nsubj",
			"sat VERB 0 root",
			". PUNCT 3 punct"),
		sent("s2",
			"Dogs NOUN 2 nsubj",
			"bark VERB 0 root",
			"loudly ADV 2 advmod"),
		sent("s3",
			"Go VERB 0 root",
			"home ADV 1 advmod",
			"now ADV 1 advmod"),
	}
	pred = []*conllu.Sentence{
		sent("s1",
			"The DET 2 amod",        // head right, label wrong; a predicted content word
			"cat NOUN 3 nsubj:pass", // universal label right, full label wrong
			"sat NOUN 0 root",       // UPOS wrong
			". PUNCT 2 punct"),      // head wrong
		sent("s2", // exact
			"Dogs NOUN 2 nsubj",
			"bark VERB 0 root",
			"loudly ADV 2 advmod"),
		sent("s3",
			"Go VERB 0 root",
			"home ADV 1 case", // gold content word predicted functional
			"now ADV 1 mark"), // likewise
	}
	return gold, pred
}

func wantMetric(t *testing.T, name string, got, want Metric) {
	t.Helper()
	if got != want {
		t.Errorf("%s = %+v, want %+v", name, got, want)
	}
}

func wantFloat(t *testing.T, name string, got, want float64) {
	t.Helper()
	if math.Abs(got-want) > 1e-9 {
		t.Errorf("%s = %v, want %v", name, got, want)
	}
}

func wantContains(t *testing.T, s, sub string) {
	t.Helper()
	if !strings.Contains(s, sub) {
		t.Errorf("%q does not contain %q", s, sub)
	}
}

func TestScoreFixture(t *testing.T) {
	gold, pred := fixture()
	s, err := Score(gold, pred)
	if err != nil {
		t.Fatal(err)
	}
	if s.Sentences != 3 || s.Words != 10 {
		t.Errorf("Sentences, Words = %d, %d; want 3, 10", s.Sentences, s.Words)
	}
	wantMetric(t, "UPOS", s.UPOS, Metric{Gold: 10, System: 10, Correct: 9})
	wantMetric(t, "XPOS", s.XPOS, Metric{Gold: 10, System: 10, Correct: 10})
	wantMetric(t, "UAS", s.UAS, Metric{Gold: 10, System: 10, Correct: 9})
	wantMetric(t, "LAS", s.LAS, Metric{Gold: 10, System: 10, Correct: 6})
	wantMetric(t, "FullLAS", s.FullLAS, Metric{Gold: 10, System: 10, Correct: 5})
	// Gold content words: cat sat | Dogs bark loudly | Go home now = 8.
	// Predicted content words: The cat sat | Dogs bark loudly | Go = 7.
	// Correct: cat sat | Dogs bark loudly | Go = 6.
	wantMetric(t, "CLAS", s.CLAS, Metric{Gold: 8, System: 7, Correct: 6})
	wantMetric(t, "ExactUAS", s.ExactUAS, Metric{Gold: 3, System: 3, Correct: 2})
	wantMetric(t, "ExactLAS", s.ExactLAS, Metric{Gold: 3, System: 3, Correct: 1})
	if s.PredictedUPOS != 10 || s.PredictedXPOS != 0 {
		t.Errorf("PredictedUPOS, PredictedXPOS = %d, %d; want 10, 0", s.PredictedUPOS, s.PredictedXPOS)
	}

	wantFloat(t, "UAS", s.UAS.F1(), 90)
	wantFloat(t, "LAS", s.LAS.F1(), 60)
	wantFloat(t, "LAS precision", s.LAS.Precision(), 60)
	wantFloat(t, "LAS recall", s.LAS.Recall(), 60)
	wantFloat(t, "FullLAS", s.FullLAS.F1(), 50)
	wantFloat(t, "CLAS precision", s.CLAS.Precision(), 600.0/7)
	wantFloat(t, "CLAS recall", s.CLAS.Recall(), 75)
	wantFloat(t, "CLAS F1", s.CLAS.F1(), 80)
	wantFloat(t, "ExactUAS", s.ExactUAS.F1(), 200.0/3)
	wantFloat(t, "ExactLAS", s.ExactLAS.F1(), 100.0/3)

	p := s.Percentages()
	if len(p) != len(MetricNames) {
		t.Errorf("Percentages has %d entries, want %d", len(p), len(MetricNames))
	}
	wantFloat(t, "Percentages CLAS", p["CLAS"], 80)
	wantFloat(t, "Percentages UPOS", p["UPOS"], 90)
}

func TestScorerIncremental(t *testing.T) {
	gold, pred := fixture()
	var sc Scorer
	if sc.Scores() != (Scores{}) {
		t.Errorf("zero Scorer has scores %+v", sc.Scores())
	}
	if err := sc.Add(gold[0], pred[0]); err != nil {
		t.Fatal(err)
	}
	s := sc.Scores()
	if s.Sentences != 1 || s.Words != 4 {
		t.Errorf("Sentences, Words = %d, %d; want 1, 4", s.Sentences, s.Words)
	}
	wantMetric(t, "UPOS", s.UPOS, Metric{4, 4, 3})
	wantMetric(t, "UAS", s.UAS, Metric{4, 4, 3})
	wantMetric(t, "LAS", s.LAS, Metric{4, 4, 2})
	wantMetric(t, "FullLAS", s.FullLAS, Metric{4, 4, 1})
	wantMetric(t, "CLAS", s.CLAS, Metric{2, 3, 2})
	wantMetric(t, "ExactLAS", s.ExactLAS, Metric{1, 1, 0})

	for i := 1; i < len(gold); i++ {
		if err := sc.Add(gold[i], pred[i]); err != nil {
			t.Fatal(err)
		}
	}
	all, err := Score(gold, pred)
	if err != nil {
		t.Fatal(err)
	}
	if all != sc.Scores() {
		t.Errorf("incremental %+v != Score %+v", sc.Scores(), all)
	}
}

func TestScorePerfect(t *testing.T) {
	gold, _ := fixture()
	s, err := Score(gold, gold)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range MetricNames {
		m, ok := s.Metric(n)
		if !ok {
			t.Fatalf("Metric(%q) not found", n)
		}
		if m.F1() != 100 || m.Precision() != 100 || m.Recall() != 100 {
			t.Errorf("%s: P/R/F1 = %v/%v/%v, want 100", n, m.Precision(), m.Recall(), m.F1())
		}
	}
	if _, ok := s.Metric("ELAS"); ok {
		t.Error("Metric(ELAS) found")
	}
}

func TestScoreEmpty(t *testing.T) {
	s, err := Score(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if s.LAS.F1() != 0 || s.CLAS.Precision() != 0 || s.CLAS.Recall() != 0 {
		t.Errorf("empty scores are not 0: %+v", s)
	}
	_ = s.String()
}

func TestScoreMismatch(t *testing.T) {
	gold, pred := fixture()

	_, err := Score(gold, pred[:2])
	if err == nil {
		t.Fatal("no error for a missing sentence")
	}
	wantContains(t, err.Error(), `differ at character 24 (counting from 0): gold has "Gohomenow" in sentence 3 (sent_id s3), token "Go"; prediction ends there (after 24 characters)`)

	short := sent("s2", "Dogs NOUN 2 nsubj", "bark VERB 0 root")
	_, err = Score(gold, []*conllu.Sentence{pred[0], short, pred[2]})
	if err == nil {
		t.Fatal("no error for a missing word")
	}
	wantContains(t, err.Error(), `differ at character 18 (counting from 0): gold has "loudlyGohomenow" in sentence 2 (sent_id s2), token "loudly"; prediction has "Gohomenow" in sentence 3 (sent_id s3), token "Go"`)

	other := sent("", "Go VERB 0 root", "away ADV 1 advmod", "now ADV 1 advmod")
	g3 := sent("", "Go VERB 0 root", "home ADV 1 advmod", "now ADV 1 advmod")
	var sc Scorer
	if err := sc.Add(gold[0], pred[0]); err != nil {
		t.Fatal(err)
	}
	before := sc.Scores()
	err = sc.Add(g3, other)
	if err == nil {
		t.Fatal("no error for a different form")
	}
	wantContains(t, err.Error(), `differ at character 2 (counting from 0): gold has "homenow" in sentence 2, token "home"; prediction has "awaynow" in sentence 2, token "away"`)
	if sc.Scores() != before {
		t.Error("a failed Add changed the scores")
	}
	if err := sc.Add(nil, other); err == nil {
		t.Error("no error for a nil sentence")
	}
}

func TestUniversalDeprelAndContent(t *testing.T) {
	for in, want := range map[string]string{"nsubj:pass": "nsubj", "obl:tmod:x": "obl", "root": "root", "": ""} {
		if got := UniversalDeprel(in); got != want {
			t.Errorf("UniversalDeprel(%q) = %q, want %q", in, got, want)
		}
	}
	for _, d := range []string{"aux", "aux:pass", "case", "cc", "cc:preconj", "clf", "cop", "det", "det:poss", "mark", "punct", "_", ""} {
		if IsContent(d) {
			t.Errorf("IsContent(%q) = true", d)
		}
	}
	for _, d := range []string{"nsubj:pass", "obj", "root", "dep", "flat:name", "compound:prt", "nmod:poss", "advmod", "conj", "vocative", "goeswith"} {
		if !IsContent(d) {
			t.Errorf("IsContent(%q) = false", d)
		}
	}
	if len(ContentDeprels) != 29 {
		t.Errorf("ContentDeprels has %d relations, want the 29 of CoNLL 2018", len(ContentDeprels))
	}
}

func TestStringAndJSON(t *testing.T) {
	gold, pred := fixture()
	s, err := Score(gold, pred)
	if err != nil {
		t.Fatal(err)
	}
	out := s.String()
	wantContains(t, out, "Sentences: 3   Words: 10")
	wantContains(t, out, "CLAS       |     85.71 |     75.00 |     80.00 |         6 |         8\n")
	wantContains(t, out, "LAS        |     60.00 |     60.00 |     60.00 |         6 |        10\n")
	for _, n := range MetricNames {
		wantContains(t, out, "\n"+n+" ")
	}
	// The fixture has no XPOS ("_" everywhere): the table says so.
	wantContains(t, out, "\n(the prediction has no XPOS: every XPOS is \"_\")\n")
	if strings.Contains(out, "no UPOS") {
		t.Errorf("table claims there is no UPOS:\n%s", out)
	}

	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var back struct {
		Words int
		CLAS  struct {
			Precision, F1 float64
			System        int
		}
	}
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back.Words != 10 || back.CLAS.Precision != 85.7143 || back.CLAS.F1 != 80 || back.CLAS.System != 7 {
		t.Errorf("JSON %s decodes to %+v", b, back)
	}
}

// Files the CoNLL 2018 scorer refuses are refused, not scored: a sentence
// with two roots (in gold or in the prediction) and one without annotation.
func TestScoreRefusesWhatTheScorerRefuses(t *testing.T) {
	good := sent("a", "I PRON 2 nsubj", "saw VERB 0 root", "it PRON 2 obj")
	twoRoots := sent("a", "I PRON 2 nsubj", "saw VERB 0 root", "it PRON 0 root")
	unannotated := sent("a", "I PRON 2 nsubj", "saw VERB 0 root", "it PRON 2 obj")
	for i := range unannotated.Words {
		unannotated.Words[i].Head = -1
	}
	for _, c := range []struct {
		name       string
		gold, pred *conllu.Sentence
		want       string
	}{
		{"two roots in prediction", good, twoRoots, "sentence 1 (sent_id a): prediction has 2 roots (the first two: words 2 and 3); the CoNLL 2018 scorer refuses"},
		{"two roots in gold", twoRoots, good, "gold has 2 roots"},
		{"unannotated gold", unannotated, good, `gold has no annotation: the HEAD of word 1 is "_"`},
		{"unannotated prediction", good, unannotated, `prediction has no annotation`},
	} {
		_, err := Score([]*conllu.Sentence{good, c.gold}, []*conllu.Sentence{good, c.pred})
		if err == nil || !strings.Contains(err.Error(), strings.Replace(c.want, "sentence 1", "sentence 2", 1)) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}

func TestUniversalFeats(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"_", ""},
		{"", ""},
		{"Typo=Yes", ""},
		{"Number=Sing|Case=Nom", "Case=Nom|Number=Sing"},
		{"Number[psor]=Sing|Person=3|NumForm=Digit", "Person=3"},
	} {
		if got := UniversalFeats(c.in); got != c.want {
			t.Errorf("UniversalFeats(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestScoreMorphologyGolden scores testdata/pred.conllu against
// testdata/gold.conllu, two sentences and 7 words whose heads and deprels
// all agree. Counted by hand, word by word (gold/prediction), with the
// metrics the word is correct under (U = UPOS, X = XPOS, F = UFeats,
// A = AllTags, L = Lemmas):
//
//	word   difference                                     U X F A L
//	Dogs   none                                           1 1 1 1 1
//	bark   XPOS VBP/VB; FEATS same set, other order;      1 0 1 0 0
//	       LEMMA bark/barks
//	.      FEATS _/Foo=Bar: no universal feature in       1 1 1 1 1
//	       either, both the empty set
//	She    prediction lacks Gender=Fem; LEMMA she/her     1 1 0 0 0
//	reads  UPOS VERB/AUX                                  0 1 1 0 1
//	3 000  FORM "3 000"/"3000", aligned (spaces removed); 1 1 1 1 1
//	       NumForm=Digit/absent, not universal
//	books  Typo=Yes/absent, not universal; gold LEMMA "_" 1 1 1 1 1
//	       matches "book"
//	total                                                 6 6 6 4 5
func TestScoreMorphologyGolden(t *testing.T) {
	gold, err := conllu.ReadFile("testdata/gold.conllu")
	if err != nil {
		t.Fatal(err)
	}
	pred, err := conllu.ReadFile("testdata/pred.conllu")
	if err != nil {
		t.Fatal(err)
	}
	s, err := Score(gold, pred)
	if err != nil {
		t.Fatal(err)
	}
	if s.Sentences != 2 || s.Words != 7 {
		t.Fatalf("Sentences, Words = %d, %d, want 2, 7", s.Sentences, s.Words)
	}
	for name, want := range map[string]int{
		"UPOS": 6, "XPOS": 6, "UFeats": 6, "AllTags": 4, "Lemmas": 5, "UAS": 7, "LAS": 7,
	} {
		m, _ := s.Metric(name)
		if m != (Metric{Gold: 7, System: 7, Correct: want}) {
			t.Errorf("%s = %+v, want %d of 7 correct", name, m, want)
		}
	}
	if got, want := s.AllTags.F1(), 100*4/7.0; math.Abs(got-want) > 1e-9 {
		t.Errorf("AllTags F1 = %v, want %v", got, want)
	}
}

// TestFormsAlignWithoutSpaces checks that FORMs differing only in Unicode
// space separators align, as in the CoNLL 2018 script, and others do not.
func TestFormsAlignWithoutSpaces(t *testing.T) {
	for _, c := range []struct {
		gold, pred string
		ok         bool
	}{
		{"3 000", "3000", true},
		{"3\u00a0000", "3 000", true}, // no-break space, category Zs
		{"3\u202f000", "3000", true},  // narrow no-break space, category Zs
		{"3 000", "300", false},
		{"3\t000", "3000", false}, // a tab is not in category Zs
	} {
		g, p := sent("", "x NUM 0 root"), sent("", "x NUM 0 root")
		g.Words[0].Form, p.Words[0].Form = c.gold, c.pred
		_, err := Score([]*conllu.Sentence{g}, []*conllu.Sentence{p})
		if (err == nil) != c.ok {
			t.Errorf("%q against %q: error %v, want aligned %v", c.pred, c.gold, err, c.ok)
		}
	}
}
