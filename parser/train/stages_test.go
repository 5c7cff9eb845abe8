package train

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/transparse/transparse/parser/internal/core"

	"github.com/transparse/transparse/parser"
	"github.com/transparse/transparse/parser/tagger"
)

// stageRun runs the stages of Train up to and including the one named
// last on opt, one at a time, and returns the run.
func stageRun(t *testing.T, opt Options, last string) *run {
	t.Helper()
	r, err := newRun(opt)
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range stages {
		if err := st.do(r); err != nil {
			t.Fatalf("stage %s: %v", st.name, err)
		}
		if st.name == last {
			return r
		}
	}
	t.Fatalf("no stage %q", last)
	return nil
}

// The stages run in the order of training, each named once.
func TestStageOrder(t *testing.T) {
	var names []string
	for _, st := range stages {
		names = append(names, st.name)
	}
	want := []string{"read", "segment", "encode", "taggers", "jackknife", "parsers", "beam", "tune", "card", "calibrate", "save"}
	if !slices.Equal(names, want) {
		t.Errorf("stages %q, want %q", names, want)
	}
}

// read: the treebanks (max_sentences of train), and the jackknife folds
// reduced to the training sentences.
func TestStageRead(t *testing.T) {
	o := small()
	o.MaxSentences, o.JackknifeFolds = 3, 5
	r := stageRun(t, o, "read")
	if len(r.train) != 3 || len(r.dev) != 40 || r.test != nil || r.sys == nil {
		t.Errorf("read %d train, %d dev, %d test sentences, system %v", len(r.train), len(r.dev), len(r.test), r.sys)
	}
	if r.opt.JackknifeFolds != 3 || r.notes["folds_requested"] != "5" {
		t.Errorf("folds %d, note %q", r.opt.JackknifeFolds, r.notes["folds_requested"])
	}
}

// segment: a segmenter that segments dev's text well enough, its dev
// scores kept for the card, the same bytes each time; none with
// Segment.Skip.
func TestStageSegment(t *testing.T) {
	r := stageRun(t, small(), "segment")
	if r.seg == nil || r.segScores["Tokens"] < 90 || r.segScores["Words"] < 90 || r.segScores["Sentences"] < 30 {
		t.Fatalf("segmenter %v, dev scores %v", r.seg != nil, r.segScores)
	}
	again := stageRun(t, small(), "segment")
	a, err := r.seg.Encode()
	if err != nil {
		t.Fatal(err)
	}
	b, err := again.seg.Encode()
	if err != nil || !bytes.Equal(a, b) {
		t.Errorf("two trainings give different segmenters (%v)", err)
	}
	o := small()
	o.Segment.Skip = true
	if r := stageRun(t, o, "segment"); r.seg != nil || r.segScores != nil {
		t.Error("Segment.Skip: a segmenter trained")
	}
}

// encode: the deprels with root, the transitions, and one gold-tag
// parser example per training tree.
func TestStageEncode(t *testing.T) {
	r := stageRun(t, small(), "encode")
	if !slices.Contains(r.deprels, "root") || !slices.Contains(r.deprels, "nsubj") || r.classes == nil || r.classes.Len() < len(r.deprels) {
		t.Errorf("deprels %q, classes %v", r.deprels, r.classes)
	}
	if len(r.goldTrain) != len(r.train) {
		t.Errorf("%d gold-tag examples of %d trees", len(r.goldTrain), len(r.train))
	}
}

// taggers: UPOS and XPOS taggers, the lemmatizer and the FEATS tagger;
// none for a gold-only model.
func TestStageTaggers(t *testing.T) {
	r := stageRun(t, small(), "taggers")
	if !slices.Equal(r.cols, []string{tagger.UPOS, tagger.XPOS}) || r.tg.UPOS == nil || r.tg.XPOS == nil || r.tg.Lemmas == nil || r.tg.Feats == nil {
		t.Errorf("columns %q, taggers %+v", r.cols, r.tg)
	}
	if acc, n := r.tg.UPOS.Accuracy(r.dev); n == 0 || acc < 0.7 {
		t.Errorf("dev UPOS %.3f on %d words", acc, n)
	}
	o := small()
	o.GoldOnly = true
	if r := stageRun(t, o, "taggers"); r.tg.UPOS != nil || len(r.cols) != 0 {
		t.Errorf("gold only: taggers %+v", r.tg)
	}
}

// jackknife: plain-token examples for every training tree, whose tags
// are predicted (some differ from the gold ones), and dev with its tags
// predicted.
func TestStageJackknife(t *testing.T) {
	r := stageRun(t, small(), "jackknife")
	if len(r.plainTrain) != len(r.goldTrain) || len(r.plainDev) != len(r.dev) {
		t.Fatalf("%d plain-token examples, %d gold-tag; plain dev %d of %d", len(r.plainTrain), len(r.goldTrain), len(r.plainDev), len(r.dev))
	}
	same, words := 0, 0
	for i, s := range r.plainDev {
		for j, w := range s.Words {
			words++
			if w.UPOS == r.dev[i].Words[j].UPOS {
				same++
			}
		}
	}
	if same == words || same < words/2 {
		t.Errorf("plain dev: %d of %d UPOS as given", same, words)
	}
	if r.syntax == nil || r.agree == nil {
		t.Error("no FEATS from the tree or agreement trained")
	}
}

