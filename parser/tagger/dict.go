package tagger

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"math/bits"
	"slices"
	"sync"

	"github.com/transparse/transparse/internal/hugepage"
	"github.com/transparse/transparse/internal/keytable"
	"github.com/transparse/transparse/parser/conllu"
	"github.com/transparse/transparse/parser/linear"
)

// Tag dictionary settings: a word form (or lowercased form) enters the
// dictionary if it occurs at least dictMinCount times in the training data;
// its ambiguity class is the set of tags that make up at least dictMinShare
// of its occurrences.
const (
	dictMinCount = 1
	dictMinShare = 0.01
)

// lowerSalt distinguishes lowercased-form keys from exact-form keys.
const lowerSalt = 0x6c6f776572636173

// Salts of the keys of lowercased word bigrams, (previous word, word) and
// (word, next word), counted with the tags of the word.
const (
	leftSalt  = 0x6c656674626967
	rightSalt = 0x7269676874626967
)

func bigramKey(a, b, salt uint64) uint64 { return mix2(mix2(a, b), salt) }

// rareForm replaces the form (or lowercased form) of a word that is not in
// the dictionary, so that the model learns to tag rare words from their
// spelling and context, as it must tag unknown words (Ratnaparkhi 1996).
const rareForm = 0x7261726577726421

// dict maps a key (the hash of an exact form, or a salted hash of a
// lowercased form or of a lowercased bigram) to its ambiguity class: the
// non-empty bit set of the tag ids the word has (in that bigram). A model's
// UPOS and XPOS taggers, trained on the same words, have dictionaries with
// the same keys: they share one table that holds both tag sets of a key
// (columns 0 and 1), so tagging a sentence with both looks each key up
// once (lookupAll2); each tagger reads its own column.
//
// It is a table of 64-byte lines (one cache line) of dictSlots entries,
// filled by ordered linear probing at the granularity of lines, as the
// tables of package linear: the keys (dictKeyBits bits, well mixed) are
// sorted, the home line of key k is floor(k*L/2^dictKeyBits) for L lines,
// key j goes to the first free slot of line max(home, line of key j-1), or
// of the next line if that one is full, so the table is built by one sweep
// and a lookup reads its home line and, rarely, the next ones. A slot
// stores the low 32 bits of its key; since every key a lookup compares
// lies within a few lines' share of the key space of the key looked up
// (checked when the table is built), the signed difference of two low
// halves orders their keys exactly. Empty slots hold the low half of the
// smallest key whose home is a later line, so that a lookup stops there.
type dict struct {
	lines []dline // the last line is always empty; shared by the taggers of a pair
	size  uint64  // number of home lines
	n     int     // number of entries
	col   int     // the column of the tag sets this tagger reads: 0 or 1
	// bloom is a blocked Bloom filter of the entries' stored low key
	// halves (mayHave): about 8 bits an entry, one word read per test,
	// small enough to stay in the cache while the guesser tests the
	// lemmas its rules make, most of which are not in the table.
	bloom []uint64
}

// withBloom returns d with its Bloom filter built from its entries.
func withBloom(d dict) dict {
	words := 1
	for words*8 < d.n {
		words *= 2
	}
	d.bloom = make([]uint64, words)
	for i := range d.lines {
		l := &d.lines[i]
		for k := range dictSlots {
			if l.mask[k] != [2]uint64{} {
				w, b := bloomSlot(l.v[k], len(d.bloom))
				d.bloom[w] |= b
			}
		}
	}
	return d
}

// bloomSlot returns the word of a Bloom filter of words words (a power of
// two) and the two bits in it of the low key half v.
func bloomSlot(v uint32, words int) (int, uint64) {
	h := uint64(v) * 0x9E3779B97F4A7C15
	return int(h >> 32 & uint64(words-1)), 1<<(h&63) | 1<<(h>>6&63)
}

