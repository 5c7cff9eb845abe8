package parser_test

import (
	"strings"
	"testing"

	"github.com/transparse/transparse/internal/testenv"
	"github.com/transparse/transparse/parser/conllu"
)

// TestParseAllocatesNothing: once the per-call scratch has grown, a pass
// of the bundled model over the committed EWT dev slice allocates
// nothing, from gold tags and from plain tokens (tags, LEMMA and FEATS
// predicted; a lemma neither in its form nor among the training lemmas
// is kept the first time it is predicted). Sentences with long and
// non-ASCII words are added, whose lowercasing once allocated.
func TestParseAllocatesNothing(t *testing.T) {
	if testenv.Race {
		t.Skip("the race detector allocates")
	}
	m, sents := bundledSlice(t)
	long := []string{"Übergrößenträgerinnenvereinigungsvorsitzendenwahlergebnisse", "ÇAĞDAŞLAŞTIRAMADIKLARIMIZDANMIŞSINIZCASINA",
		"https://example.com/" + strings.Repeat("ÄÖÜ", 20), "Zoë", "naïvely"}
	var extra conllu.Sentence
	for i, f := range long {
		extra.Words = append(extra.Words, conllu.Word{ID: i + 1, Form: f, Lemma: "_", UPOS: "_", XPOS: "_", Feats: "_", Head: -1, Deprel: "_", Deps: "_", Misc: "_"})
	}
	sents = append(sents, &extra)
	for _, plain := range []bool{false, true} {
		words := make([][]conllu.Word, len(sents))
		pass := func() {
			for k, s := range sents {
				words[k] = append(words[k][:0], s.Words...)
				if plain {
					for i := range words[k] {
						w := &words[k][i]
						w.Lemma, w.UPOS, w.XPOS, w.Feats = "_", "_", "_", "_"
					}
				}
				if _, err := m.Parse(words[k], nil); err != nil {
					t.Fatal(err)
				}
			}
		}
		pass()
		if n := testing.AllocsPerRun(3, pass); n != 0 {
			t.Errorf("plain %v: %v allocations per pass", plain, n)
		}
	}
}