// parsers: both greedy parsers, the gold-tag one reading gold tags.
func TestStageParsers(t *testing.T) {
	r := stageRun(t, small(), "parsers")
	if r.gold.Clf == nil || r.plain.Clf == nil || !r.gold.Morph || r.plain.Morph {
		t.Errorf("gold-tag parser %v (morph %v), plain-token parser %v (morph %v)", r.gold.Clf, r.gold.Morph, r.plain.Clf, r.plain.Morph)
	}
}

// beam: beam classifiers only with a beam width.
func TestStageBeam(t *testing.T) {
	r := stageRun(t, small(), "beam")
	if r.gold.Beam != nil || r.plain.Beam != nil || r.beamOptions() != nil {
		t.Error("beam classifiers without a beam width")
	}
	o := small()
	o.Beam = BeamOptions{Width: 2, Epochs: 1, Runs: 1}
	r = stageRun(t, o, "beam")
	if r.gold.Beam == nil || r.plain.Beam == nil || r.beamOptions()[core.DefaultBeamOption] != "2" {
		t.Errorf("beam width 2: gold %v, plain %v, card options %v", r.gold.Beam, r.plain.Beam, r.beamOptions())
	}
}

// tune: a decision on dev for each optional part of the morphology.
func TestStageTune(t *testing.T) {
	r := stageRun(t, small(), "tune")
	for _, k := range []string{"feats_tags", "feats_syntax", "feats_agreement", "lemma_dictionary"} {
		if v := r.notes[k]; !strings.HasPrefix(v, "kept") && !strings.HasPrefix(v, "dropped") {
			t.Errorf("note %s = %q", k, v)
		}
	}
}

// card: the options as trained, the stages' notes and the dev scores.
func TestStageCard(t *testing.T) {
	r := stageRun(t, small(), "card")
	c := r.model.Card()
	if c.Options["gold.epochs"] != "1" || c.Options["plain.runs"] != "1" || c.Options["jackknife_folds"] != "2" ||
		c.Options["gold.drop_weights_below"] != "1.5" || !strings.HasPrefix(c.Options["feats_tags"], "k") && !strings.HasPrefix(c.Options["feats_tags"], "d") {
		t.Errorf("card options %v", c.Options)
	}
	if c.Scores["dev/gold/LAS"] <= 0 || c.Scores["dev/predicted/UPOS"] <= 0 || c.Scores["test/gold/LAS"] != 0 {
		t.Errorf("card scores %v", c.Scores)
	}
	if !strings.Contains(c.Notes, "UPOS, XPOS, LEMMA, FEATS") {
		t.Errorf("card notes %q", c.Notes)
	}
}

// calibrate: both parsers' confidences; save: the file holds the model.
func TestStageCalibrateSave(t *testing.T) {
	o := small()
	o.Output = filepath.Join(t.TempDir(), "m.tpm")
	r := stageRun(t, o, "save")
	if r.model.Variant(core.Gold).Conf == nil || r.model.Variant(core.Plain).Conf == nil {
		t.Error("confidences not calibrated")
	}
	m, err := parser.Load(o.Output)
	if err != nil {
		t.Fatal(err)
	}
	if m.Card().Name != "m" || m.Card().Scores["dev/gold/LAS"] != r.model.Card().Scores["dev/gold/LAS"] ||
		m.Card().Scores["dev/text/Tokens"] != r.segScores["Tokens"] || m.Card().Options["segment.skip"] != "false" {
		t.Errorf("saved card %+v", m.Card())
	}
	if !m.HasSegmenter() {
		t.Error("the saved model has no segmenter")
	}
}

// The card holds every option of Options by its JSON path, with the
// value given; the output path and the name are left out.
func TestCardOptions(t *testing.T) {
	o := DefaultOptions()
	o.TrainPath, o.Output, o.Name = "t.conllu", "m.tpm", "m"
	o.Gold.Templates = []string{"s0.w", "n0.w"}
	o.Plain.Runs, o.Taggers.DropWeightsBelow, o.Morph.Skip, o.Beam.Width = 3, 0.5, true, 4
	got := cardOptions(o)
	for k, want := range map[string]string{"system": "arc-eager", "train": "t.conllu", "seed": "1", "gold.templates": "2 given",
		"plain.templates": "the system's", "plain.runs": "3", "taggers.drop_weights_below": "0.5", "morph.skip": "true",
		"beam.width": "4", "gold_only": "false"} {
		if got[k] != want {
			t.Errorf("card option %s = %q, want %q", k, got[k], want)
		}
	}
	for _, k := range []string{"output", "name", "dev", "test", "clusters"} {
		if v, ok := got[k]; ok {
			t.Errorf("card option %s = %q, want none", k, v)
		}
	}
	// Every leaf of the options' JSON is there.
	data, err := json.Marshal(DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	var tree map[string]any
	if err := json.Unmarshal(data, &tree); err != nil {
		t.Fatal(err)
	}
	all := map[string]string{}
	flattenOptions(all, "", tree)
	for k := range all {
		if _, ok := got[k]; !ok && k != "output" && k != "name" && all[k] != "" {
			t.Errorf("option %s is not in the card", k)
		}
	}
}
