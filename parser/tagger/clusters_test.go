package tagger

import (
	"strings"
	"testing"

	"github.com/transparse/transparse/internal/testenv"
	"github.com/transparse/transparse/modelfmt"
	"github.com/transparse/transparse/parser/conllu"
	"github.com/transparse/transparse/parser/form"
)

func TestReadClusters(t *testing.T) {
	c, err := ReadClusters(strings.NewReader("0110\tdog\t12\r\n0111\tcat\n\n10\tthe\t900\n0\tdog\t3\n"))
	if err != nil {
		t.Fatal(err)
	}
	if c.Len() != 3 {
		t.Errorf("%d words, want 3", c.Len())
	}
	for w, want := range map[string]string{"dog": "0110", "cat": "0111", "the": "10", "Dog": "", "bird": ""} {
		if got := c.Path(w); got != want {
			t.Errorf("Path(%q) = %q, want %q", w, got, want)
		}
	}
	for _, tc := range []struct{ in, want string }{
		{"", "no word"},
		{"0110 dog\n", "line 1: want path<TAB>word"},
		{"10\tthe\n012\tdog\n", "line 2: path \"012\""},
		{"10\t\n", "line 1: empty or invalid UTF-8 word"},
		{"10\t\xff\n", "line 1: empty or invalid UTF-8 word"},
		{"\tdog\n", "line 1: path \"\""},
		{strings.Repeat("1", MaxClusterPath+1) + "\tdog\n", "line 1: path"},
	} {
		_, err := ReadClusters(strings.NewReader(tc.in))
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "clusters: ") {
			t.Errorf("ReadClusters(%q): error %v, want one with %q", tc.in, err, tc.want)
		}
	}
}

func TestPathPrefix(t *testing.T) {
	code, _ := pathCode("0110101")
	for n, want := range map[int]string{1: "0", 4: "0110", 7: "0110101", 10: "0110101"} {
		w, _ := pathCode(want)
		if got := form.PathPrefix(uint64(code), n); got != uint64(w) {
			t.Errorf("prefix %d: %b, want %b", n, got, w)
		}
	}
	if form.PathPrefix(0, 4) != 0 {
		t.Error("prefix of no path is not 0")
	}
}

