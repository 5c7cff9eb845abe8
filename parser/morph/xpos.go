package morph

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/transparse/transparse/parser/conllu"
)

// XPOSTable predicts XPOS by lookup, for a treebank whose XPOS tag set is
// too large for a tagger (positional tag sets such as Czech or Polish ones
// have hundreds or thousands of tags, each mostly spelling out the UPOS
// and FEATS). A word gets the XPOS seen most often in training with, in
// this order of preference:
//
//  1. its form, UPOS and FEATS;
//  2. its lowercased form, UPOS and FEATS;
//  3. its UPOS and FEATS;
//  4. its form and UPOS;
//  5. its UPOS.
//
// So a word whose UPOS and FEATS were seen together gets a UPOS, XPOS and
// FEATS combination seen in training, the one of its form where training
// saw the form with them. The UPOS and FEATS are the given or predicted
// ones: the table runs after the UPOS tagger and the FEATS tagger. An
// entry that gives the tag the entries after it would give is not kept.
// Immutable and safe for concurrent use.
type XPOSTable struct {
	tags []string         // sorted
	tag  map[string]int32 // key (see xposKey) to index in tags
}

// The levels of XPOSTable keys, in the order they are looked up.
const (
	xposForm     = '1' // form, UPOS, FEATS
	xposLower    = '2' // lowercased form, UPOS, FEATS
	xposFeats    = '3' // UPOS, FEATS
	xposFormUPOS = '4' // form, UPOS
	xposUPOS     = '5' // UPOS
	xposKind     = "xpos"
)

// xposKey appends to b the key of level for the word with the given form,
// UPOS and FEATS (absent FEATS as "_").
func xposKey(b []byte, level byte, form, upos, feats string) []byte {
	if conllu.Absent(feats) {
		feats = "_"
	}
	switch level {
	case xposForm:
		return appendKey(b, level, form, upos, feats)
	case xposLower:
		b = append(b, level)
		for _, r := range form {
			b = utf8.AppendRune(b, unicode.ToLower(r))
		}
		b = append(append(b, '\t'), upos...)
		return append(append(b, '\t'), feats...)
	case xposFeats:
		return appendKey(b, level, upos, feats)
	case xposFormUPOS:
		return appendKey(b, level, form, upos)
	}
	return appendKey(b, level, upos)
}

// TrainXPOSTable learns the table from the FORM, UPOS, FEATS and XPOS of
// sents (words without UPOS or XPOS are skipped); nil when no word has
// both.
func TrainXPOSTable(sents []*conllu.Sentence) *XPOSTable {
	counts := map[string]map[string]int{}
	var kb []byte
	for _, s := range sents {
		for i := range s.Words {
			w := &s.Words[i]
			if conllu.Absent(w.UPOS) || conllu.Absent(w.XPOS) {
				continue
			}
			for level := byte(xposForm); level <= xposUPOS; level++ {
				kb = xposKey(kb[:0], level, w.Form, w.UPOS, w.Feats)
				c := counts[string(kb)]
				if c == nil {
					c = map[string]int{}
					counts[string(kb)] = c
				}
				c[w.XPOS]++
			}
		}
	}
	if len(counts) == 0 {
		return nil
	}
	best := make(map[string]string, len(counts))
	tagSet := map[string]bool{}
	for k, c := range counts {
		b, bn := "", 0
		for x, n := range c {
			if n > bn || n == bn && x < b {
				b, bn = x, n
			}
		}
		best[k] = b
		tagSet[b] = true
	}
	// Drop the entries that give what the later levels would give: first
	// those of levels whose fallback is one entry (form and UPOS: the
	// UPOS's; lowercased form: its UPOS and FEATS's, where there is one),
	// then those of level 1, against the lookup without them.
	for k, x := range best {
		var fallback string
		switch f := keyFields(k); k[0] {
		case xposFormUPOS: // form, UPOS
			fallback = key(xposUPOS, f[1])
		case xposLower: // lowercased form, UPOS, FEATS
			fallback = key(xposFeats, f[1], f[2])
		default:
			continue
		}
		if y, ok := best[fallback]; ok && y == x {
			delete(best, k)
		}
	}
	t := &XPOSTable{tag: map[string]int32{}}
	for x := range tagSet {
		t.tags = append(t.tags, x)
	}
	slices.Sort(t.tags)
	for k, x := range best {
		if k[0] != xposForm {
			i, _ := slices.BinarySearch(t.tags, x)
			t.tag[k] = int32(i)
		}
	}
	for k, x := range best {
		if k[0] != xposForm {
			continue
		}
		if f := keyFields(k); t.lookupFrom(xposLower, f[0], f[1], f[2]) == x {
			continue
		}
		i, _ := slices.BinarySearch(t.tags, x)
		t.tag[k] = int32(i)
	}
	return t
}

