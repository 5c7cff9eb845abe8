package morph

import (
	"strings"
	"testing"

	"github.com/transparse/transparse/parser/conllu"
)

// unprunedXPOS is the table's rule computed from the counts alone: the
// most frequent XPOS (the smallest of equally frequent ones) of the first
// level whose key training saw.
func unprunedXPOS(sents []*conllu.Sentence) func(form, upos, feats string) string {
	counts := map[string]map[string]int{}
	for _, s := range sents {
		for _, w := range s.Words {
			if conllu.Absent(w.UPOS) || conllu.Absent(w.XPOS) {
				continue
			}
			for level := byte(xposForm); level <= xposUPOS; level++ {
				k := string(xposKey(nil, level, w.Form, w.UPOS, w.Feats))
				if counts[k] == nil {
					counts[k] = map[string]int{}
				}
				counts[k][w.XPOS]++
			}
		}
	}
	return func(form, upos, feats string) string {
		for level := byte(xposForm); level <= xposUPOS; level++ {
			c := counts[string(xposKey(nil, level, form, upos, feats))]
			if c == nil {
				continue
			}
			b, bn := "", 0
			for x, n := range c {
				if n > bn || n == bn && x < b {
					b, bn = x, n
				}
			}
			return b
		}
		return "_"
	}
}

// The table gives what the counts say at the first level that knows the
// word, for training words and for words it never saw (another case,
// another FEATS, an unknown form, an unknown UPOS): dropping the entries
// the later levels repeat changes no answer. It survives its Data.
func TestXPOSTableLookup(t *testing.T) {
	sents, err := conllu.ReadFile("../../testdata/ud/en_ewt-train-150.conllu")
	if err != nil {
		t.Fatal(err)
	}
	// A larger tag set, as positional tags are: XPOS with the FEATS.
	for _, s := range sents {
		for i := range s.Words {
			w := &s.Words[i]
			w.XPOS += "+" + strings.ReplaceAll(w.Feats, "|", ".")
		}
	}
	table := TrainXPOSTable(sents)
	want := unprunedXPOS(sents)
	decoded, err := XPOSTableFromData(table.Data())
	if err != nil {
		t.Fatal(err)
	}
	var queries [][3]string
	for _, s := range sents {
		for _, w := range s.Words {
			queries = append(queries,
				[3]string{w.Form, w.UPOS, w.Feats},
				[3]string{strings.ToUpper(w.Form), w.UPOS, w.Feats},
				[3]string{strings.ToLower(w.Form), w.UPOS, w.Feats},
				[3]string{w.Form, w.UPOS, "Number=Sing"},
				[3]string{w.Form, w.UPOS, "_"},
				[3]string{"zzqx" + w.Form, w.UPOS, w.Feats},
				[3]string{w.Form, "NOUN", w.Feats},
				[3]string{w.Form, "NOSUCH", w.Feats})
		}
	}
	entries := 0
	for _, s := range sents {
		entries += len(s.Words)
	}
	if table.Len() == 0 || table.Len() >= entries {
		t.Errorf("%d entries for %d training words", table.Len(), entries)
	}
	for _, q := range queries {
		w := want(q[0], q[1], q[2])
		if got := table.XPOS(q[0], q[1], q[2]); got != w {
			t.Fatalf("XPOS(%q, %q, %q) = %q, want %q", q[0], q[1], q[2], got, w)
		}
		if got := decoded.XPOS(q[0], q[1], q[2]); got != w {
			t.Fatalf("decoded: XPOS(%q, %q, %q) = %q, want %q", q[0], q[1], q[2], got, w)
		}
	}
	if got := table.XPOS("dog", "NOSUCH", "_"); got != "_" {
		t.Errorf("an unknown UPOS gets %q, want _", got)
	}

	// Fill keeps given XPOS and words without UPOS.
	ws := []conllu.Word{{Form: "the", UPOS: "DET", Feats: "Definite=Def|PronType=Art"}, {Form: "dog", UPOS: "NOUN", XPOS: "given"}, {Form: "x"}}
	table.Fill(ws)
	if ws[0].XPOS != "DT+Definite=Def.PronType=Art" || ws[1].XPOS != "given" || ws[2].XPOS != "" {
		t.Errorf("Fill: %q %q %q", ws[0].XPOS, ws[1].XPOS, ws[2].XPOS)
	}
}

// Data that could not have come from a table is refused with a message.
func TestXPOSTableFromDataCorrupt(t *testing.T) {
	good := func() *Data {
		return &Data{Kind: "xpos", Classes: []string{"NN", "VB"}, Keys: []string{"5NOUN", "5VERB"}, Ends: []uint32{1, 2}, Cands: []uint32{0, 1}}
	}
	if _, err := XPOSTableFromData(good()); err != nil {
		t.Fatal(err)
	}
	for name, edit := range map[string]func(d *Data){
		"kind":           func(d *Data) { d.Kind = "feats" },
		"no tags":        func(d *Data) { d.Classes = nil },
		"unsorted tags":  func(d *Data) { d.Classes = []string{"VB", "NN"} },
		"repeated tags":  func(d *Data) { d.Classes = []string{"NN", "NN"} },
		"short ends":     func(d *Data) { d.Ends = d.Ends[:1] },
		"two candidates": func(d *Data) { d.Ends = []uint32{2, 2}; d.Cands = []uint32{0, 1} },
		"tag range":      func(d *Data) { d.Cands[1] = 2 },
		"level":          func(d *Data) { d.Keys[0] = "9NOUN" },
		"fields":         func(d *Data) { d.Keys[0] = "5NOUN\tx" },
		"empty key":      func(d *Data) { d.Keys[0] = "" },
		"weights":        func(d *Data) { d.Weights.Layout = "linear-sparse/v2" },
		"lemma case":     func(d *Data) { d.LemmaCase = []string{"NNP"} },
		"flag":           func(d *Data) { d.DictionaryFirst = true },
	} {
		d := good()
		edit(d)
		if _, err := XPOSTableFromData(d); err == nil || !strings.HasPrefix(err.Error(), "morph: ") {
			t.Errorf("%s: error %v", name, err)
		}
	}
	if _, err := XPOSTableFromData(nil); err == nil {
		t.Error("nil data: no error")
	}
}
