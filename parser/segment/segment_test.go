package segment

import (
	"bytes"
	"errors"
	"io"
	"math/rand"
	"reflect"
	"strings"
	"sync"
	"testing"
	"testing/iotest"
	"unicode"
	"unicode/utf8"

	"github.com/rivo/uniseg"
	"github.com/transparse/transparse/internal/testenv"
	"github.com/transparse/transparse/parser/conllu"
)

var small struct {
	once sync.Once
	m    *Model
	err  error
}

// smallModel is trained on the committed EWT slices (150 training
// sentences, 40 dev sentences).
func smallModel(t testing.TB) *Model {
	t.Helper()
	small.once.Do(func() {
		train, dev := ewtSlices(t)
		small.m, small.err = Train(train, dev, Options{})
	})
	if small.err != nil {
		t.Fatal(small.err)
	}
	return small.m
}

// ewtSlices reads the committed EWT slices: 150 training sentences, 40
// dev sentences.
func ewtSlices(t testing.TB) (train, dev []*conllu.Sentence) {
	t.Helper()
	train, err := conllu.ReadFile(testenv.Fixture(t, "en_ewt-train-150.conllu"))
	if err != nil {
		t.Fatal(err)
	}
	dev, err = conllu.ReadFile(testenv.Fixture(t, "en_ewt-dev-40.conllu"))
	if err != nil {
		t.Fatal(err)
	}
	return train, dev
}

// checkLayout checks that the sentences cover text as the API promises:
// tokens in order, non-empty, made of whole grapheme clusters and not
// whitespace; the bytes between them whitespace; so that text is rebuilt
// byte for byte. It returns the number of tokens.
func checkLayout(t *testing.T, text []byte, sents []Sentence) int {
	t.Helper()
	var rebuilt []byte
	prev, n := 0, 0
	bounds := clusterBounds(text)
	for si, s := range sents {
		if len(s.Tokens) == 0 || len(s.Tokens) > MaxTokens {
			t.Fatalf("sentence %d has %d tokens", si, len(s.Tokens))
		}
		for _, tk := range s.Tokens {
			if tk.Start < prev || tk.End <= tk.Start || tk.End > len(text) {
				t.Fatalf("token [%d,%d) after %d in %d bytes", tk.Start, tk.End, prev, len(text))
			}
			if !bounds[tk.Start] || !bounds[tk.End] {
				t.Fatalf("token [%d,%d) splits a grapheme cluster in %q", tk.Start, tk.End, text)
			}
			gap := text[prev:tk.Start]
			if prev == 0 {
				gap = bytes.TrimPrefix(gap, []byte(bom)) // whitespace at the start
			}
			if !allSpace(gap) {
				t.Fatalf("non-whitespace %q between tokens", text[prev:tk.Start])
			}
			if allSpace(text[tk.Start:tk.End]) {
				t.Fatalf("whitespace token %q", text[tk.Start:tk.End])
			}
			rebuilt = append(append(rebuilt, text[prev:tk.Start]...), text[tk.Start:tk.End]...)
			prev = tk.End
			n++
		}
	}
	if !allSpace(text[prev:]) {
		t.Fatalf("non-whitespace %q after the last token", text[prev:])
	}
	rebuilt = append(rebuilt, text[prev:]...)
	if !bytes.Equal(rebuilt, text) {
		t.Fatalf("rebuilt text differs from the input")
	}
	return n
}

func clusterBounds(text []byte) []bool {
	b := make([]bool, len(text)+1)
	b[0] = true
	state, rest, at := -1, text, 0
	for len(rest) > 0 {
		var cl []byte
		cl, rest, _, state = uniseg.Step(rest, state)
		at += len(cl)
		b[at] = true
	}
	return b
}

func allSpace(p []byte) bool {
	for _, r := range string(p) {
		if !unicode.IsSpace(r) {
			return false
		}
	}
	return true
}

// randomText mixes words, punctuation, digits, non-Latin letters,
// combining marks, emoji and every kind of whitespace.
func randomText(rng *rand.Rand) []byte {
	pieces := []string{"word", "Dr.", "don't", "e\u0301", "\u0301", "x", ".", ",", "?!", "(", ")", "\"",
		"12", "3.5", "日本語", "مرحبا", "👍🏽", "🇫🇷", "https://example.com/a?b=c", "a@b.org", "\x00", "\x01", "ş", "İ", "Жж", "©", "ß", "\u0483",
		" ", " ", "  ", "\t", "\n", "\r\n", "\r", "\u00a0", "\n\n", " \n \n", "\u2028", "\u3000"}
	var b strings.Builder
	for n := rng.Intn(60); n > 0; n-- {
		b.WriteString(pieces[rng.Intn(len(pieces))])
	}
	return []byte(b.String())
}

