package train

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/transparse/transparse/modelfmt"
	"github.com/transparse/transparse/parser/internal/core"

	"github.com/transparse/transparse/internal/testenv"

	"github.com/transparse/transparse/parser"
	"github.com/transparse/transparse/parser/conllu"
	"github.com/transparse/transparse/parser/pseudoproj"
	"github.com/transparse/transparse/parser/transition"
	"github.com/transparse/transparse/parser/tree"
)

// udDir holds the shared Universal Dependencies treebanks (testenv.UDDir).
var udDir = testenv.UDDir()

func need(t *testing.T, file string) string {
	p := filepath.Join(udDir, file)
	if _, err := os.Stat(p); err != nil {
		testenv.SkipOrFail(t, "%v", err)
	}
	return p
}

// A small gold-only model with the Head encoding on Hungarian (many
// non-projective trees): the encoding is recorded in the file, the model
// learns augmented deprels, and after a save/load round trip it parses dev
// identically, every parse a tree whose deprels carry no marks, and some
// parses non-projective (the encoding is undone).
func TestPseudoProjectiveRoundTrip(t *testing.T) {
	m, err := trainCore(Options{System: "arc-eager", TrainPath: need(t, "hu_szeged-ud-train.conllu"),
		DevPath: need(t, "hu_szeged-ud-dev.conllu"), GoldOnly: true, PseudoProjective: "head",
		Gold: ParserOptions{Epochs: 3, MinFeatureUpdates: -1, DropWeightsBelow: -1}})
	if err != nil {
		t.Fatal(err)
	}
	augmented := 0
	for _, d := range m.Deprels() {
		if pseudoproj.Decode(d).Base != d {
			augmented++
		}
	}
	if augmented == 0 {
		t.Fatal("no augmented deprels learned")
	}
	m2 := reload(t, m)
	if m2.PseudoProjective() != pseudoproj.Head || !m2.GoldTagsOnly() {
		t.Fatalf("loaded model: encoding %v gold-only %v", m2.PseudoProjective(), m2.GoldTagsOnly())
	}
	dev, err := conllu.ReadFile(need(t, "hu_szeged-ud-dev.conllu"))
	if err != nil {
		t.Fatal(err)
	}
	var out1, out2 bytes.Buffer
	nonProj := 0
	for _, s := range dev {
		a := append([]conllu.Word(nil), s.Words...)
		b := append([]conllu.Word(nil), s.Words...)
		if err := m.Parse(a); err != nil {
			t.Fatal(err)
		}
		if err := m2.Parse(b); err != nil {
			t.Fatal(err)
		}
		head := make([]int32, len(a)+1)
		head[0] = -1
		for i, w := range a {
			head[i+1] = int32(w.Head)
			if pseudoproj.Strip(w.Deprel) != w.Deprel {
				t.Fatalf("deprel %q still carries a mark", w.Deprel)
			}
			out1.WriteString(w.Deprel)
			out2.WriteString(b[i].Deprel)
		}
		if err := tree.Check(head); err != nil {
			t.Fatal(err)
		}
		if !tree.Projective(head) {
			nonProj++
		}
	}
	if out1.String() != out2.String() {
		t.Error("parses differ after a save/load round trip")
	}
	if nonProj == 0 {
		t.Error("no non-projective parse: the encoding is not undone")
	}
	// Plain tokens need taggers, which a gold-only model lacks.
	w := []conllu.Word{{Form: "Ez"}, {Form: "jó"}}
	if err := m2.Parse(w); err == nil {
		t.Error("gold-only model parsed plain tokens")
	}
	t.Logf("%d augmented deprels, %d non-projective dev parses", augmented, nonProj)
}

