package train

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/transparse/transparse/modelfmt"
	"github.com/transparse/transparse/parser"
)

// checkDefaultBeam checks the default beam width of m, trained with
// beam classifiers of width k, of m2 (m saved and loaded) and of without
// (m without its beam classifiers): the card records k, m and m2 resolve
// a beam of 0 to k and keep 1, without has the width 1; a card with a
// default width that is not one is refused at load.
func checkDefaultBeam(t *testing.T, m, m2, without *parser.Model, k int) {
	t.Helper()
	if got := m.Card().Options[parser.DefaultBeamOption]; got != strconv.Itoa(k) {
		t.Errorf("card option %s = %q, want %d", parser.DefaultBeamOption, got, k)
	}
	for _, c := range []struct {
		m         *parser.Model
		width     int
		beam, was int
	}{{m, k, 0, k}, {m2, k, 0, k}, {m, k, 1, 1}, {m, k, 3, 3}, {without, 1, 0, 1}} {
		if got := c.m.DefaultBeam(); got != c.width {
			t.Errorf("DefaultBeam() = %d, want %d", got, c.width)
		}
		opt, err := c.m.ResolveOptions(parser.ParseOptions{Beam: c.beam, Confidence: true})
		if err != nil || opt.Beam != c.was || !opt.Confidence {
			t.Errorf("ResolveOptions(beam %d) = %+v, %v; want beam %d", c.beam, opt, err, c.was)
		}
	}
	if _, err := m.ResolveOptions(parser.ParseOptions{KBest: k}); err != nil {
		t.Errorf("kbest %d at the default width %d: %v", k, k, err)
	}
	_, err := m.ResolveOptions(parser.ParseOptions{KBest: k + 1})
	if !errors.Is(err, parser.ErrOptions) || !strings.Contains(err.Error(), "kbest") {
		t.Errorf("kbest %d at the default width %d: %v, want an error", k+1, k, err)
	}
	_, err = m.ResolveOptions(parser.ParseOptions{Beam: parser.MaxBeam + 1})
	if !errors.Is(err, parser.ErrOptions) || !strings.Contains(err.Error(), "the model's default") {
		t.Errorf("beam %d: %v", parser.MaxBeam+1, err)
	}
	for _, bad := range []string{"0", "x", "65"} {
		doc := m.Document()
		doc.Card.Options = map[string]string{parser.DefaultBeamOption: bad}
		data, err := modelfmt.Marshal(doc)
		if err != nil {
			t.Fatal(err)
		}
		_, err = parser.LoadBytes(data)
		if !errors.Is(err, modelfmt.ErrCorrupt) || !strings.Contains(err.Error(), `"default_beam" is "`+bad+`"`) {
			t.Errorf("card default_beam %q: load gives %v", bad, err)
		}
	}
}