// touchBloom reads the Bloom filter words of keys (see touch).
func (d *dict) touchBloom(keys []uint64) (sink uint32) {
	if len(d.bloom) == 0 {
		return 0
	}
	for _, k := range keys {
		w, _ := bloomSlot(uint32(k>>(64-dictKeyBits)), len(d.bloom))
		sink += uint32(d.bloom[w])
	}
	return sink
}

// mayHave reports whether key may be in d: false means it is not.
func (d *dict) mayHave(key uint64) bool {
	if len(d.bloom) == 0 {
		return true
	}
	w, b := bloomSlot(uint32(key>>(64-dictKeyBits)), len(d.bloom))
	return d.bloom[w]&b == b
}

// dictSlots is the number of entries of a dline.
const dictSlots = 3

// dline is one line of a dict: the low 32 bits of each slot's key and its
// tag sets, one per column (0 for an empty slot, or an unused column).
type dline struct {
	v    [dictSlots]uint32
	_    uint32
	mask [dictSlots][2]uint64
}

// dictKeyBits is the number of bits of a key the dictionary keeps: a word
// that is not in the dictionary has a chance of about 1 in 4 million
// (entries / 2^40) of being taken for one that is.
const dictKeyBits = 40

// dictKey truncates a key to dictKeyBits bits.
func dictKey(key uint64) uint64 { return key >> (64 - dictKeyBits) }

// lookup returns the ambiguity class of key, 0 if it is not in the
// dictionary.
func (d *dict) lookup(key uint64) uint64 {
	l, k := d.find(key)
	return l.mask[k][d.col]
}

// find returns the line and slot where key is, or a slot with empty tag
// sets if it is not in the dictionary.
func (d *dict) find(key uint64) (*dline, int) {
	g := d.home(key)
	v := uint32(key >> (64 - dictKeyBits))
	l := &d.lines[g]
	for int32(l.v[dictSlots-1]-v) < 0 {
		g++
		l = &d.lines[g]
	}
	k := 0
	for k < dictSlots-1 && int32(l.v[k]-v) < 0 {
		k++
	}
	if l.v[k] != v {
		// Not here: the last line's slots are all empty.
		return &d.lines[len(d.lines)-1], 0
	}
	return l, k
}

// home returns the home line of key (its dictKeyBits high bits scaled to
// the lines).
func (d *dict) home(key uint64) uint64 {
	g, _ := bits.Mul64(key&^(1<<(64-dictKeyBits)-1), d.size)
	return g
}

// touch reads the home line of every key in one tight loop, so that the
// cache misses of a sentence's lookups overlap instead of waiting for one
// another behind each lookup's compares. It returns the sum of the values
// it read, for the caller to keep, so that the loads stay.
func (d *dict) touch(keys []uint64) (sink uint32) {
	for _, k := range keys {
		sink += d.lines[d.home(k)].v[0]
	}
	return sink
}

// lookupAll sets masks[j] to lookup(keys[j]) for every key, the home
// lines read first (touch). It returns touch's sum.
func (d *dict) lookupAll(keys, masks []uint64) (sink uint32) {
	sink = d.touch(keys)
	for j, k := range keys {
		masks[j] = d.lookup(k)
	}
	return sink
}

// lookupAll2 is lookupAll for both columns of a shared table: m0[j] and
// m1[j] are the tag sets of keys[j] in columns 0 and 1.
func (d *dict) lookupAll2(keys, m0, m1 []uint64) (sink uint32) {
	sink = d.touch(keys)
	for j, k := range keys {
		l, s := d.find(k)
		m0[j], m1[j] = l.mask[s][0], l.mask[s][1]
	}
	return sink
}

// amb sets the dictionary attributes of w.
func (d *dict) amb(w *wordInfo) {
	setAmb(w, d.lookup(w.form), d.lookup(mix2(w.lower, lowerSalt)))
}

