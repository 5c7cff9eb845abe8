package core

import (
	"testing"

	"github.com/transparse/transparse/internal/testenv"
	"github.com/transparse/transparse/parser/conllu"
)

// benchModel is the model used by the benchmarks: $TRANSPARSE_MODEL or the
// bundled one.
func benchModel(b *testing.B) *Model {
	m, err := load(testenv.ModelPath())
	if err != nil {
		b.Skipf("no model: %v", err)
	}
	return m
}

func benchSentences(b *testing.B, strip bool) ([]*conllu.Sentence, int) {
	sents, err := conllu.ReadFile(testenv.UDFile(b, "en_ewt-ud-test.conllu"))
	if err != nil {
		b.Fatal(err)
	}
	n := 0
	for _, s := range sents {
		if strip {
			s.StripTags()
		}
		n += len(s.Words)
	}
	return sents, n
}

func benchParse(b *testing.B, strip bool) {
	m := benchModel(b)
	sents, n := benchSentences(b, strip)
	words := make([][]conllu.Word, len(sents))
	for k, s := range sents {
		words[k] = make([]conllu.Word, len(s.Words))
	}
	// One warm-up pass grows the pooled per-call scratch; after it a parse
	// allocates nothing (allocs/op counts a whole pass over the test set).
	for k, s := range sents {
		copy(words[k], s.Words)
		if err := m.Parse(words[k]); err != nil {
			b.Fatal(err)
		}
	}
	cpu := testenv.Bench(b, func(int) {
		for k, s := range sents {
			copy(words[k], s.Words)
			if err := m.Parse(words[k]); err != nil {
				b.Fatal(err)
			}
		}
	})
	testenv.ReportWords(b, n, cpu)
}

// BenchmarkParseGoldTags parses EWT test with its gold UPOS/XPOS/FEATS/LEMMA.
func BenchmarkParseGoldTags(b *testing.B) { benchParse(b, false) }

// BenchmarkParsePlainTokens parses EWT test from forms only (tagging included).
func BenchmarkParsePlainTokens(b *testing.B) { benchParse(b, true) }

// BenchmarkMorph lemmatizes and tags FEATS for EWT test with the bundled
// model's lemmatizer and FEATS tagger, from the gold FORM, UPOS and XPOS
// (the FEATS tagger reading the predicted lemmas), on one thread:
// words/s on the wall clock and cpu-ns/word of the thread.
func BenchmarkMorph(b *testing.B) {
	tg := benchModel(b).Taggers()
	if tg.Lemmas == nil || tg.Feats == nil {
		b.Skip("the model has no lemmatizer or FEATS tagger")
	}
	sents, n := benchSentences(b, false)
	words := make([][]conllu.Word, len(sents))
	for k, s := range sents {
		words[k] = append([]conllu.Word(nil), s.Words...)
	}
	var lemmas, feats []string
	run := func() {
		for _, ws := range words {
			lemmas = tg.Lemmas.Lemmas(ws, lemmas)
			for i := range ws {
				ws[i].Lemma = lemmas[i]
			}
			feats = tg.Feats.Feats(ws, feats)
		}
	}
	run() // grows the pooled scratch
	testenv.ReportWords(b, n, testenv.Bench(b, func(int) { run() }))
}