func TestRandomTextRoundTrip(t *testing.T) {
	m := smallModel(t)
	rng := rand.New(rand.NewSource(7))
	for i := 0; i < 3000; i++ {
		text := randomText(rng)
		sents, err := m.Segment(text)
		if err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		checkLayout(t, text, sents)
	}
}

// TestDevText segments the raw text of the committed EWT dev slice and
// checks the layout and that most gold tokens and sentences are found.
func TestDevText(t *testing.T) {
	m := smallModel(t)
	gold, err := conllu.ReadFile(testenv.Fixture(t, "en_ewt-dev-slice.conllu"))
	if err != nil {
		t.Fatal(err)
	}
	text := []byte(UDText(gold))
	sents, err := m.Segment(text)
	if err != nil {
		t.Fatal(err)
	}
	checkLayout(t, text, sents)
	tokF, sentF := spanF1(text, gold, sents)
	t.Logf("tokens F1 %.4f, sentences F1 %.4f", tokF, sentF)
	if tokF < 0.97 || sentF < 0.6 {
		t.Errorf("tokens F1 %.4f (want >= 0.97), sentences F1 %.4f (want >= 0.6)", tokF, sentF)
	}
}

// spanF1 scores tokens and sentences as character spans of the text
// without whitespace, as UD's scorer does.
func spanF1(text []byte, gold []*conllu.Sentence, sents []Sentence) (tok, sent float64) {
	pos := make([]int, len(text)+1) // byte offset -> non-whitespace characters before it
	k := 0
	for i, r := range string(text) {
		pos[i] = k
		if !unicode.IsSpace(r) {
			k++
		}
	}
	pos[len(text)] = k
	type span struct{ s, e int }
	goldTok, goldSent := map[span]bool{}, map[span]bool{}
	at := 0
	for _, s := range gold {
		first := at
		for _, g := range tokensOf(s).Tokens {
			n := utf8.RuneCountInString(strings.Join(strings.Fields(g.Form), ""))
			goldTok[span{at, at + n}] = true
			at += n
		}
		goldSent[span{first, at}] = true
	}
	var ct, nt, cs int
	for _, s := range sents {
		for _, tk := range s.Tokens {
			ct += b2i(goldTok[span{pos[tk.Start], pos[tk.End]}])
			nt++
		}
		cs += b2i(goldSent[span{pos[s.Tokens[0].Start], pos[s.Tokens[len(s.Tokens)-1].End]}])
	}
	return 2 * float64(ct) / float64(nt+len(goldTok)), 2 * float64(cs) / float64(len(sents)+len(goldSent))
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func TestInvalidUTF8(t *testing.T) {
	m := smallModel(t)
	_, err := m.Segment([]byte("Hello wörld\xff and more"))
	var e *InvalidUTF8Error
	if !errors.As(err, &e) || e.Offset != 12 {
		t.Fatalf("got %v, want an *InvalidUTF8Error at offset 12", err)
	}
}

func TestLongRunWithoutWhitespace(t *testing.T) {
	m := smallModel(t)
	text := bytes.Repeat([]byte("ab"), 5<<20)
	sents, err := m.Segment(text)
	if err != nil {
		t.Fatal(err)
	}
	n := checkLayout(t, text, sents)
	if n != len(text)/MaxRunBytes || !sents[0].Cut || len(sents[0].Tokens) != MaxTokens {
		t.Fatalf("%d tokens in %d sentences (first cut: %v); want pieces of %d bytes, sentences cut at %d",
			n, len(sents), sents[0].Cut, MaxRunBytes, MaxTokens)
	}
}

func TestOnlyWhitespaceAndControls(t *testing.T) {
	m := smallModel(t)
	for _, text := range []string{"", "\n\n\n\n", "\r\n\r\n \t\u00a0\n"} {
		sents, err := m.Segment([]byte(text))
		if err != nil || len(sents) != 0 {
			t.Errorf("%q: %d sentences, %v; want none", text, len(sents), err)
		}
	}
	text := []byte("a\x00b \x01\x02 \x00\n\x7f")
	sents, err := m.Segment(text)
	if err != nil {
		t.Fatal(err)
	}
	if n := checkLayout(t, text, sents); n < 3 {
		t.Errorf("%q: %d tokens, want at least 3", text, n)
	}
}

func TestBlankLineEndsParagraph(t *testing.T) {
	m := smallModel(t)
	text := []byte("This is the first paragraph with no final punctuation\n \r\nand this is the second one\n\n\nthird " +
		"without a period\u2029fourth after a paragraph separator\u2028still the fourth")
	sents, err := m.Segment(text)
	if err != nil {
		t.Fatal(err)
	}
	checkLayout(t, text, sents)
	var starts []string
	for _, s := range sents {
		if s.NewPar {
			starts = append(starts, string(text[s.Tokens[0].Start:s.Tokens[0].End]))
		}
	}
	if strings.Join(starts, " ") != "This and third fourth" {
		t.Errorf("paragraphs start with %q, want This, and, third, fourth", starts)
	}
}

// TestByteOrderMark: a byte order mark starting the input is whitespace
// before the first token, in one piece or read a byte at a time; inside
// the text it is not whitespace.
func TestByteOrderMark(t *testing.T) {
	m := smallModel(t)
	text := []byte("\ufeffHello there. A mark\ufeff inside.")
	want := "Hello there . A mark \ufeff inside ." // inside, the mark is a token of its own
	sents, err := m.Segment(text)
	if err != nil {
		t.Fatal(err)
	}
	checkLayout(t, text, sents)
	var forms []string
	for _, s := range sents {
		for _, tk := range s.Tokens {
			forms = append(forms, string(text[tk.Start:tk.End]))
		}
	}
	if got := strings.Join(forms, " "); got != want {
		t.Errorf("tokens %q, want %q", got, want)
	}
	var streamed []string
	err = m.EachReader(iotest.OneByteReader(bytes.NewReader(text)), func(s *Sentence, text []byte, base int) error {
		for _, tk := range s.Tokens {
			streamed = append(streamed, string(text[tk.Start-base:tk.End-base]))
		}
		return nil
	})
	if got := strings.Join(streamed, " "); err != nil || got != want {
		t.Errorf("streamed: tokens %q, %v; want %q", got, err, want)
	}
}

func TestURLsEmailsAndFileNamesStayWhole(t *testing.T) {
	m := smallModel(t)
	text := []byte("See (https://example.com/a.b?c=d&e=f), or write to\n\"Jo\"<john.doe@example.org>. See file:Q3_report-v2.pdf.")
	sents, err := m.Segment(text)
	if err != nil {
		t.Fatal(err)
	}
	var toks []string
	for _, s := range sents {
		for _, tk := range s.Tokens {
			toks = append(toks, string(text[tk.Start:tk.End]))
		}
	}
	got := strings.Join(toks, " ")
	for _, want := range []string{"( https://example.com/a.b?c=d&e=f ) ,", "john.doe@example.org", " Q3_report-v2.pdf ."} {
		if !strings.Contains(got, want) {
			t.Errorf("tokens %q do not contain %q", got, want)
		}
	}
}

func TestMultiwordTokens(t *testing.T) {
	m := smallModel(t)
	text := []byte("I don't know. Don't you dare.")
	sents, err := m.Segment(text)
	if err != nil {
		t.Fatal(err)
	}
	var words []string
	for _, s := range sents {
		for _, tk := range s.Tokens {
			if tk.Words != nil {
				words = append(words, strings.Join(tk.Words, "+"))
			}
		}
	}
	if got := strings.Join(words, " "); got != "do+n't Do+n't" {
		t.Errorf("multiword tokens %q, want do+n't Do+n't", got)
	}
}

// chunkReader returns its data in reads of at most n bytes.
type chunkReader struct {
	data []byte
	n    int
}

func (r *chunkReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, io.EOF
	}
	k := copy(p[:min(len(p), r.n)], r.data)
	r.data = r.data[k:]
	return k, nil
}

