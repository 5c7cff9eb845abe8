package morph

import (
	"testing"

	"github.com/transparse/transparse/internal/testenv"
	"github.com/transparse/transparse/parser/conllu"
)

// BenchmarkAnnotateEWT lemmatizes and tags FEATS for the EWT development
// set, one sentence per iteration, from gold UPOS and XPOS (the FEATS
// tagger reading the set's LEMMA column, as it reads predicted lemmas in a
// model's pipeline), with models
// trained on the EWT training set (once, outside the timing), on one
// goroutine: words/s on the wall clock and cpu-ns/word of the thread.
func BenchmarkAnnotateEWT(b *testing.B) {
	train := readUD(b, "en_ewt-ud-train.conllu")
	dev := readUD(b, "en_ewt-ud-dev.conllu")
	l, f := trainBoth(b, train)
	var lemmas, feats []string
	benchWords(b, dev, func(ws []conllu.Word) {
		lemmas = l.Lemmas(ws, lemmas)
		feats = f.Feats(ws, feats)
	})
}

// benchWords runs annotate over the words of sents, one sentence per
// iteration, on one locked thread, and reports words/s on the wall clock
// and cpu-ns/word of the thread.
func benchWords(b *testing.B, sents []*conllu.Sentence, annotate func(ws []conllu.Word)) {
	testenv.BenchWords(b, func(i int) int {
		ws := sents[i%len(sents)].Words
		annotate(ws)
		return len(ws)
	})
}

// BenchmarkFeatsEndingPrefix tags FEATS for the Turkish IMST development
// set from its gold columns, with a FEATS tagger trained on its training
// set, with the features of the ending's first runes and without (the
// same weights, those features not computed): the difference in
// cpu-ns/word is their cost per word.
func BenchmarkFeatsEndingPrefix(b *testing.B) {
	f, err := TrainFeatsTagger(readUD(b, "tr_imst-ud-train.conllu"), Options{Epochs: 1})
	if err != nil {
		b.Fatal(err)
	}
	dev := readUD(b, "tr_imst-ud-dev.conllu")
	var feats []string
	for _, on := range []bool{true, false} {
		name := map[bool]string{true: "with", false: "without"}[on]
		b.Run(name, func(b *testing.B) {
			f.c.endPrefix = on
			benchWords(b, dev, func(ws []conllu.Word) { feats = f.Feats(ws, feats) })
		})
	}
}