// Every registered system trains (a few sentences, one epoch), is recorded
// in the model file, loads back, and parses every dev sentence — and a
// 300-word sentence — into a tree, identically before and after the round
// trip.
func TestEverySystemTrainsSavesAndParses(t *testing.T) {
	dev, err := conllu.ReadFile(need(t, "hu_szeged-ud-dev.conllu"))
	if err != nil {
		t.Fatal(err)
	}
	long := conllu.Sentence{}
	for i := 0; i < 300; i++ {
		w := dev[i%len(dev)].Words[0]
		long.Words = append(long.Words, w)
	}
	dev = append(dev[:80:80], &long)
	for _, name := range transition.Names() {
		m, err := trainCore(Options{System: name, TrainPath: need(t, "hu_szeged-ud-train.conllu"),
			DevPath: need(t, "hu_szeged-ud-dev.conllu"), Gold: ParserOptions{Epochs: 1}, MaxSentences: 150, GoldOnly: true})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		data, err := marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		m2, err := loadCore(data)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := m2.Card().System; got != name {
			t.Fatalf("model trained with %s loads as %s", name, got)
		}
		for k, s := range dev {
			a := append([]conllu.Word(nil), s.Words...)
			b := append([]conllu.Word(nil), s.Words...)
			if err := m.Parse(a); err != nil {
				t.Fatalf("%s sentence %d: %v", name, k, err)
			}
			if err := m2.Parse(b); err != nil {
				t.Fatalf("%s sentence %d: %v", name, k, err)
			}
			head := make([]int32, len(a)+1)
			head[0] = -1
			for i := range a {
				head[i+1] = int32(a[i].Head)
				if a[i].Head != b[i].Head || a[i].Deprel != b[i].Deprel {
					t.Fatalf("%s sentence %d word %d: parse differs after save/load", name, k, i+1)
				}
			}
			if err := tree.Check(head); err != nil {
				t.Fatalf("%s sentence %d (%d words): not a tree: %v", name, k, len(a), err)
			}
		}
	}
}

// A model with a plain-token ensemble (PlainRuns 2) trains, records the
// option, its jackknife taggers train the epochs the main taggers kept,
// and it parses plain dev tokens into trees; its plain-token classifier is
// not the one-run classifier. Taggers of several runs (TaggerRuns) change
// only the taggers and what learns from their tags.
func TestPlainRuns(t *testing.T) {
	// The committed dev slice: each training parses its dev several times
	// (epochs, the options dev decides, calibration).
	trainPath, devPath := need(t, "en_ewt-ud-train.conllu"), testenv.Fixture(t, "en_ewt-dev-slice.conllu")
	dev, err := conllu.ReadFile(devPath)
	if err != nil {
		t.Fatal(err)
	}
	models := map[int]*core.Model{}
	for _, runs := range []int{1, 2} {
		var log bytes.Buffer
		m, err := trainCore(Options{System: "arc-eager", TrainPath: trainPath, DevPath: devPath, Gold: ParserOptions{Epochs: 2},
			Plain: ParserOptions{Epochs: 2, Runs: runs}, Taggers: TaggerOptions{Epochs: 2}, MaxSentences: 400, Log: &log})
		if err != nil {
			t.Fatal(err)
		}
		if got := m.Card().Options["plain.runs"]; got != fmt.Sprint(runs) {
			t.Errorf("card plain.runs = %q, want %d", got, runs)
		}
		if !bytes.Contains(log.Bytes(), []byte("jackknifed UPOS, XPOS, LEMMA and FEATS")) {
			t.Errorf("log lacks the jackknife line:\n%s", log.String())
		}
		for k, s := range dev {
			ws := append([]conllu.Word(nil), s.Words...)
			for i := range ws {
				ws[i] = conllu.Word{ID: ws[i].ID, Form: ws[i].Form}
			}
			if err := m.Parse(ws); err != nil {
				t.Fatalf("runs %d sentence %d: %v", runs, k, err)
			}
			head := []int32{-1}
			for _, w := range ws {
				head = append(head, int32(w.Head))
			}
			if err := tree.Check(head); err != nil {
				t.Fatalf("runs %d sentence %d: %v", runs, k, err)
			}
		}
		models[runs] = m
	}
	// Classifiers by name: what dev decides (the FEATS tagger's choice
	// from the tree, say) may add one to a model and not to another.
	a, b := weightsByName(t, models[1]), weightsByName(t, models[2])
	if bytes.Equal(a["parser.plain"], b["parser.plain"]) {
		t.Error("the 2-run plain classifier equals the 1-run one")
	}
	if !bytes.Equal(a["parser.gold"], b["parser.gold"]) {
		t.Error("PlainRuns changed the gold-tag classifier")
	}

	// Taggers of one run, pruned, against the default three: recorded,
	// the taggers' weights differ and there are fewer of them, the
	// gold-tag parser (trained on gold tags) is the same.
	m, err := trainCore(Options{System: "arc-eager", TrainPath: trainPath, DevPath: devPath, Gold: ParserOptions{Epochs: 2},
		Plain: ParserOptions{Epochs: 2, Runs: 1}, MaxSentences: 400, Taggers: TaggerOptions{Epochs: 2, Runs: 1, DropWeightsBelow: 0.5}})
	if err != nil {
		t.Fatal(err)
	}
	if o := m.Card().Options; o["taggers.runs"] != "1" || o["taggers.drop_weights_below"] != "0.5" || models[1].Card().Options["taggers.runs"] != "3" {
		t.Errorf("card taggers.runs %q, taggers.drop_weights_below %q; default taggers.runs %q", o["taggers.runs"], o["taggers.drop_weights_below"], models[1].Card().Options["taggers.runs"])
	}
	c := weightsByName(t, m)
	for _, name := range []string{"tagger.upos", "tagger.xpos"} {
		if wa, wc := a[name], c[name]; bytes.Equal(wa, wc) || len(wc) >= len(wa) {
			t.Errorf("%s: %d bytes of weights with one pruned run, %d with three", name, len(wc), len(wa))
		}
	}
	if !bytes.Equal(a["parser.gold"], c["parser.gold"]) {
		t.Error("TaggerRuns changed the gold-tag classifier")
	}
}

