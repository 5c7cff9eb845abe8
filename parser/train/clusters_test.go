package train

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/transparse/transparse/parser/form"
)

// Training with word clusters stores them in the model (the card says
// which), and a malformed clusters file fails before any treebank is read,
// saying where.
func TestTrainClusters(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "en.paths")
	if err := os.WriteFile(good, []byte("00\tthe\t9\n01\ta\t8\n100\tis\t7\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	o := small()
	o.Morph.Skip = true
	o.ClustersPath = good
	m, err := trainCore(o)
	if err != nil {
		t.Fatal(err)
	}
	if got := m.Card().Options["clusters"]; got != "en.paths, 3 words" {
		t.Errorf("card option clusters = %q", got)
	}
	doc := m.Document()
	// Version 4 is the clusters'; the XPOS tagger, which reads spacing
	// too, has version 5 and the clusters of the UPOS tagger.
	for name, want := range map[string]int64{"tagger.upos": 4, "tagger.xpos": 5} {
		for _, c := range doc.Classifiers {
			if c.Name == name && c.Params["tagger.feature_version"] != want {
				t.Errorf("%s: feature version %d, want %d (with clusters)", name, c.Params["tagger.feature_version"], want)
			}
		}
	}
	if x := m.Taggers().XPOS; x == nil || x.Clusters() == nil {
		t.Error("the XPOS tagger has no clusters")
	}

	// The jackknifed words carry their path codes for the plain-token
	// parser's cluster values, as a parse's analysis gives them.
	o.defaults()
	if o.clusters, err = readClusters(good); err != nil {
		t.Fatal(err)
	}
	sents := readFix(t, fixTrain)
	cols, _, _ := tagColumns(sents)
	_, amb, err := jackknife(sents, readFix(t, fixDev), cols, o, m.Taggers(), false)
	if err != nil {
		t.Fatal(err)
	}
	with := 0
	for k, s := range sents {
		for i, w := range s.Words {
			want := o.clusters.Code(form.Of(w.Form))
			if amb[k][i][2] != want {
				t.Fatalf("sentence %d word %q: cluster code %b, want %b", k+1, w.Form, amb[k][i][2], want)
			}
			if want != 0 {
				with++
			}
		}
	}
	if with == 0 {
		t.Error("no training word has a path")
	}
	// The gold-tag parser's training words carry them too.
	codes := clusterCodes(sents, o)
	for k, s := range sents {
		for i := range s.Words {
			if codes[k][i] != [3]uint64{0, 0, amb[k][i][2]} {
				t.Fatalf("sentence %d word %d: gold-tag codes %v, jackknifed %v", k+1, i+1, codes[k][i], amb[k][i])
			}
		}
	}
	if o.clusters = nil; clusterCodes(sents, o) != nil {
		t.Error("cluster codes without clusters")
	}

	bad := filepath.Join(dir, "bad.paths")
	if err := os.WriteFile(bad, []byte("00\tthe\n0x1\ta\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	o.ClustersPath = bad
	o.TrainPath = filepath.Join(dir, "missing.conllu") // not reached
	if _, err := trainCore(o); err == nil || !strings.Contains(err.Error(), "bad.paths") || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("malformed clusters: error %v, want the file and line 2", err)
	}
	o.ClustersPath = filepath.Join(dir, "none.paths")
	if _, err := trainCore(o); err == nil || !strings.Contains(err.Error(), "none.paths") {
		t.Errorf("missing clusters file: error %v", err)
	}
}
