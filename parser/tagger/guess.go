package tagger

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/transparse/transparse/parser/conllu"
	"github.com/transparse/transparse/parser/form"
)

// guessMaxSuffix is the longest suffix, in runes, a lemma rule of the
// guesser strips; guessMinStem the fewest runes of a word it keeps.
const (
	guessMaxSuffix = 12
	guessMinStem   = 2
)

// lemmaSalt distinguishes the dictionary keys of lemmas (the tags seen with
// a lowercased lemma) from those of forms.
const lemmaSalt = 0x6c656d6d61736c74

// guesser analyzes the words that are not in the tag dictionary with the
// lemma rules of the training data, as MorphoDiTa's guesser does
// (Straková, Straka and Hajič 2014, "Open-source tools for morphology,
// lemmatization, POS tagging and named entity recognition", ACL demos):
// a word's guess is the set of the tags T for which a rule seen with T
// strips a suffix of the word and adds another to give a lemma seen with
// T (a lemma's tags are dictionary entries, lemmaKey). An unknown
// inflected word of an agglutinative language ends in an ending of its
// tag after a stem that is a lemma of its tag: Turkish "yaramadıklarını"
// (VERB) is the verb "yara" and a verb ending, though the form "yara" is a
// NOUN.
//
// A rule is the lowercased form's suffix after its longest common prefix
// with the lowercased lemma, replaced by the lemma's (Turkish "güldü",
// lemma "gül": strip "dü", add nothing).
type guesser struct {
	rules map[uint64][]guessRule // by the reversed hash (revHash) of the suffix they strip
}

// add adds rule r to g under the reversed hash h of the suffix it strips.
func (g *guesser) add(h uint64, r guessRule) { g.rules[h] = append(g.rules[h], r) }

// guessRule is a rule of a guesser: the suffix it strips and the one it
// adds, and the tags it was seen with (each tag's training count while the
// guesser is trained, nil once frozen or decoded).
type guessRule struct {
	del, add string
	mask     uint64
	count    []int32
}

// without returns the tags of r, tag left out if leave and r was seen with
// it once only in training (leave-one-out).
func (r *guessRule) without(tag int, leave bool) uint64 {
	if !leave || r.count == nil || tag < 0 || r.count[tag] > 1 {
		return r.mask
	}
	return r.mask &^ (1 << tag)
}

// guessOwn is a training word's own rule and lemma key, left out of its
// guess.
type guessOwn struct {
	tag   int // -1: none
	del   uint64
	add   string
	lemma uint64
}

// revHash returns the hash of the runes of s from the last to the first,
// as analyze hashes suffixes.
func revHash(s []rune) uint64 {
	h := uint64(fnvOffset)
	for i := len(s) - 1; i >= 0; i-- {
		h = form.HashRune(h, s[i])
	}
	return h
}

// lowerRunes appends the lowercased runes of s to buf.
func lowerRunes(buf []rune, s string) []rune {
	for _, r := range s {
		buf = append(buf, form.LowerRune(r))
	}
	return buf
}

// lemmaKey returns the dictionary key of a lemma from the hash of its
// lowercased runes.
func lemmaKey(h uint64) uint64 { return mix2(h, lemmaSalt) }

// lemmaKeyOf returns the dictionary key of lemma.
func lemmaKeyOf(lemma string) uint64 {
	h := uint64(fnvOffset)
	for _, r := range lemma {
		h = form.HashRune(h, form.LowerRune(r))
	}
	return lemmaKey(h)
}

// deriveGuess returns the rule of a form and its lemma (buffers fb and lb
// are scratch), and false if it strips more than guessMaxSuffix runes.
func deriveGuess(f, lemma string, fb, lb []rune) (del, add string, ok bool) {
	fr, lr := lowerRunes(fb[:0], f), lowerRunes(lb[:0], lemma)
	p := 0
	for p < len(fr) && p < len(lr) && fr[p] == lr[p] {
		p++
	}
	if len(fr)-p > guessMaxSuffix {
		return "", "", false
	}
	return string(fr[p:]), string(lr[p:]), true
}

// trainGuesser collects the rules of the words of train with a tag in
// column (ids tagID) and a lemma; nil if no word has a lemma.
func trainGuesser(train []*conllu.Sentence, column string, tagID map[string]int) *guesser {
	g := &guesser{rules: map[uint64][]guessRule{}}
	var fb, lb []rune
	for _, s := range train {
		for _, w := range s.Words {
			tagName := *columnOf(&w, column)
			if conllu.Absent(tagName) || conllu.Absent(w.Lemma) {
				continue
			}
			tag := tagID[tagName]
			del, add, ok := deriveGuess(w.Form, w.Lemma, fb, lb)
			if !ok {
				continue
			}
			h := revHash([]rune(del))
			j := slices.IndexFunc(g.rules[h], func(r guessRule) bool { return r.add == add })
			if j < 0 {
				j = len(g.rules[h])
				g.add(h, guessRule{del: del, add: add, count: make([]int32, len(tagID))})
			}
			rs := g.rules[h]
			rs[j].count[tag]++
			rs[j].mask |= 1 << tag
		}
	}
	if len(g.rules) == 0 {
		return nil
	}
	return g
}

