package parser

import (
	"bytes"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/transparse/transparse/internal/testenv"
	"github.com/transparse/transparse/modelfmt"
	"github.com/transparse/transparse/parser/conllu"
	"github.com/transparse/transparse/parser/segment"
)

var withSegmenter struct {
	once sync.Once
	m    *Model
	err  error
}

// segmenterPart returns the model-file part of seg as
// docs/model-format.md describes it.
func segmenterPart(t testing.TB, seg *segment.Model) modelfmt.Classifier {
	b, err := seg.Encode()
	if err != nil {
		t.Fatal(err)
	}
	return modelfmt.Classifier{Name: "segmenter", Layout: "segment-msgpack/v1", Blobs: map[string][]byte{"model": b}}
}

// withoutSegmenter returns cs without the segmenter part.
func withoutSegmenter(cs []modelfmt.Classifier) []modelfmt.Classifier {
	return slices.DeleteFunc(slices.Clone(cs), func(c modelfmt.Classifier) bool { return c.Name == "segmenter" })
}

// noSegmenterModel returns the bundled model without its segmenter.
func noSegmenterModel(t testing.TB) *Model {
	t.Helper()
	d := *testenv.BundledDoc(t)
	d.Classifiers = withoutSegmenter(d.Classifiers)
	data, err := modelfmt.Marshal(&d)
	if err != nil {
		t.Fatal(err)
	}
	m, err := LoadBytes(data)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// textModel returns the bundled model with its segmenter replaced by one
// trained on the committed EWT slices (150 training sentences, 40 dev
// sentences).
func textModel(t testing.TB) *Model {
	t.Helper()
	doc := testenv.BundledDoc(t)
	withSegmenter.once.Do(func() {
		train, err := conllu.ReadFile(testenv.Fixture(t, "en_ewt-train-150.conllu"))
		if err != nil {
			withSegmenter.err = err
			return
		}
		dev, err := conllu.ReadFile(testenv.Fixture(t, "en_ewt-dev-40.conllu"))
		if err != nil {
			withSegmenter.err = err
			return
		}
		seg, err := segment.Train(train, dev, segment.Options{})
		if err != nil {
			withSegmenter.err = err
			return
		}
		d := *doc
		d.Classifiers = append(withoutSegmenter(doc.Classifiers), segmenterPart(t, seg))
		data, err := modelfmt.Marshal(&d)
		if err != nil {
			withSegmenter.err = err
			return
		}
		withSegmenter.m, withSegmenter.err = LoadBytes(data)
	})
	if withSegmenter.err != nil {
		t.Fatal(withSegmenter.err)
	}
	return withSegmenter.m
}

// parseText runs ParseDocument on text with o (Input set to InputText).
func parseText(t testing.TB, m *Model, text string, o DocOptions) (string, error) {
	t.Helper()
	o.Input = InputText
	var out bytes.Buffer
	_, err := m.ParseDocument(strings.NewReader(text), &out, o)
	return out.String(), err
}

// checkRoundTrip checks that out, the CoNLL-U of a raw-text parse of
// text, reads back, rebuilds text byte for byte and has TokenRange
// values (in unit) that point at each token's form.
func checkRoundTrip(t *testing.T, text, out string, unit Ranges) []*conllu.Sentence {
	t.Helper()
	sents, err := conllu.ReadAll(strings.NewReader(out), "out")
	if err != nil {
		t.Fatalf("output does not read back: %v", err)
	}
	got, err := conllu.RebuildText(sents)
	if err != nil {
		t.Fatal(err)
	}
	if strings.TrimSpace(text) == "" && got == "" && len(sents) == 0 {
		return sents // whitespace only: no token to carry it
	}
	if got != text {
		i := 0
		for i < min(len(got), len(text)) && got[i] == text[i] {
			i++
		}
		t.Fatalf("rebuilt text differs at byte %d of %d: %q, want %q", i, len(text), got[i:min(len(got), i+40)], text[i:min(len(text), i+40)])
	}
	if unit == RangesNone {
		return sents
	}
	runes := []rune(text)
	for _, s := range sents {
		for _, tk := range tokenLines(s) {
			a, b, ok := strings.Cut(miscValue(tk[9], "TokenRange"), ":")
			start, err1 := strconv.Atoi(a)
			end, err2 := strconv.Atoi(b)
			if !ok || err1 != nil || err2 != nil {
				t.Fatalf("token %q: MISC %q has no TokenRange", tk[1], tk[9])
			}
			var form string
			if unit == RangesBytes {
				form = text[start:end]
			} else {
				form = string(runes[start:end])
			}
			if form != tk[1] {
				t.Fatalf("TokenRange %d:%d is %q, the token is %q", start, end, form, tk[1])
			}
		}
	}
	return sents
}

// tokenLines returns the columns of the surface tokens of s: its
// multiword-token lines and the words outside them.
func tokenLines(s *conllu.Sentence) [][]string {
	var out [][]string
	mw := 0
	for i := 0; i < len(s.Words); i++ {
		if mw < len(s.Multiword) && s.Multiword[mw].Before == i+1 {
			f := strings.Split(s.Multiword[mw].Text, "\t")
			mw++
			_, z, _ := strings.Cut(f[0], "-")
			hi, _ := strconv.Atoi(z)
			out = append(out, f)
			i = hi - 1
			continue
		}
		w := s.Words[i]
		out = append(out, []string{strconv.Itoa(w.ID), w.Form, w.Lemma, w.UPOS, w.XPOS, w.Feats, strconv.Itoa(w.Head), w.Deprel, w.Deps, w.Misc})
	}
	return out
}

// miscValue returns the value of the attribute key of misc, or "".
func miscValue(misc, key string) string {
	for item := range strings.SplitSeq(misc, "|") {
		if k, v, ok := strings.Cut(item, "="); ok && k == key {
			return v
		}
	}
	return ""
}

// TestTextRoundTripUD parses the raw text of four UD test sets (the
// committed EWT slice when the treebanks are absent) and rebuilds it from
// the output; the token ranges point at the tokens; ParseDocument with
// workers and Stream write the same.
func TestTextRoundTripUD(t *testing.T) {
	m := textModel(t)
	seen := map[string]bool{}
	for _, tb := range []string{"en_ewt", "tr_imst", "hu_szeged", "fr_sequoia"} {
		for _, path := range testenv.UDFilesOrFixture(t, tb+"-ud-test.conllu") {
			if seen[path] {
				continue
			}
			seen[path] = true
			gold, err := conllu.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			text := segment.UDText(gold)
			o := DocOptions{Name: tb, Ranges: RangesCodePoints, TokenizeOnly: true}
			if tb == "en_ewt" {
				o = DocOptions{Name: tb, Ranges: RangesBytes, Workers: 3}
			}
			out, err := parseText(t, m, text, o)
			if err != nil {
				t.Fatalf("%s: %v", tb, err)
			}
			sents := checkRoundTrip(t, text, out, o.Ranges)
			t.Logf("%s: %d bytes, %d sentences", path, len(text), len(sents))
			o.Workers = 1
			one, _ := parseText(t, m, text, o)
			o.Input = InputText
			st := m.NewStream(strings.NewReader(text), o)
			var streamed bytes.Buffer
			for {
				b, err := st.Next()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				streamed.Write(b)
			}
			if one != out || streamed.String() != out {
				t.Fatalf("%s: one worker, several and Stream write different documents", tb)
			}
		}
	}
}