// setAmb sets the ambiguity class of w from the classes of its exact form
// (fm) and of its lowercased form (lm), 0 when not in the dictionary, and
// replaces the forms that are not in the dictionary by rareForm.
func setAmb(w *wordInfo, fm, lm uint64) {
	switch {
	case fm != 0:
		w.amb, w.src = fm, 1
	case lm != 0:
		w.amb, w.src = lm, 2
	}
	w.lamb = lm
	if fm == 0 {
		w.form = rareForm
	}
	if lm == 0 {
		w.lower = rareForm
	}
}

// dictBounds gives B(1), B(2), ... of a dictionary of size lines
// (keytable.Boundaries), 2^40 from B(size) on.
type dictBounds struct{ b keytable.Boundaries }

func newDictBounds(size uint64) dictBounds {
	return dictBounds{keytable.NewBoundaries(dictKeyBits, size)}
}

func (d *dictBounds) next() uint64 {
	if k, ok := d.b.Next(); ok {
		return k
	}
	return 1 << dictKeyBits
}

// dictScratch is the decoded entries of a dictionary, needed only while
// its table is built (reused through dictPool).
type dictScratch struct{ keys, masks []uint64 }

var dictPool sync.Pool // *dictScratch

func getDictScratch() *dictScratch {
	if sc, _ := dictPool.Get().(*dictScratch); sc != nil {
		return sc
	}
	return new(dictScratch)
}

// decode checks and decodes the n entries of the dictionary blobs into
// sc.keys and sc.masks.
func (sc *dictScratch) decode(keyBlob, maskBlob []byte, n, numTags int) error {
	sc.keys = hugepage.Scratch(sc.keys, n)
	keys := keyReader{b: keyBlob}
	for i := range sc.keys {
		k, err := keys.next(i)
		if err != nil {
			return err
		}
		sc.keys[i] = k
	}
	if err := keys.end(); err != nil {
		return err
	}
	return decodeMasks(maskBlob, n, numTags, &sc.masks)
}

// decodeMasks checks and decodes the n tag sets of a mask blob into *masks.
func decodeMasks(maskBlob []byte, n, numTags int, masks *[]uint64) error {
	ms := hugepage.Scratch(*masks, n)
	*masks = ms
	r := maskReader{b: maskBlob, numTags: numTags}
	for i := range ms {
		m, err := r.next(i)
		if err != nil {
			return err
		}
		ms[i] = m
	}
	return r.end()
}

// keyReader reads the keys of a dictionary's key blob one by one: uvarint
// deltas of strictly increasing keys < 2^40.
type keyReader struct {
	b    []byte
	at   int
	prev uint64
}

// next checks and returns key i.
func (r *keyReader) next(i int) (uint64, error) {
	delta, next := uvarint(r.b, r.at)
	if next <= r.at {
		return 0, fmt.Errorf("tag dictionary: bad key at entry %d", i)
	}
	r.at = next
	k := r.prev + delta
	if (i > 0 && delta == 0) || k < r.prev || k>>dictKeyBits != 0 {
		return 0, fmt.Errorf("tag dictionary: key %d out of order or range", i)
	}
	r.prev = k
	return k, nil
}

// end checks that the blob ends after the keys read.
func (r *keyReader) end() error {
	if r.at != len(r.b) {
		return fmt.Errorf("tag dictionary: %d trailing key bytes", len(r.b)-r.at)
	}
	return nil
}

// maskReader reads the tag sets of a dictionary's mask blob one by one:
// uvarints, non-empty, of tags < numTags.
type maskReader struct {
	b       []byte
	at      int
	numTags int
}

// next checks and returns tag set i.
func (r *maskReader) next(i int) (uint64, error) {
	m, next := uvarint(r.b, r.at)
	if next <= r.at {
		return 0, fmt.Errorf("tag dictionary: bad mask at entry %d", i)
	}
	r.at = next
	if m == 0 || (r.numTags < 64 && m>>uint(r.numTags) != 0) {
		return 0, fmt.Errorf("tag dictionary: entry %d: tag set %#x invalid for %d tags", i, m, r.numTags)
	}
	return m, nil
}

