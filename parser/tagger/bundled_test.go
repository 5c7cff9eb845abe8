package tagger

import (
	"bytes"
	"encoding/binary"
	"reflect"
	"slices"
	"testing"

	"github.com/transparse/transparse/internal/testenv"

	"github.com/transparse/transparse/modelfmt"
	"github.com/transparse/transparse/parser/conllu"
	"github.com/transparse/transparse/parser/form"
)

// The bundled model (../../models/en_ewt.tpm, or $TRANSPARSE_MODEL) holds a
// UPOS and an XPOS tagger trained on all of EWT train; the benchmarks and
// tests of this file use them, and skip without the model (fail with $CI).

func bundledClassifier(tb testing.TB, column string) *modelfmt.Classifier {
	tb.Helper()
	return testenv.Classifier(tb, ClassifierName(column))
}

func bundledTagger(tb testing.TB, column string) *Tagger {
	tb.Helper()
	tg, err := FromDocument(testenv.BundledDoc(tb).Classifiers, column)
	if err != nil {
		tb.Fatal(err)
	}
	return tg
}

// testForms returns the sentences of EWT test as words with forms only.
func testForms(tb testing.TB) ([][]conllu.Word, int) {
	var out [][]conllu.Word
	n := 0
	for _, s := range readEWT(tb, "test") {
		ws := make([]conllu.Word, len(s.Words))
		for i, w := range s.Words {
			ws[i] = conllu.Word{ID: w.ID, Form: w.Form}
		}
		out = append(out, ws)
		n += len(ws)
	}
	return out, n
}

// BenchmarkTagEWT tags EWT test with each bundled tagger, and with both
// as the parser does ("pair": one Analysis, both taggers, Reconcile), one
// goroutine: words/s on the wall clock, and cpu-ns/word of the thread.
func BenchmarkTagEWT(b *testing.B) {
	for _, col := range []string{UPOS, XPOS, "pair"} {
		b.Run(col, func(b *testing.B) {
			var tag func(ws []conllu.Word)
			if col == "pair" {
				u, x, errU, errX := PairFromDocument(testenv.BundledDoc(b).Classifiers)
				if errU != nil || errX != nil {
					b.Fatal(errU, errX)
				}
				var a Analysis
				tag = func(ws []conllu.Word) {
					a.Analyze(ws, u, x)
					u.TagAnalyzed(&a, ws)
					x.TagAnalyzed(&a, ws)
					a.Reconcile(ws, nil)
				}
			} else {
				tag = bundledTagger(b, col).Tag
			}
			sents, _ := testForms(b)
			benchWords(b, sents, tag)
		})
	}
}

// benchWords runs tag over sents, one sentence per iteration, on one
// locked thread, and reports words/s on the wall clock and cpu-ns/word of
// the thread.
func benchWords(b *testing.B, sents [][]conllu.Word, tag func(ws []conllu.Word)) {
	testenv.BenchWords(b, func(i int) int {
		ws := sents[i%len(sents)]
		tag(ws)
		return len(ws)
	})
}

// BenchmarkFromClassifierBundled measures decoding each bundled tagger
// (linear model and tag dictionary).
func BenchmarkFromClassifierBundled(b *testing.B) {
	for _, col := range []string{UPOS, XPOS} {
		b.Run(col, func(b *testing.B) {
			doc := testenv.BundledDoc(b)
			cpu := testenv.Bench(b, func(int) {
				if _, err := FromDocument(doc.Classifiers, col); err != nil {
					b.Fatal(err)
				}
			})
			b.ReportMetric(float64(cpu)/float64(b.N)/1e6, "cpu-ms/op")
		})
	}
}

