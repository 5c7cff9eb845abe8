package morph

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/vmihailenco/msgpack/v5"

	"github.com/transparse/transparse/internal/testenv"
	"github.com/transparse/transparse/parser/conllu"
	"github.com/transparse/transparse/parser/eval"
)

// readFixture reads a committed slice of UD English EWT (testdata/ud/README.md).
func readFixture(t testing.TB, name string) []*conllu.Sentence {
	t.Helper()
	s, err := conllu.ReadFile(testenv.Fixture(t, name))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// ufeats is the UFeats value of a FEATS string as conll18_ud_eval.py
// computes it: the universal features, sorted.
func ufeats(feats string) string { return eval.UniversalFeats(feats) }

// scores are the CoNLL 2018 Lemmas and UFeats accuracies (percent) of a
// lemmatizer and a FEATS tagger on gold-tagged sentences, and the
// accuracy on full FEATS strings.
type scores struct {
	words                 int
	lemmas, ufeats, feats float64
}

func (s scores) String() string {
	return fmt.Sprintf("%d words: Lemmas %.2f, UFeats %.2f, FEATS %.2f", s.words, s.lemmas, s.ufeats, s.feats)
}

func evaluate(l *Lemmatizer, f *FeatsTagger, sents []*conllu.Sentence) scores {
	return evaluatePredicted(l, f, sents, sents)
}

// evaluatePredicted scores the lemmas and FEATS predicted from in against
// gold (the same sentences, with other tags). The FEATS tagger is given
// the predicted lemmas, as in a model's pipeline.
func evaluatePredicted(l *Lemmatizer, f *FeatsTagger, in, gold []*conllu.Sentence) scores {
	var n, lem, uf, fe int
	var lemmas, feats []string
	var ws []conllu.Word
	for si, s := range gold {
		lemmas = l.Lemmas(in[si].Words, lemmas)
		ws = withLemmas(ws, in[si].Words, lemmas)
		feats = f.Feats(ws, feats)
		for i, w := range s.Words {
			n++
			// conll18_ud_eval.py counts a gold lemma "_" as matched.
			if w.Lemma == "_" || lemmas[i] == w.Lemma {
				lem++
			}
			if ufeats(feats[i]) == ufeats(w.Feats) {
				uf++
			}
			if feats[i] == w.Feats {
				fe++
			}
		}
	}
	pc := func(k int) float64 { return 100 * float64(k) / float64(n) }
	return scores{n, pc(lem), pc(uf), pc(fe)}
}

// withLemmas returns a copy of ws (in buf) with the given lemmas.
func withLemmas(buf, ws []conllu.Word, lemmas []string) []conllu.Word {
	buf = append(buf[:0], ws...)
	for i := range buf {
		buf[i].Lemma = lemmas[i]
	}
	return buf
}

func trainBoth(t testing.TB, train []*conllu.Sentence) (*Lemmatizer, *FeatsTagger) {
	t.Helper()
	l, err := TrainLemmatizer(train, Options{})
	if err != nil {
		t.Fatal(err)
	}
	f, err := TrainFeatsTagger(train, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return l, f
}

func TestDeriveApply(t *testing.T) {
	for _, c := range []struct{ form, lemma, rule string }{
		{"running", "run", "f\t\t\tning\t"},
		{"The", "the", "l\t\t\t\t"},
		{"Running", "run", "l\t\t\tning\t"},
		{"went", "go", "f\t\t\twent\tgo"},
		{"children", "child", "f\t\t\tren\t"},
		{"legnagyobb", "nagy", "f\tleg\t\tobb\t"},
		{"evlerinden", "ev", "f\t\t\tlerinden\t"},
		{"İstanbul'da", "İstanbul", "f\t\t\t'da\t"},
		{"USA", "USA", "f\t\t\t\t"},
		{"usa", "USA", "u\t\t\t\t"},
		{"PARIS", "Paris", "t\t\t\t\t"},
	} {
		r := Derive(c.form, c.lemma)
		if r.String() != c.rule {
			t.Errorf("Derive(%q, %q) = %q, want %q", c.form, c.lemma, r, c.rule)
		}
		if got, ok := r.Apply(c.form); !ok || got != c.lemma {
			t.Errorf("%q.Apply(%q) = %q, %v; want %q", r, c.form, got, ok, c.lemma)
		}
		p, err := ParseRule(r.String())
		if err != nil || p != r {
			t.Errorf("ParseRule(%q) = %+v, %v", r, p, err)
		}
	}
	if _, ok := Derive("running", "run").Apply("walked"); ok {
		t.Error("a rule stripping \"ning\" applied to \"walked\"")
	}
	for _, bad := range []string{"", "f\t\t\t", "x\t\t\t\t", "ff\t\t\t\t"} {
		if _, err := ParseRule(bad); err == nil {
			t.Errorf("ParseRule(%q) gave no error", bad)
		}
	}
}

// TestDeriveFixture checks that the rule derived from every (form, lemma)
// of the fixture gives the lemma back.
func TestDeriveFixture(t *testing.T) {
	for _, s := range readFixture(t, "en_ewt-train-150.conllu") {
		for _, w := range s.Words {
			if got, ok := Derive(w.Form, w.Lemma).Apply(w.Form); !ok || got != w.Lemma {
				t.Errorf("%q -> %q: the derived rule gives %q, %v", w.Form, w.Lemma, got, ok)
			}
		}
	}
}

// baselines are the Lemmas accuracy of the lowercased form and the FEATS
// accuracy of the most frequent FEATS of each UPOS in train.
func baselines(train, dev []*conllu.Sentence) (lemma, feats float64) {
	byUPOS := map[string]map[string]int{}
	for _, s := range train {
		for _, w := range s.Words {
			if byUPOS[w.UPOS] == nil {
				byUPOS[w.UPOS] = map[string]int{}
			}
			byUPOS[w.UPOS][w.Feats]++
		}
	}
	var n, l, f int
	for _, s := range dev {
		for _, w := range s.Words {
			n++
			if strings.ToLower(w.Form) == w.Lemma {
				l++
			}
			best, bc := "_", 0
			for v, c := range byUPOS[w.UPOS] {
				if c > bc || c == bc && v < best {
					best, bc = v, c
				}
			}
			if best == w.Feats {
				f++
			}
		}
	}
	return 100 * float64(l) / float64(n), 100 * float64(f) / float64(n)
}

func TestTrainFixture(t *testing.T) {
	train := readFixture(t, "en_ewt-train-150.conllu")
	dev := readFixture(t, "en_ewt-dev-40.conllu")
	l, f := trainBoth(t, train)
	got := evaluate(l, f, dev)
	bl, bf := baselines(train, dev)
	t.Logf("dev: %v; baselines: Lemmas %.2f, FEATS %.2f", got, bl, bf)
	if got.lemmas <= bl+2 {
		t.Errorf("Lemmas %.2f, not above the lowercased form's %.2f", got.lemmas, bl)
	}
	if got.feats <= bf+2 {
		t.Errorf("FEATS %.2f, not above the most frequent FEATS by UPOS's %.2f", got.feats, bf)
	}
	// The training data itself is mostly memorised.
	if tr := evaluate(l, f, train); tr.lemmas < 99 || tr.feats < 97 {
		t.Errorf("on its training data: %v", tr)
	}
}

func predictAll(l *Lemmatizer, f *FeatsTagger, sents []*conllu.Sentence) []string {
	var out []string
	for _, s := range sents {
		out = append(out, l.Lemmas(s.Words, nil)...)
		out = append(out, f.Feats(s.Words, nil)...)
	}
	return out
}

func TestDataRoundTrip(t *testing.T) {
	train := readFixture(t, "en_ewt-train-150.conllu")
	dev := readFixture(t, "en_ewt-dev-40.conllu")
	l, f := trainBoth(t, train)
	want := predictAll(l, f, dev)

	var d [2]Data
	for i, src := range []*Data{l.Data(), f.Data()} {
		b, err := msgpack.Marshal(src)
		if err != nil {
			t.Fatal(err)
		}
		if err := msgpack.Unmarshal(b, &d[i]); err != nil {
			t.Fatal(err)
		}
	}
	l2, err := LemmatizerFromData(&d[0])
	if err != nil {
		t.Fatal(err)
	}
	f2, err := FeatsTaggerFromData(&d[1])
	if err != nil {
		t.Fatal(err)
	}
	if got := predictAll(l2, f2, dev); !slices.Equal(got, want) {
		t.Error("the decoded lemmatizer and FEATS tagger predict otherwise")
	}
	if _, err := FeatsTaggerFromData(&d[0]); err == nil {
		t.Error("a lemmatizer's data decoded as a FEATS tagger")
	}
}

func TestFromDataErrors(t *testing.T) {
	l, err := TrainLemmatizer(readFixture(t, "en_ewt-dev-40.conllu"), Options{Epochs: 1})
	if err != nil {
		t.Fatal(err)
	}
	for name, spoil := range map[string]func(d *Data){
		"kind":           func(d *Data) { d.Kind = "feats" },
		"no classes":     func(d *Data) { d.Classes = nil },
		"bad rule":       func(d *Data) { d.Classes[0] = "rule" },
		"class range":    func(d *Data) { d.Cands[0] = uint32(len(d.Classes)) },
		"ends":           func(d *Data) { d.Ends = d.Ends[1:] },
		"ends order":     func(d *Data) { d.Ends[0] = uint32(len(d.Cands) + 1) },
		"empty key":      func(d *Data) { d.Ends[1] = d.Ends[0] },
		"weights":        func(d *Data) { d.Weights.Layout = "" },
		"rank":           func(d *Data) { d.Rank = d.Weights },
		"weight classes": func(d *Data) { d.Classes = append(d.Classes, "f\t\t\t\t") },
	} {
		d := l.Data()
		spoil(d)
		if _, err := LemmatizerFromData(d); err == nil {
			t.Errorf("%s: no error", name)
		} else {
			t.Logf("%s: %v", name, err)
		}
	}
	f, err := TrainFeatsTagger(readFixture(t, "en_ewt-dev-40.conllu"), Options{Epochs: 1})
	if err != nil {
		t.Fatal(err)
	}
	for name, spoil := range map[string]func(d *Data){
		"part order":     func(d *Data) { d.Parts[0], d.Parts[1] = d.Parts[1], d.Parts[0] },
		"missing part":   func(d *Data) { d.Parts = d.Parts[:len(d.Parts)-1] },
		"part weights":   func(d *Data) { d.PartWeights = d.Rank },
		"parts in lemma": func(d *Data) { d.Kind = "lemma" },
	} {
		d := f.Data()
		spoil(d)
		var err error
		if d.Kind == "lemma" {
			_, err = LemmatizerFromData(d)
		} else {
			_, err = FeatsTaggerFromData(d)
		}
		if err == nil {
			t.Errorf("%s: no error", name)
		} else {
			t.Logf("%s: %v", name, err)
		}
	}
	if _, err := LemmatizerFromData(nil); err == nil {
		t.Error("nil: no error")
	}
	if _, err := TrainFeatsTagger([]*conllu.Sentence{{Words: []conllu.Word{{ID: 1, Form: "a"}}}}, Options{}); err == nil {
		t.Error("training without FEATS: no error")
	}
}

// TestConcurrent annotates from several goroutines at once (run with
// -race): the results must equal a sequential run.
func TestConcurrent(t *testing.T) {
	train := readFixture(t, "en_ewt-train-150.conllu")
	dev := readFixture(t, "en_ewt-dev-40.conllu")
	l, f := trainBoth(t, train)
	want := predictAll(l, f, dev)
	var wg sync.WaitGroup
	errs := make(chan string, 4)
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if got := predictAll(l, f, dev); !slices.Equal(got, want) {
				errs <- "a concurrent run predicted otherwise"
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// TestDeterministic trains twice on the same data: the models must be
// identical.
func TestDeterministic(t *testing.T) {
	train := readFixture(t, "en_ewt-train-150.conllu")
	l1, f1 := trainBoth(t, train)
	l2, f2 := trainBoth(t, train)
	if !reflect.DeepEqual(l1.Data(), l2.Data()) || !reflect.DeepEqual(f1.Data(), f2.Data()) {
		t.Error("two trainings on the same data gave different models")
	}
}

// sentence returns a sentence of words "form/UPOS/lemma/FEATS".
func sentence(words ...string) *conllu.Sentence {
	s := &conllu.Sentence{}
	for i, w := range words {
		f := strings.Split(w, "/")
		s.Words = append(s.Words, conllu.Word{ID: i + 1, Form: f[0], UPOS: f[1], XPOS: "_", Lemma: f[2], Feats: f[3], Head: 0, Deprel: "dep"})
	}
	return s
}

// TestLowerTwin checks that the candidates of an unknown capitalized word
// include the lowercase lemma of the rule learnt from lowercase forms: no
// capitalized training form ends in "ed", so only the Lower twin of the
// KeepCase rule stripping "ed" lowercases "Played".
func TestLowerTwin(t *testing.T) {
	var train []*conllu.Sentence
	for _, v := range []string{"walk", "talk", "jump", "laugh"} {
		train = append(train,
			sentence("they/PRON/they/_", v+"ed/VERB/"+v+"/_", "./PUNCT/./_"),
			sentence(strings.ToUpper(v[:1])+v[1:]+"s/VERB/"+v+"/_", "on/ADP/on/_", "./PUNCT/./_"))
	}
	l, err := TrainLemmatizer(train, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, form := range []string{"Played", "played"} {
		s := sentence(form+"/VERB/_/_", "on/ADP/_/_")
		var sc scratch
		sc.ws = analyze(s.Words, nil, &sc.offs, &sc.lowers, noLemma)
		cands, lower, known := l.c.candidates(&s.Words[0], 0, &sc, nil)
		var lemmas []string
		for _, id := range cands {
			if lm, ok := l.c.rules[id].Apply(form); ok && !lower && !known {
				lemmas = append(lemmas, lm)
			}
		}
		if !slices.Contains(lemmas, "play") {
			t.Errorf("%s: the candidate lemmas %q lack \"play\"", form, lemmas)
		}
		if form == "played" && len(lemmas) != 1 {
			t.Errorf("%s: candidate lemmas %q, want one (twins are for capitalized forms)", form, lemmas)
		}
	}
}

// TestFeatsUseLemma checks that the FEATS tagger reads the LEMMA column:
// the same unknown form gets the FEATS that follow what it adds to its
// lemma, which the form alone cannot tell.
func TestFeatsUseLemma(t *testing.T) {
	var train []*conllu.Sentence
	// "-ran" is a plural ending after a stem, but part of the stem of
	// nouns whose lemma ends in "ran".
	for i, st := range []string{"ba", "ke", "lo", "mu", "pi", "su", "te", "vo"} {
		lemma, feats := st, "Number=Plur"
		if i%2 == 1 {
			lemma, feats = st+"ran", "Number=Sing"
		}
		train = append(train, sentence(st+"ran/NOUN/"+lemma+"/"+feats, "x/PUNCT/x/_"))
	}
	f, err := TrainFeatsTagger(train, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for lemma, want := range map[string]string{"go": "Number=Plur", "goran": "Number=Sing"} {
		got := f.Feats(sentence("goran/NOUN/"+lemma+"/_", "x/PUNCT/x/_").Words, nil)
		if got[0] != want {
			t.Errorf("FEATS of goran, lemma %s: %q, want %q", lemma, got[0], want)
		}
	}
}

// TestFeatsUseEndingPrefix checks that the FEATS tagger reads the first
// runes of the ending after the lemma: the unknown "gelmeyecek" and
// "gelsene" (lemma "gel", endings seen neither whole nor by their ends)
// get the polarity of the training endings that start as theirs do
// (without these features both get the same); and that a FEATS tagger
// whose weights do not name the templates (trained before them) does not
// compute them.
func TestFeatsUseEndingPrefix(t *testing.T) {
	var train []*conllu.Sentence
	for i, st := range []string{"ba", "ke", "lo", "mu", "pi", "su", "te", "vo", "za"} {
		train = append(train,
			sentence(st+"dı/VERB/"+st+"/Polarity=Pos", "x/PUNCT/x/_"),
			sentence(st+"sın/VERB/"+st+"/Polarity=Pos", "x/PUNCT/x/_"))
		if i%3 == 0 {
			train = append(train, sentence(st+"medi/VERB/"+st+"/Polarity=Neg", "x/PUNCT/x/_"),
				sentence(st+"mesin/VERB/"+st+"/Polarity=Neg", "x/PUNCT/x/_"))
		}
	}
	f, err := TrainFeatsTagger(train, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for form, want := range map[string]string{"gelmeyecek": "Polarity=Neg", "gelsene": "Polarity=Pos"} {
		if got := f.Feats(sentence(form+"/VERB/gel/_", "x/PUNCT/x/_").Words, nil); got[0] != want {
			t.Errorf("FEATS of %s: %q, want %q", form, got[0], want)
		}
	}
	if h := endPrefixes("meyecek"); h != [3]uint64{hs("m") | 1, hs("me") | 1, hs("mey") | 1} {
		t.Errorf("endPrefixes(meyecek) = %x", h)
	}
	if h := endPrefixes("ı"); h != [3]uint64{hs("ı") | 1, 0, 0} {
		t.Errorf("endPrefixes(ı) = %x", h)
	}
	d := f.Data()
	if f2, err := FeatsTaggerFromData(d); err != nil || !f2.c.endPrefix {
		t.Fatalf("decoded: %v, ending prefixes %v", err, err == nil && f2.c.endPrefix)
	}
	d.Weights.Templates = slices.DeleteFunc(d.Weights.Templates, func(s string) bool { return s == endPrefixFirst })
	if f2, err := FeatsTaggerFromData(d); err != nil || f2.c.endPrefix {
		t.Errorf("decoded without the template names: %v, ending prefixes %v", err, err == nil && f2.c.endPrefix)
	}
}

// TestCandidateShape checks the place and ending features of lemma
// candidates: always four, the ending hashed by characters, not bytes;
// and that a lemmatizer whose rank weights do not name them (trained
// before them) neither computes them nor gains their names when saved.
func TestCandidateShape(t *testing.T) {
	for _, lemma := range []string{"", "a", "ab", "ışık", "walking"} {
		if n := len(appendShape(nil, []byte(lemma), 0x80, 1, 7)); n != 4 {
			t.Errorf("appendShape(%q): %d features, want 4", lemma, n)
		}
	}
	end := func(lemma string) []uint64 { return appendShape(nil, []byte(lemma), 0x80, 1, 7)[1:] }
	if a, b := end("walking"), end("talking"); !slices.Equal(a, b) {
		t.Errorf("walking and talking share their last four characters, not their ending features")
	}
	if a, b := end("king"), end("kong"); a[0] != b[0] || a[1] == b[1] {
		t.Errorf("king and kong: ending features %x and %x, want the last two alike and the last three apart", a, b)
	}
	if got, want := end("ışık")[0], f2(rLemEnd, hashBytes(fnvOffset, []byte("ık")), 7); got != want {
		t.Errorf("the last two characters of ışık: %x, want the hash of ık, %x", got, want)
	}
	if a, b := appendShape(nil, nil, 0x80, 1, 7)[0], appendShape(nil, nil, 0x81, 1, 7)[0]; a == b {
		t.Errorf("the place feature does not depend on the place")
	}

	var train []*conllu.Sentence
	for _, w := range []string{"walked/VERB/walk", "talked/VERB/talk", "rotated/VERB/rotate", "baked/VERB/bake"} {
		train = append(train, sentence(w+"/_", "x/PUNCT/x/_"))
	}
	l, err := TrainLemmatizer(train, Options{})
	if err != nil {
		t.Fatal(err)
	}
	d := l.Data()
	if !l.c.candShape || !slices.Contains(d.Rank.Templates, candShapeFirst) {
		t.Fatalf("a lemmatizer trained now: shape features %v, rank templates %q", l.c.candShape, d.Rank.Templates)
	}
	n, err := TrainLemmatizer(train, Options{NoShape: true})
	if err != nil {
		t.Fatal(err)
	}
	if n.c.candShape || slices.Contains(n.Data().Rank.Templates, candShapeFirst) {
		t.Errorf("trained with NoShape: rank templates %q", n.Data().Rank.Templates)
	}
	d.Rank.Templates = d.Rank.Templates[:slices.Index(d.Rank.Templates, candShapeFirst)]
	old, err := LemmatizerFromData(d)
	if err != nil {
		t.Fatal(err)
	}
	if old.c.candShape {
		t.Errorf("decoded without the template names, the lemmatizer computes the shape features")
	}
	if got := old.Data().Rank.Templates; !slices.Equal(got, d.Rank.Templates) {
		t.Errorf("saved again: rank templates %q, want %q as read", got, d.Rank.Templates)
	}
}

// TestLemmaNeverUnderscore: a rule that would leave the lemma "_" (which
// CoNLL-U reads as no lemma) gives the form instead; the form "_" keeps
// the lemma "_".
func TestLemmaNeverUnderscore(t *testing.T) {
	var train []*conllu.Sentence
	for _, v := range []string{"walk", "talk", "jump", "laugh"} {
		train = append(train, sentence("she/PRON/she/_", v+"s/VERB/"+v+"/_", "./PUNCT/./_"))
	}
	l, err := TrainLemmatizer(train, Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := sentence("she/PRON/_/_", "hops/VERB/_/_", "_s/VERB/_/_", "_/VERB/_/_", "__s/VERB/_/_")
	got := l.Lemmas(s.Words, nil)
	if want := []string{"she", "hop", "_s", "_", "__"}; !slices.Equal(got, want) {
		t.Fatalf("lemmas %q, want %q", got, want)
	}
}
