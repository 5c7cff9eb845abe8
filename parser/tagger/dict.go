package tagger

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"math/bits"
	"slices"

	"github.com/transparse/transparse/parser/conllu"
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
// non-empty bit set of the tag ids the word has (in that bigram). It is an open-addressing
// table with linear probing; an empty slot has mask 0.
type dict struct {
	keys, masks []uint64 // sorted by key, for encoding
	slots       []dslot
	shift       uint
}

type dslot struct{ key, mask uint64 }

// dictKeyBits is the number of bits of a key the dictionary keeps: a word
// that is not in the dictionary has a chance of about 1 in 4 million
// (entries / 2^40) of being taken for one that is.
const dictKeyBits = 40

// dictKey truncates a key to dictKeyBits bits.
func dictKey(key uint64) uint64 { return key >> (64 - dictKeyBits) }

// lookup returns the ambiguity class of key, 0 if it is not in the
// dictionary.
func (d *dict) lookup(key uint64) uint64 {
	key = dictKey(key)
	mask := uint64(len(d.slots) - 1)
	i := (key * 0x9E3779B97F4A7C15) >> d.shift
	for {
		s := &d.slots[i&mask]
		if s.mask == 0 || s.key == key {
			return s.mask
		}
		i++
	}
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

// newDict builds the lookup table from sorted, distinct truncated keys and
// non-zero masks.
func newDict(keys, masks []uint64) dict {
	d := dict{keys: keys, masks: masks}
	size := 2
	for size < 2*len(keys) {
		size *= 2
	}
	d.slots = make([]dslot, size)
	d.shift = uint(64 - bits.TrailingZeros(uint(size)))
	for j, k := range keys {
		i := (k * 0x9E3779B97F4A7C15) >> d.shift
		for d.slots[i].mask != 0 {
			i = (i + 1) & uint64(size-1)
		}
		d.slots[i] = dslot{k, masks[j]}
	}
	return d
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
// lowercased form and lowercased bigram (with the previous and with the
// next word) of the training data and returns the dictionary and the
// counts.
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
			keys := [4]uint64{
				info.form,
				mix2(info.lower, lowerSalt),
				bigramKey(lowers[i], lowers[i+1], leftSalt),
				bigramKey(lowers[i+1], lowers[i+2], rightSalt),
			}
			for _, key := range keys {
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
	return newDict(keys, masks), counts
}

// encode returns the dictionary blobs: the truncated keys as uvarint
// deltas (the first delta is the first key), the masks as uvarints.
func (d *dict) encode() (keys, masks []byte) {
	prev := uint64(0)
	for _, k := range d.keys {
		keys = binary.AppendUvarint(keys, k-prev)
		prev = k
	}
	for _, m := range d.masks {
		masks = binary.AppendUvarint(masks, m)
	}
	return keys, masks
}

// decodeDict checks and decodes the dictionary blobs of a model with
// numTags tags and n entries.
func decodeDict(keyBlob, maskBlob []byte, n int64, numTags int) (dict, error) {
	// Every entry takes at least one byte of each blob.
	if n < 0 || n > int64(len(keyBlob)) || n > int64(len(maskBlob)) {
		return dict{}, fmt.Errorf("tag dictionary: %d entries but %d key and %d mask bytes", n, len(keyBlob), len(maskBlob))
	}
	keys := make([]uint64, n)
	masks := make([]uint64, n)
	prev := uint64(0)
	for i := range keys {
		delta, size := binary.Uvarint(keyBlob)
		if size <= 0 {
			return dict{}, fmt.Errorf("tag dictionary: bad key at entry %d", i)
		}
		keyBlob = keyBlob[size:]
		k := prev + delta
		if (i > 0 && delta == 0) || k < prev || k>>dictKeyBits != 0 {
			return dict{}, fmt.Errorf("tag dictionary: key %d out of order or range", i)
		}
		keys[i], prev = k, k
		m, size := binary.Uvarint(maskBlob)
		if size <= 0 {
			return dict{}, fmt.Errorf("tag dictionary: bad mask at entry %d", i)
		}
		maskBlob = maskBlob[size:]
		if m == 0 || (numTags < 64 && m>>uint(numTags) != 0) {
			return dict{}, fmt.Errorf("tag dictionary: entry %d: tag set %#x invalid for %d tags", i, m, numTags)
		}
		masks[i] = m
	}
	if len(keyBlob) != 0 || len(maskBlob) != 0 {
		return dict{}, fmt.Errorf("tag dictionary: %d trailing key bytes, %d trailing mask bytes", len(keyBlob), len(maskBlob))
	}
	return newDict(keys, masks), nil
}