// TestAnalysisOneTagger checks on EWT test that tagging from an Analysis
// made for one tagger tags as Tag does and gives each word AmbiguityClass
// of its form and the hashes form.Of gives it, without allocating.
func TestAnalysisOneTagger(t *testing.T) {
	sents, _ := testForms(t)
	for _, col := range []string{UPOS, XPOS} {
		tg := bundledTagger(t, col)
		var an Analysis
		analyze := func(ws []conllu.Word) {
			if col == UPOS {
				an.Analyze(ws, tg, nil)
			} else {
				an.Analyze(ws, nil, tg)
			}
		}
		known := 0
		words := 0
		for _, s := range sents {
			a := append([]conllu.Word(nil), s...)
			b := append([]conllu.Word(nil), s...)
			tg.Tag(a)
			analyze(b)
			tg.TagAnalyzed(&an, b)
			for i := range s {
				if *columnOf(&a[i], col) != *columnOf(&b[i], col) {
					t.Fatalf("%s: %q tagged %q by Tag, %q by TagAnalyzed", col, s[i].Form, *columnOf(&a[i], col), *columnOf(&b[i], col))
				}
				w := an.Words[i]
				if want := tg.AmbiguityClass(s[i].Form); w.Amb[slot(col)] != want || w.Amb[1-slot(col)] != 0 {
					t.Fatalf("%s: ambiguity classes of %q are %#x, AmbiguityClass says %#x", col, s[i].Form, w.Amb, want)
				}
				if w.Hashes != form.Of(s[i].Form) {
					t.Fatalf("%s: hashes of %q are %#x, form.Of says %#x", col, s[i].Form, w.Hashes, form.Of(s[i].Form))
				}
				if w.Amb[slot(col)] != 0 {
					known++
				}
				words++
			}
		}
		// Most words of EWT test are in the dictionary of EWT train.
		if known < words*8/10 {
			t.Errorf("%s: %d of %d words have an ambiguity class", col, known, words)
		}
		ws := append([]conllu.Word(nil), sents[5]...)
		if n := testing.AllocsPerRun(50, func() { analyze(ws); tg.TagAnalyzed(&an, ws) }); n != 0 {
			t.Errorf("%s: Analyze and TagAnalyzed allocate %v times per sentence", col, n)
		}
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: TagAnalyzed of the analysis of other words does not panic", col)
				}
			}()
			tg.TagAnalyzed(&an, ws[1:])
		}()
	}
}

// TestDictBundled decodes the tag dictionary of the bundled UPOS tagger
// and checks every entry's lookup (one by one and with lookupAll), that the
// keys next to entries are not found (unless they are entries), and that
// encoding gives back the stored blobs byte for byte.
func TestDictBundled(t *testing.T) {
	c := bundledClassifier(t, UPOS)
	keyBlob, maskBlob := c.Blobs["tagger.dict.keys"], c.Blobs["tagger.dict.masks"]
	n := c.Params["tagger.dict_entries"]
	d, err := decodeDict(keyBlob, maskBlob, n, len(c.Classes))
	if err != nil {
		t.Fatal(err)
	}
	entries := map[uint64]uint64{}
	var keys []uint64
	prev := uint64(0)
	for ka, ma := 0, 0; ka < len(keyBlob); {
		delta, k := binary.Uvarint(keyBlob[ka:])
		mask, m := binary.Uvarint(maskBlob[ma:])
		ka, ma = ka+k, ma+m
		prev += delta
		entries[prev] = mask
		keys = append(keys, prev)
	}
	if int64(len(keys)) != n || d.n != len(keys) {
		t.Fatalf("%d keys, %d entries, dict says %d", len(keys), n, d.n)
	}
	full := func(k uint64) uint64 { return k << (64 - dictKeyBits) }
	for _, k := range keys {
		if got := d.lookup(full(k)); got != entries[k] {
			t.Fatalf("key %#x: tag set %#x, want %#x", k, got, entries[k])
		}
		for _, kk := range []uint64{k - 1, k + 1} {
			if got := d.lookup(full(kk) | 0xabcdef); got != entries[kk] {
				t.Fatalf("key %#x: tag set %#x, want %#x", kk, got, entries[kk])
			}
		}
	}
	// lookupAll finds what lookup finds, for keys present and absent.
	var all []uint64
	for _, k := range keys {
		all = append(all, full(k), full(k+1)|0x1234)
	}
	masks := make([]uint64, len(all))
	d.lookupAll(all, masks)
	for j, k := range all {
		if masks[j] != d.lookup(k) {
			t.Fatalf("lookupAll: key %#x: tag set %#x, lookup gives %#x", k, masks[j], d.lookup(k))
		}
	}
	k2, m2 := d.encode()
	if !bytes.Equal(k2, keyBlob) || !bytes.Equal(m2, maskBlob) {
		t.Error("encoding the decoded dictionary gives different blobs")
	}
}