// end checks that the blob ends after the tag sets read.
func (r *maskReader) end() error {
	if r.at != len(r.b) {
		return fmt.Errorf("tag dictionary: %d trailing mask bytes", len(r.b)-r.at)
	}
	return nil
}

// decodeDict checks and decodes the dictionary blobs of a model with
// numTags tags and n entries: keys (strictly increasing, < 2^40) as
// uvarint deltas, tag sets (non-empty, of tags < numTags) as uvarints. The
// dictionary reads column 0 (see addColumn).
func decodeDict(keyBlob, maskBlob []byte, n int64, numTags int) (dict, error) {
	// Every entry takes at least one byte of each blob.
	if n < 0 || n > int64(len(keyBlob)) || n > int64(len(maskBlob)) {
		return dict{}, fmt.Errorf("tag dictionary: %d entries but %d key and %d mask bytes", n, len(keyBlob), len(maskBlob))
	}
	if d, ok := decodeDictOneSweep(keyBlob, maskBlob, int(n), numTags); ok {
		return d, nil
	}
	sc := getDictScratch()
	defer dictPool.Put(sc)
	if err := sc.decode(keyBlob, maskBlob, int(n), numTags); err != nil {
		return dict{}, err
	}
	return newDict(sc.keys, sc.masks)
}

// dictSpare is the number of lines past the home lines that
// decodeDictOneSweep allocates for keys displaced past the last home line.
const dictSpare = 64

// decodeDictOneSweep is decodeDict in one sweep over the blobs, for the
// common case: the first table size newDict tries holds the keys, and
// they are displaced at most dictSpare lines past the last home line. It
// decodes the entries as it places them, without scratch memory. It
// reports false when the blobs are not such a case or anything is
// invalid; decodeDict then decodes them into scratch and calls newDict,
// which gives the same table or the error (the keys checked before the
// tag sets).
func decodeDictOneSweep(keyBlob, maskBlob []byte, n, numTags int) (dict, bool) {
	size := max(2, uint64(n)*5/12+1)
	if size > 1<<26 {
		return dict{}, false
	}
	spare := int(size) + dictSpare + 1
	arena := hugepage.NewArena(hugepage.ArenaBytes[dline](spare))
	f := newDictFill(hugepage.Take[dline](&arena, spare), size)
	keys, masks := keyReader{b: keyBlob}, maskReader{b: maskBlob, numTags: numTags}
	for j := range n {
		k, errK := keys.next(j)
		m, errM := masks.next(j)
		if errK != nil || errM != nil || !f.add(k, m) {
			return dict{}, false
		}
	}
	if keys.end() != nil || masks.end() != nil || !dictSizeHolds(size, f.disp) {
		return dict{}, false
	}
	return withBloom(dict{n: n, size: size, lines: f.finish()}), true
}

// dictSizeHolds reports whether a table of size home lines orders keys
// displaced up to disp lines by their 32-bit differences: the keys a
// lookup compares are less than 2*disp+3 lines' shares of the key space
// (2^40/size each) apart.
func dictSizeHolds(size, disp uint64) bool {
	return (2*disp+3)*((1<<dictKeyBits)/size+1) < 1<<30
}

// dictFill writes sorted, distinct keys and their tag sets (column 0) into
// the lines of a table of size home lines, in order: a key goes to the
// first line from its home line on with a free slot, and the empty slots
// of line g hold the low half of B(g+1).
type dictFill struct {
	lines  []dline
	size   uint64
	bounds dictBounds
	g      uint64 // the current line
	used   int    // its slots in use
	empty  uint32 // the value of its empty slots
	disp   uint64 // the largest displacement (line - home line) so far
}

func newDictFill(lines []dline, size uint64) *dictFill {
	f := &dictFill{lines: lines, size: size, bounds: newDictBounds(size)}
	f.empty = uint32(f.bounds.next())
	return f
}

