package core

import (
	"testing"

	"github.com/transparse/transparse/internal/testenv"
	"github.com/transparse/transparse/parser/conllu"
)

// A sentence's parse does not depend on the sentences parsed before it
// (scratch memory is reused through a pool): parsing EWT test forwards and
// backwards gives the same trees, tags included.
func TestParseIndependentOfOrder(t *testing.T) {
	m := testModel(t)
	sents, err := conllu.ReadFile(testenv.UDFile(t, "en_ewt-ud-test.conllu"))
	if err != nil {
		t.Fatal(err)
	}
	for _, strip := range []bool{true, false} {
		parse := func(order []int) []string {
			out := make([]string, len(sents))
			for _, i := range order {
				s := *sents[i]
				s.Words = append([]conllu.Word(nil), s.Words...)
				if strip {
					s.StripTags()
				}
				if err := m.Parse(s.Words); err != nil {
					t.Fatal(err)
				}
				out[i] = conllu.Format(&s)
			}
			return out
		}
		fwd := make([]int, len(sents))
		bwd := make([]int, len(sents))
		for i := range sents {
			fwd[i], bwd[i] = i, len(sents)-1-i
		}
		a, b := parse(fwd), parse(bwd)
		for i := range a {
			if a[i] != b[i] {
				t.Errorf("strip=%v sentence %d parses differently depending on order:\n%s\n%s", strip, i, a[i], b[i])
			}
		}
	}
}

// Many goroutines parsing with one model get the same parses as one.
func TestParseConcurrent(t *testing.T) {
	m := testModel(t)
	sents, err := conllu.ReadFile(testenv.UDFile(t, "en_ewt-ud-dev.conllu"))
	if err != nil {
		t.Fatal(err)
	}
	sents = sents[:400]
	parseAll := func() []string {
		out := make([]string, len(sents))
		for i, s0 := range sents {
			s := *s0
			s.Words = append([]conllu.Word(nil), s.Words...)
			s.StripTags()
			if err := m.Parse(s.Words); err != nil {
				t.Error(err)
				return nil
			}
			out[i] = conllu.Format(&s)
		}
		return out
	}
	want := parseAll()
	const n = 8
	got := make(chan []string, n)
	for g := 0; g < n; g++ {
		go func() { got <- parseAll() }()
	}
	for g := 0; g < n; g++ {
		res := <-got
		for i := range want {
			if res == nil || res[i] != want[i] {
				t.Fatalf("goroutine result differs at sentence %d", i)
			}
		}
	}
}
