package segment

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/transparse/transparse/internal/testenv"
	"github.com/transparse/transparse/parser/conllu"
)

// BenchmarkSegment segments the raw text of EWT dev with a model trained
// on EWT train (the committed slices when the treebanks are missing) and
// reports words/s on one thread.
//
//	go test -run '^$' -bench Segment ./parser/segment/
func BenchmarkSegment(b *testing.B) {
	dir := testenv.UDDir()
	read := func(name, fixture string) []*conllu.Sentence {
		path := filepath.Join(dir, name)
		if _, err := os.Stat(path); err != nil {
			path = testenv.Fixture(b, fixture)
		}
		s, err := conllu.ReadFile(path)
		if err != nil {
			b.Fatal(err)
		}
		return s
	}
	dev := read("en_ewt-ud-dev.conllu", "en_ewt-dev-slice.conllu")
	m, err := Train(read("en_ewt-ud-train.conllu", "en_ewt-train-150.conllu"), dev, Options{})
	if err != nil {
		b.Fatal(err)
	}
	text := []byte(UDText(dev))
	words := 0
	count := func(s *Sentence) error {
		for _, t := range s.Tokens {
			words += max(1, len(t.Words))
		}
		return nil
	}
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if err := m.Each(text, count); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(words)/b.Elapsed().Seconds(), "words/s")
}