// closeLine fills the free slots of the current line with empty values.
func (f *dictFill) closeLine() {
	for s := f.used; s < dictSlots; s++ {
		f.lines[f.g].v[s] = f.empty
	}
}

// add places key k with tag set mask. It reports false, placing nothing,
// if k would go to the last line of the lines or past it (the table needs
// an empty line after the last key).
func (f *dictFill) add(k, mask uint64) bool {
	h := keytable.Home(k, 64-dictKeyBits, f.size)
	if h > f.g || f.used == dictSlots {
		next := max(h, f.g+1)
		if next >= uint64(len(f.lines))-1 {
			return false
		}
		f.closeLine()
		for f.g++; ; f.g++ {
			f.empty = uint32(f.bounds.next())
			if f.g == next {
				break
			}
			f.used = 0
			f.closeLine()
		}
		f.used = 0
	}
	f.disp = max(f.disp, f.g-h)
	f.lines[f.g].v[f.used] = uint32(k)
	f.lines[f.g].mask[f.used][0] = mask
	f.used++
	return true
}

// finish closes the lines up to one empty line after the last home line
// and the last key's line, and returns them.
func (f *dictFill) finish() []dline {
	f.closeLine()
	last := max(f.size, f.g+1) + 1
	for f.g++; f.g < last; f.g++ {
		f.empty = uint32(f.bounds.next())
		f.used = 0
		f.closeLine()
	}
	return f.lines[:last:last]
}

// addColumn sets the tag sets of column 1 from maskBlob (the same keys'
// tag sets for a tagger of numTags tags, as uvarints in key order), the
// table's entries' in the order of the lines and slots, decoding them as
// it stores them (on an error the lines are left half written: the caller
// drops the dictionary).
func (d *dict) addColumn(maskBlob []byte, numTags int) error {
	if n := d.n; n > len(maskBlob) {
		return fmt.Errorf("tag dictionary: %d entries but %d mask bytes", n, len(maskBlob))
	}
	masks := maskReader{b: maskBlob, numTags: numTags}
	j := 0
	for g := range d.lines {
		l := &d.lines[g]
		for s := range l.mask {
			if l.mask[s][0] == 0 {
				continue
			}
			m, err := masks.next(j)
			if err != nil {
				return err
			}
			l.mask[s][1] = m
			j++
		}
	}
	return masks.end()
}

// newDict builds the table of sorted, distinct keys (< 2^40) and their
// non-empty tag sets (column 0), in two sweeps over them (no random
// access): the first finds the line of each key and the largest
// displacement (line - home line), the second fills the lines in order.
// The dictionary does not keep the entries: encode recovers them from the
// table.
func newDict(keys, masks []uint64) (dict, error) {
	n := len(keys)
	// About 2.4 keys per line of 3; a larger table if keys are displaced
	// so far that 32-bit differences would not order them.
	size := max(2, uint64(n)*5/12+1)
	var p keytable.Placer
	for {
		p = keytable.NewPlacer(64-dictKeyBits, size, dictSlots)
		for _, k := range keys {
			p.Place(k)
		}
		if dictSizeHolds(size, p.Disp) {
			break
		}
		if size > 1<<26 {
			return dict{}, fmt.Errorf("tag dictionary: %d entries are too many", n)
		}
		size *= 2
	}
	nl := int(max(size, p.G+1) + 1)
	arena := hugepage.NewArena(hugepage.ArenaBytes[dline](nl))
	f := newDictFill(hugepage.Take[dline](&arena, nl), size)
	for j, k := range keys {
		f.add(k, masks[j]) // the placement above leaves room
	}
	return withBloom(dict{n: n, size: size, lines: f.finish()}), nil
}

// tagCounts maps a dictionary key to its tag counts in the training data.
type tagCounts map[uint64][]int32