// clusterTaggers trains a UPOS and an XPOS tagger with the same clusters
// on the fixture treebank.
func clusterTaggers(t *testing.T) (upos, xpos *Tagger, dev []*conllu.Sentence) {
	t.Helper()
	train, err := conllu.ReadFile(testenv.Fixture(t, "en_ewt-train-150.conllu"))
	if err != nil {
		t.Fatal(err)
	}
	dev, err = conllu.ReadFile(testenv.Fixture(t, "en_ewt-dev-40.conllu"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := ReadClusters(strings.NewReader("00\tthe\n01\ta\n100\tdog\n101\tcat\n110\tis\n111\twas\n1110\tgood\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, col := range []string{UPOS, XPOS} {
		tg, err := Train(train, dev, Options{Column: col, Epochs: 2, Seed: 1, Clusters: c})
		if err != nil {
			t.Fatal(err)
		}
		if col == UPOS {
			upos = tg
		} else {
			xpos = tg
		}
	}
	return upos, xpos, dev
}

func tagsOf(tg *Tagger, sents []*conllu.Sentence) []string {
	var out []string
	for _, s := range sents {
		ws := append([]conllu.Word(nil), s.Words...)
		for i := range ws {
			ws[i].UPOS, ws[i].XPOS = "", ""
		}
		tg.Tag(ws)
		for _, w := range ws {
			out = append(out, w.UPOS+"/"+w.XPOS)
		}
	}
	return out
}

// A model's two taggers store their clusters once, and both decode them,
// through FromDocument and PairFromDocument, tagging as it did.
func TestClustersStored(t *testing.T) {
	upos, xpos, dev := clusterTaggers(t)
	if v := upos.Classifier().Params["tagger.feature_version"]; v != featureVersionClusters {
		t.Fatalf("feature version %d, want %d", v, featureVersionClusters)
	}
	cs := Classifiers(upos, xpos)
	u, x := findClassifier(cs, ClassifierName(UPOS)), findClassifier(cs, ClassifierName(XPOS))
	if u.Blobs[clusterWordsBlob] == nil || x.Blobs[clusterWordsBlob] != nil || x.Params[ClustersShared] != 1 {
		t.Fatal("the XPOS tagger does not share the UPOS tagger's clusters")
	}
	wantU, wantX := tagsOf(upos, dev), tagsOf(xpos, dev)
	check := func(how string, u2, x2 *Tagger) {
		t.Helper()
		if u2.clusters == nil || x2.clusters == nil || x2.clusters.Path("dog") != "100" || u2.clusters.Path("good") != "1110" {
			t.Fatalf("%s: clusters not restored", how)
		}
		if got := tagsOf(u2, dev); strings.Join(got, " ") != strings.Join(wantU, " ") {
			t.Errorf("%s: UPOS tags differ from the trained tagger's", how)
		}
		if got := tagsOf(x2, dev); strings.Join(got, " ") != strings.Join(wantX, " ") {
			t.Errorf("%s: XPOS tags differ from the trained tagger's", how)
		}
	}
	u2, x2, errU, errX := PairFromDocument(cs)
	if errU != nil || errX != nil {
		t.Fatal(errU, errX)
	}
	if u2.clusters != x2.clusters {
		t.Error("PairFromDocument decoded the shared clusters twice")
	}
	check("PairFromDocument", u2, x2)
	u3, err := FromDocument(cs, UPOS)
	if err != nil {
		t.Fatal(err)
	}
	x3, err := FromDocument(cs, XPOS)
	if err != nil {
		t.Fatal(err)
	}
	check("FromDocument", u3, x3)

	type cls = []modelfmt.Classifier
	clone := func() cls {
		out := make(cls, len(cs))
		for i := range cs {
			out[i] = cloneClassifier(cs[i])
		}
		return out
	}
	ui, xi := 0, 1
	for _, tc := range []struct {
		name string
		mut  func(c cls)
	}{
		{"UPOS cluster words missing", func(c cls) { delete(c[ui].Blobs, clusterWordsBlob) }},
		{"cluster codes truncated", func(c cls) { b := c[ui].Blobs[clusterCodesBlob]; c[ui].Blobs[clusterCodesBlob] = b[:len(b)-1] }},
		{"cluster code too long", func(c cls) { c[ui].Blobs[clusterCodesBlob] = append(c[ui].Blobs[clusterCodesBlob], 1) }},
		{"cluster words unsorted", func(c cls) {
			c[ui].Blobs[clusterWordsBlob] = append([]byte("zzz\n"), c[ui].Blobs[clusterWordsBlob]...)
		}},
		{"cluster code zero", func(c cls) { c[ui].Blobs[clusterCodesBlob][0] = 0 }},
		{"clusters in version 3", func(c cls) { c[ui].Params["tagger.feature_version"] = featureVersionGuess }},
		{"shared in the UPOS tagger", func(c cls) { c[ui].Params[ClustersShared] = 1 }},
		{"shared and own", func(c cls) { c[xi].Blobs[clusterWordsBlob] = c[ui].Blobs[clusterWordsBlob] }},
		{"shared flag 2", func(c cls) { c[xi].Params[ClustersShared] = 2 }},
		{"shared without", func(c cls) { delete(c[xi].Params, ClustersShared) }},
		{"shared from a UPOS tagger without", func(c cls) {
			delete(c[ui].Blobs, clusterWordsBlob)
			delete(c[ui].Blobs, clusterCodesBlob)
			c[ui].Params["tagger.feature_version"] = featureVersionGuess
		}},
	} {
		c := clone()
		tc.mut(c)
		_, _, errU, errX := PairFromDocument(c)
		_, errU1 := FromDocument(c, UPOS)
		_, errX1 := FromDocument(c, XPOS)
		if (errU == nil && errX == nil) || (errU1 == nil && errX1 == nil) {
			t.Errorf("%s: no error (pair %v, %v; alone %v, %v)", tc.name, errU, errX, errU1, errX1)
			continue
		}
		for _, err := range []error{errU, errX, errU1, errX1} {
			if err != nil && !strings.HasPrefix(err.Error(), "tagger: ") {
				t.Errorf("%s: error %q lacks the package prefix", tc.name, err)
			}
		}
	}
}

// The clusters of the bundled model tell a tagger about words its
// training data lacks: trained on 2,000 EWT sentences, a UPOS tagger with
// them tags the dev words outside its training data better.
func TestClustersHelpUnknownWords(t *testing.T) {
	if testenv.Race {
		t.Skip("computes only (one training run): checked without -race")
	}
	tg := bundledTagger(t, UPOS)
	if tg.clusters == nil {
		t.Fatal("the bundled UPOS tagger has no clusters")
	}
	train, dev := readEWT(t, "train")[:2000], readEWT(t, "dev")
	seen := map[string]bool{}
	for _, s := range train {
		for _, w := range s.Words {
			seen[w.Form] = true
		}
	}
	unknownAccuracy := func(c *Clusters) float64 {
		tagger, err := Train(train, dev, Options{Epochs: 4, Seed: 1, Clusters: c})
		if err != nil {
			t.Fatal(err)
		}
		right, n := 0, 0
		for _, s := range dev {
			ws := append([]conllu.Word(nil), s.Words...)
			for i := range ws {
				ws[i].UPOS = ""
			}
			tagger.Tag(ws)
			for i, w := range ws {
				if !seen[w.Form] {
					n++
					if w.UPOS == s.Words[i].UPOS {
						right++
					}
				}
			}
		}
		return 100 * float64(right) / float64(n)
	}
	without, with := unknownAccuracy(nil), unknownAccuracy(tg.clusters)
	t.Logf("UPOS of dev words unknown to the training slice: %.2f without clusters, %.2f with", without, with)
	if with < without+minClusterGain {
		t.Errorf("clusters raise the accuracy on unknown words by %.2f points, want at least %.1f", with-without, minClusterGain)
	}
}

// minClusterGain is the least gain, in points, TestClustersHelpUnknownWords
// accepts (4.7 measured with the bundled clusters).
const minClusterGain = 2.0

// BenchmarkDecodeClusters decodes the bundled model's clusters, a part of
// its load time.
func BenchmarkDecodeClusters(b *testing.B) {
	c := bundledClassifier(b, UPOS)
	words, codes := c.Blobs[clusterWordsBlob], c.Blobs[clusterCodesBlob]
	if words == nil {
		b.Skip("the bundled model has no clusters")
	}
	for b.Loop() {
		if _, err := decodeClusters(words, codes); err != nil {
			b.Fatal(err)
		}
	}
}

// An analysis gives each word the path code of its form, else of its
// lowercased form (Clusters.Code), for the parser's cluster features; a
// model without clusters gives 0.
func TestAnalysisClusterCodes(t *testing.T) {
	upos, xpos, _ := clusterTaggers(t)
	words := conllu.FromForms([]string{"The", "dog", "was", "GOOD", "zebra"}).Words
	var a Analysis
	a.Analyze(words, upos, xpos)
	for i, want := range []string{"00", "100", "111", "1110", ""} {
		c := upos.clusters.Code(form.Of(words[i].Form))
		w, _ := pathCode(want)
		if a.Words[i].Cluster != c || c != uint64(w) {
			t.Errorf("%s: analysis %b, Code %b, want path %q", words[i].Form, a.Words[i].Cluster, c, want)
		}
	}
	plain, err := Train([]*conllu.Sentence{{Words: []conllu.Word{{ID: 1, Form: "dog", UPOS: "NOUN", Head: 0, Deprel: "root"}}}}, nil, Options{Epochs: 1})
	if err != nil {
		t.Fatal(err)
	}
	a.Analyze(words, plain, nil)
	for i := range words {
		if a.Words[i].Cluster != 0 {
			t.Errorf("%s: cluster %b from a tagger without clusters", words[i].Form, a.Words[i].Cluster)
		}
	}
}
