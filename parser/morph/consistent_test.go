package morph

import (
	"testing"

	"github.com/transparse/transparse/parser/conllu"
)

// With SetConsistentTags, every FEATS predicted for a word whose UPOS and
// XPOS training saw together is one training saw with them: verbs of the
// fixture given each verb XPOS in turn ("arrested" as a VBD) never keep
// the FEATS of the XPOS the dictionary knows them with. Without it, some
// do. The setting survives Data and is refused in a lemmatizer.
func TestConsistentTags(t *testing.T) {
	train := readFixture(t, "en_ewt-train-150.conllu")
	l, f := trainBoth(t, train)
	seen := map[[3]string]bool{}
	pairs := map[[2]string]bool{}
	for _, s := range train {
		for _, w := range s.Words {
			seen[[3]string{w.UPOS, w.XPOS, w.Feats}] = true
			pairs[[2]string{w.UPOS, w.XPOS}] = true
		}
	}
	xpos := []string{"VB", "VBD", "VBG", "VBN", "VBP", "VBZ"}
	unseen := func(on bool) (bad, words int) {
		f.SetConsistentTags(on)
		var out []string
		for _, s := range train {
			for _, x := range xpos {
				ws := make([]conllu.Word, len(s.Words))
				copy(ws, s.Words)
				for i := range ws {
					if ws[i].UPOS == "VERB" {
						ws[i].XPOS = x
					}
				}
				out = f.Feats(ws, out)
				for i, w := range ws {
					if w.UPOS != "VERB" || !pairs[[2]string{w.UPOS, w.XPOS}] {
						continue
					}
					words++
					if !seen[[3]string{w.UPOS, w.XPOS, out[i]}] {
						bad++
						if on {
							t.Errorf("%q %s/%s: FEATS %q never seen with its tags", w.Form, w.UPOS, w.XPOS, out[i])
						}
					}
				}
			}
		}
		return bad, words
	}
	if bad, words := unseen(false); bad == 0 {
		t.Errorf("without the setting, all FEATS of %d retagged verbs were seen with their tags: the test cannot fail", words)
	}
	if _, words := unseen(true); words == 0 {
		t.Fatal("no retagged verb")
	}

	f.SetConsistentTags(true)
	f2, err := FeatsTaggerFromData(f.Data())
	if err != nil || !f2.ConsistentTags() {
		t.Errorf("ConsistentTags did not survive Data: %v", err)
	}
	f.SetConsistentTags(false)
	if f3, err := FeatsTaggerFromData(f.Data()); err != nil || f3.ConsistentTags() {
		t.Errorf("off: %v", err)
	}
	d := l.Data()
	d.ConsistentTags = true
	if _, err := LemmatizerFromData(d); err == nil {
		t.Error("a lemmatizer with consistent_tags decoded")
	}
}
