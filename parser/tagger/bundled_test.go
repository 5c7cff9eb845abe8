package tagger

import (
	"bytes"
	"encoding/binary"
	"runtime"
	"testing"

	"github.com/transparse/transparse/internal/testenv"

	"github.com/transparse/transparse/modelfmt"
	"github.com/transparse/transparse/parser/conllu"
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

// BenchmarkTagEWT tags EWT test with each bundled tagger, one goroutine:
// words/s on the wall clock, and cpu-ns/word of the thread.
func BenchmarkTagEWT(b *testing.B) {
	for _, col := range []string{UPOS, XPOS} {
		b.Run(col, func(b *testing.B) {
			tg := bundledTagger(b, col)
			sents, _ := testForms(b)
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			b.ReportAllocs()
			b.ResetTimer()
			cpu := testenv.ThreadCPU()
			n := 0
			for i := 0; i < b.N; i++ {
				ws := sents[i%len(sents)]
				tg.Tag(ws)
				n += len(ws)
			}
			b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "words/s")
			b.ReportMetric(float64(testenv.ThreadCPU()-cpu)/float64(n), "cpu-ns/word")
		})
	}
}

// BenchmarkFromClassifierBundled measures decoding each bundled tagger
// (linear model and tag dictionary).
func BenchmarkFromClassifierBundled(b *testing.B) {
	for _, col := range []string{UPOS, XPOS} {
		b.Run(col, func(b *testing.B) {
			doc := testenv.BundledDoc(b)
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			b.ReportAllocs()
			b.ResetTimer()
			cpu := testenv.ThreadCPU()
			for i := 0; i < b.N; i++ {
				if _, err := FromDocument(doc.Classifiers, col); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(testenv.ThreadCPU()-cpu)/float64(b.N)/1e6, "cpu-ms/op")
		})
	}
}

// TestTagWithAmbiguity checks on EWT test that TagWithAmbiguity tags as
// Tag does and gives each word AmbiguityClass of its form, without
// allocating.
func TestTagWithAmbiguity(t *testing.T) {
	sents, _ := testForms(t)
	for _, col := range []string{UPOS, XPOS} {
		tg := bundledTagger(t, col)
		amb := make([]uint64, 512)
		known := 0
		words := 0
		for _, s := range sents {
			a := append([]conllu.Word(nil), s...)
			b := append([]conllu.Word(nil), s...)
			tg.Tag(a)
			tg.TagWithAmbiguity(b, amb)
			for i := range s {
				if *columnOf(&a[i], col) != *columnOf(&b[i], col) {
					t.Fatalf("%s: %q tagged %q by Tag, %q by TagWithAmbiguity", col, s[i].Form, *columnOf(&a[i], col), *columnOf(&b[i], col))
				}
				if want := tg.AmbiguityClass(s[i].Form); amb[i] != want {
					t.Fatalf("%s: ambiguity class of %q is %#x, AmbiguityClass says %#x", col, s[i].Form, amb[i], want)
				}
				if amb[i] != 0 {
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
		if n := testing.AllocsPerRun(50, func() { tg.TagWithAmbiguity(ws, amb) }); n != 0 {
			t.Errorf("%s: TagWithAmbiguity allocates %v times per sentence", col, n)
		}
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

// The sure words that tagging gives their dictionary tag unscored (form
// and both lowercased bigrams with one and the same tag) are a fifth or
// more of EWT dev and test, and the scores would have chosen the same tag
// for all but a handful: the tags of the whole treebanks differ in at
// most 0.05 % of the sure words, and accuracy does not drop.
func TestSureWordsUnscored(t *testing.T) {
	for _, col := range []string{UPOS, XPOS} {
		tg := bundledTagger(t, col)
		for _, f := range testenv.UDFiles(t, "en_ewt-ud-[dt]e*.conllu") {
			sents, err := conllu.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			var words, sure, differ, okWith, okWithout int
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
					words++
					if sc.ws[i+2].sure() {
						sure++
					}
					a, b, gold := *columnOf(&with[i], col), *columnOf(&without[i], col), *columnOf(&s.Words[i], col)
					if a != b {
						differ++
					}
					if a == gold {
						okWith++
					}
					if b == gold {
						okWithout++
					}
				}
				tg.pool.Put(sc)
			}
			t.Logf("%s %s: %d of %d words sure, %d tags differ, %d vs %d correct", col, f, sure, words, differ, okWith, okWithout)
			if 5*sure < words || 2000*differ > sure || okWith < okWithout {
				t.Errorf("%s %s: %d of %d words sure, %d tags differ, %d vs %d correct", col, f, sure, words, differ, okWith, okWithout)
			}
		}
	}
}
