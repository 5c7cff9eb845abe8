package morph

import (
	"hash/maphash"
	"math/bits"
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
	return d.indexHashed(key, maphash.Bytes(d.seed, key))
}

// indexHashed is index with the key's hash h (d.hash).
func (d *dict) indexHashed(key []byte, h uint64) (int32, bool) {
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

// hash returns the hash of key that index and indexHashed look it up by.
func (d *dict) hash(key []byte) uint64 { return maphash.Bytes(d.seed, key) }

// touch reads the home slots of the keys of hashes hs that the Bloom filter
// lets through, then the keys those slots hold, so that
// the lookups that follow find them in the cache: the misses of a
// sentence's words overlap instead of following one another. It returns
// a sum of what it read (for the caller to keep).
func (d *dict) touch(hs []uint64) (sink uint32) {
	mask := uint64(len(d.slots) - 1)
	for _, h := range hs {
		if b := bloomBits(h); d.bloom[d.bloomWord(h)]&b == b {
			sink += d.slots[h&mask].k
		}
	}
	for _, h := range hs {
		if b := bloomBits(h); d.bloom[d.bloomWord(h)]&b == b {
			if k := d.slots[h&mask].k; k != 0 && d.keys[k-1] != "" {
				sink += uint32(d.keys[k-1][0])
			}
		}
	}
	return sink
}

// bloomWord is the word of d.bloom of hash h.
func (d *dict) bloomWord(h uint64) uint64 { return h >> 32 & uint64(len(d.bloom)-1) }

// bloomBits are the bits of hash h in its word of a bloom filter.
func bloomBits(h uint64) uint64 { return 1<<(h&63) | 1<<(h>>6&63) }

// wordIndex finds the dictionary entries of a word ('1', '2' and '3'
// keys) with one lookup: the word's lowercase-level key ('3' lower(FORM)
// UPOS), whose entry lists the '1' and '2' entries of the forms that
// lowercase to it. A lookup hashes one key instead of probing the three
// levels in turn. It needs every '1' and '2' entry to have its '3' entry,
// as training makes them (newWordIndex returns nil otherwise).
type wordIndex struct {
	head []int32 // the first refinement of key i in refs, -1 for none
	refs []wordRef
}

// wordRef is a '1' or '2' entry refining a '3' entry: the index of its
// key, where the key's form ends and its XPOS starts (for '1'), and the
// next refinement of the same '3' entry (-1 for none).
type wordRef struct {
	key, next      int32
	formStop, xpos uint32
}

// newWordIndex builds the word index of d's '1', '2' and '3' keys, or
// returns nil if a '1' or '2' key has no '3' key.
func newWordIndex(d *dict) *wordIndex {
	w := &wordIndex{head: make([]int32, len(d.keys))}
	n := 0
	for i, k := range d.keys {
		w.head[i] = -1
		if k != "" && (k[0] == levelTags || k[0] == levelUPOS) {
			n++
		}
	}
	w.refs = make([]wordRef, 0, n)
	var kb []byte
	var ar arena // the lowercased form of the key at hand
	for i, k := range d.keys {
		if k == "" || k[0] != levelTags && k[0] != levelUPOS {
			continue
		}
		form, rest, ok := strings.Cut(k[1:], "\t")
		upos := rest
		r := wordRef{key: int32(i), formStop: uint32(1 + len(form)), xpos: uint32(len(k))}
		if k[0] == levelTags {
			var xpos string
			upos, xpos, ok = strings.Cut(rest, "\t")
			r.xpos = uint32(len(k) - len(xpos))
		}
		if !ok {
			continue // not a word key: no lookup reaches it
		}
		ar.reset()
		kb = appendKey(kb[:0], levelLower, ar.lower(form), upos)
		g, ok := d.index(kb)
		if !ok {
			return nil
		}
		// '1' entries go first, so that a lookup meets the most specific
		// match first; refinements of a level are in key order.
		r.next = w.head[g]
		w.head[g] = int32(len(w.refs))
		w.refs = append(w.refs, r)
	}
	// Keys are sorted, so each list holds its '2' entries, then its '1'
	// entries, each in reverse key order; reverse the lists.
	for g, h := range w.head {
		prev := int32(-1)
		for h >= 0 {
			next := w.refs[h].next
			w.refs[h].next = prev
			prev, h = h, next
		}
		w.head[g] = prev
	}
	return w
}

// find returns the candidates of the most specific entry of the word
// (form, its lowercased form, UPOS, XPOS) in d: '1', else '2', else '3';
// level is the entry's level byte. kb is a buffer for the key,
// returned grown.
//
// h, when not 0, is the hash of the '3' key (dict.hash): a caller that
// hashed the words of a sentence first (and touched them) passes it.
func (w *wordIndex) find(d *dict, kb []byte, form, lower, upos, xpos string, h uint64) (cands []int32, level byte, ok bool, _ []byte) {
	kb = appendKey(kb[:0], levelLower, lower, upos)
	if h == 0 {
		h = d.hash(kb)
	}
	g, found := d.indexHashed(kb, h)
	if !found {
		return nil, 0, false, kb
	}
	for r := w.head[g]; r >= 0; r = w.refs[r].next {
		ref := &w.refs[r]
		k := d.keys[ref.key]
		if k[1:ref.formStop] == form && (k[0] == levelUPOS || k[ref.xpos:] == xpos) {
			return d.cands(ref.key), k[0], true, kb
		}
	}
	return d.cands(g), levelLower, true, kb
}

// cands returns the candidates of key index i.
func (d *dict) cands(i int32) []int32 {
	start := uint32(0)
	if i > 0 {
		start = d.ends[i-1]
	}
	return d.ids[start:d.ends[i]:d.ends[i]]
}
