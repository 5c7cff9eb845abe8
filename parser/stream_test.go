package parser

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/transparse/transparse/internal/testenv"
	"github.com/transparse/transparse/parser/conllu"
)

// ewtTestText returns EWT test as CoNLL-U text.
func ewtTestText(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile(testenv.UDFile(t, "en_ewt-ud-test.conllu"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// blankTags blanks LEMMA, UPOS, XPOS and FEATS of every word line.
func blankTags(text []byte) []byte {
	var out bytes.Buffer
	for _, line := range strings.SplitAfter(string(text), "\n") {
		f := strings.Split(line, "\t")
		if len(f) == 10 && !strings.HasPrefix(line, "#") {
			f[2], f[3], f[4], f[5] = "_", "_", "_", "_"
			line = strings.Join(f, "\t")
		}
		out.WriteString(line)
	}
	return out.Bytes()
}

// Parsing EWT test with several workers writes exactly what one does, with
// gold tags and from plain tokens, for CoNLL-U and for tokens input.
func TestWorkersWriteWhatOneDoes(t *testing.T) {
	m := testModel(t)
	gold := ewtTestText(t)
	for _, text := range [][]byte{gold, blankTags(gold)} {
		var want bytes.Buffer
		if _, err := m.ParseDocument(bytes.NewReader(text), &want, DocOptions{Name: "ewt"}); err != nil {
			t.Fatal(err)
		}
		for _, workers := range []int{2, 3, 8} {
			var got bytes.Buffer
			if _, err := m.ParseDocument(bytes.NewReader(text), &got, DocOptions{Name: "ewt", Workers: workers}); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes(), want.Bytes()) {
				t.Fatalf("%d workers: the output differs from one worker's", workers)
			}
		}
	}
	// Tokens: the forms of EWT test, one sentence per line.
	var lines strings.Builder
	for _, block := range strings.Split(strings.TrimSpace(string(gold)), "\n\n") {
		var forms []string
		for _, line := range strings.Split(block, "\n") {
			if f := strings.Split(line, "\t"); len(f) == 10 && !strings.ContainsAny(f[0], "-.") {
				forms = append(forms, f[1])
			}
		}
		lines.WriteString(strings.Join(forms, " ") + "\n")
	}
	var want, got bytes.Buffer
	n1, err := m.ParseDocument(strings.NewReader(lines.String()), &want, DocOptions{Name: "tok", Input: InputTokens, First: 10})
	if err != nil {
		t.Fatal(err)
	}
	n4, err := m.ParseDocument(strings.NewReader(lines.String()), &got, DocOptions{Name: "tok", Input: InputTokens, First: 10, Workers: 4})
	if err != nil {
		t.Fatal(err)
	}
	if n1.Sentences != 2077 || n4 != n1 || !bytes.Equal(got.Bytes(), want.Bytes()) {
		t.Fatalf("tokens: %d and %d sentences, outputs equal: %v", n1.Sentences, n4.Sentences, bytes.Equal(got.Bytes(), want.Bytes()))
	}
}

// An error in the middle of the input stops several workers where it stops
// one: the same error, the same sentences written before it, and no
// goroutine left behind.
func TestWorkersStopAtTheFirstError(t *testing.T) {
	m := testModel(t)
	gold := ewtTestText(t)
	blocks := strings.SplitAfter(string(gold), "\n\n")
	malformed := strings.Join(blocks[:700], "") + "1\tbad line\n\n" + strings.Join(blocks[700:], "")
	// A sentence the parser refuses: more than MaxWords tokens.
	var long strings.Builder
	for i := 0; i < 300; i++ {
		fmt.Fprintf(&long, "sentence %d .\n", i)
	}
	long.WriteString(strings.Repeat("w ", MaxWords+1) + "\n")
	for i := 0; i < 300; i++ {
		fmt.Fprintf(&long, "after %d .\n", i)
	}
	before := runtime.NumGoroutine()
	for _, workers := range []int{2, 5} {
		var want, got bytes.Buffer
		_, werr := m.ParseDocument(strings.NewReader(malformed), &want, DocOptions{Name: "doc"})
		_, gerr := m.ParseDocument(strings.NewReader(malformed), &got, DocOptions{Name: "doc", Workers: workers})
		if werr == nil || gerr == nil || werr.Error() != gerr.Error() || !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Fatalf("malformed CoNLL-U, %d workers: error %v, want %v; outputs equal: %v", workers, gerr, werr,
				bytes.Equal(got.Bytes(), want.Bytes()))
		}
		if !strings.Contains(werr.Error(), "doc:") || want.Len() == 0 {
			t.Fatalf("error %v after %d bytes of output", werr, want.Len())
		}
		want.Reset()
		got.Reset()
		wn, werr := m.ParseDocument(strings.NewReader(long.String()), &want, DocOptions{Name: "tok", Input: InputTokens})
		gn, gerr := m.ParseDocument(strings.NewReader(long.String()), &got, DocOptions{Name: "tok", Input: InputTokens, Workers: workers})
		if werr == nil || gerr == nil || werr.Error() != gerr.Error() || wn.Sentences != 300 || gn != wn ||
			!bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Fatalf("refused sentence, %d workers: %d sentences, error %v; want %d, %v", workers, gn.Sentences, gerr, wn.Sentences, werr)
		}
		if !strings.Contains(werr.Error(), "tok:301: sentence 301:") {
			t.Fatalf("error %v does not name sentence 301", werr)
		}
	}
	// The workers and the reader have ended.
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Errorf("%d goroutines after the runs, %d before", n, before)
	}
}