// TestEachReaderMatchesEach streams several windows of text and checks
// that the sentences are those of Each, with their bytes in the window.
func TestEachReaderMatchesEach(t *testing.T) {
	m := smallModel(t)
	gold, err := conllu.ReadFile(testenv.Fixture(t, "en_ewt-dev-slice.conllu"))
	if err != nil {
		t.Fatal(err)
	}
	text := []byte(strings.Repeat(UDText(gold)+"\n", 3<<20/len(UDText(gold))))
	text = append(text, bytes.Repeat([]byte("\n"), 3<<20)...)
	text = append(text, "Last words\n"...)
	want, err := m.Segment(text)
	if err != nil {
		t.Fatal(err)
	}
	var got []Sentence
	err = m.EachReader(&chunkReader{text, 7777}, func(s *Sentence, win []byte, base int) error {
		c := *s
		c.Tokens = append([]Token(nil), s.Tokens...)
		for _, tk := range c.Tokens {
			if !bytes.Equal(win[tk.Start-base:tk.End-base], text[tk.Start:tk.End]) {
				t.Fatalf("token [%d,%d) is not in its window", tk.Start, tk.End)
			}
		}
		got = append(got, c)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("EachReader gives %d sentences, Each %d, or they differ", len(got), len(want))
	}
	_, err = m.Segment(append(bytes.Repeat([]byte("word "), 1<<19), 0xff))
	var e *InvalidUTF8Error
	err2 := m.EachReader(bytes.NewReader(append(bytes.Repeat([]byte("word "), 1<<19), 0xff)), func(*Sentence, []byte, int) error { return nil })
	if !errors.As(err, &e) || !errors.As(err2, &e) || e.Offset != 5<<19 {
		t.Fatalf("invalid UTF-8: %v and %v, want the offset %d", err, err2, 5<<19)
	}
}
