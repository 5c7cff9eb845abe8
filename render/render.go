// Package render draws dependency trees as SVG pictures.
//
// A sentence is drawn left to right: each word's FORM with its UPOS under
// it, and above the words one arc per dependency, from the head to the
// dependent (an arrowhead at the dependent), labelled with the DEPREL. The
// root word gets a vertical arrow from above, labelled with its DEPREL
// (usually "root"). Arcs nest: an arc over other arcs is drawn above them,
// and crossing (non-projective) arcs are drawn at different heights so that
// their labels do not overlap.
//
// Only the layout is computed here; the markup is written with the standard
// library's encoding/xml, which escapes every text and attribute value.
// Text widths are estimated from the number of terminal cells of each
// string (wide East Asian characters count two), since a font's metrics
// are not known where the picture is drawn; columns get a margin for it.
//
// SVG writes one sentence as a standalone SVG document; HTML writes a page
// of many. Both are safe for concurrent use (they keep no state). A
// sentence has at most MaxWords words: placing the arcs takes time
// quadratic in the number of words, and a wider picture cannot be read.
package render

import (
	"encoding/xml"
	"fmt"
	"html/template"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/rivo/uniseg"

	"github.com/transparse/transparse/parser/conllu"
)

// MaxWords is the most words of a sentence that SVG draws; a longer
// sentence is an error. At MaxWords words the picture is some 50,000
// units wide and drawn in milliseconds.
const MaxWords = 1000

// Layout constants, in SVG user units (pixels at 100% zoom).
const (
	formSize   = 15  // font size of the FORM
	tagSize    = 12  // font size of UPOS and DEPREL labels
	cellWidth  = 0.6 // estimated width of one terminal cell, in ems
	colPad     = 18  // horizontal space between two words
	minCol     = 28  // narrowest word column
	margin     = 12  // around the picture
	levelH     = 26  // height of one arc level
	cornerR    = 6   // corner radius of an arc
	arrowW     = 4   // half-width of an arrowhead
	arrowH     = 7   // height of an arrowhead
	wordGap    = 8   // between the arcs' feet and the top of the FORM
	tagGap     = 17  // between the FORM's baseline and the UPOS baseline
	labelPadX  = 3   // around a DEPREL label's background
	labelPadY  = 2   //
	arcColor   = "#4a4a4a"
	labelColor = "#1f4e99"
	tagColor   = "#7a4a00"
)

// textWidth estimates the width of s in SVG units at font size size.
func textWidth(s string, size float64) float64 {
	return float64(uniseg.StringWidth(s)) * cellWidth * size
}

// arc is one dependency drawn above the words.
type arc struct {
	head, dep int // 0-based word indices; head == -1 for the root
	label     string
	lo, hi    int // the span: min and max of head and dep
	level     int // 1 = lowest
}

// layout is a sentence's computed geometry.
type layout struct {
	words  []conllu.Word
	cx     []float64 // centre x of each word
	arcs   []arc
	levels int     // highest arc level (the root arrow is one above)
	width  float64 // of the whole picture
	height float64
	baseY  float64 // y of the arcs' feet
	formY  float64 // baseline of the FORMs
	tagY   float64 // baseline of the UPOS tags
}