// TestDocConfidenceAndKBest: a document parsed with confidences and the
// k best trees has every word of every best tree with a Confidence in
// MISC (other attributes kept), equal to Parse's; each best
// tree is followed by its other trees, ranked, with their own sent_id.
func TestDocConfidenceAndKBest(t *testing.T) {
	m := testModel(t)
	path := testenv.Fixture(t, "en_ewt-dev-40.conllu")
	in, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	gold, err := conllu.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	opt := Options{Beam: 4, KBest: 3, Confidence: true}
	var out bytes.Buffer
	if _, err := m.ParseDocument(bytes.NewReader(in), &out, DocOptions{Name: "in", Parse: opt, Workers: 2}); err != nil {
		t.Fatal(err)
	}
	got, err := conllu.ReadAll(bytes.NewReader(out.Bytes()), "out")
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	k := 0
	for _, g := range gold {
		words := slices.Clone(g.Words)
		r, err := m.Parse(words, &opt)
		if err != nil {
			t.Fatal(err)
		}
		for j := range r.Trees {
			s := got[k]
			k++
			if id := s.SentID(); ids[id] {
				t.Fatalf("sent_id %s twice", id)
			} else {
				ids[id] = true
			}
			for i, w := range s.Words {
				if w.Head != r.Trees[j].Head[i] || w.Deprel != r.Trees[j].Deprel[i] {
					t.Fatalf("sentence %s tree %d word %d: %d %s, want %d %s", g.SentID(), j+1, i+1, w.Head, w.Deprel, r.Trees[j].Head[i], r.Trees[j].Deprel[i])
				}
				conf := fmt.Sprintf("Confidence=%.3f", r.Confidence[i])
				has := slices.Contains(strings.Split(w.Misc, "|"), conf)
				if has != (j == 0) {
					t.Fatalf("sentence %s tree %d word %d: MISC %q (%s)", g.SentID(), j+1, i+1, w.Misc, conf)
				}
				if gm := g.Words[i].Misc; gm != "_" && !strings.Contains(w.Misc, gm) {
					t.Fatalf("sentence %s word %d: MISC %q lost %q", g.SentID(), i+1, w.Misc, gm)
				}
			}
		}
	}
	if k != len(got) {
		t.Fatalf("%d sentences written, want %d", len(got), k)
	}
	if _, err := m.ParseDocument(bytes.NewReader(in), io.Discard, DocOptions{Name: "in", Parse: Options{Beam: -2}}); !errors.Is(err, ErrOptions) {
		t.Fatalf("bad options: got %v", err)
	}
}

func TestSetMisc(t *testing.T) {
	for _, c := range [][2]string{{"_", "Confidence=1"}, {"", "Confidence=1"}, {"SpaceAfter=No", "SpaceAfter=No|Confidence=1"},
		{"Confidence=0.5|SpaceAfter=No", "Confidence=1|SpaceAfter=No"}} {
		if got := setMisc(c[0], "Confidence", "1"); got != c[1] {
			t.Errorf("setMisc(%q) = %q, want %q", c[0], got, c[1])
		}
	}
}

func testModel(t *testing.T) *Model {
	t.Helper()
	m, err := Load(testenv.ModelPath())
	if err != nil {
		testenv.SkipOrFail(t, "no model: %v", err)
	}
	return m
}
