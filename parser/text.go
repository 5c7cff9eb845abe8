package parser

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/transparse/transparse/parser/conllu"
	"github.com/transparse/transparse/parser/internal/core"
	"github.com/transparse/transparse/parser/segment"
)

// Ranges is the unit of the TokenRange attribute that DocOptions.Ranges
// asks for with InputText.
type Ranges int

const (
	// RangesNone adds no TokenRange.
	RangesNone Ranges = iota
	// RangesBytes gives TokenRange in bytes of the UTF-8 input.
	RangesBytes
	// RangesCodePoints gives TokenRange in Unicode code points (a
	// Python str index, for example).
	RangesCodePoints
)

// String returns "none", "bytes" or "codepoints".
func (r Ranges) String() string {
	switch r {
	case RangesNone:
		return "none"
	case RangesBytes:
		return "bytes"
	case RangesCodePoints:
		return "codepoints"
	}
	return fmt.Sprintf("Ranges(%d)", int(r))
}

// CutComment starts the comment of a sentence of InputText that the
// segmenter ended at segment.MaxTokens tokens rather than where it
// found a sentence boundary.
const CutComment = "# transparse_cut = "

// MaxSpacesBytes is the most bytes of whitespace that a SpacesAfter or
// SpacesBefore attribute of InputText output records, so that it stays
// within conllu.MaxLineLength escaped: a longer run of whitespace is
// recorded shortened (to its first MaxSpacesBytes bytes, or fewer for a
// run longer than the 1 MiB window the input is read in), and only such
// a text is not rebuilt byte for byte. TokenRange counts every byte.
const MaxSpacesBytes = 64 << 10

// HasSegmenter reports whether m has a segmenter (parser/segment), which
// InputText needs. A model trained without one (train.Options) or before
// segmenters were part of models has none.
func (m *Model) HasSegmenter() bool { return m.c.Segmenter() != nil }

// checkTextOptions returns the ErrOptions error of the raw-text options
// of o on m, or nil.
func (m *Model) checkTextOptions(o DocOptions) error {
	if o.Ranges < RangesNone || o.Ranges > RangesCodePoints {
		return fmt.Errorf("%w: ranges %d: want RangesNone, RangesBytes or RangesCodePoints", ErrOptions, o.Ranges)
	}
	if o.Input != InputText {
		switch {
		case o.Presegmented:
			return fmt.Errorf("%w: Presegmented needs InputText", ErrOptions)
		case o.Ranges != RangesNone:
			return fmt.Errorf("%w: Ranges needs InputText", ErrOptions)
		case o.TokenizeOnly:
			return fmt.Errorf("%w: TokenizeOnly needs InputText", ErrOptions)
		}
		return nil
	}
	if !m.HasSegmenter() {
		return fmt.Errorf("%w: InputText: the model has no segmenter: train the model with one (transparse train "+
			"trains one unless --no-segmenter; the training option base adds one to an existing model), "+
			"or give pre-tokenized text (InputTokens) or CoNLL-U (InputCoNLLU)", ErrOptions)
	}
	return nil
}

// textSource reads the sentences of raw text with the model's segmenter.
func (m *Model) textSource(r io.Reader, o DocOptions, opt core.Options) source {
	t := &textReader{name: o.Name, ranges: o.Ranges, n: o.First, end: -1}
	if o.OnError == SkipOnError {
		t.rep = newReplacingReader(r)
		r = t.rep
	}
	t.sc = m.c.Segmenter().NewScanner(r)
	t.sc.SentencePerLine = o.Presegmented
	return source{skip: o.OnError == SkipOnError, opt: opt, tokenize: o.TokenizeOnly, next: t.next}
}