// owns sets own[i] to word i's rule and lemma key with its gold tag
// gold[i] (tag -1 where it has none).
func owns(own []guessOwn, words []conllu.Word, gold []int) []guessOwn {
	own = own[:0]
	var fb, lb [32]rune
	for i := range words {
		o := guessOwn{tag: -1}
		if gold[i] >= 0 && !conllu.Absent(words[i].Lemma) {
			if del, add, ok := deriveGuess(words[i].Form, words[i].Lemma, fb[:0], lb[:0]); ok {
				o = guessOwn{tag: gold[i], del: revHash([]rune(del)), add: add, lemma: lemmaKeyOf(words[i].Lemma)}
			}
		}
		own = append(own, o)
	}
	return own
}

// set sets the guess of each of the n words of ws (padded as prepare
// leaves them) that is not in the dictionary d (src 0) and has letters,
// and the reversed hash of the longest suffix a rule strips to give one
// of its tags. While training (ts not nil), the lemmas' tags come from
// the training counts and word i's own rule and lemma (ts.own[i]) are
// left out.
//
// At tagging time (gs not nil, ts nil) it gathers the dictionary keys of
// all the sentence's rules first, reads their home lines (dict.touch) so
// that the cache misses overlap, then looks them up in the same order as
// training does: the same guesses, in a fraction of the time. It returns
// the touching loads' sum.
func (g *guesser) set(ws []wordInfo, words []conllu.Word, d *dict, ts *trainState, gs *guessScratch) (sink uint32) {
	var rb [64]rune
	var pre, revs [len(rb) + 1]uint64
	for i := range words {
		w := &ws[i+2]
		w.guess, w.gsuf = 0, 0
		f := words[i].Form
		if w.src != 0 || w.flags&flagLetter == 0 || utf8.RuneCountInString(f) > len(rb) {
			continue
		}
		o := guessOwn{tag: -1}
		if ts != nil {
			o = ts.own[i]
		}
		r := lowerRunes(rb[:0], f)
		n := len(r)
		pre[0] = fnvOffset
		for k, c := range r {
			pre[k+1] = form.HashRune(pre[k], c)
		}
		// The reversed hashes of the suffixes a rule may strip, then the
		// rules from the longest suffix to the shortest: a rule whose
		// tags the word already has cannot change its guess, nor (being
		// shorter) its suffix.
		lo := max(guessMinStem, n-guessMaxSuffix)
		rev := uint64(fnvOffset)
		for k := n; k >= lo; k-- {
			if k < n {
				rev = form.HashRune(rev, r[k])
			}
			revs[k] = rev
		}
		for k := lo; k <= n; k++ {
			rs := g.rules[revs[k]]
			for j := range rs {
				rule := &rs[j]
				rm := rule.without(o.tag, revs[k] == o.del && rule.add == o.add)
				if rm&^w.guess == 0 {
					continue
				}
				h := pre[k]
				for _, c := range rule.add {
					h = form.HashRune(h, c)
				}
				key := lemmaKey(h)
				if gs != nil && ts == nil {
					gs.add(int32(i), revs[k], rm, key)
					continue
				}
				var lm uint64
				if ts != nil {
					leave := -1
					if key == o.lemma {
						leave = o.tag
					}
					lm = ts.counts.mask(key, leave)
				} else {
					lm = d.lookup(key)
				}
				if tags := lm & rm; tags != 0 {
					if w.guess == 0 {
						w.gsuf = revs[k]
					}
					w.guess |= tags
				}
			}
		}
	}
	if gs == nil || ts != nil || len(gs.keys) == 0 {
		return 0
	}
	return gs.lookUp(ws, d)
}

