package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/transparse/transparse/internal/testenv"
	"github.com/transparse/transparse/parser/conllu"
)

// trainSmall trains a model on the committed EWT slices (150 training,
// 40 dev sentences) with few epochs, in a few seconds, with the options
// extra added, and returns its path.
func trainSmall(t *testing.T, extra map[string]any) string {
	t.Helper()
	dir := t.TempDir()
	out := filepath.Join(dir, "small.tpm")
	opts := map[string]any{
		"system": "arc-eager", "train": testenv.Fixture(t, "en_ewt-train-150.conllu"),
		"dev": testenv.Fixture(t, "en_ewt-dev-40.conllu"), "gold": map[string]int{"epochs": 1},
		"plain": map[string]int{"epochs": 1, "runs": 1}, "taggers": map[string]int{"epochs": 1, "runs": 1},
		"jackknife_folds": 2, "morph": map[string]bool{"skip": true}, "output": out,
	}
	for k, v := range extra {
		opts[k] = v
	}
	b, err := json.Marshal(opts)
	if err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runCmd(t, "", "train", "--progress", "never", "--options", writeFile(t, dir, "options.json", string(b)))
	if code != 0 {
		t.Fatalf("train: exit status %d, stderr %q", code, stderr)
	}
	return out
}

// tokenRanges checks the TokenRange of every token of the CoNLL-U out of
// text (in bytes, or code points with chars): each is its FORM in text,
// in order. It returns the number of tokens.
func tokenRanges(t *testing.T, text, out string, chars bool) int {
	t.Helper()
	runes := []rune(text)
	n, prev := 0, 0
	for _, s := range readAll(t, out) {
		forms := map[int]string{} // the first word's ID -> the token's FORM and MISC
		miscs := map[int]string{}
		inMWT := map[int]bool{}
		for _, l := range s.Multiword {
			cols := strings.Split(l.Text, "\t")
			a, b, _ := strings.Cut(cols[0], "-")
			first, _ := strconv.Atoi(a)
			last, _ := strconv.Atoi(b)
			forms[first], miscs[first] = cols[1], cols[9]
			for i := first; i <= last; i++ {
				inMWT[i] = true
			}
		}
		for _, w := range s.Words {
			if !inMWT[w.ID] {
				forms[w.ID], miscs[w.ID] = w.Form, w.Misc
			} else if _, first := forms[w.ID]; !first {
				if strings.Contains(w.Misc, "TokenRange") {
					t.Errorf("a word of a multiword token has a range: %+v", w)
				}
				continue
			}
			var a, b int
			misc := miscs[w.ID][strings.Index(miscs[w.ID], "TokenRange="):]
			if _, err := fmt.Sscanf(misc, "TokenRange=%d:%d", &a, &b); err != nil || a < prev || b < a {
				t.Fatalf("token %q: MISC %q", forms[w.ID], miscs[w.ID])
			}
			got := ""
			if chars && b <= len(runes) {
				got = string(runes[a:b])
			} else if !chars && b <= len(text) {
				got = text[a:b]
			}
			if got != forms[w.ID] {
				t.Errorf("token %q has the range %d:%d, which is %q", forms[w.ID], a, b, got)
			}
			prev = b
			n++
		}
	}
	return n
}