// newLayout places the words and arcs of s.
func newLayout(s *conllu.Sentence) (*layout, error) {
	n := len(s.Words)
	l := &layout{words: s.Words, cx: make([]float64, n)}
	for i, w := range s.Words {
		if w.Head > n {
			return nil, fmt.Errorf("word %d (%q): head %d is beyond the sentence's %d words", w.ID, w.Form, w.Head, n)
		}
		switch {
		case w.Head < 0: // "_": no arc
		case w.Head == 0:
			l.arcs = append(l.arcs, arc{head: -1, dep: i, label: w.Deprel, lo: i, hi: i})
		default:
			h := w.Head - 1
			l.arcs = append(l.arcs, arc{head: h, dep: i, label: w.Deprel, lo: min(h, i), hi: max(h, i)})
		}
	}
	// Column widths: the widest of FORM and UPOS.
	colW := make([]float64, n)
	for i, w := range s.Words {
		cw := max(textWidth(w.Form, formSize), minCol)
		if !conllu.Absent(w.UPOS) {
			cw = max(cw, textWidth(w.UPOS, tagSize))
		}
		colW[i] = cw
	}
	// Gaps between neighbours; widened where the label of an arc between
	// neighbours would not fit between their centres.
	gap := make([]float64, n)
	for i := 1; i < n; i++ {
		gap[i] = colPad
	}
	for _, a := range l.arcs {
		if a.head >= 0 && a.hi-a.lo == 1 {
			need := textWidth(a.label, tagSize) + 2*labelPadX + 2*cornerR + 2*arrowW + 6
			have := colW[a.lo]/2 + gap[a.hi] + colW[a.hi]/2
			if need > have {
				gap[a.hi] += need - have
			}
		}
	}
	x := float64(margin)
	for i := range s.Words {
		x += gap[i]
		l.cx[i] = x + colW[i]/2
		x += colW[i]
	}
	l.width = x + margin
	// Arc levels: shortest arcs first; an arc goes one level above every
	// arc already placed whose span overlaps the inside of its own, so
	// nested arcs stack and crossing arcs never share a height.
	order := make([]int, 0, len(l.arcs))
	for i, a := range l.arcs {
		if a.head >= 0 {
			order = append(order, i)
		}
	}
	sort.SliceStable(order, func(x, y int) bool {
		ax, ay := l.arcs[order[x]], l.arcs[order[y]]
		if ax.hi-ax.lo != ay.hi-ay.lo {
			return ax.hi-ax.lo < ay.hi-ay.lo
		}
		return ax.lo < ay.lo
	})
	for k, i := range order {
		a := &l.arcs[i]
		lv := 0
		for _, j := range order[:k] {
			b := l.arcs[j]
			if b.lo < a.hi && a.lo < b.hi {
				lv = max(lv, b.level)
			}
		}
		a.level = lv + 1
		l.levels = max(l.levels, a.level)
	}
	for i := range l.arcs {
		if l.arcs[i].head < 0 {
			l.arcs[i].level = l.levels + 1
		}
	}
	top := float64(margin) + tagSize + 2*labelPadY
	l.baseY = top + float64(l.levels+1)*levelH
	l.formY = l.baseY + wordGap + formSize
	l.tagY = l.formY + tagGap
	l.height = l.tagY + 4 + margin
	return l, nil
}

// f formats a coordinate.
func f(v float64) string {
	return strconv.FormatFloat(math.Round(v*10)/10, 'f', -1, 64)
}

// svgWriter writes elements through an xml.Encoder, keeping the first error.
type svgWriter struct {
	enc *xml.Encoder
	err error
}

func attrs(kv ...string) []xml.Attr {
	as := make([]xml.Attr, 0, len(kv)/2)
	for i := 0; i+1 < len(kv); i += 2 {
		as = append(as, xml.Attr{Name: xml.Name{Local: kv[i]}, Value: kv[i+1]})
	}
	return as
}

func (w *svgWriter) token(t xml.Token) {
	if w.err == nil {
		w.err = w.enc.EncodeToken(t)
	}
}

func (w *svgWriter) start(name string, kv ...string) {
	w.token(xml.StartElement{Name: xml.Name{Local: name}, Attr: attrs(kv...)})
}

func (w *svgWriter) end(name string) { w.token(xml.EndElement{Name: xml.Name{Local: name}}) }

// empty writes <name .../>.
func (w *svgWriter) empty(name string, kv ...string) {
	w.start(name, kv...)
	w.end(name)
}

// text writes <name ...>s</name>.
func (w *svgWriter) text(name, s string, kv ...string) {
	w.start(name, kv...)
	w.token(xml.CharData(s))
	w.end(name)
}

