package tagger

import (
	"encoding/binary"
	"fmt"
	"math/rand"
	"slices"
	"testing"

	"github.com/transparse/transparse/internal/keytable"
)

// Random dictionaries, spread and clustered (keys in runs that overflow
// their home lines, up to needing a larger table): the table finds every
// key's tag set and none for absent keys, whether it was decoded in one
// sweep or placed first; the fill's displacement is the placer's.
func TestDictRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	for _, c := range []struct {
		n       int
		cluster int // keys per run of consecutive keys (1: spread)
	}{{0, 1}, {1, 1}, {1000, 1}, {50000, 1}, {50000, 4}, {20000, 200}} {
		name := fmt.Sprintf("%d keys in runs of %d", c.n, c.cluster)
		entries := map[uint64]uint64{}
		for len(entries) < c.n {
			k := rng.Uint64() >> (64 - dictKeyBits)
			for r := 0; r < c.cluster && len(entries) < c.n; r++ {
				if kk := k + uint64(r); kk>>dictKeyBits == 0 {
					entries[kk] = 1 << rng.Intn(17)
				}
			}
		}
		keys := make([]uint64, 0, len(entries))
		for k := range entries {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		var keyBlob, maskBlob []byte
		prev := uint64(0)
		masks := make([]uint64, len(keys))
		for i, k := range keys {
			keyBlob = binary.AppendUvarint(keyBlob, k-prev)
			maskBlob = binary.AppendUvarint(maskBlob, entries[k])
			masks[i], prev = entries[k], k
		}
		d, err := decodeDict(keyBlob, maskBlob, int64(len(keys)), 17)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		full := func(k uint64) uint64 { return k<<(64-dictKeyBits) | 0x5a5a }
		absent, out := 0, 0
		for _, k := range keys {
			if !d.mayHave(full(k)) {
				t.Fatalf("%s: key %#x: the Bloom filter rules out a key of the table", name, k)
			}
			if _, in := entries[k+1]; !in {
				absent++
				if !d.mayHave(full(k + 1)) {
					out++
				}
			}
			if got := d.lookup(full(k)); got != entries[k] {
				t.Fatalf("%s: key %#x: tag set %#x, want %#x", name, k, got, entries[k])
			}
			if got := d.lookup(full(k + 1)); got != entries[k+1] {
				t.Fatalf("%s: key %#x: tag set %#x, want %#x", name, k+1, got, entries[k+1])
			}
		}
		// About 8 bits an entry and 2 bits a key: most absent keys are
		// ruled out.
		if absent >= 1000 && 10*out < 8*absent {
			t.Errorf("%s: the Bloom filter rules out %d of %d absent keys", name, out, absent)
		}
		// The fill's displacement is the placer's on the same table size.
		size := max(2, uint64(len(keys))*5/12+1)
		p := keytable.NewPlacer(64-dictKeyBits, size, dictSlots)
		f := newDictFill(make([]dline, size+uint64(len(keys))+2), size)
		for i, k := range keys {
			p.Place(k)
			f.add(k, masks[i])
		}
		if f.disp != p.Disp {
			t.Errorf("%s: fill displacement %d, placer %d", name, f.disp, p.Disp)
		}
		_, one := decodeDictOneSweep(keyBlob, maskBlob, len(keys), 17)
		if want := dictSizeHolds(size, p.Disp) && p.G < size+dictSpare; one != want {
			t.Errorf("%s: one-sweep decoding applied: %v, want %v", name, one, want)
		}
	}
}