// weightsByName returns the weights blob of each classifier of m by its
// name; the parsers and taggers must be there.
func weightsByName(t *testing.T, m *core.Model) map[string][]byte {
	t.Helper()
	w := map[string][]byte{}
	for _, c := range m.Document().Classifiers {
		w[c.Name] = c.Blobs["weights"]
	}
	for _, name := range []string{"parser.gold", "parser.plain", "tagger.upos", "tagger.xpos"} {
		if len(w[name]) == 0 {
			t.Fatalf("the model has no weights for %s", name)
		}
	}
	return w
}

// Check refuses what no training could accept, naming the option, before
// reading any data (the paths here do not exist); defaults pass.
func TestOptionsCheck(t *testing.T) {
	ok := DefaultOptions()
	ok.TrainPath, ok.DevPath = "/nonexistent", "/nonexistent"
	if err := ok.Check(); err != nil {
		t.Fatalf("defaults: %v", err)
	}
	withTpl := ok
	withTpl.Gold.Templates = []string{"s0.w", "s0.p+n0.p", "n0l.d"}
	withTpl.Plain.Templates = []string{"n0.w"}
	withTpl.WeightBits = 8
	withTpl.JackknifeFolds, withTpl.Gold.Explore, withTpl.Plain.MinFeatureUpdates, withTpl.Gold.DropWeightsBelow = 2, 1, -1, -1
	withTpl.Output = filepath.Join(t.TempDir(), "m.tpm")
	if err := withTpl.Check(); err != nil {
		t.Fatalf("valid options: %v", err)
	}
	dir := t.TempDir()
	cases := []struct {
		name string
		edit func(*Options)
		want string
	}{
		{"system", func(o *Options) { o.System = "arc-wobbly" }, "train: system: "},
		{"encoding", func(o *Options) { o.PseudoProjective = "sideways" }, `train: pseudo_projective: `},
		{"no train", func(o *Options) { o.TrainPath = "" }, "train: train: missing"},
		{"no dev", func(o *Options) { o.DevPath = "" }, "train: dev: missing"},
		{"epochs", func(o *Options) { o.Gold.Epochs = -1 }, "train: gold.epochs: -1: want 0 (the default) or more"},
		{"tagger epochs", func(o *Options) { o.Taggers.Epochs = -3 }, "train: taggers.epochs: -3"},
		{"max sentences", func(o *Options) { o.MaxSentences = -1 }, "train: max_sentences: -1"},
		{"folds negative", func(o *Options) { o.JackknifeFolds = -2 }, "train: jackknife_folds: -2"},
		{"folds 1", func(o *Options) { o.JackknifeFolds = 1 }, "train: jackknife_folds: 1: want 0 (the default, 4) or at least 2"},
		{"plain runs", func(o *Options) { o.Plain.Runs = -1 }, "train: plain.runs: -1"},
		{"tagger runs", func(o *Options) { o.Taggers.Runs = -2 }, "train: taggers.runs: -2: want 0 (the default) or more"},
		{"beam runs", func(o *Options) { o.Beam.Runs = -1 }, "train: beam.runs: -1: want 0 (the default) or more"},
		{"tagger min abs", func(o *Options) { o.Taggers.DropWeightsBelow = -1 }, "train: taggers.drop_weights_below: -1: want 0 (the default: keep all) or more"},
		{"tagger min abs NaN", func(o *Options) { o.Taggers.DropWeightsBelow = float32(math.NaN()) }, "train: taggers.drop_weights_below: NaN: want 0 (the default: keep all) or more"},
		{"explore", func(o *Options) { o.Plain.Explore = 5 }, "train: plain.explore: 5: a probability, at most 1"},
		{"explore NaN", func(o *Options) { o.Gold.Explore = math.NaN() }, "train: gold.explore: NaN: want a finite number"},
		{"min abs Inf", func(o *Options) { o.Gold.DropWeightsBelow = float32(math.Inf(1)) }, "train: gold.drop_weights_below: +Inf"},
		{"bits low", func(o *Options) { o.WeightBits = 1 }, "train: weight_bits: 1: want 2..16"},
		{"bits high", func(o *Options) { o.WeightBits = 17 }, "train: weight_bits: 17"},
		{"empty gold", func(o *Options) { o.Gold.Templates = []string{} }, "train: gold.templates: the list is empty"},
		{"bad gold", func(o *Options) { o.Gold.Templates = []string{"s0.w", "s0.q"} }, `train: gold.templates[1]: feature: template "s0.q"`},
		{"bad plain", func(o *Options) { o.Plain.Templates = []string{"x9.w"} }, `train: plain.templates[0]: feature: template "x9.w"`},
		{"bad gold fast", func(o *Options) { o.Gold.FastTemplates = []string{"n0.w", "n0"} }, `train: gold.fast_templates[1]`},
		{"empty plain fast", func(o *Options) { o.Plain.FastTemplates = []string{} }, "train: plain.fast_templates: the list is empty"},
		{"plain fast, gold only", func(o *Options) { o.GoldOnly, o.Plain.FastTemplates = true, []string{"n0.w"} }, "train: plain.fast_templates: given for a gold-only model"},
		{"fast loss", func(o *Options) { o.Gold.FastMaxLoss = -1 }, "train: gold.fast_max_loss: -1"},
		{"plain fast loss", func(o *Options) { o.Plain.FastMaxLoss = -1 }, "train: plain.fast_max_loss: -1"},
		{"clusters in gold", func(o *Options) { o.Gold.Templates = []string{"s0.w", "n0.c4"} }, `train: gold.templates[1]: template "n0.c4" reads word clusters, which only a model trained with clusters and taggers has`},
		{"clusters without a file", func(o *Options) { o.Plain.FastTemplates = []string{"s0.c+n0.p"} }, `train: plain.fast_templates[0]: template "s0.c+n0.p" reads word clusters`},
		{"plain fast loss NaN", func(o *Options) { o.Plain.FastMaxLoss = math.NaN() }, "train: plain.fast_max_loss: NaN"},
		{"beam", func(o *Options) { o.Beam.Width = parser.MaxBeam + 1 }, "train: beam.width: 65: want 0 (no beam classifier) to 64"},
		{"beam epochs", func(o *Options) { o.Beam.Epochs = -1 }, "train: beam.epochs: -1"},
		{"beam bits", func(o *Options) { o.Beam.WeightBits = 17 }, "train: beam.weight_bits: 17: want 2..16 (0: the model's weight_bits)"},
		{"beam min abs", func(o *Options) { o.Beam.DropWeightsBelow = -0.5 }, "train: beam.drop_weights_below: -0.5: want 0 (the default: keep all) or more"},
		{"beam min abs NaN", func(o *Options) { o.Beam.DropWeightsBelow = float32(math.NaN()) }, "train: beam.drop_weights_below: NaN"},
		{"output dir", func(o *Options) { o.Output = dir }, "train: output: " + dir + " is a directory"},
		{"output missing dir", func(o *Options) { o.Output = filepath.Join(dir, "no", "m.tpm") }, "train: output: the directory " + filepath.Join(dir, "no") + ": no such file"},
		{"output device", func(o *Options) { o.Output = "/dev/null" }, "train: output: modelfmt: /dev/null: is a character device, not a regular file"},
	}
	for _, c := range cases {
		o := ok
		c.edit(&o)
		err := o.Check()
		var oe *OptionError
		if err == nil || !strings.HasPrefix(err.Error(), c.want) || !errors.As(err, &oe) {
			t.Errorf("%s: Check() = %v, want an *OptionError starting %q", c.name, err, c.want)
		}
		if _, terr := trainCore(o); terr == nil || terr.Error() != err.Error() {
			t.Errorf("%s: Train() = %v, want Check's error %v", c.name, terr, err)
		}
	}
}

