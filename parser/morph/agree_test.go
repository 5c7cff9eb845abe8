package morph

import (
	"slices"
	"strings"
	"testing"

	"github.com/transparse/transparse/parser/conllu"
)

// withValue returns feats with the value of feature name replaced by v;
// ok is false when feats lacks the feature.
func withValue(feats, name, v string) (string, bool) {
	start, end, ok := featSpan(feats, name)
	if !ok {
		return feats, false
	}
	return feats[:start] + v + feats[end:], true
}

func TestFeatValues(t *testing.T) {
	f := "Mood=Ind|Number=Sing|Person=3|Tense=Past|VerbForm=Fin"
	if v := featValue(f, "Person"); v != "3" {
		t.Errorf("Person %q", v)
	}
	if v := featValue(f, "Voice"); v != "" {
		t.Errorf("Voice %q", v)
	}
	for _, tc := range []struct{ name, v, want string }{
		{"Person", "1", "Mood=Ind|Number=Sing|Person=1|Tense=Past|VerbForm=Fin"},
		{"Mood", "Imp", "Mood=Imp|Number=Sing|Person=3|Tense=Past|VerbForm=Fin"},
		{"VerbForm", "Part", "Mood=Ind|Number=Sing|Person=3|Tense=Past|VerbForm=Part"},
	} {
		if got, ok := withValue(f, tc.name, tc.v); !ok || got != tc.want {
			t.Errorf("withValue(%s=%s) = %q, %v", tc.name, tc.v, got, ok)
		}
	}
	if got, ok := withValue(f, "Voice", "Pass"); ok || got != f {
		t.Errorf("withValue of a missing feature = %q, %v", got, ok)
	}
	for _, tc := range []struct{ feats, p, n, want string }{
		{f, "1", "Plur", "Mood=Ind|Number=Plur|Person=1|Tense=Past|VerbForm=Fin"},
		{"Person=3|Number=Sing", "2", "Plur", "Person=2|Number=Plur"},
		{"Case=Nom|Person=2|PronType=Prs", "1", "", "Case=Nom|Person=1|PronType=Prs"},
		{"Case=Nom|Person=2|PronType=Prs", "1", "Sing", ""}, // Number would be added
		{f, "", "Sing", ""}, // Person would be removed
	} {
		b, ok := appendPersonNumber([]byte("x"), tc.feats, tc.p, tc.n)
		if got := string(b); (tc.want == "") == ok || (ok && got != "x"+tc.want) || (!ok && got != "x") {
			t.Errorf("appendPersonNumber(%q, %q, %q) = %q, %v, want %q", tc.feats, tc.p, tc.n, got, ok, tc.want)
		}
	}
}

// words builds a parsed sentence from "form/XPOS/FEATS/head/deprel"
// items.
func words(items ...string) []conllu.Word {
	ws := make([]conllu.Word, len(items))
	for i, it := range items {
		f := strings.Split(it, "/")
		var head int
		for _, c := range f[3] {
			head = head*10 + int(c-'0')
		}
		ws[i] = conllu.Word{ID: i + 1, Form: f[0], XPOS: f[1], Feats: f[2], Head: head, Deprel: f[4]}
	}
	return ws
}

func TestSubjectOf(t *testing.T) {
	// "I cried and left": the conjunct "left" takes the subject of "cried".
	ws := words("I/PRP/Number=Sing|Person=1/2/nsubj", "cried/VBD/_/0/root", "and/CC/_/4/cc", "left/VBD/_/2/conj",
		"Go/VB/_/0/parataxis")
	var ss syntaxScratch
	ss.children(ws)
	for i, want := range []int{-1, 0, -1, 0, -1} {
		if got := subjectOf(ws, &ss, i); got != want {
			t.Errorf("subject of %s: %d, want %d", ws[i].Form, got, want)
		}
	}
}

// On EWT dev with gold tags and trees, the table learnt from EWT train
// gives back the Person and Number of verbs whose values were changed, and
// changes few right ones.
func TestAgreementEWT(t *testing.T) {
	train, dev := readUD(t, "en_ewt-ud-train.conllu"), readUD(t, "en_ewt-ud-dev.conllu")
	f, err := TrainFeatsTagger(train[:3000], Options{Epochs: 1})
	if err != nil {
		t.Fatal(err)
	}
	a := TrainAgreement(train)
	if a == nil || a.Len() < 20 {
		t.Fatalf("agreement table of %v rules", a)
	}
	f.SetAgreement(a)
	// The same tagger through its Data agrees alike.
	f2, err := FeatsTaggerFromData(f.Data())
	if err != nil {
		t.Fatal(err)
	}
	if !f2.HasAgreement() || f2.c.agree.Len() != a.Len() {
		t.Fatal("the agreement table did not survive Data")
	}
	var verbs, changedRight, damaged, restored int
	for _, s := range dev {
		ws := append([]conllu.Word(nil), s.Words...)
		f.Agree(ws)
		for i := range ws {
			if featValue(s.Words[i].Feats, "Person") == "" || !strings.HasPrefix(s.Words[i].XPOS, "VB") {
				continue
			}
			verbs++
			if ws[i].Feats != s.Words[i].Feats {
				changedRight++
			}
		}
		// Person=1 made 3 and 3 made 1 in past-tense verbs, where the
		// dictionary allows it.
		ws = append(ws[:0], s.Words...)
		bad := map[int]bool{}
		for i := range ws {
			if ws[i].XPOS != "VBD" {
				continue
			}
			p := map[string]string{"1": "3", "3": "1"}[featValue(ws[i].Feats, "Person")]
			if nf, ok := withValue(ws[i].Feats, "Person", p); ok && p != "" {
				if _, known := f.c.agreeIDs[nf]; known {
					ws[i].Feats, bad[i] = nf, true
				}
			}
		}
		f2.Agree(ws)
		for i := range bad {
			damaged++
			if ws[i].Feats == s.Words[i].Feats {
				restored++
			}
		}
	}
	t.Logf("%d of %d right verbs changed; %d of %d damaged past-tense verbs restored", changedRight, verbs, restored, damaged)
	if changedRight > verbs/50 {
		t.Errorf("%d of %d right verbs changed", changedRight, verbs)
	}
	if damaged < 100 || restored < damaged/2 { // a verb without a subject keeps its damage
		t.Errorf("%d of %d damaged verbs restored", restored, damaged)
	}
}