// title is the sentence's accessible name: its "# text" comment, else its
// words; with its sent_id in front when it has one.
func title(s *conllu.Sentence) string {
	text := ""
	for _, c := range s.Comments {
		if v, ok := strings.CutPrefix(c, "# text ="); ok {
			text = strings.TrimSpace(v)
		}
	}
	if text == "" {
		forms := make([]string, len(s.Words))
		for i, w := range s.Words {
			forms[i] = w.Form
		}
		text = strings.Join(forms, " ")
	}
	if id := s.SentID(); id != "" {
		return id + ": " + text
	}
	return text
}

// SVG writes sentence s as a standalone SVG document (UTF-8, no XML
// declaration, so that it can also be inlined in HTML). Words whose HEAD is
// "_" get no arc; a HEAD beyond the sentence is an error. A sentence
// without words, or with more than MaxWords, is an error.
func SVG(w io.Writer, s *conllu.Sentence) error {
	if s == nil || len(s.Words) == 0 {
		return fmt.Errorf("render: the sentence has no words")
	}
	if n := len(s.Words); n > MaxWords {
		return fmt.Errorf("render: sentence %s has %d words; at most %d are drawn", name(s), n, MaxWords)
	}
	l, err := newLayout(s)
	if err != nil {
		return fmt.Errorf("render: sentence %s: %w", name(s), err)
	}
	sw := &svgWriter{enc: xml.NewEncoder(w)}
	sw.start("svg", "xmlns", "http://www.w3.org/2000/svg",
		"width", f(l.width), "height", f(l.height),
		"viewBox", "0 0 "+f(l.width)+" "+f(l.height),
		"font-family", "DejaVu Sans, Verdana, Arial, sans-serif",
		"class", "transparse-tree")
	sw.text("title", title(s))
	sw.empty("rect", "width", "100%", "height", "100%", "fill", "white")
	sw.start("g", "class", "arcs", "fill", "none", "stroke", arcColor, "stroke-width", "1.3")
	for _, a := range l.arcs {
		sw.empty("path", "d", l.arcPath(a))
	}
	sw.end("g")
	sw.start("g", "class", "arrows", "fill", arcColor)
	for _, a := range l.arcs {
		x := l.cx[a.dep]
		y := l.baseY
		sw.empty("polygon", "points", f(x-arrowW)+","+f(y-arrowH)+" "+f(x+arrowW)+","+f(y-arrowH)+" "+f(x)+","+f(y))
	}
	sw.end("g")
	sw.start("g", "class", "deprels", "font-size", strconv.Itoa(tagSize), "text-anchor", "middle", "fill", labelColor)
	for _, a := range l.arcs {
		if conllu.Absent(a.label) {
			continue
		}
		x, y := l.labelAt(a)
		lw := textWidth(a.label, tagSize) + 2*labelPadX
		sw.empty("rect", "x", f(x-lw/2), "y", f(y-tagSize/2-labelPadY), "width", f(lw),
			"height", f(tagSize+2*labelPadY), "fill", "white")
		sw.text("text", a.label, "x", f(x), "y", f(y+tagSize*0.35))
	}
	sw.end("g")
	sw.start("g", "class", "words", "text-anchor", "middle")
	for i, wd := range l.words {
		sw.text("text", wd.Form, "class", "form", "x", f(l.cx[i]), "y", f(l.formY), "font-size", strconv.Itoa(formSize), "fill", "black")
		if !conllu.Absent(wd.UPOS) {
			sw.text("text", wd.UPOS, "class", "upos", "x", f(l.cx[i]), "y", f(l.tagY), "font-size", strconv.Itoa(tagSize), "fill", tagColor)
		}
	}
	sw.end("g")
	sw.end("svg")
	if sw.err == nil {
		sw.err = sw.enc.Flush()
	}
	if sw.err == nil {
		_, sw.err = io.WriteString(w, "\n")
	}
	return sw.err
}