// textReader turns the segmenter's sentences into CoNLL-U sentences. A
// sentence is held until the next one (or the end of the input) shows
// the whitespace after its last token.
type textReader struct {
	sc     *segment.Scanner
	rep    *replacingReader // with SkipOnError: the input, invalid UTF-8 replaced; else nil
	name   string
	ranges Ranges
	n      int       // sentences numbered so far
	held   *heldText // the last sentence made, not yet returned
	end    int       // byte offset of the end of held's last token; -1 before the first
	err    error     // io.EOF or the error that ends the input
}

// heldText is a sentence waiting for the whitespace after its last token:
// that token's MISC is made of lastBefore, the whitespace and lastRng
// (tokenMisc), on word lastWord or, when lastMW >= 0, on multiword-token
// line lastMW.
type heldText struct {
	it                  docItem
	lastWord, lastMW    int
	lastBefore, lastRng string
}

// next returns the sentence before the last one segmented, now that the
// whitespace after it is known, or the error that ends the input.
func (t *textReader) next() (docItem, error) {
	for t.err == nil {
		s, text, base, err := t.sc.Next()
		after := " "
		var made *heldText
		switch {
		case err == io.EOF:
			t.err = io.EOF
			after = t.gap(text, base, t.end, base+len(text))
		case err != nil:
			t.err = t.inputError(err)
		default:
			if t.end >= 0 {
				after = t.gap(text, base, t.end, s.Tokens[0].Start)
			}
			made, err = t.make(s, text, base)
			if err != nil {
				t.err = err
			}
		}
		prev := t.held
		t.held = made
		if prev != nil {
			prev.finish(after)
			return prev.it, nil
		}
	}
	return docItem{}, t.err
}

// inputError returns err, an error of the segmenter, as the document's
// error.
func (t *textReader) inputError(err error) error {
	var u *segment.InvalidUTF8Error
	if errors.As(err, &u) || errors.Is(err, segment.ErrNoCut) {
		return fmt.Errorf("%w: %s%w", ErrInput, prefix(t.name), err)
	}
	return err
}

// prefix returns "name: ", or "" for an unnamed input.
func prefix(name string) string {
	if name == "" {
		return ""
	}
	return name + ": "
}

// gap returns the whitespace of the input from byte offset a to b, as far
// as text (at offset base of the input) holds it, cut to MaxSpacesBytes.
func (t *textReader) gap(text []byte, base, a, b int) string {
	a = max(a, base, 0)
	if b-a > MaxSpacesBytes {
		b = a + MaxSpacesBytes
		for b > a && !utf8.RuneStart(text[b-base]) {
			b--
		}
	}
	return string(text[a-base : b-base])
}