func TestAgreementDataErrors(t *testing.T) {
	train := readFixture(t, "en_ewt-train-150.conllu")
	l, f := trainBoth(t, train)
	a := TrainAgreement(train)
	if a == nil {
		t.Fatal("no agreement rule from the fixture")
	}
	f.SetAgreement(a)
	d := f.Data()
	ld := l.Data()
	ld.Agreement = d.Agreement
	if _, err := LemmatizerFromData(ld); err == nil {
		t.Error("a lemmatizer with an agreement table decoded")
	}
	for _, bad := range [][]string{
		{"VBD\tPRP\t1\tSing\t1"},
		{"VBD\tPRP\t1\tSing\t\t"},
		{"\tPRP\t1\tSing\t1\tSing"},
		{"VBP\tPRP\t1\tSing\t1\tSing", "VBD\tPRP\t1\tSing\t1\tSing"},
	} {
		d := f.Data()
		d.Agreement = bad
		if _, err := FeatsTaggerFromData(d); err == nil || !strings.Contains(err.Error(), "agreement rule") {
			t.Errorf("%q: error %v", bad, err)
		}
	}
	f.SetAgreement(nil)
	if d := f.Data(); d.Agreement != nil {
		t.Error("a tagger without agreement stores a table")
	}
}

func TestLemmaCase(t *testing.T) {
	lc, err := lemmaCaseFromData([]string{"NNP", "NNPS"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ form, xpos, lemma, want string }{
		{"Holocaust", "NNP", "holocaust", "Holocaust"},
		{"Westerners", "NNPS", "westerner", "Westerner"},
		{"Ärzte", "NNP", "ärzt", "Ärzt"},
		{"Ran", "NNP", "run", "Run"},
		{"Holocaust", "NN", "holocaust", "holocaust"},
		{"lisa", "NNP", "lisa", "lisa"},
		{"Aug", "NNP", "August", "August"},
		{"IBM", "NNP", "ibm", "Ibm"},
	} {
		w := conllu.Word{Form: tc.form, XPOS: tc.xpos}
		var novel novelLemmas
		if got := lc.recase(&w, tc.lemma, &novel); got != tc.want {
			t.Errorf("recase(%s %s, %q) = %q, want %q", tc.form, tc.xpos, tc.lemma, got, tc.want)
		}
	}
	for _, bad := range [][]string{{"NNP", "NNP"}, {"NNPS", "NNP"}, {""}} {
		if _, err := lemmaCaseFromData(bad); err == nil {
			t.Errorf("%q decoded", bad)
		}
	}
}

// On EWT, the tags whose capitalized words keep their capital are the
// proper nouns' (and e-mail addresses'), and a lemmatizer keeps them
// through its Data.
func TestLemmaCaseEWT(t *testing.T) {
	train := readUD(t, "en_ewt-ud-train.conllu")
	lc := TrainLemmaCase(train)
	if lc == nil || !slices.Contains(lc.Tags(), "NNP") || slices.Contains(lc.Tags(), "NN") || slices.Contains(lc.Tags(), "JJ") {
		t.Fatalf("lemma case tags %v", lc)
	}
	l, err := TrainLemmatizer(readFixture(t, "en_ewt-train-150.conllu"), Options{Epochs: 1})
	if err != nil {
		t.Fatal(err)
	}
	l.SetLemmaCase(lc)
	l2, err := LemmatizerFromData(l.Data())
	if err != nil {
		t.Fatal(err)
	}
	if !l2.HasLemmaCase() || !slices.Equal(l2.c.lemmaCase.Tags(), lc.Tags()) {
		t.Fatal("the lemma case tags did not survive Data")
	}
	ws := []conllu.Word{{ID: 1, Form: "Holocaust", UPOS: "PROPN", XPOS: "NNP"}, {ID: 2, Form: "Holocaust", UPOS: "NOUN", XPOS: "NN"}}
	got := l2.Lemmas(ws, nil)
	if got[0] != "Holocaust" || got[1] != "holocaust" {
		t.Errorf("lemmas %q, want Holocaust for NNP and holocaust for NN", got)
	}
	f, err := TrainFeatsTagger(readFixture(t, "en_ewt-train-150.conllu"), Options{Epochs: 1})
	if err != nil {
		t.Fatal(err)
	}
	d := f.Data()
	d.LemmaCase = []string{"NNP"}
	if _, err := FeatsTaggerFromData(d); err == nil {
		t.Error("a FEATS tagger with lemma case tags decoded")
	}
}
