package train

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/transparse/transparse/parser/internal/core"

	"github.com/transparse/transparse/internal/testenv"
	"github.com/transparse/transparse/modelfmt"
	"github.com/transparse/transparse/parser"
)

// checkDefaultBeam checks the default beam width of m, trained with
// beam classifiers of width k, of m2 (m saved and loaded) and of without
// (m without its beam classifiers): the card records k, m and m2 resolve
// a beam of 0 to k and keep 1, without has the width 1; a card with a
// default width that is not one is refused at load.
func checkDefaultBeam(t *testing.T, m, m2, without *core.Model, k int) {
	t.Helper()
	if got := m.Card().Options[core.DefaultBeamOption]; got != strconv.Itoa(k) {
		t.Errorf("card option %s = %q, want %d", core.DefaultBeamOption, got, k)
	}
	for _, c := range []struct {
		m         *core.Model
		width     int
		beam, was int
	}{{m, k, 0, k}, {m2, k, 0, k}, {m, k, 1, 1}, {m, k, 3, 3}, {without, 1, 0, 1}} {
		if got := c.m.DefaultBeam(); got != c.width {
			t.Errorf("DefaultBeam() = %d, want %d", got, c.width)
		}
		opt, err := c.m.ResolveOptions(core.Options{Beam: c.beam, Confidence: true})
		if err != nil || opt.Beam != c.was || !opt.Confidence {
			t.Errorf("ResolveOptions(beam %d) = %+v, %v; want beam %d", c.beam, opt, err, c.was)
		}
	}
	if _, err := m.ResolveOptions(core.Options{KBest: k}); err != nil {
		t.Errorf("kbest %d at the default width %d: %v", k, k, err)
	}
	_, err := m.ResolveOptions(core.Options{KBest: k + 1})
	if !errors.Is(err, parser.ErrOptions) || !strings.Contains(err.Error(), "kbest") {
		t.Errorf("kbest %d at the default width %d: %v, want an error", k+1, k, err)
	}
	_, err = m.ResolveOptions(core.Options{Beam: parser.MaxBeam + 1})
	if !errors.Is(err, parser.ErrOptions) || !strings.Contains(err.Error(), "the model's default") {
		t.Errorf("beam %d: %v", parser.MaxBeam+1, err)
	}
	for _, bad := range []string{"0", "x", "65"} {
		doc := m.Document()
		doc.Card.Options = map[string]string{core.DefaultBeamOption: bad}
		data, err := modelfmt.Marshal(doc)
		if err != nil {
			t.Fatal(err)
		}
		_, err = loadCore(data)
		if !errors.Is(err, modelfmt.ErrCorrupt) || !strings.Contains(err.Error(), `"default_beam" is "`+bad+`"`) {
			t.Errorf("card default_beam %q: load gives %v", bad, err)
		}
	}
}

// TestTrainDefaultBeam: a default width other than the trained one is
// recorded, resolved for a beam of 0 and the width the beam's
// confidences are calibrated at; a default width without beam
// classifiers, or above the largest, is an option error.
func TestTrainDefaultBeam(t *testing.T) {
	opt := Options{System: "arc-eager", TrainPath: testenv.Fixture(t, "en_ewt-train-150.conllu"),
		DevPath: testenv.Fixture(t, "en_ewt-dev-40.conllu"), Gold: ParserOptions{Epochs: 1}, GoldOnly: true,
		Beam: BeamOptions{Width: 2, Epochs: 1, DefaultWidth: 6}}
	m, err := trainCore(opt)
	if err != nil {
		t.Fatal(err)
	}
	if got := m.Card().Options[core.DefaultBeamOption]; got != "6" || m.DefaultBeam() != 6 || m.Card().Options[core.TrainedBeamOption] != "2" {
		t.Fatalf("default width %d, card %v", m.DefaultBeam(), m.Card().Options)
	}
	if v := m.Variant(core.Gold); v.Conf == nil || v.BeamConf == nil {
		t.Fatal("confidences not calibrated")
	}
	// The card scores dev greedily and at the default width.
	sc := m.Card().Scores
	if sc["dev/gold/LAS"] <= 0 || sc["dev/gold, beam 6/LAS"] <= 0 || sc["dev/gold/LAS"] == sc["dev/gold, beam 6/LAS"] && sc["dev/gold/UAS"] == sc["dev/gold, beam 6/UAS"] {
		t.Errorf("card scores %v", sc)
	}
	for _, bad := range []Options{
		{System: "arc-eager", TrainPath: "t", DevPath: "d", Beam: BeamOptions{DefaultWidth: 4}},
		{System: "arc-eager", TrainPath: "t", DevPath: "d", Beam: BeamOptions{Width: 4, DefaultWidth: parser.MaxBeam + 1}},
		{System: "arc-eager", TrainPath: "t", DevPath: "d", Beam: BeamOptions{Width: 4, DefaultWidth: -1}},
	} {
		var oe *OptionError
		if err := bad.Check(); !errors.As(err, &oe) || oe.Option != "beam.default_width" {
			t.Errorf("%+v: %v, want an error about default_beam", bad, err)
		}
	}
}
