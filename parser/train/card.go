package train

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/transparse/transparse/parser/internal/core"

	"github.com/transparse/transparse/modelfmt"
)

// card writes the model card: the options as training used them (their
// defaults filled in, cardOptions), the notes of the stages, the dev and
// test scores, and assembles the model with it.
func (r *run) card() error {
	opt := &r.opt
	trainedAt, reproducible := opt.start, false
	if s := os.Getenv("SOURCE_DATE_EPOCH"); s != "" {
		if sec, err := strconv.ParseInt(s, 10, 64); err == nil {
			trainedAt, reproducible = time.Unix(sec, 0), true
		}
	}
	card := modelfmt.Card{
		Name:      opt.Name,
		Treebank:  opt.TrainPath,
		System:    r.sys.Name(),
		TrainedAt: trainedAt.UTC().Format(time.RFC3339),
		Version:   Version,
		Options:   cardOptions(*opt),
		Scores:    map[string]float64{},
	}
	card.Options["pseudo_projective"] = r.enc.String()
	card.Options["gold.fast"], card.Options["plain.fast"] = fastNote(r.gold), fastNote(r.plain)
	if opt.clusters != nil {
		card.Options["clusters"] = fmt.Sprintf("%s, %d words", filepath.Base(opt.ClustersPath), opt.clusters.Len())
	}
	for k, v := range r.beamOptions() {
		card.Options[k] = v
	}
	for k, v := range r.notes {
		card.Options[k] = v
	}
	scorer := core.Assemble(r.parts(card))
	if err := scoreInto(scorer, "dev", r.dev, card.Scores); err != nil {
		return err
	}
	if r.test != nil {
		if err := scoreInto(scorer, "test", r.test, card.Scores); err != nil {
			return err
		}
	}
	for k, v := range r.segScores {
		card.Scores["dev/text/"+k] = v
	}
	if !reproducible {
		card.Options["training_seconds"] = fmt.Sprintf("%.0f", time.Since(opt.start).Seconds())
	}
	card.Notes = "Scores follow the CoNLL 2018 convention (all words, LAS on universal deprels). " +
		"gold = UPOS/XPOS/LEMMA/FEATS given; predicted = plain tokens, tags from the bundled taggers (" +
		strings.Join(r.predictedColumns(), ", ") + ")."
	r.model = core.Assemble(r.parts(card))
	return nil
}

// predictedColumns names the columns the model predicts from plain
// tokens, for the card's notes.
func (r *run) predictedColumns() []string {
	cols := r.cols
	if r.tg.Lemmas != nil {
		cols = append(cols, "LEMMA")
	}
	if r.tg.Feats != nil {
		cols = append(cols, "FEATS")
	}
	if r.tg.XPOSTable != nil {
		cols = append(cols, "XPOS (by table)")
	}
	return cols
}

// beamOptions returns the card options the parser reads for its beam
// widths (core.TrainedBeamOption, core.DefaultBeamOption), for a
// model with beam classifiers; none otherwise.
func (r *run) beamOptions() map[string]string {
	if r.gold.Beam == nil {
		return nil
	}
	w := r.opt.Beam.DefaultWidth
	if w == 0 {
		w = r.opt.Beam.Width
	}
	return map[string]string{core.TrainedBeamOption: fmt.Sprint(r.opt.Beam.Width), core.DefaultBeamOption: fmt.Sprint(w)}
}

// cardOptions returns the options for the model card, by their JSON
// names, a group's options by "group.name": strings as they are, numbers
// and booleans in JSON, a template list as "N given" (nil: "the
// system's"). Empty paths are left out, and so are the output path and
// the name (the card's own field): where a model is saved is no part of
// it, so that the same options saved to two paths make the same file.
func cardOptions(o Options) map[string]string {
	o.Output, o.Name = "", ""
	data, err := json.Marshal(o)
	if err != nil {
		panic(err) // Options has only strings, numbers, booleans and lists of strings
	}
	var tree map[string]any
	if err := json.Unmarshal(data, &tree); err != nil {
		panic(err)
	}
	out := map[string]string{}
	flattenOptions(out, "", tree)
	return out
}

// flattenOptions adds the options of tree to out, their names prefixed
// with prefix.
func flattenOptions(out map[string]string, prefix string, tree map[string]any) {
	for k, v := range tree {
		name := prefix + k
		switch v := v.(type) {
		case map[string]any:
			flattenOptions(out, name+".", v)
		case []any:
			out[name] = fmt.Sprintf("%d given", len(v))
		case nil:
			out[name] = "the system's"
		case string:
			if v != "" {
				out[name] = v
			}
		default:
			b, _ := json.Marshal(v)
			out[name] = string(b)
		}
	}
}
