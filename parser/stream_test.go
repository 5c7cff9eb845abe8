package parser

import (
	"bytes"
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/transparse/transparse/internal/testenv"
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
		if err := m.ParseCoNLLU(bytes.NewReader(text), &want, "ewt"); err != nil {
			t.Fatal(err)
		}
		for _, workers := range []int{2, 3, 8} {
			var got bytes.Buffer
			if err := m.ParseCoNLLUWorkers(bytes.NewReader(text), &got, "ewt", workers); err != nil {
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
	n1, err := m.ParseTokens(strings.NewReader(lines.String()), &want, "tok", 10)
	if err != nil {
		t.Fatal(err)
	}
	n4, err := m.ParseTokensWorkers(strings.NewReader(lines.String()), &got, "tok", 10, 4)
	if err != nil {
		t.Fatal(err)
	}
	if n1 != 2077 || n4 != n1 || !bytes.Equal(got.Bytes(), want.Bytes()) {
		t.Fatalf("tokens: %d and %d sentences, outputs equal: %v", n1, n4, bytes.Equal(got.Bytes(), want.Bytes()))
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
		werr := m.ParseCoNLLU(strings.NewReader(malformed), &want, "doc")
		gerr := m.ParseCoNLLUWorkers(strings.NewReader(malformed), &got, "doc", workers)
		if werr == nil || gerr == nil || werr.Error() != gerr.Error() || !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Fatalf("malformed CoNLL-U, %d workers: error %v, want %v; outputs equal: %v", workers, gerr, werr,
				bytes.Equal(got.Bytes(), want.Bytes()))
		}
		if !strings.Contains(werr.Error(), "doc:") || want.Len() == 0 {
			t.Fatalf("error %v after %d bytes of output", werr, want.Len())
		}
		want.Reset()
		got.Reset()
		wn, werr := m.ParseTokens(strings.NewReader(long.String()), &want, "tok", 0)
		gn, gerr := m.ParseTokensWorkers(strings.NewReader(long.String()), &got, "tok", 0, workers)
		if werr == nil || gerr == nil || werr.Error() != gerr.Error() || wn != 300 || gn != wn ||
			!bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Fatalf("refused sentence, %d workers: %d sentences, error %v; want %d, %v", workers, gn, gerr, wn, werr)
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