// peakY is the y of the horizontal part of an arc at level lv.
func (l *layout) peakY(lv int) float64 { return l.baseY - float64(lv)*levelH }

// arcPath is the path of a: up from the head, across, down to the
// dependent, with rounded corners; the root's is a vertical line.
func (l *layout) arcPath(a arc) string {
	y0 := l.baseY - arrowH
	py := l.peakY(a.level)
	x2 := l.cx[a.dep]
	if a.head < 0 {
		return "M" + f(x2) + "," + f(py) + " V" + f(y0)
	}
	// The head's foot is moved a little towards the dependent, so that an
	// arc leaving a word and one arriving at it do not share a line.
	dir := 1.0
	if a.dep < a.head {
		dir = -1
	}
	x1 := l.cx[a.head] + dir*arrowW*1.5
	r := cornerR * dir
	return "M" + f(x1) + "," + f(l.baseY) +
		" V" + f(py+cornerR) +
		" Q" + f(x1) + "," + f(py) + " " + f(x1+r) + "," + f(py) +
		" H" + f(x2-r) +
		" Q" + f(x2) + "," + f(py) + " " + f(x2) + "," + f(py+cornerR) +
		" V" + f(y0)
}

// labelAt is the centre of a's label: the middle of its horizontal part
// (above the root arrow for the root).
func (l *layout) labelAt(a arc) (float64, float64) {
	py := l.peakY(a.level)
	if a.head < 0 {
		return l.cx[a.dep], py - tagSize/2 - labelPadY
	}
	return (l.cx[a.head] + l.cx[a.dep]) / 2, py
}

// name identifies s in a message: its sent_id, or its first word.
func name(s *conllu.Sentence) string {
	if id := s.SentID(); id != "" {
		return strconv.Quote(id)
	}
	if len(s.Words) > 0 {
		return "starting " + strconv.Quote(s.Words[0].Form)
	}
	return "(empty)"
}

// HTMLPage writes an HTML page of many sentences' pictures, one figure each
// with its sent_id and text as caption, as they are added.
type HTMLPage struct {
	w      io.Writer
	n      int
	closed bool
	err    error
}

var pageHead = template.Must(template.New("head").Parse(`<!DOCTYPE html>
<html>
<head>
<meta charset="utf-8">
<title>{{.}}</title>
<style>
body { font-family: DejaVu Sans, Verdana, Arial, sans-serif; margin: 1.5em; }
figure { margin: 0 0 2em 0; overflow-x: auto; }
figcaption { color: #555; font-size: 0.9em; margin-bottom: 0.3em; }
</style>
</head>
<body>
`))

var figCaption = template.Must(template.New("fig").Parse(`<figure id="s{{.N}}">
<figcaption>{{.Caption}}</figcaption>
`))

// NewHTMLPage starts a page titled title on w.
func NewHTMLPage(w io.Writer, title string) (*HTMLPage, error) {
	if err := pageHead.Execute(w, title); err != nil {
		return nil, err
	}
	return &HTMLPage{w: w}, nil
}

// Add appends the picture of s (see SVG for the errors).
func (p *HTMLPage) Add(s *conllu.Sentence) error {
	if p.err != nil {
		return p.err
	}
	p.n++
	if err := figCaption.Execute(p.w, struct {
		N       int
		Caption string
	}{p.n, title(s)}); err != nil {
		p.err = err
		return err
	}
	if err := SVG(p.w, s); err != nil {
		p.err = err
		return err
	}
	_, p.err = io.WriteString(p.w, "</figure>\n")
	return p.err
}

// Close ends the page. It does not close the underlying writer.
func (p *HTMLPage) Close() error {
	if p.closed {
		return p.err
	}
	p.closed = true
	if p.err != nil {
		return p.err
	}
	_, p.err = io.WriteString(p.w, "</body>\n</html>\n")
	return p.err
}
