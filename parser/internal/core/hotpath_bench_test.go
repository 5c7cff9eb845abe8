package core

import (
	"bytes"
	"io"
	"os"
	"testing"

	"github.com/transparse/transparse/internal/testenv"
	"github.com/transparse/transparse/parser/conllu"
	"github.com/transparse/transparse/parser/feature"
	"github.com/transparse/transparse/parser/transition"
)

// goldRuns returns the EWT test sentences with their arc-eager static-oracle
// sequences (projective trees only).
func goldRuns(b *testing.B, m *Model) ([]*conllu.Sentence, [][]transition.Transition, int) {
	sents, _ := benchSentences(b, false)
	c := m.classes
	index := map[string]int32{}
	for i, d := range c.Deprels {
		index[d] = int32(i)
	}
	var keep []*conllu.Sentence
	var seqs [][]transition.Transition
	var st transition.State
	trans := 0
	for _, s := range sents {
		head := []int32{transition.None}
		label := []int32{transition.None}
		for _, w := range s.Words {
			head = append(head, int32(w.Head))
			label = append(label, index[w.Deprel])
		}
		seq, err := transition.Derive(c.Sys, &st, transition.NewGold(head, label))
		if err != nil {
			continue
		}
		keep = append(keep, s)
		seqs = append(seqs, seq)
		trans += len(seq)
	}
	return keep, seqs, trans
}

// BenchmarkApply replays the arc-eager oracle sequences of EWT test:
// Init, Legal and Apply only (transitions/s).
func BenchmarkApply(b *testing.B) {
	m := benchModel(b)
	sents, seqs, trans := goldRuns(b, m)
	c := m.classes
	var st transition.State
	pass := func() {
		for k, s := range sents {
			c.Sys.Init(&st, len(s.Words))
			for _, t := range seqs[k] {
				if !c.Sys.Legal(&st, t.Move) {
					b.Fatal("illegal")
				}
				transition.Step(c.Sys, &st, t)
			}
		}
	}
	pass() // the state grows to the longest sentence: steady state from here
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		pass()
	}
	b.ReportMetric(float64(trans)*float64(b.N)/b.Elapsed().Seconds(), "transitions/s")
}

// BenchmarkExtract adds feature extraction (the gold-tag model's templates)
// to BenchmarkApply: transitions/s of Extract + Apply.
func BenchmarkExtract(b *testing.B) {
	m := benchModel(b)
	sents, seqs, trans := goldRuns(b, m)
	c := m.classes
	v := &m.gold
	var st transition.State
	var w feature.Words
	var fsc feature.Scratch
	pass := func() {
		for k, s := range sents {
			feature.FillWords(&w, s.Words, true)
			c.Sys.Init(&st, len(s.Words))
			for _, t := range seqs[k] {
				v.Ext.Extract(&st, &w, &fsc)
				transition.Step(c.Sys, &st, t)
			}
		}
	}
	pass() // the scratch grows to the longest sentence: steady state from here
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		pass()
	}
	b.ReportMetric(float64(trans)*float64(b.N)/b.Elapsed().Seconds(), "transitions/s")
}

// BenchmarkTagUPOS and BenchmarkTagXPOS tag EWT test from forms (words/s).
func BenchmarkTagUPOS(b *testing.B) { benchTag(b, false) }
func BenchmarkTagXPOS(b *testing.B) { benchTag(b, true) }

func benchTag(b *testing.B, xpos bool) {
	m := benchModel(b)
	tg := m.taggers.UPOS
	if xpos {
		tg = m.taggers.XPOS
	}
	if tg == nil {
		b.Skip("no tagger")
	}
	sents, n := benchSentences(b, true)
	words := make([][]conllu.Word, len(sents))
	for k, s := range sents {
		words[k] = append([]conllu.Word(nil), s.Words...)
		tg.Tag(words[k])
	}
	cpu := testenv.Bench(b, func(int) {
		for k := range sents {
			tg.Tag(words[k])
		}
	})
	testenv.ReportWords(b, n, cpu)
}

// BenchmarkReadCoNLLU and BenchmarkWriteCoNLLU measure CoNLL-U I/O on EWT
// test (words/s).
func BenchmarkReadCoNLLU(b *testing.B) {
	data, err := os.ReadFile(testenv.UDFile(b, "en_ewt-ud-test.conllu"))
	if err != nil {
		b.Fatal(err)
	}
	_, n := benchSentences(b, false)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r := conllu.NewReader(bytes.NewReader(data), "test")
		for {
			if _, err := r.Next(); err == io.EOF {
				break
			} else if err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "words/s")
}

func BenchmarkWriteCoNLLU(b *testing.B) {
	sents, n := benchSentences(b, false)
	var buf bytes.Buffer
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		buf.Reset()
		for _, s := range sents {
			if err := conllu.Write(&buf, s); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "words/s")
}

// BenchmarkLoadBytes measures LoadBytes of the bundled model (or
// $TRANSPARSE_MODEL) from memory: snappy, msgpack, checking and building
// every classifier (ms/load; the file is read once, beforehand).
func BenchmarkLoadBytes(b *testing.B) {
	data, err := os.ReadFile(testenv.ModelPath())
	if err != nil {
		b.Skipf("no model: %v", err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := loadBytes(data); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(b.Elapsed().Seconds()*1e3/float64(b.N), "ms/load")
}

// BenchmarkLoad measures Load of the bundled model (or $TRANSPARSE_MODEL)
// from its file: reading, then everything LoadBytes does (ms/load).
func BenchmarkLoad(b *testing.B) {
	path := testenv.ModelPath()
	if _, err := os.Stat(path); err != nil {
		b.Skipf("no model: %v", err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := load(path); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(b.Elapsed().Seconds()*1e3/float64(b.N), "ms/load")
}