// The one-sweep decoding of a dictionary makes the table newDict makes
// from the decoded entries, and applies to the bundled dictionary; the
// column added in one sweep is the one decodeMasks decodes.
func TestDictOneSweepBundled(t *testing.T) {
	u, x := bundledClassifier(t, UPOS), bundledClassifier(t, XPOS)
	keyBlob, maskBlob := u.Blobs[dictKeysBlob], u.Blobs[dictMasksBlob]
	n := int(u.Params[dictEntries])
	one, ok := decodeDictOneSweep(keyBlob, maskBlob, n, len(u.Classes))
	if !ok {
		t.Fatal("the one-sweep decoding did not apply to the bundled dictionary")
	}
	var sc dictScratch
	if err := sc.decode(keyBlob, maskBlob, n, len(u.Classes)); err != nil {
		t.Fatal(err)
	}
	two, err := newDict(sc.keys, sc.masks)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(one, two) {
		t.Fatalf("one-sweep table differs (size %d/%d, lines %d/%d)", one.size, two.size, len(one.lines), len(two.lines))
	}
	if err := one.addColumn(x.Blobs[dictMasksBlob], len(x.Classes)); err != nil {
		t.Fatal(err)
	}
	var xm []uint64
	if err := decodeMasks(x.Blobs[dictMasksBlob], n, len(x.Classes), &xm); err != nil {
		t.Fatal(err)
	}
	j := 0
	for g := range one.lines {
		for s := range one.lines[g].mask {
			if one.lines[g].mask[s][0] != 0 {
				if got := one.lines[g].mask[s][1]; got != xm[j] {
					t.Fatalf("entry %d: column 1 holds %#x, want %#x", j, got, xm[j])
				}
				j++
			}
		}
	}
	if j != n {
		t.Fatalf("%d entries in the table, want %d", j, n)
	}
}

// The sure words that tagging gives their dictionary tag unscored (form
// and both lowercased bigrams with one and the same tag) are a fifth or
// more of EWT dev and test, and the scores would have chosen the same tag
// for all but a handful: the tags of the whole treebanks differ in at
// most 0.05 % of the sure words, and accuracy drops by at most one word
// in 10,000 (the scores are not always right either: on dev they choose
// better for one XPOS and worse for two UPOS).
func TestSureWordsUnscored(t *testing.T) {
	for _, col := range []string{UPOS, XPOS} {
		tg := bundledTagger(t, col)
		for _, f := range testenv.UDFiles(t, "en_ewt-ud-[dt]e*.conllu") {
			sents, err := conllu.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			var d tagDiff
			sure := 0
			for _, s := range sents {
				with := append([]conllu.Word(nil), s.Words...)
				without := append([]conllu.Word(nil), s.Words...)
				tg.Tag(with)
				sureUnscored = false
				tg.Tag(without)
				sureUnscored = true
				sc := tg.getScratch()
				tg.run(sc, s.Words, tg.model, nil)
				for i := range s.Words {
					if sc.ws[i+2].sure() {
						sure++
					}
				}
				d.add(col, with, without, s.Words)
				tg.pool.Put(sc)
			}
			t.Logf("%s %s: %d of %d words sure, %d tags differ, %d vs %d correct", col, f, sure, d.words, d.differ, d.rightA, d.rightB)
			if 5*sure < d.words || 2000*d.differ > sure || d.rightA < d.rightB-d.words/10000 {
				t.Errorf("%s %s: %d of %d words sure, %d tags differ, %d vs %d correct", col, f, sure, d.words, d.differ, d.rightA, d.rightB)
			}
		}
	}
}

