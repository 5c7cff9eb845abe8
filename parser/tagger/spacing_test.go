package tagger

import (
	"slices"
	"strings"
	"testing"

	"github.com/transparse/transparse/internal/testenv"
	"github.com/transparse/transparse/modelfmt"
	"github.com/transparse/transparse/parser/conllu"
)

// spacedWords makes words of the tokens of text, split at spaces, with
// "|" marking a token boundary without a space ("well|-|known": three
// tokens, the first two with SpaceAfter=No).
func spacedWords(text string) []conllu.Word {
	var ws []conllu.Word
	for _, chunk := range strings.Fields(text) {
		parts := strings.Split(chunk, "|")
		for j, p := range parts {
			misc := "_"
			if j < len(parts)-1 {
				misc = "SpaceAfter=No"
			}
			ws = append(ws, conllu.Word{ID: len(ws) + 1, Form: p, Misc: misc})
		}
	}
	return ws
}

// Punctuation gets its spacing, 1 + 2×(space before) + (space after), the
// sentence start counting as a space; words with letters or digits get 0,
// and so does every word of a sentence without SpaceAfter=No (tokens
// without their text) or with its spacing hidden.
func TestSetSpacing(t *testing.T) {
	spaces := func(ws []conllu.Word, hide bool) []uint64 {
		var info []wordInfo
		var keys []uint64
		prepare(&info, &keys, nil, ws)
		setSpacing(info, ws, hide)
		out := make([]uint64, len(ws))
		for i := range ws {
			out[i] = info[i+2].space
		}
		return out
	}
	ws := spacedWords(`" a well|-|known fact - and|, 42|% more|.`)
	//                   "  a well -  known fact - and ,  42 % more .
	want := []uint64{1 + 2 + 1, 0, 0, 1 + 0 + 0, 0, 0, 1 + 2 + 1, 0, 1 + 0 + 1, 0, 1 + 0 + 1, 0, 1 + 0 + 1}
	if got := spaces(ws, false); !slices.Equal(got, want) {
		t.Errorf("spacing %v, want %v", got, want)
	}
	zero := make([]uint64, len(ws))
	if got := spaces(ws, true); !slices.Equal(got, zero) {
		t.Errorf("hidden spacing %v, want all 0", got)
	}
	for i := range ws {
		ws[i].Misc = "_"
	}
	if got := spaces(ws, false); !slices.Equal(got, zero) {
		t.Errorf("spacing of a sentence without SpaceAfter=No %v, want all 0", got)
	}
}

// A tagger that reads spacing has feature version 5 and the param
// tagger.spacing = 1, and decodes to a tagger that reads it and tags as
// the trained one, beside a UPOS tagger of version 4 in the same
// document; the param where it does not belong, or missing, is refused.
func TestSpacingStored(t *testing.T) {
	train, err := conllu.ReadFile(testenv.Fixture(t, "en_ewt-train-150.conllu"))
	if err != nil {
		t.Fatal(err)
	}
	dev, err := conllu.ReadFile(testenv.Fixture(t, "en_ewt-dev-40.conllu"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := ReadClusters(strings.NewReader("00\tthe\n01\ta\n100\tdog\n"))
	if err != nil {
		t.Fatal(err)
	}
	upos, err := Train(train, dev, Options{Column: UPOS, Epochs: 2, Seed: 1, Clusters: c})
	if err != nil {
		t.Fatal(err)
	}
	xpos, err := Train(train, dev, Options{Column: XPOS, Epochs: 2, Seed: 1, Clusters: c, Spacing: true})
	if err != nil {
		t.Fatal(err)
	}
	cs := Classifiers(upos, xpos)
	u, x := findClassifier(cs, ClassifierName(UPOS)), findClassifier(cs, ClassifierName(XPOS))
	if u.Params["tagger.feature_version"] != featureVersionClusters || x.Params["tagger.feature_version"] != FeatureVersion || x.Params[spacingParam] != 1 {
		t.Fatalf("versions %d and %d, spacing param %d", u.Params["tagger.feature_version"], x.Params["tagger.feature_version"], x.Params[spacingParam])
	}
	if _, ok := u.Params[spacingParam]; ok {
		t.Fatal("the UPOS tagger, which does not read spacing, has the spacing param")
	}
	wantX := spacedTags(xpos, dev)
	u2, x2, errU, errX := PairFromDocument(cs)
	if errU != nil || errX != nil {
		t.Fatal(errU, errX)
	}
	x3, err := FromDocument(cs, XPOS)
	if err != nil {
		t.Fatal(err)
	}
	for how, tg := range map[string]*Tagger{"PairFromDocument": x2, "FromDocument": x3} {
		if !tg.spacing || tg.clusters == nil {
			t.Fatalf("%s: spacing %v, clusters %v", how, tg.spacing, tg.clusters != nil)
		}
		if got := spacedTags(tg, dev); got != wantX {
			t.Errorf("%s: XPOS tags differ from the trained tagger's", how)
		}
	}
	if u2.spacing {
		t.Error("the decoded UPOS tagger reads spacing")
	}

	for _, tc := range []struct {
		name string
		mut  func(cs []modelfmt.Classifier)
	}{
		{"param missing", func(cs []modelfmt.Classifier) { delete(cs[1].Params, spacingParam) }},
		{"param 2", func(cs []modelfmt.Classifier) { cs[1].Params[spacingParam] = 2 }},
		{"param in version 4", func(cs []modelfmt.Classifier) { cs[0].Params[spacingParam] = 1 }},
	} {
		c := make([]modelfmt.Classifier, len(cs))
		for i := range cs {
			c[i] = cloneClassifier(cs[i])
		}
		tc.mut(c)
		_, _, errU, errX := PairFromDocument(c)
		if errU == nil && errX == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
}

// spacedTags tags copies of sents, MISC kept, and returns the tags
// joined.
func spacedTags(tg *Tagger, sents []*conllu.Sentence) string {
	var out []string
	for _, s := range sents {
		ws := append([]conllu.Word(nil), s.Words...)
		tg.Tag(ws)
		for _, w := range ws {
			out = append(out, *columnOf(&w, tg.column))
		}
	}
	return strings.Join(out, " ")
}

// The bundled XPOS tagger reads spacing, and on EWT dev it tags more
// punctuation right with the text's spacing than from the tokens alone
// (hyphens joining words are HYPH, spaced dashes mostly ",", an opening
// quote is spaced before it): at least minSpacingGain more words.
func TestSpacingHelpsPunctuation(t *testing.T) {
	tg := bundledTagger(t, XPOS)
	if !tg.spacing {
		t.Fatal("the bundled XPOS tagger does not read spacing")
	}
	right := func(keepMisc bool) (n int) {
		for _, s := range readEWT(t, "dev") {
			ws := append([]conllu.Word(nil), s.Words...)
			for i := range ws {
				ws[i].XPOS = ""
				if !keepMisc {
					ws[i].Misc = "_"
				}
			}
			tg.Tag(ws)
			for i, w := range ws {
				if analyze(w.Form).flags&flagPunct != 0 && w.XPOS == s.Words[i].XPOS {
					n++
				}
			}
		}
		return n
	}
	without, with := right(false), right(true)
	t.Logf("EWT dev punctuation tagged right: %d from the tokens alone, %d with spacing", without, with)
	if with < without+minSpacingGain {
		t.Errorf("spacing gains %d words, want at least %d", with-without, minSpacingGain)
	}
}

// minSpacingGain is the least gain TestSpacingHelpsPunctuation accepts.
const minSpacingGain = 10
