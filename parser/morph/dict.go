package morph

import (
	"hash/maphash"
	"math/bits"
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
	h := maphash.Bytes(d.seed, key)
	if b := bloomBits(h); d.bloom[d.bloomWord(h)]&b != b {
		return nil, false
	}
	mask := uint64(len(d.slots) - 1)
	tag := uint32(h >> 32)
	for j := h & mask; ; j = (j + 1) & mask {
		s := d.slots[j]
		if s.k == 0 {
			return nil, false
		}
		if s.tag == tag && d.keys[s.k-1] == string(key) {
			i := s.k - 1
			start := uint32(0)
			if i > 0 {
				start = d.ends[i-1]
			}
			return d.ids[start:d.ends[i]:d.ends[i]], true
		}
	}
}

// bloomWord is the word of d.bloom of hash h.
func (d *dict) bloomWord(h uint64) uint64 { return h >> 32 & uint64(len(d.bloom)-1) }

// bloomBits are the bits of hash h in its word of a bloom filter.
func bloomBits(h uint64) uint64 { return 1<<(h&63) | 1<<(h>>6&63) }
