package morph

import (
	"cmp"
	"hash/maphash"
	"math/bits"
	"slices"
	"strings"
)

// dict is the frozen dictionary and candidate index of a component: its
// keys, sorted, each with its candidate classes, found through an
// open-addressing table (linear probing) of the keys' hashes, each match
// checked against its key. It is read-only, so lookups are safe for
// concurrent use.
type dict struct {
	seed  maphash.Seed
	keys  []string
	ends  []uint32 // the candidates of keys[i] are ids[ends[i-1]:ends[i]] (ends[-1] = 0)
	ids   []int32
	slots []dslot // a power of two, at most half full
	// bloom is a blocked Bloom filter of the keys' hashes (two bits in
	// one word, at least 16 bits a key): small enough to stay in cache,
	// it answers most lookups of absent keys without a probe of slots.
	bloom []uint64
}

// dslot is a slot of the table: the high half of the key's hash and the
// key's index plus one (0: empty).
type dslot struct{ tag, k uint32 }

// newDict builds the dict of keys (sorted, distinct) whose candidates are
// given by ends and ids as in dict.
func newDict(keys []string, ends []uint32, ids []int32) *dict {
	d := &dict{seed: maphash.MakeSeed(), keys: keys, ends: ends, ids: ids}
	d.slots = make([]dslot, 1<<bits.Len(uint(2*len(keys)|1)))
	d.bloom = make([]uint64, 1<<bits.Len(uint(len(keys)/4)))
	mask := uint64(len(d.slots) - 1)
	for i, k := range keys {
		h := maphash.String(d.seed, k)
		d.bloom[d.bloomWord(h)] |= bloomBits(h)
		j := h & mask
		for d.slots[j].k != 0 {
			j = (j + 1) & mask
		}
		d.slots[j] = dslot{uint32(h >> 32), uint32(i + 1)}
	}
	return d
}

// get returns the candidates of key, and whether key is in d.
func (d *dict) get(key []byte) ([]int32, bool) {
	i, ok := d.index(key)
	if !ok {
		return nil, false
	}
	return d.cands(i), true
}

// index returns the index of key in d.keys, and whether key is in d.
func (d *dict) index(key []byte) (int32, bool) {
	h := maphash.Bytes(d.seed, key)
	if b := bloomBits(h); d.bloom[d.bloomWord(h)]&b != b {
		return 0, false
	}
	mask := uint64(len(d.slots) - 1)
	tag := uint32(h >> 32)
	for j := h & mask; ; j = (j + 1) & mask {
		s := d.slots[j]
		if s.k == 0 {
			return 0, false
		}
		if s.tag == tag && d.keys[s.k-1] == string(key) {
			return int32(s.k - 1), true
		}
	}
}

// bloomWord is the word of d.bloom of hash h.
func (d *dict) bloomWord(h uint64) uint64 { return h >> 32 & uint64(len(d.bloom)-1) }

// bloomBits are the bits of hash h in its word of a bloom filter.
func bloomBits(h uint64) uint64 { return 1<<(h&63) | 1<<(h>>6&63) }

// wordIndex finds the dictionary entries of a word ('1', '2' and '3'
// keys) with one lookup: it groups the keys by their lowercase-level key
// ('3' lower(FORM) UPOS) and keeps, for each group, the '3' entry and the
// '1' and '2' entries of the forms that lowercase to it. A lookup hashes
// the word's lowercase-level key once, instead of probing the three
// levels in turn.
type wordIndex struct {
	groups *dict    // the group keys; a group's candidates are its index (one id)
	own    []int32  // the key index of group g's '3' entry, -1 if it has none
	ends   []uint32 // the refinements of group g are refs[ends[g-1]:ends[g]]
	refs   []wordRef
}

// wordRef is a '1' or '2' entry of a group: the form (and XPOS, for '1')
// it applies to, and the index of its key.
type wordRef struct {
	level      byte
	form, xpos string
	key        int32
}

// newWordIndex builds the word index of d's '1', '2' and '3' keys.
func newWordIndex(d *dict) *wordIndex {
	type member struct {
		group string
		ref   wordRef
	}
	var ms []member
	own := map[string]int32{}
	for i, k := range d.keys {
		if k == "" {
			continue
		}
		switch k[0] {
		case levelLower:
			own[k[1:]] = int32(i)
		case levelTags, levelUPOS:
			f := strings.SplitN(k[1:], "\t", 3)
			if len(f) < 2 || k[0] == levelTags && len(f) != 3 || k[0] == levelUPOS && len(f) != 2 {
				continue // not a word key: never found by a lookup
			}
			r := wordRef{level: k[0], form: f[0], key: int32(i)}
			if k[0] == levelTags {
				r.xpos = f[2]
			}
			ms = append(ms, member{strings.ToLower(f[0]) + "\t" + f[1], r})
		}
	}
	names := make([]string, 0, len(own)+len(ms))
	for g := range own {
		names = append(names, g)
	}
	for _, m := range ms {
		if _, ok := own[m.group]; !ok {
			names = append(names, m.group)
		}
	}
	slices.Sort(names)
	names = slices.Compact(names)
	index := make(map[string]int, len(names))
	for g, name := range names {
		index[name] = g
	}
	// '1' entries first, so that a lookup takes the most specific match.
	slices.SortStableFunc(ms, func(a, b member) int {
		return cmp.Or(cmp.Compare(index[a.group], index[b.group]), cmp.Compare(a.ref.level, b.ref.level))
	})
	w := &wordIndex{own: make([]int32, len(names)), ends: make([]uint32, len(names))}
	gids := make([]int32, len(names))
	j := 0
	for g, name := range names {
		gids[g] = int32(g)
		w.own[g] = -1
		if i, ok := own[name]; ok {
			w.own[g] = i
		}
		for ; j < len(ms) && index[ms[j].group] == g; j++ {
			w.refs = append(w.refs, ms[j].ref)
		}
		w.ends[g] = uint32(len(w.refs))
	}
	ends := make([]uint32, len(names))
	for g := range ends {
		ends[g] = uint32(g + 1)
	}
	w.groups = newDict(names, ends, gids)
	return w
}

// find returns the candidates of the most specific entry of the word
// (form, its lowercased form, UPOS, XPOS) in d: '1', else '2', else '3';
// lower tells whether it is the '3' entry. kb is a buffer for the group
// key, returned grown.
func (w *wordIndex) find(d *dict, kb []byte, form, lower, upos, xpos string) (cands []int32, isLower, ok bool, _ []byte) {
	kb = append(append(append(kb[:0], lower...), '\t'), upos...)
	g, found := w.groups.get(kb)
	if !found {
		return nil, false, false, kb
	}
	gi := g[0]
	start := uint32(0)
	if gi > 0 {
		start = w.ends[gi-1]
	}
	for _, r := range w.refs[start:w.ends[gi]] {
		if r.form == form && (r.level == levelUPOS || r.xpos == xpos) {
			return d.cands(r.key), false, true, kb
		}
	}
	if o := w.own[gi]; o >= 0 {
		return d.cands(o), true, true, kb
	}
	return nil, false, false, kb
}

// cands returns the candidates of key index i.
func (d *dict) cands(i int32) []int32 {
	start := uint32(0)
	if i > 0 {
		start = d.ends[i-1]
	}
	return d.ids[start:d.ends[i]:d.ends[i]]
}