// An output directory that cannot be written is refused by Check (not as
// root: root writes anywhere).
func TestOptionsCheckUnwritableOutput(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root can write in any directory")
	}
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	o := DefaultOptions()
	o.TrainPath, o.DevPath, o.Output = "t", "d", filepath.Join(dir, "m.tpm")
	if err := o.Check(); err == nil || !strings.Contains(err.Error(), "train: output: cannot write in "+dir) {
		t.Fatalf("Check() = %v", err)
	}
}

// A gold-tag parser trained with a fast classifier in front: the margin is
// the smallest of fastMargins whose cascade scores on dev within
// FastMaxLoss of the parser alone, or there is no fast classifier when
// none does; the card says which, and a saved model keeps it.
func TestFastClassifier(t *testing.T) {
	trainPath, devPath := need(t, "en_ewt-ud-train.conllu"), need(t, "en_ewt-ud-dev.conllu")
	fastTpls := []string{"n0.u", "s0.u", "n1.u", "s0.u+n0.u", "n0l.d", "s0.d"}
	m, err := trainCore(Options{System: "arc-eager", TrainPath: trainPath, DevPath: devPath, MaxSentences: 400, GoldOnly: true,
		Gold: ParserOptions{Epochs: 2, FastTemplates: fastTpls, FastMaxLoss: 0.5}})
	if err != nil {
		t.Fatal(err)
	}
	v := m.Variant(core.Gold)
	note := m.Card().Options["gold.fast"]
	if v.Fast == nil {
		if note != "none" {
			t.Fatalf("no fast classifier, but the card says %q", note)
		}
		t.Skip("no margin kept the fast classifier within 0.5 LAS on this little data")
	}
	if want := fmt.Sprintf("6 templates, margin %g", v.FastMargin); note != want || !slices.Contains(fastMargins, v.FastMargin) {
		t.Fatalf("card %q, margin %v", note, v.FastMargin)
	}
	if got := v.Fast.Ext.Templates(); !slices.Equal(got, fastTpls) {
		t.Fatalf("fast templates %v", got)
	}
	m2 := reload(t, m)
	if v2 := m2.Variant(core.Gold); v2.Fast == nil || v2.FastMargin != v.FastMargin {
		t.Fatalf("after save and load: %+v", v2)
	}
}

