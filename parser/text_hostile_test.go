package parser

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"maps"
	"math/rand"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/iotest"
	"testing/quick"
	"unicode/utf8"

	"github.com/transparse/transparse/internal/testenv"
	"github.com/transparse/transparse/modelfmt"
	"github.com/transparse/transparse/parser/conllu"
	"github.com/transparse/transparse/parser/segment"
)

// textPieces are what the random texts are made of: words, punctuation,
// multi-byte and combining characters, control characters, and
// whitespace of every kind the segmenter knows.
var textPieces = []string{
	"word", "Dr.", "don't", "5", "p.m.", "U.S.", ",", ".", "?!", "\"", "(", ")", "'s", "|", `\`, "=",
	"é", "中文", "👍🏽", "e\u0301", "\u200b", "\x01", "\x1b[0m", "\x7f", "\u0085x", "ß",
	" ", " ", " ", "  ", "\t", "\n", "\r\n", "\r", "\n\n", "\u00a0", "\u2028", "\u2029", "\v", "\f", "\u3000", "\u0085",
}

// randomText is a text for quick.Check: 0 to 200 random pieces.
type randomText string

func (randomText) Generate(r *rand.Rand, size int) reflect.Value {
	var b strings.Builder
	for range r.Intn(200) {
		b.WriteString(textPieces[r.Intn(len(textPieces))])
	}
	return reflect.ValueOf(randomText(b.String()))
}

// TestTextRoundTripRandom: any text with any whitespace (leading,
// trailing, blank lines, CR LF, NBSP, U+2028, ...) is rebuilt byte for
// byte from the output, with and without Presegmented, and the token
// ranges in code points point at the tokens; a text of whitespace only
// gives no sentence.
func TestTextRoundTripRandom(t *testing.T) {
	m := textModel(t)
	for _, text := range []string{"", " ", "\n\n\n", "word", " \u2028word\r\n", "\x01"} {
		out, err := parseText(t, m, text, DocOptions{TokenizeOnly: true, Ranges: RangesCodePoints})
		if err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		checkRoundTrip(t, text, out, RangesCodePoints)
	}
	check := func(text randomText) bool {
		for _, pre := range []bool{false, true} {
			o := DocOptions{TokenizeOnly: true, Ranges: RangesCodePoints, Presegmented: pre}
			out, err := parseText(t, m, string(text), o)
			if err != nil {
				t.Fatalf("%q: %v", text, err)
			}
			checkRoundTrip(t, string(text), out, RangesCodePoints)
		}
		return true
	}
	if err := quick.Check(check, &quick.Config{MaxCount: 300}); err != nil {
		t.Fatal(err)
	}
}

// TestTextPresegmented: every line is one sentence, blank lines start
// paragraphs, and a line of more than segment.MaxTokens tokens is cut
// with a comment.
func TestTextPresegmented(t *testing.T) {
	m := textModel(t)
	text := "Hello there. How are you? Fine.\nSecond line without a stop\n\n\nThird, a new paragraph.\n" +
		strings.Repeat("a ", 2500) + "\n"
	out, err := parseText(t, m, text, DocOptions{Presegmented: true})
	if err != nil {
		t.Fatal(err)
	}
	sents := checkRoundTrip(t, text, out, RangesNone)
	if len(sents) != 6 {
		t.Fatalf("%d sentences, want 6 (3 lines, a long line cut twice)", len(sents))
	}
	wantText := []string{"Hello there. How are you? Fine.", "Second line without a stop", "Third, a new paragraph."}
	for i, s := range sents {
		c := strings.Join(s.Comments, "\n")
		newpar := strings.Contains(c, "# newpar")
		if newpar != (i == 0 || i == 2) || strings.Contains(c, "# newdoc") != (i == 0) {
			t.Errorf("sentence %d: comments %q", i+1, s.Comments)
		}
		if !strings.Contains(c, "# sent_id = "+string(rune('1'+i))) {
			t.Errorf("sentence %d: comments %q", i+1, s.Comments)
		}
		if i < 3 && !strings.Contains(c, "# text = "+wantText[i]) {
			t.Errorf("sentence %d: comments %q, want the text %q", i+1, s.Comments, wantText[i])
		}
		if cut := strings.Contains(c, CutComment); cut != (i == 3 || i == 4) {
			t.Errorf("sentence %d: comments %q (cut: %v)", i+1, s.Comments, cut)
		}
		if s.Words[0].Head < 0 {
			t.Errorf("sentence %d is not parsed", i+1)
		}
	}
	if n := len(sents[3].Words); n != segment.MaxTokens {
		t.Errorf("the cut sentence has %d words, want %d", n, segment.MaxTokens)
	}
}

// TestTextHostile: invalid UTF-8 and NUL are errors wrapping ErrInput
// that name the byte offset (a NUL after the sentences before it; invalid
// UTF-8 is found a window ahead of the segmentation); a 10 MB
// run without whitespace and 3 MB of line breaks are segmented in
// bounded memory, read as a stream.
func TestTextHostile(t *testing.T) {
	m := textModel(t)
	for _, c := range []struct {
		text, want string
		on         OnError
	}{
		{"Fine words. More words.\n\n\xffbad", "invalid UTF-8 at byte offset 25", StopOnError},
		{"Fine words.\n\nA NUL\x00 here.", "NUL byte at byte offset 18", SkipOnError},
		{"Fine \xfe words.\n\nA NUL\x00 here.", "NUL byte at byte offset 20", SkipOnError}, // the offset in the input, not after U+FFFD
	} {
		out, err := parseText(t, m, c.text, DocOptions{Name: "hostile", OnError: c.on})
		if !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "invalid input: hostile: ") {
			t.Errorf("%q: error %v, want ErrInput and %q", c.text, err, c.want)
		}
		if strings.Contains(c.want, "NUL") && !strings.Contains(out, "# text = Fine ") {
			t.Errorf("%q: the sentence before the error is not written:\n%s", c.text, out)
		}
	}
	var u *segment.InvalidUTF8Error
	if _, err := parseText(t, m, "ok \xc3", DocOptions{}); !errors.As(err, &u) || u.Offset != 3 {
		t.Errorf("error %v, want a *segment.InvalidUTF8Error at offset 3", err)
	}

	// 10 MB of one letter: pieces of segment.MaxRunBytes bytes, glued,
	// cut into sentences of segment.MaxTokens tokens; each form is too
	// long for the parser, which SkipOnError reports per sentence.
	const size = 10 << 20
	var out bytes.Buffer
	st, err := m.ParseDocument(io.LimitReader(repeatReader('a'), size), &out, DocOptions{Input: InputText, OnError: SkipOnError})
	if err != nil || st.Sentences != 3 || st.Skipped != 3 {
		t.Fatalf("10 MB run: %+v, %v; want 3 sentences skipped", st, err)
	}
	if n := strings.Count(out.String(), CutComment); n != 2 {
		t.Errorf("10 MB run: %d cut comments, want 2", n)
	}
	if n := strings.Count(out.String(), ErrorComment); n != 3 || !strings.Contains(out.String(), "bytes, the limit is") {
		t.Errorf("10 MB run: %d error comments, want 3 naming the form's length", n)
	}

	// Line breaks only, then a word: no sentence for the line breaks,
	// the word's range counts all of them, SpacesBefore keeps at most
	// MaxSpacesBytes of them.
	const nl = 3 << 20
	r := io.MultiReader(io.LimitReader(repeatReader('\n'), nl), strings.NewReader("word\n"))
	out.Reset()
	if _, err := m.ParseDocument(r, &out, DocOptions{Input: InputText, TokenizeOnly: true, Ranges: RangesCodePoints}); err != nil {
		t.Fatal(err)
	}
	sents, err := conllu.ReadAll(&out, "out")
	if err != nil || len(sents) != 1 || len(sents[0].Words) != 1 {
		t.Fatalf("after 3 MiB of line breaks: %v, %d sentences", err, len(sents))
	}
	misc := sents[0].Words[0].Misc
	before := miscValue(misc, "SpacesBefore")
	if before == "" || len(before) > 2*MaxSpacesBytes || strings.Trim(before, `\n`) != "" ||
		!strings.HasSuffix(misc, `|SpacesAfter=\n|TokenRange=3145728:3145732`) {
		t.Errorf("after 3 MiB of line breaks: MISC %.200q", misc)
	}
	// 12 MiB of line breaks: nothing written, and less memory allocated
	// than the input holds.
	out.Reset()
	var ms0, ms1 runtime.MemStats
	runtime.ReadMemStats(&ms0)
	st, err = m.ParseDocument(io.LimitReader(repeatReader('\n'), 12<<20), &out, DocOptions{Input: InputText})
	runtime.ReadMemStats(&ms1)
	if err != nil || st.Sentences != 0 || out.Len() != 0 {
		t.Errorf("12 MiB of line breaks: %+v, %v, %d bytes written", st, err, out.Len())
	}
	if a := ms1.TotalAlloc - ms0.TotalAlloc; a > 8<<20 {
		t.Errorf("12 MiB of line breaks: %d bytes allocated", a)
	}
}

// TestTextInvalidUTF8Replaced checks that with SkipOnError each byte of
// invalid UTF-8 in raw text becomes U+FFFD, that the sentences holding
// them list the bytes and their input offsets, that TokenRange counts in
// the input (bytes) or with each replaced byte one code point, and that
// the input is rebuilt from the output and those comments byte for byte,
// also when the input is read a byte at a time.
func TestTextInvalidUTF8Replaced(t *testing.T) {
	m := textModel(t)
	text := "I like \xffit. Caf\xc3 au lait, \xe2\x82 please.\n\nDon't \xf0\x9f\x98 stop. Naïve café \x80\x80.\n"
	bad := map[int]byte{} // the invalid bytes by offset
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		if r == utf8.RuneError && size == 1 {
			bad[i] = text[i]
		}
		i += size
	}
	fixed := replaceInvalid(text)
	for _, unit := range []Ranges{RangesBytes, RangesCodePoints} {
		for _, oneByte := range []bool{false, true} {
			var r io.Reader = strings.NewReader(text)
			if oneByte {
				r = iotest.OneByteReader(r)
			}
			var out bytes.Buffer
			st, err := m.ParseDocument(r, &out, DocOptions{Input: InputText, OnError: SkipOnError, Ranges: unit})
			if err != nil || st.Replaced != len(bad) || st.Skipped != 0 {
				t.Fatalf("%v, one byte %v: %+v, %v; want %d replaced, none skipped", unit, oneByte, st, err, len(bad))
			}
			sents, err := conllu.ReadAll(bytes.NewReader(out.Bytes()), "out")
			if err != nil {
				t.Fatal(err)
			}
			listed := map[int]byte{}
			for _, s := range sents {
				for _, c := range s.Comments {
					rest, ok := strings.CutPrefix(c, ReplacedComment+"invalid UTF-8 replaced by U+FFFD: ")
					if !ok {
						continue
					}
					for item := range strings.SplitSeq(rest, ", ") {
						var b byte
						var off int
						if _, err := fmt.Sscanf(item, "0x%x at byte offset %d", &b, &off); err != nil {
							t.Fatalf("comment %q: %v", c, err)
						}
						listed[off] = b
					}
				}
				if s.Words[0].Head < 0 || s.Words[0].UPOS == "_" {
					t.Errorf("sentence %q not parsed", s.Comments)
				}
			}
			if !maps.Equal(listed, bad) {
				t.Errorf("%v, one byte %v: comments list %v, want %v", unit, oneByte, listed, bad)
			}
			got, err := conllu.RebuildText(sents)
			if err != nil || got != fixed {
				t.Fatalf("rebuilt %q, %v; want %q", got, err, fixed)
			}
			orig := []byte(strings.ReplaceAll(got, string(utf8.RuneError), "\x00")) // one byte each
			for off, b := range listed {
				orig[off] = b
			}
			if string(orig) != text {
				t.Errorf("input rebuilt with the comments: %q, want %q", orig, text)
			}
			for _, s := range sents {
				for _, tk := range tokenLines(s) {
					a, b, _ := strings.Cut(miscValue(tk[9], "TokenRange"), ":")
					start, _ := strconv.Atoi(a)
					end, _ := strconv.Atoi(b)
					form := string([]rune(fixed)[start:end])
					if unit == RangesBytes {
						form = replaceInvalid(text[start:end])
					}
					if form != tk[1] {
						t.Errorf("%v: TokenRange %d:%d is %q, the token is %q", unit, start, end, form, tk[1])
					}
				}
			}
		}
	}
	// Stop: the first invalid byte ends the parse, naming its offset.
	if _, err := parseText(t, m, text, DocOptions{}); err == nil || !strings.Contains(err.Error(), "invalid UTF-8 at byte offset 7") {
		t.Errorf("stop: %v", err)
	}
}

// replaceInvalid returns s with each byte that does not start a valid
// UTF-8 sequence replaced by U+FFFD.
func replaceInvalid(s string) string {
	var b strings.Builder
	for _, r := range s {
		b.WriteRune(r)
	}
	return b.String()
}

// repeatReader reads the byte c forever.
type repeatReader byte

func (c repeatReader) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(c)
	}
	return len(p), nil
}

// TestTextOptions: the raw-text options are refused with another input,
// an unknown unit of ranges is refused, and a model without a segmenter
// refuses InputText saying how to get one.
func TestTextOptions(t *testing.T) {
	m := textModel(t)
	for _, o := range []DocOptions{
		{Input: InputTokens, Presegmented: true},
		{Input: InputCoNLLU, Ranges: RangesBytes},
		{Input: InputCoNLLU, TokenizeOnly: true},
		{Input: InputText, Ranges: 3},
		{Input: InputText, Ranges: -1},
	} {
		if _, err := m.ParseDocument(strings.NewReader("a\n"), io.Discard, o); !errors.Is(err, ErrOptions) {
			t.Errorf("%+v: error %v, want ErrOptions", o, err)
		}
	}
	plain := noSegmenterModel(t)
	if plain.HasSegmenter() || !m.HasSegmenter() {
		t.Fatalf("HasSegmenter: %v without the part, %v with it", plain.HasSegmenter(), m.HasSegmenter())
	}
	_, err := plain.ParseDocument(strings.NewReader("a\n"), io.Discard, DocOptions{Input: InputText})
	if !errors.Is(err, ErrOptions) || !strings.Contains(err.Error(), "no segmenter") {
		t.Errorf("InputText without a segmenter: %v", err)
	}
	if _, err := plain.NewStream(strings.NewReader("a\n"), DocOptions{Input: InputText}).Next(); !errors.Is(err, ErrOptions) {
		t.Errorf("Stream of InputText without a segmenter: %v", err)
	}
}

// TestSegmenterPart: a model saved with a segmenter loads with it, and a
// damaged segmenter part fails the load with modelfmt.ErrCorrupt.
func TestSegmenterPart(t *testing.T) {
	m := textModel(t)
	data, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	again, err := LoadBytes(data)
	if err != nil || !again.HasSegmenter() {
		t.Fatalf("saved and loaded: %v, segmenter %v", err, again != nil && again.HasSegmenter())
	}
	// The loaded segmenter builds its tables at its first use, here by
	// several goroutines at once; each segments as the trained one does.
	text := "It works. Dr. Smith doesn't know, does he?\n\nA new paragraph."
	want, err := parseText(t, m, text, DocOptions{TokenizeOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	outs := make([]string, 4)
	var wg sync.WaitGroup
	for i := range outs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var b bytes.Buffer
			again.ParseDocument(strings.NewReader(text), &b, DocOptions{Input: InputText, TokenizeOnly: true})
			outs[i] = b.String()
		}()
	}
	wg.Wait()
	for _, out := range outs {
		if out != want {
			t.Fatalf("a loaded segmenter wrote\n%s\nthe trained one\n%s", out, want)
		}
	}
	good := segmenterPart(t, Core(m).Segmenter())
	doc := testenv.BundledDoc(t)
	for name, damage := range map[string]func(c *modelfmt.Classifier){
		"truncated": func(c *modelfmt.Classifier) { c.Blobs["model"] = c.Blobs["model"][:len(c.Blobs["model"])/2] },
		"no blob":   func(c *modelfmt.Classifier) { c.Blobs = nil },
		"layout":    func(c *modelfmt.Classifier) { c.Layout = "segment-msgpack/v9" },
		"garbage":   func(c *modelfmt.Classifier) { c.Blobs["model"] = []byte("\x81\xa3tok\x81\xa4bits\x7f") },
	} {
		c := good
		c.Blobs = map[string][]byte{"model": slices.Clone(good.Blobs["model"])}
		damage(&c)
		d := *doc
		d.Classifiers = append(slices.Clone(doc.Classifiers), c)
		if _, err := FromDocument(&d); !errors.Is(err, modelfmt.ErrCorrupt) || !strings.Contains(err.Error(), "segmenter") {
			t.Errorf("%s: %v, want ErrCorrupt naming the segmenter", name, err)
		}
	}
}