// keyFields returns the fields of a table key.
func keyFields(k string) []string { return strings.Split(k[1:], "\t") }

// Tags returns the tags the table can give, sorted. The slice must not be
// modified.
func (t *XPOSTable) Tags() []string { return t.tags }

// Len returns the number of entries.
func (t *XPOSTable) Len() int { return len(t.tag) }

// XPOS returns the XPOS of a word with the given form, UPOS and FEATS
// (FEATS absent: none), or "_" when its UPOS was never seen with an XPOS.
func (t *XPOSTable) XPOS(form, upos, feats string) string {
	return t.lookupFrom(xposForm, form, upos, feats)
}

// lookupFrom looks the word up from level on.
func (t *XPOSTable) lookupFrom(from byte, form, upos, feats string) string {
	var buf [128]byte
	for level := from; level <= xposUPOS; level++ {
		kb := xposKey(buf[:0], level, form, upos, feats)
		if i, ok := t.tag[string(kb)]; ok {
			return t.tags[i]
		}
	}
	return "_"
}

// Fill sets the XPOS of the words of ws that have none from their form,
// UPOS and FEATS.
func (t *XPOSTable) Fill(ws []conllu.Word) {
	for i := range ws {
		if w := &ws[i]; conllu.Absent(w.XPOS) && !conllu.Absent(w.UPOS) {
			w.XPOS = t.XPOS(w.Form, w.UPOS, w.Feats)
		}
	}
}

// String describes the table.
func (t *XPOSTable) String() string {
	return fmt.Sprintf("XPOS table: %d tags, %d entries", len(t.tags), len(t.tag))
}

// Data returns the serialisable form of t: kind "xpos", the tags as
// Classes, the keys sorted with one candidate each (its tag).
func (t *XPOSTable) Data() *Data {
	d := &Data{Kind: xposKind, Classes: slices.Clone(t.tags)}
	for k := range t.tag {
		d.Keys = append(d.Keys, k)
	}
	slices.Sort(d.Keys)
	for i, k := range d.Keys {
		d.Ends = append(d.Ends, uint32(i+1))
		d.Cands = append(d.Cands, uint32(t.tag[k]))
	}
	return d
}

// XPOSTableFromData decodes the table Data gave; an error for data that
// could not have come from it.
func XPOSTableFromData(d *Data) (*XPOSTable, error) {
	if d == nil {
		return nil, errors.New("morph: nil data")
	}
	if d.Kind != xposKind {
		return nil, fmt.Errorf("morph: data of kind %q, want %q", d.Kind, xposKind)
	}
	if d.Weights.Layout != "" || d.Rank.Layout != "" || d.PartWeights.Layout != "" || d.SyntaxWeights.Layout != "" ||
		d.Lemmas != nil || d.Parts != nil || d.Agreement != nil || d.LemmaCase != nil || d.DictionaryFirst || d.ConsistentTags {
		return nil, errors.New("morph: xpos: fields of a lemmatizer or a FEATS tagger in an XPOS table")
	}
	if len(d.Classes) == 0 || !slices.IsSorted(d.Classes) || len(slices.Compact(slices.Clone(d.Classes))) != len(d.Classes) {
		return nil, errors.New("morph: xpos: the tags are not a sorted set")
	}
	if len(d.Ends) != len(d.Keys) || len(d.Cands) != len(d.Keys) {
		return nil, fmt.Errorf("morph: xpos: %d keys, %d ends and %d candidates, want one each", len(d.Keys), len(d.Ends), len(d.Cands))
	}
	t := &XPOSTable{tags: slices.Clone(d.Classes), tag: make(map[string]int32, len(d.Keys))}
	for i, k := range d.Keys {
		if d.Ends[i] != uint32(i+1) {
			return nil, fmt.Errorf("morph: xpos: key %d: %d candidates, want one", i, int(d.Ends[i])-i)
		}
		if d.Cands[i] >= uint32(len(t.tags)) {
			return nil, fmt.Errorf("morph: xpos: key %d: tag %d of %d", i, d.Cands[i], len(t.tags))
		}
		if k == "" || k[0] < xposForm || k[0] > xposUPOS || strings.Count(k, "\t") != xposFields(k[0])-1 {
			return nil, fmt.Errorf("morph: xpos: key %d: not a table key", i)
		}
		t.tag[k] = int32(d.Cands[i])
	}
	return t, nil
}

// xposFields returns the number of fields of a key of level.
func xposFields(level byte) int {
	switch level {
	case xposForm, xposLower:
		return 3
	case xposFeats, xposFormUPOS:
		return 2
	}
	return 1
}
