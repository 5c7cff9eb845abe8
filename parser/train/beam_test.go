package train

import (
	"bytes"
	"errors"
	"slices"
	"testing"

	"github.com/transparse/transparse/parser/internal/core"

	"github.com/transparse/transparse/internal/testenv"
	"github.com/transparse/transparse/modelfmt"
	"github.com/transparse/transparse/parser/conllu"
)

// TestBeamClassifier trains a small gold-only model with a beam classifier
// on the committed EWT fixtures: its epochs are reported as a phase of
// their own, the card scores dev greedily, at K and in the accurate mode,
// the classifier is stored ("parser.gold.beam") and loaded
// back, parses at width K work with it and are refused without it (ErrOptions),
// the greedy parse does not change, and a progress callback can stop it.
func TestBeamClassifier(t *testing.T) {
	opt := Options{System: "arc-eager", TrainPath: testenv.Fixture(t, "en_ewt-train-150.conllu"),
		DevPath: testenv.Fixture(t, "en_ewt-dev-40.conllu"), Gold: ParserOptions{Epochs: 2}, GoldOnly: true, Beam: BeamOptions{Width: 4, Epochs: 2}}
	var ends int
	opt.Progress = func(p Progress) error {
		if p.Phase == "parser (gold tags, beam)" && p.EpochEnd {
			ends++
			if p.Epochs != 2 || p.DevLAS <= 0 || p.DevUAS < p.DevLAS {
				t.Errorf("beam epoch report %+v", p)
			}
		}
		return nil
	}
	m, err := trainCore(opt)
	if err != nil {
		t.Fatal(err)
	}
	if ends != 2 {
		t.Fatalf("%d beam epochs reported, want 2", ends)
	}
	v := m.Variant(core.Gold)
	if !v.HasBeam() || m.Card().Options["beam"] != "4" {
		t.Fatalf("no beam classifier (card %v)", m.Card().Options)
	}
	for _, row := range []string{"dev/gold/LAS", "dev/gold, beam 4/LAS", "dev/gold, accurate/LAS"} {
		if las, ok := m.Card().Scores[row]; !ok || las <= 0 {
			t.Errorf("card score %s: %v, %v (scores %v)", row, las, ok, m.Card().Scores)
		}
	}
	v = v.WithoutBeam()
	without := core.Assemble(core.Parts{Card: m.Card(), Classes: m.Classes(), Gold: v, PseudoProjective: m.PseudoProjective()})
	m2 := reload(t, m)
	if g := m2.Variant(core.Gold); !g.HasBeam() {
		t.Fatal("the beam classifier is lost by a save and load")
	}
	checkDefaultBeam(t, m, m2, without, 4)
	dev, err := conllu.ReadFile(opt.DevPath)
	if err != nil {
		t.Fatal(err)
	}
	opts := core.Options{Beam: 4, KBest: 1}
	var r1, r2, r3 core.Result
	for i, s := range dev {
		a, b, c := slices.Clone(s.Words), slices.Clone(s.Words), slices.Clone(s.Words)
		for _, p := range []struct {
			m *core.Model
			w []conllu.Word
			r *core.Result
		}{{m, a, &r1}, {m2, b, &r2}} {
			if err := p.m.ParseWithOptions(p.w, opts, p.r); err != nil {
				t.Fatal(err)
			}
		}
		if !slices.Equal(a, b) || r1.Trees[0].Score != r2.Trees[0].Score {
			t.Fatalf("sentence %d: the reloaded model parses differently", i+1)
		}
		if err := without.ParseWithOptions(c, opts, &r3); !errors.Is(err, core.ErrOptions) {
			t.Fatalf("sentence %d: without its beam classifier, beam 4: got %v, want ErrOptions", i+1, err)
		}
		g, h := slices.Clone(s.Words), slices.Clone(s.Words)
		if err := m.Parse(g); err != nil {
			t.Fatal(err)
		}
		if err := without.Parse(h); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(g, h) {
			t.Fatalf("sentence %d: the beam classifier changes the greedy parse", i+1)
		}
	}

	stop := errors.New("stop")
	opt.Progress = func(p Progress) error {
		if p.Phase == "parser (gold tags, beam)" {
			return stop
		}
		return nil
	}
	if _, err := trainCore(opt); !errors.Is(err, ErrCanceled) || !errors.Is(err, stop) {
		t.Fatalf("canceled in the beam phase: got %v", err)
	}
}

// TestPlainBeamClassifier: a model with taggers gets a beam classifier for
// its plain-token parser too, kept by a save and load, and plain tokens
// parsed with a beam score with it.
func TestPlainBeamClassifier(t *testing.T) {
	opt := Options{System: "arc-eager", TrainPath: testenv.Fixture(t, "en_ewt-train-150.conllu"),
		DevPath: testenv.Fixture(t, "en_ewt-dev-40.conllu"), Gold: ParserOptions{Epochs: 1}, Plain: ParserOptions{Epochs: 1, Runs: 1},
		Taggers: TaggerOptions{Epochs: 1}, JackknifeFolds: 2, Beam: BeamOptions{Width: 2, Epochs: 1}}
	phases := map[string]bool{}
	opt.Progress = func(p Progress) error {
		phases[p.Phase] = true
		return nil
	}
	m, err := trainCore(opt)
	if err != nil {
		t.Fatal(err)
	}
	if !phases["parser (plain tokens, beam)"] || !phases["parser (gold tags, beam)"] {
		t.Fatalf("phases reported: %v", phases)
	}
	m2 := reload(t, m)
	if p, g := m2.Variant(core.Plain), m2.Variant(core.Gold); !p.HasBeam() || !g.HasBeam() {
		t.Fatal("a beam classifier is missing after a save and load")
	}
	v := m.Variant(core.Plain).WithoutBeam()
	without := core.Assemble(core.Parts{Card: m.Card(), Classes: m.Classes(), Gold: m.Variant(core.Gold), Plain: v,
		Taggers: m.Taggers(), PseudoProjective: m.PseudoProjective()})
	dev, err := conllu.ReadFile(opt.DevPath)
	if err != nil {
		t.Fatal(err)
	}
	var r1, r2 core.Result
	differ := 0
	for _, s := range dev {
		s.StripTags()
		a, b := slices.Clone(s.Words), slices.Clone(s.Words)
		if err := m2.ParseWithOptions(a, core.Options{Beam: 2, KBest: 1}, &r1); err != nil {
			t.Fatal(err)
		}
		if err := without.ParseWithOptions(b, core.Options{Beam: 2, KBest: 1}, &r2); err != nil {
			t.Fatal(err)
		}
		if r1.Trees[0].Score != r2.Trees[0].Score {
			differ++
		}
	}
	if differ == 0 {
		t.Fatal("plain tokens parsed with a beam score with the greedy classifier")
	}
}