// Each parser's fast classifier is held to its own FastMaxLoss, 0.1 when
// it is not given.
func TestPlainFastMaxLoss(t *testing.T) {
	for _, c := range []struct {
		loss, plainLoss float64
		want            string
	}{{0.3, 100, "100 allowed below"}, {0.3, 0, "0.1 allowed below"}} {
		o := small()
		o.Morph.Skip = true
		o.Gold.FastTemplates = []string{"n0.u", "s0.u"}
		o.Plain.FastTemplates = []string{"n0.u", "s0.u"}
		o.Gold.FastMaxLoss, o.Plain.FastMaxLoss = c.loss, c.plainLoss
		var log bytes.Buffer
		o.Log = &log
		if _, err := trainCore(o); err != nil {
			t.Fatal(err)
		}
		plain, gold := "", ""
		for _, line := range strings.Split(log.String(), "\n") {
			switch {
			case strings.HasPrefix(line, "parser (plain tokens): fast classifier"):
				plain = line
			case strings.HasPrefix(line, "parser (gold tags): fast classifier"):
				gold = line
			}
		}
		if !strings.Contains(plain, c.want) || !strings.Contains(gold, "0.3 allowed below") {
			t.Errorf("gold.fast_max_loss %g, plain.fast_max_loss %g: logs %q and %q, want %q for the plain one", c.loss, c.plainLoss, plain, gold, c.want)
		}
	}
}