// mask returns the ambiguity class of key, 0 if the word is not in the
// dictionary. With leave >= 0 it is computed as if one occurrence tagged
// leave were not in the data (leave-one-out): training on the dictionary
// entry of a word computed without the word's own occurrence gives the
// training data the same dictionary coverage as unseen text.
func (tc tagCounts) mask(key uint64, leave int) uint64 {
	c := tc[key]
	if c == nil {
		return 0
	}
	total := int32(0)
	for _, n := range c {
		total += n
	}
	if leave >= 0 {
		total--
	}
	if total < dictMinCount {
		return 0
	}
	var mask uint64
	for tag, n := range c {
		if tag == leave {
			n--
		}
		if n > 0 && float64(n) >= dictMinShare*float64(total) {
			mask |= 1 << tag
		}
	}
	return mask
}

// buildDict counts the tags (in column, with ids tagID) of every form,
// lowercased form, lowercased bigram (with the previous and with the
// next word) and lemma (lemmaKeyOf, for the guesser) of the training
// data and returns the dictionary and the counts.
func buildDict(train []*conllu.Sentence, column string, tagID map[string]int) (dict, tagCounts) {
	counts := tagCounts{}
	var lowers []uint64
	for _, s := range train {
		lowers = lowers[:0]
		lowers = append(lowers, bos.lower)
		for _, w := range s.Words {
			lowers = append(lowers, analyze(w.Form).lower)
		}
		lowers = append(lowers, eos.lower)
		for i, w := range s.Words {
			tagName := *columnOf(&w, column)
			if conllu.Absent(tagName) {
				continue
			}
			info := analyze(w.Form)
			tag := tagID[tagName]
			keys := [5]uint64{
				info.form,
				mix2(info.lower, lowerSalt),
				bigramKey(lowers[i], lowers[i+1], leftSalt),
				bigramKey(lowers[i+1], lowers[i+2], rightSalt),
			}
			n := len(keys)
			if !conllu.Absent(w.Lemma) {
				keys[4], n = lemmaKeyOf(w.Lemma), 5
			}
			for _, key := range keys[:n] {
				c := counts[key]
				if c == nil {
					c = make([]int32, len(tagID))
					counts[key] = c
				}
				c[tag]++
			}
		}
	}
	type entry struct{ key, mask uint64 }
	entries := make([]entry, 0, len(counts))
	for key := range counts {
		if m := counts.mask(key, -1); m != 0 {
			entries = append(entries, entry{dictKey(key), m})
		}
	}
	slices.SortFunc(entries, func(a, b entry) int { return cmp.Compare(a.key, b.key) })
	var keys, masks []uint64
	for _, e := range entries {
		if n := len(keys); n > 0 && keys[n-1] == e.key {
			masks[n-1] |= e.mask // truncated keys collide: merge
			continue
		}
		keys = append(keys, e.key)
		masks = append(masks, e.mask)
	}
	d, err := newDict(keys, masks)
	if err != nil {
		panic(err) // a dictionary built from data has far fewer entries
	}
	return d, counts
}

// encode returns the dictionary blobs of the tagger's column: the
// truncated keys as uvarint deltas (the first delta is the first key), the
// masks as uvarints. A slot
// holds the low 32 bits of its key, which lies less than 2^31 from B(g),
// the smallest key whose home is its line g: that pins the key down.
func (d *dict) encode() (keys, masks []byte) {
	bounds := newDictBounds(d.size)
	bg := uint64(0) // B(g)
	prev := uint64(0)
	for g := range d.lines {
		if g > 0 {
			bg = bounds.next()
		}
		l := &d.lines[g]
		for s := 0; s < dictSlots; s++ {
			if l.mask[s][d.col] == 0 {
				continue
			}
			k := bg + uint64(int64(int32(l.v[s]-uint32(bg))))
			keys = binary.AppendUvarint(keys, k-prev)
			masks = binary.AppendUvarint(masks, l.mask[s][d.col])
			prev = k
		}
	}
	return keys, masks
}

// uvarint is linear.Uvarint.
func uvarint(b []byte, at int) (uint64, int) { return linear.Uvarint(b, at) }
