package train

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/transparse/transparse/parser/conllu"
)

// A treebank whose XPOS tag set is larger than a tagger takes (as
// positional tag sets are) trains: its XPOS is predicted by a table from
// the form and the predicted UPOS and FEATS, which the model file keeps.
// A parse from plain tokens gives every word an XPOS, the same after a
// save and load, and a UPOS, XPOS and FEATS combination seen in training
// wherever training saw the UPOS and FEATS together.
func TestXPOSTableTrained(t *testing.T) {
	dir := t.TempDir()
	big := func(w *conllu.Word) { w.XPOS += "+" + strings.ReplaceAll(w.Feats, "|", ".") }
	o := small()
	o.TrainPath = writeSents(t, dir, "train.conllu", readFix(t, fixTrain), big)
	o.DevPath = writeSents(t, dir, "dev.conllu", readFix(t, fixDev), big)
	var log bytes.Buffer
	o.Log = &log
	m, err := trainCore(o)
	if err != nil {
		t.Fatal(err)
	}
	tg := m.Taggers()
	if tg.XPOS != nil || tg.XPOSTable == nil || len(m.XPOSTags()) <= 64 {
		t.Fatalf("XPOS tagger %v, XPOS table %v, %d XPOS tags", tg.XPOS, tg.XPOSTable, len(m.XPOSTags()))
	}
	if !strings.Contains(log.String(), "predicted from the form, UPOS and FEATS by a table") || m.Card().Options["xpos_table"] == "" {
		t.Errorf("the log or the card does not say XPOS comes from a table:\n%s", log.String())
	}
	if v := m.Card().Scores["dev/predicted/XPOS"]; v < 40 || v > 100 {
		t.Errorf("card dev/predicted/XPOS = %v", v)
	}

	train, err := conllu.ReadFile(o.TrainPath)
	if err != nil {
		t.Fatal(err)
	}
	seen, seenTags := map[string]bool{}, map[string]bool{}
	for _, s := range train {
		for _, w := range s.Words {
			seen[w.UPOS+"\t"+w.XPOS+"\t"+w.Feats] = true
			seenTags[w.UPOS+"\t"+w.Feats] = true
		}
	}
	data, err := marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	m2, err := loadCore(data)
	if err != nil {
		t.Fatal(err)
	}
	dev, err := conllu.ReadFile(o.DevPath)
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for k, s := range dev {
		a := make([]conllu.Word, len(s.Words))
		for i, w := range s.Words {
			a[i] = conllu.Word{Form: w.Form}
		}
		b := slices.Clone(a)
		if err := m.Parse(a); err != nil {
			t.Fatal(err)
		}
		if err := m2.Parse(b); err != nil {
			t.Fatal(err)
		}
		for i, w := range a {
			if w != b[i] {
				t.Fatalf("sentence %d word %d: %+v, after save and load %+v", k+1, i+1, w, b[i])
			}
			if !slices.Contains(m.XPOSTags(), w.XPOS) {
				t.Fatalf("sentence %d word %d: XPOS %q is not a training tag", k+1, i+1, w.XPOS)
			}
			if seenTags[w.UPOS+"\t"+w.Feats] {
				checked++
				if !seen[w.UPOS+"\t"+w.XPOS+"\t"+w.Feats] {
					t.Errorf("sentence %d word %d: UPOS %s, XPOS %s and FEATS %s never seen together", k+1, i+1, w.UPOS, w.XPOS, w.Feats)
				}
			}
		}
	}
	if checked == 0 {
		t.Error("no word with a UPOS and FEATS seen in training")
	}
}
