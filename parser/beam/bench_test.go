package beam_test

import (
	"fmt"
	"runtime"
	"slices"
	"testing"

	"github.com/transparse/transparse/parser/internal/core"

	"github.com/transparse/transparse/internal/testenv"
	"github.com/transparse/transparse/parser/conllu"
)

// BenchmarkParse parses EWT test with gold tags on one thread: the greedy
// parser as it ships (parser.Model.Parse, fast classifier in front), the
// same without its fast classifier, and beam search with the bundled
// gold-tag classifier at K = 2, 4, 8, 16 (core.Model.ParseWithOptions;
// K = 1 there is the greedy parser), all in one run so that their words/s
// compare. With $TRANSPARSE_MODEL naming a model trained with --beam, the
// beam decodes with that model's globally trained classifier.
func BenchmarkParse(b *testing.B) {
	m := bundled(b)
	sents, err := conllu.ReadFile(testenv.UDFile(b, "en_ewt-ud-test.conllu"))
	if err != nil {
		b.Fatal(err)
	}
	v := m.Variant(core.Gold)
	v.Fast = nil
	slow := core.Assemble(core.Parts{Card: m.Card(), Classes: m.Classes(), Gold: v, PseudoProjective: m.PseudoProjective()})
	run := func(b *testing.B, parse func([]conllu.Word) error) {
		words := make([][]conllu.Word, len(sents))
		n := 0
		for k, s := range sents {
			words[k] = slices.Clone(s.Words)
			n += len(s.Words)
			if err := parse(words[k]); err != nil { // warm-up
				b.Fatal(err)
			}
		}
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		b.ResetTimer()
		for range b.N {
			for k, s := range sents {
				copy(words[k], s.Words)
				if err := parse(words[k]); err != nil {
					b.Fatal(err)
				}
			}
		}
		b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "words/s")
	}
	b.Run("greedy", func(b *testing.B) { run(b, m.Parse) })
	b.Run("greedy-no-fast", func(b *testing.B) { run(b, func(w []conllu.Word) error { return slow.ParseWith(core.Gold, w) }) })
	for _, k := range []int{2, 4, 8, 16} {
		opt := core.Options{Beam: k, Temperature: temperature}
		var r core.Result
		b.Run(fmt.Sprintf("beam-%d", k), func(b *testing.B) {
			run(b, func(w []conllu.Word) error { return m.ParseWithOptions(w, opt, &r) })
		})
	}
}