// lookUp looks up the lemma keys gs gathered for the sentence of ws in d,
// in order, adds the tags they give to the words' guesses as set does,
// and resets gs. It returns the touching loads' sum.
//
// The lemmas' tag sets in d's column: those the previous guesser of the
// sentence read in the other column of the same table (Analysis: the UPOS
// and XPOS guessers share it) when it looked up the same keys, else from
// d, keeping the other column's for the next. Most lemmas the rules make
// are not in d: the Bloom filter drops them, its words read first so that
// their misses overlap too.
func (gs *guessScratch) lookUp(ws []wordInfo, d *dict) (sink uint32) {
	sink += d.touchBloom(gs.keys)
	gs.filter(d)
	reuse := gs.shared && slices.Equal(gs.keys, gs.prev)
	if !reuse {
		sink = d.touch(gs.keys)
		gs.prev = append(gs.prev[:0], gs.keys...)
		gs.other = gs.other[:0]
	}
	for j, key := range gs.keys {
		var lm uint64
		if reuse {
			lm = gs.other[j]
		} else {
			l, k := d.find(key)
			lm = l.mask[k][d.col]
			gs.other = append(gs.other, l.mask[k][1-d.col])
		}
		if tags := lm & gs.masks[j]; tags != 0 {
			w := &ws[gs.words[j]+2]
			if w.guess == 0 {
				w.gsuf = gs.sufs[j]
			}
			w.guess |= tags
		}
	}
	gs.reset()
	return sink
}

// guessScratch holds the lookups guesser.set gathers for a sentence: the
// word, the reversed hash of the suffix the rule strips, the rule's tags
// and the lemma's dictionary key, in the order training looks them up.
type guessScratch struct {
	words       []int32
	sufs, masks []uint64
	keys        []uint64
	// shared: the guessers of the sentence share one table (columns 0
	// and 1); prev are the keys the last one looked up, other their tag
	// sets in the column it did not read.
	shared      bool
	prev, other []uint64
}

func (gs *guessScratch) add(word int32, suf, mask, key uint64) {
	gs.words = append(gs.words, word)
	gs.sufs = append(gs.sufs, suf)
	gs.masks = append(gs.masks, mask)
	gs.keys = append(gs.keys, key)
}

// filter keeps the lookups whose key d may have (dict.mayHave).
func (gs *guessScratch) filter(d *dict) {
	n := 0
	for j, key := range gs.keys {
		if d.mayHave(key) {
			gs.words[n], gs.sufs[n], gs.masks[n], gs.keys[n] = gs.words[j], gs.sufs[j], gs.masks[j], key
			n++
		}
	}
	gs.words, gs.sufs, gs.masks, gs.keys = gs.words[:n], gs.sufs[:n], gs.masks[:n], gs.keys[:n]
}

func (gs *guessScratch) reset() {
	gs.words, gs.sufs, gs.masks, gs.keys = gs.words[:0], gs.sufs[:0], gs.masks[:0], gs.keys[:0]
}

// Blobs of a tagger's guesser: its rules, one a line (the suffix stripped
// and the suffix added, separated by a tab, in sorted order), and their
// tag sets (uvarints, in the same order).
const (
	guessRulesBlob = "tagger.guess.rules"
	guessMasksBlob = "tagger.guess.masks"
)

// encode returns the blobs of g.
func (g *guesser) encode() (rules, masks []byte) {
	type line struct {
		text string
		mask uint64
	}
	var all []line
	for _, rs := range g.rules {
		for _, r := range rs {
			all = append(all, line{r.del + "\t" + r.add, r.mask})
		}
	}
	slices.SortFunc(all, func(a, b line) int { return strings.Compare(a.text, b.text) })
	var rb bytes.Buffer
	for i, l := range all {
		if i > 0 {
			rb.WriteByte('\n')
		}
		rb.WriteString(l.text)
		masks = binary.AppendUvarint(masks, l.mask)
	}
	return rb.Bytes(), masks
}

// decodeGuesser checks and decodes the guesser blobs of a tagger with
// numTags tags: rules in sorted order, each stripping at most
// guessMaxSuffix runes, none repeated, with a non-empty tag set of tags <
// numTags.
func decodeGuesser(rules, masks []byte, numTags int) (*guesser, error) {
	g := &guesser{rules: map[uint64][]guessRule{}}
	mr := maskReader{b: masks, numTags: numTags}
	prev := ""
	for i, line := range strings.Split(string(rules), "\n") {
		del, add, ok := strings.Cut(line, "\t")
		switch {
		case !ok || strings.ContainsRune(add, '\t') || !utf8.ValidString(line):
			return nil, fmt.Errorf("blob %q: rule %d is not two tab-separated strings", guessRulesBlob, i)
		case i > 0 && line <= prev:
			return nil, fmt.Errorf("blob %q: rule %d out of order or repeated", guessRulesBlob, i)
		case utf8.RuneCountInString(del) > guessMaxSuffix:
			return nil, fmt.Errorf("blob %q: rule %d strips more than %d runes", guessRulesBlob, i, guessMaxSuffix)
		}
		prev = line
		m, err := mr.next(i)
		if err != nil {
			return nil, fmt.Errorf("blob %q: %v", guessMasksBlob, err)
		}
		g.add(revHash([]rune(del)), guessRule{del: del, add: add, mask: m})
	}
	if err := mr.end(); err != nil {
		return nil, fmt.Errorf("blob %q: %v", guessMasksBlob, err)
	}
	return g, nil
}