// The bundled model's taggers, loaded as a pair, share one dictionary
// table (its XPOS tagger shares the UPOS tagger's keys); an Analysis for
// both gives every word of EWT test the tags and ambiguity classes that
// tagging with each tagger on its own gives (through the shared table,
// and through taggers decoded one by one, each with a table of its own),
// without allocating; each column's entries encode back to the stored
// blobs.
func TestAnalysisPairBundled(t *testing.T) {
	doc := testenv.BundledDoc(t)
	u, x, errU, errX := PairFromDocument(doc.Classifiers)
	if errU != nil || errX != nil {
		t.Fatal(errU, errX)
	}
	if !u.sharesDict(x) || !x.sharesDict(u) {
		t.Fatal("the bundled taggers do not share their dictionary")
	}
	u1, x1 := bundledTagger(t, UPOS), bundledTagger(t, XPOS)
	if u1.sharesDict(x1) {
		t.Fatal("taggers decoded one by one share a dictionary")
	}
	for col, tg := range map[string]*Tagger{UPOS: u, XPOS: x} {
		keys, masks := tg.dict.encode()
		c := bundledClassifier(t, col)
		want := c.Blobs[dictKeysBlob]
		if want == nil {
			want = bundledClassifier(t, UPOS).Blobs[dictKeysBlob]
		}
		if !bytes.Equal(keys, want) || !bytes.Equal(masks, c.Blobs[dictMasksBlob]) {
			t.Errorf("%s: encoding the shared table's column gives other blobs", col)
		}
	}
	sents, _ := testForms(t)
	var an, ref Analysis
	tagPair := func(an *Analysis, u, x *Tagger, ws []conllu.Word) {
		an.Analyze(ws, u, x)
		u.TagAnalyzed(an, ws)
		x.TagAnalyzed(an, ws)
	}
	for _, s := range sents {
		a := append([]conllu.Word(nil), s...)
		tagPair(&an, u, x, a)
		for _, pair := range [][2]*Tagger{{u, x}, {u1, x1}} {
			b := append([]conllu.Word(nil), s...)
			pair[0].Tag(b)
			pair[1].Tag(b)
			for i := range s {
				wantU, wantX := pair[0].AmbiguityClass(s[i].Form), pair[1].AmbiguityClass(s[i].Form)
				if a[i].UPOS != b[i].UPOS || a[i].XPOS != b[i].XPOS || an.Words[i].Amb != [2]uint64{wantU, wantX} {
					t.Fatalf("%q: the pair's analysis gives %s/%s (%#x), the taggers one by one %s/%s (%#x, %#x)",
						s[i].Form, a[i].UPOS, a[i].XPOS, an.Words[i].Amb, b[i].UPOS, b[i].XPOS, wantU, wantX)
				}
			}
		}
	}
	// Taggers that do not share a table look the keys up in each.
	a := append([]conllu.Word(nil), sents[3]...)
	tagPair(&an, u1, x1, a)
	b := append([]conllu.Word(nil), sents[3]...)
	tagPair(&ref, u, x, b)
	if !slices.Equal(a, b) || !slices.Equal(an.Words, ref.Words) {
		t.Error("the analysis of taggers with their own tables differs")
	}
	ws := append([]conllu.Word(nil), sents[5]...)
	if n := testing.AllocsPerRun(50, func() { tagPair(&an, u, x, ws) }); n != 0 {
		t.Errorf("analyzing and tagging with the pair allocates %v times per sentence", n)
	}
	tagPair(&an, u, x, nil) // no words: nothing to do
	if len(an.Words) != 0 {
		t.Errorf("the analysis of no words has %d words", len(an.Words))
	}
}