// Raw text through the command line with a small model trained here:
// auto detection, --ranges, --presegmented, tokenize, hostile input, and
// a model without a segmenter.
func TestParseRawText(t *testing.T) {
	if testing.Short() {
		t.Skip("trains two small models")
	}
	model := trainSmall(t, nil)
	text := "I don't like it. Dr. Smith arrived at 5 p.m.\nyesterday, didn't he?\n\nCafé owners 😀 left.\n"

	code, out, stderr := runCmd(t, text, "parse", "-m", model, "--ranges", "bytes")
	if code != 0 {
		t.Fatalf("parse: exit status %d, stderr %q", code, stderr)
	}
	if !strings.HasPrefix(out, "# newdoc\n# newpar\n# sent_id = 1\n# text = I don't like it.\n") ||
		!strings.Contains(out, "\n2-3\tdon't\t_\t") || strings.Count(out, "# newpar\n") != 2 {
		t.Errorf("parse of raw text:\n%s", out)
	}
	if n := tokenRanges(t, text, out, false); n < 20 {
		t.Errorf("%d tokens", n)
	}
	code, chars, _ := runCmd(t, text, "parse", "-m", model, "--input", "text", "--ranges", "chars")
	if code != 0 || tokenRanges(t, text, chars, true) < 20 || chars == out {
		t.Errorf("--ranges chars: exit status %d\n%s", code, chars)
	}

	// Text starting with '#' is text; CoNLL-U on standard input is still
	// CoNLL-U.
	for _, s := range []string{"#MeToo is a hashtag.", "# 1 reason to go."} {
		code, out, stderr := runCmd(t, s+"\n", "parse", "-m", model)
		if code != 0 || !strings.Contains(out, "# text = "+s+"\n") || len(readCoNLLU(t, s, out)) != 1 {
			t.Errorf("%q: exit status %d, stderr %q, output\n%s", s, code, stderr, out)
		}
	}
	code, out, stderr = runCmd(t, goldCoNLLU, "parse", "-m", model)
	if code != 0 || strings.Contains(out, "# newdoc") || len(readCoNLLU(t, "CoNLL-U", out)) != len(readCoNLLU(t, "gold", goldCoNLLU)) {
		t.Errorf("CoNLL-U on standard input: exit status %d, stderr %q\n%s", code, stderr, out)
	}

	// --presegmented: one sentence a line; sent_id goes on over files.
	lines := "One sentence here. Still the same line\nSecond line.\n"
	path := writeFile(t, t.TempDir(), "lines.txt", lines)
	code, out, stderr = runCmd(t, lines, "parse", "-m", model, "--presegmented", path, "-")
	sents := readCoNLLU(t, "presegmented", out)
	if code != 0 || len(sents) != 4 || sents[3].SentID() != "4" || strings.Count(out, "# newdoc\n") != 2 ||
		!strings.Contains(out, "# text = One sentence here. Still the same line\n") {
		t.Errorf("--presegmented: exit status %d, stderr %q\n%s", code, stderr, out)
	}

	testTokenize(t, model, text)
	testHostileText(t, model)

	none := trainSmall(t, map[string]any{"segment": map[string]bool{"skip": true}})
	for _, args := range [][]string{{"parse", "-m", none}, {"parse", "-m", none, "--input", "text"}, {"tokenize", "-m", none}} {
		code, _, stderr := runCmd(t, text, args...)
		if code != 1 || !strings.Contains(stderr, "the model has no segmenter") || !strings.Contains(stderr, "--input tokens") {
			t.Errorf("%q: exit status %d, stderr %q", args, code, stderr)
		}
	}
}

// testTokenize: tokenize writes parse's segmentation without annotation,
// and --output tokens what parse --input tokens reads back.
func testTokenize(t *testing.T, model, text string) {
	code, out, stderr := runCmd(t, text, "tokenize", "-m", model, "--ranges", "bytes")
	if code != 0 {
		t.Fatalf("tokenize: exit status %d, stderr %q", code, stderr)
	}
	_, parsed, _ := runCmd(t, text, "parse", "-m", model, "--ranges", "bytes")
	toks, sents := readAll(t, out), readCoNLLU(t, "parse", parsed)
	if len(toks) != len(sents) || tokenRanges(t, text, out, false) != tokenRanges(t, text, parsed, false) {
		t.Fatalf("tokenize and parse differ:\n%s\n%s", out, parsed)
	}
	var words []string
	for i, s := range toks {
		var forms []string
		for j, w := range s.Words {
			p := sents[i].Words[j]
			if w.Form != p.Form || w.Misc != p.Misc || w.UPOS != "_" || w.Lemma != "_" || w.Head != -1 || w.Deprel != "_" {
				t.Errorf("tokenize word %+v, parse word %+v", w, p)
			}
			forms = append(forms, w.Form)
		}
		words = append(words, strings.Join(forms, " "))
	}
	code, out, stderr = runCmd(t, text, "tokenize", "-m", model, "--output", "tokens")
	if want := strings.Join(words, "\n") + "\n"; code != 0 || out != want {
		t.Errorf("tokenize --output tokens: exit status %d, stderr %q\n%q\nwant\n%q", code, stderr, out, want)
	}
	code, back, _ := runCmd(t, out, "parse", "-m", model, "--input", "tokens")
	if code != 0 || len(readCoNLLU(t, "tokens", back)) != len(toks) {
		t.Errorf("parse --input tokens of tokenize --output tokens: exit status %d\n%s", code, back)
	}
}

