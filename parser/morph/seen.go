package morph

import (
	"slices"
	"strings"
)

// seenLemmas is a lemmatizer's frozen set of training lemmas: each
// lowercased lemma as the key "lemma\t" of a dict whose candidates are the
// ids of the UPOS tags it was seen with. One lookup answers both questions
// a candidate lemma's rank features ask: was it a training lemma, and
// with the word's UPOS?
type seenLemmas struct {
	d    *dict
	upos []string // the UPOS tags by id
}

// newSeenLemmas builds the set of the keys "lemma\tUPOS" (sorted unless
// damaged, which costs a sort). A key "lemma\t" (a lemma seen without a
// UPOS, or the any-UPOS keys of older files) adds the lemma only.
func newSeenLemmas(keys []string) *seenLemmas {
	if !slices.IsSorted(keys) {
		keys = slices.Clone(keys)
		slices.Sort(keys)
	}
	s := &seenLemmas{}
	ids := map[string]int32{}
	names := make([]string, 0, len(keys))
	ends := make([]uint32, 0, len(keys))
	cands := make([]int32, 0, len(keys))
	start := 0 // the first candidate of the last name
	for _, k := range keys {
		tab := strings.IndexByte(k, '\t')
		if tab < 0 {
			continue // not a lemma key: no lookup finds it
		}
		name, u := k[:tab+1], k[tab+1:]
		if len(names) == 0 || names[len(names)-1] != name {
			names = append(names, name)
			ends = append(ends, uint32(len(cands)))
			start = len(cands)
		}
		if u != "" {
			id, ok := ids[u]
			if !ok {
				id = int32(len(s.upos))
				ids[u] = id
				s.upos = append(s.upos, u)
			}
			if !slices.Contains(cands[start:], id) {
				cands = append(cands, id)
			}
		}
		ends[len(ends)-1] = uint32(len(cands))
	}
	s.d = newDict(names, ends, cands)
	return s
}

// has reports whether the lemma of key ("lemma\t", lowercased) was seen
// with the UPOS upos, and with any UPOS. A word without a UPOS ("")
// counts as any.
func (s *seenLemmas) has(key []byte, upos string) (withUPOS, any bool) {
	ids, ok := s.d.get(key)
	if !ok {
		return false, false
	}
	if upos == "" {
		return true, true
	}
	for _, id := range ids {
		if s.upos[id] == upos {
			return true, true
		}
	}
	return false, true
}

// lemma returns the training lemma of key ("lemma\t"), without the tab, as
// a string of the set, and whether there is one.
func (s *seenLemmas) lemma(key []byte) (string, bool) {
	k, ok := s.d.index(key)
	if !ok {
		return "", false
	}
	return s.d.keys[k][:len(key)-1], true
}

// keys returns the keys "lemma\tUPOS" of the set, sorted: what a model file
// stores.
func (s *seenLemmas) keys() []string {
	out := []string{} // a FEATS tagger stores an empty list, not none
	var us []string
	for i, name := range s.d.keys {
		us = us[:0]
		for _, id := range s.d.cands(int32(i)) {
			us = append(us, s.upos[id])
		}
		if len(us) == 0 {
			out = append(out, name) // seen without a UPOS only
		}
		for _, u := range us {
			out = append(out, name+u)
		}
	}
	slices.Sort(out)
	return out
}
