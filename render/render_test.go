package render

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/transparse/transparse/parser/conllu"
)

func sample(t *testing.T) []*conllu.Sentence {
	t.Helper()
	ss, err := conllu.ReadFile("testdata/ewt-dev-sample.conllu")
	if err != nil {
		t.Fatal(err)
	}
	return ss
}

// svgTexts parses an SVG document and returns the text of every element of
// class c ("form", "upos") and of every <text> under <g class="deprels">.
type svgDoc struct {
	forms, upos, deprels []string
	paths, arrows        int
	width, height        string
}

func parseSVG(t *testing.T, b []byte) svgDoc {
	t.Helper()
	var d svgDoc
	dec := xml.NewDecoder(bytes.NewReader(b))
	var stack []string // class of each open element
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("not well-formed XML: %v\n%s", err, b)
		}
		switch e := tok.(type) {
		case xml.StartElement:
			class := ""
			for _, a := range e.Attr {
				if a.Name.Local == "class" {
					class = a.Value
				}
				if e.Name.Local == "svg" && a.Name.Local == "width" {
					d.width = a.Value
				}
				if e.Name.Local == "svg" && a.Name.Local == "height" {
					d.height = a.Value
				}
			}
			if class == "" && len(stack) > 0 {
				class = stack[len(stack)-1]
			}
			stack = append(stack, class)
			switch {
			case e.Name.Local == "path" && class == "arcs":
				d.paths++
			case e.Name.Local == "polygon" && class == "arrows":
				d.arrows++
			}
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			if len(stack) == 0 {
				continue
			}
			switch stack[len(stack)-1] {
			case "form":
				d.forms = append(d.forms, string(e))
			case "upos":
				d.upos = append(d.upos, string(e))
			case "deprels":
				d.deprels = append(d.deprels, string(e))
			}
		}
	}
	return d
}

func TestSVGHasEveryWordTagAndLabel(t *testing.T) {
	for _, s := range sample(t) {
		var buf bytes.Buffer
		if err := SVG(&buf, s); err != nil {
			t.Fatal(err)
		}
		d := parseSVG(t, buf.Bytes())
		var forms, upos, deprels []string
		for _, w := range s.Words {
			forms = append(forms, w.Form)
			upos = append(upos, w.UPOS)
			deprels = append(deprels, w.Deprel)
		}
		if strings.Join(d.forms, "|") != strings.Join(forms, "|") {
			t.Errorf("%s: forms %q, want %q", s.SentID(), d.forms, forms)
		}
		if strings.Join(d.upos, "|") != strings.Join(upos, "|") {
			t.Errorf("%s: UPOS %q, want %q", s.SentID(), d.upos, upos)
		}
		// Labels are drawn in arc order, which is word order.
		if strings.Join(d.deprels, "|") != strings.Join(deprels, "|") {
			t.Errorf("%s: deprels %q, want %q", s.SentID(), d.deprels, deprels)
		}
		if d.paths != len(s.Words) || d.arrows != len(s.Words) {
			t.Errorf("%s: %d arcs and %d arrowheads, want %d each", s.SentID(), d.paths, d.arrows, len(s.Words))
		}
	}
}

func TestEscapesText(t *testing.T) {
	s := &conllu.Sentence{
		Comments: []string{"# sent_id = a<b", `# text = <x> & "y"`},
		Words: []conllu.Word{
			{ID: 1, Form: "<x>", UPOS: "SYM", Head: 2, Deprel: "a&b"},
			{ID: 2, Form: `"y"`, UPOS: "X", Head: 0, Deprel: "root"},
		},
	}
	var buf bytes.Buffer
	if err := SVG(&buf, s); err != nil {
		t.Fatal(err)
	}
	d := parseSVG(t, buf.Bytes())
	if got := strings.Join(d.forms, " "); got != `<x> "y"` {
		t.Errorf("forms %q", got)
	}
	if got := strings.Join(d.deprels, " "); got != "a&b root" {
		t.Errorf("deprels %q", got)
	}
}