// pickMargin takes the first margin whose LAS is within the loss allowed.
func TestPickMargin(t *testing.T) {
	las := []float64{80, 86.5, 86.9, 87.1, 86.95, 87.2, 87.84}
	for _, c := range []struct {
		full, loss float64
		want       int
	}{{87.0, 0.1, 2}, {87.0, 0.5, 1}, {87.0, 0, 3}, {88.0, 0.05, -1}, {87.2, 0, 5}, {80, 0, 0},
		// 87.94 - 0.1 is 87.83999999999999 in floating point: 87.84 is within.
		{87.94, 0.1, 6}} {
		if got := pickMargin(c.full, las, c.loss); got != c.want {
			t.Errorf("full %v, loss %v: %d, want %d", c.full, c.loss, got, c.want)
		}
	}
}

// reload returns m saved to bytes and loaded again.
func reload(t *testing.T, m *core.Model) *core.Model {
	t.Helper()
	data, err := marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	m2, err := loadCore(data)
	if err != nil {
		t.Fatal(err)
	}
	return m2
}

// By default the model has a lemmatizer and a FEATS tagger, and its
// plain-token parser reads LEMMA and FEATS, trained on jackknifed
// predictions (from tags predicted by the same fold's taggers) as it parses
// predicted ones; the card records the plain-token tag scores. NoMorph
// trains neither, and the plain-token parser reads no lemma or FEATS.
func TestMorphTrained(t *testing.T) {
	o := small()
	var log bytes.Buffer
	o.Log = &log
	m, err := trainCore(o)
	if err != nil {
		t.Fatal(err)
	}
	tg := m.Taggers()
	if tg.Lemmas == nil || tg.Feats == nil || !m.Variant(core.Plain).Ext.UsesMorph() {
		t.Fatalf("lemmatizer %v, FEATS tagger %v, plain templates over them: %v", tg.Lemmas, tg.Feats, m.Variant(core.Plain).Ext.UsesMorph())
	}
	for _, line := range []string{"training the lemmatizer on 150 sentences", "training the FEATS tagger on 150 sentences",
		"jackknifed UPOS, XPOS, LEMMA and FEATS for 150 training sentences"} {
		if !strings.Contains(log.String(), line) {
			t.Errorf("the log lacks %q:\n%s", line, log.String())
		}
	}
	for _, k := range []string{"XPOS", "UFeats", "AllTags", "Lemmas"} {
		if v := m.Card().Scores["dev/predicted/"+k]; v < 40 || v > 100 {
			t.Errorf("card dev/predicted/%s = %v", k, v)
		}
	}
	// The agreement table, the lemmas' capitals, the known words'
	// lemmas from the dictionary and FEATS consistent with the tags were
	// tried on dev, and the components say
	// what was decided.
	for opt, has := range map[string]bool{"feats_agreement": tg.Feats.HasAgreement(), "lemma_case": tg.Lemmas.HasLemmaCase(),
		"lemma_dictionary": tg.Lemmas.DictionaryFirst(), "feats_tags": tg.Feats.ConsistentTags()} {
		v := m.Card().Options[opt]
		if !strings.HasPrefix(v, "kept: ") && !strings.HasPrefix(v, "dropped: ") || strings.HasPrefix(v, "kept") != has {
			t.Errorf("card option %s = %q, component has it: %v", opt, v, has)
		}
	}

	// The jackknifed training words: lemmas and FEATS predicted, mostly
	// but not always the gold ones (the folds' models have not seen them).
	sents := readFix(t, fixTrain)
	o.defaults()
	cols, _, _ := tagColumns(sents)
	jk, _, err := jackknife(sents, readFix(t, fixDev), cols, o, tg, true)
	if err != nil {
		t.Fatal(err)
	}
	words, lemmas, feats := 0, 0, 0
	for k, s := range jk {
		for i, w := range s.Words {
			words++
			if conllu.Absent(w.Lemma) && w.Form != "_" || w.Feats == "" {
				t.Fatalf("sentence %d word %d: LEMMA %q FEATS %q not predicted", k+1, i+1, w.Lemma, w.Feats)
			}
			if w.Lemma == sents[k].Words[i].Lemma {
				lemmas++
			}
			if w.Feats == sents[k].Words[i].Feats {
				feats++
			}
		}
	}
	if lemmas < words/2 || lemmas == words || feats < words/2 || feats == words {
		t.Errorf("jackknifed: %d lemmas and %d FEATS of %d words are the gold ones", lemmas, feats, words)
	}

	// The lemmatizer reads its candidates' place and lemma ending unless
	// Morph.LemmaRankWithoutShape.
	const shape = "place+lemma-seen-with-u"
	if !slices.Contains(tg.Lemmas.Data().Rank.Templates, shape) || m.Card().Options["morph.lemma_rank_without_shape"] != "false" {
		t.Errorf("by default: lemmatizer rank templates %q, card %q", tg.Lemmas.Data().Rank.Templates, m.Card().Options["morph.lemma_rank_without_shape"])
	}
	// The XPOS tagger, and only it, reads spacing.
	const spacing = "w0.spacing+w0.shortshape"
	if !slices.Contains(tg.XPOS.Classifier().Templates, spacing) || slices.Contains(tg.UPOS.Classifier().Templates, spacing) {
		t.Errorf("the XPOS tagger does not read spacing, or the UPOS tagger does")
	}
	o = small()
	o.Morph.LemmaRankWithoutShape = true
	m, err = trainCore(o)
	if err != nil {
		t.Fatal(err)
	}
	if l := m.Taggers().Lemmas; l == nil || slices.Contains(l.Data().Rank.Templates, shape) || m.Card().Options["morph.lemma_rank_without_shape"] != "true" {
		t.Errorf("LemmaRankWithoutShape: lemmatizer %v, card %q", l, m.Card().Options["morph.lemma_rank_without_shape"])
	}

	o = small()
	o.Morph.Skip = true
	m, err = trainCore(o)
	if err != nil {
		t.Fatal(err)
	}
	if tg := m.Taggers(); tg.Lemmas != nil || tg.Feats != nil || m.Variant(core.Plain).Ext.UsesMorph() || m.Card().Options["morph.skip"] != "true" {
		t.Errorf("NoMorph: lemmatizer %v, FEATS tagger %v, plain templates over them %v, card %q",
			tg.Lemmas, tg.Feats, m.Variant(core.Plain).Ext.UsesMorph(), m.Card().Options["morph.skip"])
	}
}

// trainCore trains with opt and returns the saved model's document
// loaded as the model's parts, for the tests that look at them.
func trainCore(opt Options) (*core.Model, error) {
	m, err := Train(opt)
	if err != nil {
		return nil, err
	}
	data, err := m.MarshalBinary()
	if err != nil {
		return nil, err
	}
	return loadCore(data)
}

// loadCore decodes the bytes of a model file into the model's parts.
func loadCore(data []byte) (*core.Model, error) {
	doc, err := modelfmt.Decode(data)
	if err != nil {
		return nil, err
	}
	return core.FromDocument(doc)
}

// marshal returns the bytes of m's model file.
func marshal(m *core.Model) ([]byte, error) { return modelfmt.Marshal(m.Document()) }