// PairFromDocument reports a damaged tagger under its column: the
// dictionary of the XPOS tagger, which holds the tag sets of the shared
// keys, must have as many entries as the UPOS tagger's, and valid ones;
// a fast model must be sound too. FromDocument agrees, column by column
// (the XPOS tagger alone fails on damaged UPOS keys too: they are its keys).
func TestPairFromDocumentRejectsCorruption(t *testing.T) {
	doc := testenv.BundledDoc(t)
	const u, x, uf, xf = "tagger.upos", "tagger.xpos", "tagger.upos.fast", "tagger.xpos.fast"
	clone := func(mut func(c map[string]*modelfmt.Classifier)) []modelfmt.Classifier {
		cs := slices.Clone(doc.Classifiers)
		byName := map[string]*modelfmt.Classifier{}
		for i := range cs {
			cs[i] = cloneClassifier(cs[i])
			byName[cs[i].Name] = &cs[i]
		}
		for _, name := range []string{u, x, uf, xf} {
			if byName[name] == nil {
				t.Skipf("the bundled model has no %s", name)
			}
		}
		mut(byName)
		return cs
	}
	type cls = map[string]*modelfmt.Classifier
	cases := []struct {
		name       string
		mut        func(c cls)
		badU, badX bool
	}{
		{"XPOS entries", func(c cls) { c[x].Params[dictEntries]-- }, false, true},
		{"XPOS masks", func(c cls) { c[x].Blobs[dictMasksBlob] = c[x].Blobs[dictMasksBlob][:100] }, false, true},
		{"XPOS mask out of range", func(c cls) {
			c[x].Blobs[dictMasksBlob] = append([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f}, c[x].Blobs[dictMasksBlob][1:]...)
		}, false, true},
		{"UPOS keys", func(c cls) { c[u].Blobs[dictKeysBlob] = c[u].Blobs[dictKeysBlob][:100] }, true, false},
		{"XPOS weights", func(c cls) { c[x].Blobs["weights"] = c[x].Blobs["weights"][1:] }, false, true},
		{"XPOS keys of its own", func(c cls) { c[x].Blobs[dictKeysBlob] = c[u].Blobs[dictKeysBlob] }, false, true},
		{"UPOS fast margin", func(c cls) { delete(c[uf].Params, fastMarginParam) }, true, false},
		{"UPOS fast margin NaN", func(c cls) { c[uf].Params[fastMarginParam] = 0x7fc00000 }, true, false},
		{"XPOS fast tags", func(c cls) { c[xf].Classes = c[xf].Classes[1:] }, false, true},
		{"XPOS fast features", func(c cls) { c[xf].Params["tagger.feature_version"]++ }, false, true},
		{"XPOS fast weights", func(c cls) { c[xf].Blobs["weights"] = c[xf].Blobs["weights"][2:] }, false, true},
	}
	for _, tc := range cases {
		cs := clone(tc.mut)
		up, xp, errU, errX := PairFromDocument(cs)
		if (errU != nil) != tc.badU || (errX != nil) != tc.badX {
			t.Errorf("%s: errors %v / %v", tc.name, errU, errX)
		}
		if (errU != nil || errX != nil) && up != nil && xp != nil && up.sharesDict(xp) {
			t.Errorf("%s: a failed load returned a shared pair", tc.name)
		}
		// Alone, the XPOS tagger also reads the UPOS tagger's keys.
		sharedBad := tc.name == "UPOS keys"
		for col, bad := range map[string]bool{UPOS: tc.badU, XPOS: tc.badX || sharedBad} {
			if _, err := FromDocument(cs, col); (err != nil) != bad {
				t.Errorf("%s: FromDocument(%s): %v", tc.name, col, err)
			}
		}
	}
}

// The bundled taggers have fast models (tagger.upos.fast,
// tagger.xpos.fast): on EWT dev they decide most of the words the first
// pass scores, and the tags differ from those of the taggers alone in a
// handful of words.
func TestFastModelBundled(t *testing.T) {
	u, x, errU, errX := PairFromDocument(testenv.BundledDoc(t).Classifiers)
	if errU != nil || errX != nil {
		t.Fatal(errU, errX)
	}
	for _, tg := range []*Tagger{u, x} {
		if tg.fast == nil {
			t.Fatalf("%s: no fast model", tg.Column())
		}
		slow := &Tagger{column: tg.column, tags: tg.tags, model: tg.model, dict: tg.dict, margin: tg.margin, guess: tg.guess, clusters: tg.clusters}
		var d tagDiff
		for _, s := range readEWT(t, "dev") {
			a := make([]conllu.Word, len(s.Words))
			for i, w := range s.Words {
				a[i] = conllu.Word{Form: w.Form}
			}
			b := slices.Clone(a)
			tg.Tag(a)
			slow.Tag(b)
			d.add(tg.column, a, b, s.Words)
		}
		t.Logf("%s: %d of %d tags differ with the fast model (margin %.3g); accuracy %.2f%% against %.2f%%",
			tg.Column(), d.differ, d.words, tg.fastMargin, 100*float64(d.rightA)/float64(d.words), 100*float64(d.rightB)/float64(d.words))
		if d.differ > d.words/1000 || d.rightA < d.rightB-d.words/5000 {
			t.Errorf("%s: the fast model changes %d tags, %d right against %d", tg.Column(), d.differ, d.rightA, d.rightB)
		}
	}
}

// tagDiff compares two taggings a and b of the same words in one column:
// the words seen, those whose tags differ, and those each tags as gold.
type tagDiff struct{ words, differ, rightA, rightB int }

func (d *tagDiff) add(col string, a, b, gold []conllu.Word) {
	for i := range gold {
		ta, tb, tg := *columnOf(&a[i], col), *columnOf(&b[i], col), *columnOf(&gold[i], col)
		d.words++
		if ta != tb {
			d.differ++
		}
		if ta == tg {
			d.rightA++
		}
		if tb == tg {
			d.rightB++
		}
	}
}