// make returns the CoNLL-U sentence of s, without the whitespace after
// its last token.
func (t *textReader) make(s *segment.Sentence, text []byte, base int) (*heldText, error) {
	first := t.end < 0
	t.n++
	out := &conllu.Sentence{}
	if first {
		out.Comments = append(out.Comments, "# newdoc")
	}
	if s.NewPar {
		out.Comments = append(out.Comments, "# newpar")
	}
	h := &heldText{lastMW: -1}
	var sb strings.Builder
	for i, tk := range s.Tokens {
		tok := text[tk.Start-base : tk.End-base]
		if k := bytes.IndexByte(tok, 0); k >= 0 {
			return nil, fmt.Errorf("%w: %sa NUL byte at byte offset %d: raw text may not hold NUL", ErrInput, prefix(t.name), t.inputOffset(tk.Start+k))
		}
		form := string(tok)
		if i > 0 && s.Tokens[i-1].End < tk.Start {
			sb.WriteByte(' ')
		}
		sb.WriteString(form)
		before := ""
		if first && i == 0 {
			before = t.gap(text, base, 0, tk.Start)
		}
		rng := t.tokenRange(tk)
		misc := ""
		if i+1 < len(s.Tokens) {
			misc = tokenMisc(before, t.gap(text, base, tk.End, s.Tokens[i+1].Start), rng)
		}
		if tk.Words == nil {
			out.Words = append(out.Words, conllu.Word{Form: form, Misc: misc})
			h.lastWord, h.lastMW = len(out.Words)-1, -1
		} else {
			a := len(out.Words) + 1
			out.Multiword = append(out.Multiword, conllu.RawLine{Before: a,
				Text: fmt.Sprintf("%d-%d\t%s\t_\t_\t_\t_\t_\t_\t_\t%s", a, a+len(tk.Words)-1, form, misc)})
			for _, w := range tk.Words {
				out.Words = append(out.Words, conllu.Word{Form: w, Misc: "_"})
			}
			h.lastMW = len(out.Multiword) - 1
		}
		h.lastBefore, h.lastRng = before, rng
	}
	for i := range out.Words {
		w := &out.Words[i]
		*w = conllu.Word{ID: i + 1, Form: w.Form, Lemma: "_", UPOS: "_", XPOS: "_", Feats: "_", Head: -1, Deprel: "_", Deps: "_", Misc: w.Misc}
	}
	out.Comments = append(out.Comments, fmt.Sprintf("# sent_id = %d", t.n), "# text = "+sb.String())
	if s.Cut {
		out.Comments = append(out.Comments, fmt.Sprintf("%sthe segmenter's limit of %d tokens ended this sentence", CutComment, segment.MaxTokens))
	}
	k, start, name := t.n, t.inputOffset(s.Tokens[0].Start), t.name
	h.it = docItem{s: out, fail: func(err error) error {
		return fmt.Errorf("%ssentence %d (byte offset %d): %w", prefix(name), k, start, err)
	}}
	t.end = s.Tokens[len(s.Tokens)-1].End
	if t.rep != nil {
		if c, n := t.rep.comment(t.end); n > 0 {
			out.Comments = append(out.Comments, c)
			h.it.replaced = n
		}
	}
	return h, nil
}

// inputOffset returns the byte offset in the input of the byte at
// offset x of the text segmented, which differs after invalid UTF-8
// replaced (SkipOnError).
func (t *textReader) inputOffset(x int) int {
	if t.rep == nil {
		return x
	}
	return t.rep.inputOffset(x)
}

// tokenRange returns the TokenRange value of tk, or "".
func (t *textReader) tokenRange(tk segment.Token) string {
	switch t.ranges {
	case RangesBytes:
		return strconv.Itoa(t.inputOffset(tk.Start)) + ":" + strconv.Itoa(t.inputOffset(tk.End))
	case RangesCodePoints:
		a := t.sc.CodePoints(tk.Start)
		return strconv.Itoa(a) + ":" + strconv.Itoa(t.sc.CodePoints(tk.End))
	}
	return ""
}

// finish sets the MISC of h's last token with after, the whitespace that
// follows it.
func (h *heldText) finish(after string) {
	misc := tokenMisc(h.lastBefore, after, h.lastRng)
	s := h.it.s
	if h.lastMW < 0 {
		s.Words[h.lastWord].Misc = misc
		return
	}
	l := &s.Multiword[h.lastMW]
	l.Text = l.Text[:strings.LastIndexByte(l.Text, '\t')+1] + misc
}

// tokenMisc returns the MISC of a token: SpaceAfter=No when no
// whitespace follows it, SpacesBefore when whitespace precedes it (the
// first token of the input), SpacesAfter when the whitespace after it is
// not exactly one space, TokenRange when rng is not "": in this order,
// "_" when none applies.
func tokenMisc(before, after, rng string) string {
	var parts [3]string
	p := parts[:0]
	if after == "" {
		p = append(p, conllu.SpaceAfterNo)
	}
	if before != "" {
		p = append(p, conllu.SpacesBefore+"="+conllu.EscapeSpaces(before))
	}
	if after != "" && after != " " {
		p = append(p, conllu.SpacesAfter+"="+conllu.EscapeSpaces(after))
	}
	if rng != "" {
		p = append(p, "TokenRange="+rng)
	}
	if len(p) == 0 {
		return "_"
	}
	return strings.Join(p, "|")
}