// TestBeamRuns: the default two beam runs are recorded in the card and
// give another beam classifier than one run, while the greedy classifier,
// trained before them, is byte-identical.
func TestBeamRuns(t *testing.T) {
	docs := map[int]*modelfmt.Model{}
	for _, runs := range []int{1, 0} {
		opt := Options{System: "arc-eager", TrainPath: testenv.Fixture(t, "en_ewt-train-150.conllu"),
			DevPath: testenv.Fixture(t, "en_ewt-dev-40.conllu"), Gold: ParserOptions{Epochs: 2}, GoldOnly: true,
			Beam: BeamOptions{Width: 4, Epochs: 2, Runs: runs}}
		m, err := trainCore(opt)
		if err != nil {
			t.Fatal(err)
		}
		want := map[int]string{1: "1", 0: "2"}[runs]
		if got := m.Card().Options["beam.runs"]; got != want {
			t.Errorf("BeamRuns %d: card beam.runs %q, want %q", runs, got, want)
		}
		docs[runs] = m.Document()
	}
	a, b := docs[1], docs[0]
	seen := 0
	for i := range a.Classifiers {
		name, wa, wb := a.Classifiers[i].Name, a.Classifiers[i].Blobs["weights"], b.Classifiers[i].Blobs["weights"]
		switch name {
		case "parser.gold":
			seen++
			if !bytes.Equal(wa, wb) {
				t.Error("BeamRuns changed the greedy classifier")
			}
		case "parser.gold.beam":
			seen++
			if bytes.Equal(wa, wb) {
				t.Error("the 2-run beam classifier equals the 1-run one")
			}
		}
	}
	if seen != 2 {
		t.Fatalf("%d of the classifiers parser.gold and parser.gold.beam found", seen)
	}
}

// TestBeamPruning: the beam classifiers' own pruning options
// (beam.drop_weights_below, beam.min_feature_updates, beam.weight_bits)
// keep fewer weights and features in the beam classifier and are recorded
// in the card, while the greedy classifier, trained before it, is
// byte-identical; a model whose default width is 1 scores dev at the
// trained width too.
func TestBeamPruning(t *testing.T) {
	docs := map[bool]*modelfmt.Model{}
	for _, pruned := range []bool{false, true} {
		opt := Options{System: "arc-eager", TrainPath: testenv.Fixture(t, "en_ewt-train-150.conllu"),
			DevPath: testenv.Fixture(t, "en_ewt-dev-40.conllu"), Gold: ParserOptions{Epochs: 2}, GoldOnly: true,
			Beam: BeamOptions{Width: 4, DefaultWidth: 1, Epochs: 2, Runs: 1}}
		if pruned {
			opt.Beam.DropWeightsBelow, opt.Beam.MinFeatureUpdates, opt.Beam.WeightBits = 0.5, 8, 8
		}
		m, err := trainCore(opt)
		if err != nil {
			t.Fatal(err)
		}
		c := m.Card()
		if pruned && (c.Options["beam.drop_weights_below"] != "0.5" || c.Options["beam.min_feature_updates"] != "8" || c.Options["beam.weight_bits"] != "8") {
			t.Errorf("card options: %v", c.Options)
		}
		if !pruned && c.Options["beam.weight_bits"] != "12" {
			t.Errorf("card beam.weight_bits %q, want the model's 12", c.Options["beam.weight_bits"])
		}
		if m.DefaultBeam() != 1 || c.Scores["dev/gold, beam 4/LAS"] == 0 {
			t.Errorf("default width %d, dev scores %v", m.DefaultBeam(), c.Scores)
		}
		docs[pruned] = m.Document()
	}
	a, b := docs[false], docs[true]
	for i := range a.Classifiers {
		ca, cb := &a.Classifiers[i], &b.Classifiers[i]
		switch ca.Name {
		case "parser.gold":
			if !bytes.Equal(ca.Blobs["weights"], cb.Blobs["weights"]) || !bytes.Equal(ca.Blobs["keys"], cb.Blobs["keys"]) {
				t.Error("the beam's pruning changed the greedy classifier")
			}
		case "parser.gold.beam":
			if cb.Params["entries"] >= ca.Params["entries"] || cb.Params["features"] >= ca.Params["features"] || cb.Params["entries"] == 0 {
				t.Errorf("beam classifier: %d weights, %d features pruned; %d, %d not", cb.Params["entries"], cb.Params["features"],
					ca.Params["entries"], ca.Params["features"])
			}
		}
	}
}