// The layout: nested arcs are drawn above the arcs they span, and crossing
// arcs at different heights.
func TestLevels(t *testing.T) {
	ss := sample(t)
	for _, s := range ss {
		l, err := newLayout(s)
		if err != nil {
			t.Fatal(err)
		}
		for i, a := range l.arcs {
			for j, b := range l.arcs {
				if i == j || a.head < 0 || b.head < 0 {
					continue
				}
				inside := a.lo <= b.lo && b.hi <= a.hi && (a.lo < b.lo || b.hi < a.hi)
				crossing := a.lo < b.lo && b.lo < a.hi && a.hi < b.hi
				if inside && a.level <= b.level {
					t.Errorf("%s: arc %d-%d (level %d) spans %d-%d (level %d) but is not above it",
						s.SentID(), a.lo+1, a.hi+1, a.level, b.lo+1, b.hi+1, b.level)
				}
				if crossing && a.level == b.level {
					t.Errorf("%s: crossing arcs %d-%d and %d-%d share level %d", s.SentID(), a.lo+1, a.hi+1, b.lo+1, b.hi+1, a.level)
				}
			}
		}
		for i := 1; i < len(l.cx); i++ {
			if l.cx[i] <= l.cx[i-1] {
				t.Errorf("%s: word %d is not right of word %d", s.SentID(), i+1, i)
			}
		}
	}
}

func TestErrors(t *testing.T) {
	var buf bytes.Buffer
	if err := SVG(&buf, &conllu.Sentence{}); err == nil || !strings.Contains(err.Error(), "no words") {
		t.Errorf("empty sentence: %v", err)
	}
	bad := &conllu.Sentence{Comments: []string{"# sent_id = s1"}, Words: []conllu.Word{{ID: 1, Form: "a", Head: 3, Deprel: "dep"}}}
	err := SVG(&buf, bad)
	if err == nil || !strings.Contains(err.Error(), `"s1"`) || !strings.Contains(err.Error(), "head 3") {
		t.Errorf("head beyond the sentence: %v", err)
	}
}

func TestHTMLPage(t *testing.T) {
	ss := sample(t)
	var buf bytes.Buffer
	p, err := NewHTMLPage(&buf, "sample <page>")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range ss {
		if err := p.Add(s); err != nil {
			t.Fatal(err)
		}
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if n := strings.Count(out, "<svg "); n != len(ss) {
		t.Errorf("%d pictures, want %d", n, len(ss))
	}
	if !strings.Contains(out, "<title>sample &lt;page&gt;</title>") {
		t.Errorf("page title not escaped:\n%.300s", out)
	}
	for _, s := range ss {
		if !strings.Contains(out, s.SentID()) {
			t.Errorf("no caption with %s", s.SentID())
		}
	}
}

// longSentence has n words, each headed by the first.
func longSentence(n int) *conllu.Sentence {
	s := &conllu.Sentence{Comments: []string{"# sent_id = long"}}
	for i := 1; i <= n; i++ {
		w := conllu.Word{ID: i, Form: "w", UPOS: "X", Head: 1, Deprel: "dep"}
		if i == 1 {
			w.Head, w.Deprel = 0, "root"
		}
		s.Words = append(s.Words, w)
	}
	return s
}

// A sentence of 1000 words is drawn in well under a second; a longer one
// is refused at once (the layout is quadratic), naming the limit.
func TestSVGWordLimit(t *testing.T) {
	start := time.Now()
	if err := SVG(io.Discard, longSentence(1000)); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("1000 words took %v", d)
	}
	for _, n := range []int{1001, 40000} {
		s := longSentence(n)
		start := time.Now()
		err := SVG(io.Discard, s)
		want := fmt.Sprintf(`render: sentence "long" has %d words; at most 1000 are drawn`, n)
		if err == nil || err.Error() != want {
			t.Errorf("%d words: %v; want %q", n, err, want)
		}
		if d := time.Since(start); d > 100*time.Millisecond {
			t.Errorf("%d words: refused after %v", n, d)
		}
	}
}