// testHostileText: invalid UTF-8 and NUL name their byte offset; a file
// of line breaks only gives nothing; 10 MB without whitespace is parsed
// in bounded time, its sentences cut at the segmenter's limit and, with
// --on-error skip, copied through.
func testHostileText(t *testing.T, model string) {
	for _, c := range []struct{ in, want string }{
		{"Good \xff text.\n", "invalid UTF-8 at byte offset 5 (--on-error skip replaces"},
		{"Oh. \x00 x\n", "NUL byte at byte offset 4"},
	} {
		code, out, stderr := runCmd(t, c.in, "parse", "-m", model, "--input", "text")
		if code != 1 || !strings.Contains(stderr, "<stdin>: ") || !strings.Contains(stderr, c.want) || strings.Contains(out, "\x00") {
			t.Errorf("%q: exit status %d, stderr %q", c.in, code, stderr)
		}
	}
	// --on-error skip: each invalid byte becomes U+FFFD, listed with its
	// offset in the input; the sentence is parsed.
	code, out, stderr := runCmd(t, "Good \xff text. Ok \xc3\xc3.\n", "parse", "-m", model, "--on-error", "skip")
	if code != 0 || !strings.Contains(stderr, "3 bytes of invalid UTF-8 replaced by U+FFFD") ||
		!strings.Contains(out, "# transparse_replaced = invalid UTF-8 replaced by U+FFFD: 0xff at byte offset 5\n") ||
		!strings.Contains(out, "0xc3 at byte offset 16, 0xc3 at byte offset 17\n") || !utf8.ValidString(out) {
		t.Errorf("--on-error skip, invalid UTF-8: exit status %d, stderr %q\n%s", code, stderr, out)
	}
	for _, s := range readCoNLLU(t, "replaced", out) {
		for _, w := range s.Words {
			if w.Head < 0 || w.UPOS == "_" {
				t.Errorf("--on-error skip, invalid UTF-8: word %q not parsed", w.Form)
			}
		}
	}
	code, out, stderr = runCmd(t, "Good \xff text. Ok \xc3\xc3.\n", "tokenize", "-m", model, "--on-error", "skip", "--output", "tokens")
	if code != 0 || out != "Good \ufffd text .\nOk \ufffd \ufffd .\n" || !strings.Contains(stderr, "3 bytes of invalid UTF-8 replaced") {
		t.Errorf("tokenize --on-error skip: exit status %d, stderr %q, out %q", code, stderr, out)
	}
	code, out, stderr = runCmd(t, strings.Repeat("\n", 100000), "parse", "-m", model)
	if code != 0 || out != "" {
		t.Errorf("line breaks only: exit status %d, stderr %q, %d bytes out", code, stderr, len(out))
	}
	big := filepath.Join(t.TempDir(), "big.txt")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.CopyN(f, repeatByte('a'), 10<<20); err != nil {
		t.Fatal(err)
	}
	f.Close()
	start := time.Now()
	code, out, stderr = runCmd(t, "", "parse", "-m", model, "--on-error", "skip", big)
	if d := time.Since(start); code != 0 || !strings.Contains(out, "# transparse_cut") || d > 2*time.Minute {
		t.Errorf("10 MB without whitespace: exit status %d in %v, stderr %q", code, d, stderr)
	}
	if !utf8.ValidString(out) || !strings.Contains(stderr, "copied through unparsed") {
		t.Errorf("10 MB without whitespace: stderr %q", stderr)
	}
}

// readAll reads CoNLL-U that need not hold trees (tokenize's).
func readAll(t *testing.T, s string) []*conllu.Sentence {
	t.Helper()
	sents, err := conllu.ReadAll(strings.NewReader(s), "out")
	if err != nil {
		t.Fatalf("%v\n%s", err, s)
	}
	return sents
}

// repeatByte reads the byte c forever.
type repeatByte byte

func (c repeatByte) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(c)
	}
	return len(p), nil
}

// The bundled model has a segmenter and parses README's first command.
func TestBundledModelRawText(t *testing.T) {
	model := bundledModel(t)
	if !hasSegmenter(t, model) {
		t.Fatalf("%s has no segmenter", model)
	}
	code, out, stderr := runCmd(t, "The quick brown fox jumps over the lazy dog.\n", "parse", "-m", model)
	sents := readCoNLLU(t, "parse", out)
	if code != 0 || len(sents) != 1 || len(sents[0].Words) != 10 || sents[0].Words[9].Form != "." {
		t.Errorf("exit status %d, stderr %q\n%s", code, stderr, out)
	}
	text := "I don't like it. Dr. Smith arrived at 5 p.m.\nyesterday, didn't he?\n"
	code, out, stderr = runCmd(t, text, "parse", "-m", model, "--ranges", "bytes")
	sents = readCoNLLU(t, "parse", out)
	// "5 p.m." may end a sentence (EWT splits a final "p.m." into
	// "p.m" and "."), so two or three sentences.
	if code != 0 || len(sents) < 2 || len(sents) > 3 || len(sents[0].Multiword) != 1 || sents[1].Words[0].Form != "Dr." {
		t.Errorf("exit status %d, stderr %q\n%s", code, stderr, out)
	}
	tokenRanges(t, text, out, false)
}
