package tagger

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"math/bits"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/transparse/transparse/parser/form"
)

// Clusters are word clusters from a hierarchical clustering of a large
// unannotated corpus (Brown et al. 1992, "Class-based n-gram models of
// natural language", Computational Linguistics 18(4)): each word has a
// path, a bit string from the root of the cluster tree to its leaf, and
// words with a long common prefix of their paths occur in similar
// contexts. A tagger trained with clusters reads, besides its other
// features, the paths of the word and its neighbours and prefixes of the
// word's path (Koo, Carreras & Collins 2008; Owoputi et al. 2013), which
// tell it something of words its training data does not have. A word
// not in the clusters is looked up lowercased.
//
// Clusters are immutable and safe for concurrent use.
type Clusters struct {
	words []string // sorted
	codes []uint32 // the path of words[i] as a code (see pathCode)
	// The words' form hashes (form.HashBytes) and codes in an
	// open-addressing table of a power-of-two size at most 3/8 full,
	// probed linearly from a key's home slot; key 0 marks an empty slot
	// (a word whose hash is 0 is looked up in zero).
	keys []uint64
	vals []uint32
	zero uint32 // the code of the word whose hash is 0, if any
	mask uint64
}

// MaxClusterPath is the longest path Clusters accept, in bits.
const MaxClusterPath = 30

// pathCode is the code of a path of bits '0' and '1': the path read as a
// binary number after a leading 1, so that paths of different lengths
// differ.
func pathCode(path string) (uint32, bool) {
	if path == "" || len(path) > MaxClusterPath {
		return 0, false
	}
	c := uint32(1)
	for i := 0; i < len(path); i++ {
		switch path[i] {
		case '0':
			c <<= 1
		case '1':
			c = c<<1 | 1
		default:
			return 0, false
		}
	}
	return c, true
}

// ReadClusters reads clusters in the format of Percy Liang's
// implementation of Brown clustering (its "paths" file): one word a line,
// as the path, a tab, the word, and optionally a tab and a count, which
// is ignored. Empty lines are skipped. The first path of a word repeated
// counts. An error says what is wrong on which line: a path that is not
// 1 to MaxClusterPath bits, an empty word or one that is not UTF-8, a
// line without a tab, or no word at all.
func ReadClusters(r io.Reader) (*Clusters, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<20)
	paths := map[string]uint32{}
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSuffix(sc.Text(), "\r")
		if text == "" {
			continue
		}
		path, rest, ok := strings.Cut(text, "\t")
		if !ok {
			return nil, fmt.Errorf("clusters: line %d: want path<TAB>word[<TAB>count]", line)
		}
		word, _, _ := strings.Cut(rest, "\t")
		code, ok := pathCode(path)
		if !ok {
			return nil, fmt.Errorf("clusters: line %d: path %q is not 1 to %d bits 0 and 1", line, path, MaxClusterPath)
		}
		if word == "" || !utf8.ValidString(word) {
			return nil, fmt.Errorf("clusters: line %d: empty or invalid UTF-8 word", line)
		}
		if _, dup := paths[word]; !dup {
			paths[word] = code
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("clusters: line %d: %w", line+1, err)
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("clusters: no word")
	}
	c := &Clusters{words: make([]string, 0, len(paths))}
	for w := range paths {
		c.words = append(c.words, w)
	}
	slices.Sort(c.words)
	c.codes = make([]uint32, len(c.words))
	for i, w := range c.words {
		c.codes[i] = paths[w]
	}
	c.buildIndex()
	return c, nil
}

// Len returns the number of words with a path.
func (c *Clusters) Len() int { return len(c.words) }

// Path returns the path of word (looked up as it is, not lowercased),
// "" if it has none.
func (c *Clusters) Path(word string) string {
	i, ok := slices.BinarySearch(c.words, word)
	if !ok {
		return ""
	}
	code := c.codes[i]
	n := bits.Len32(code) - 1
	b := make([]byte, n)
	for k := range n {
		b[k] = '0' + byte(code>>(n-1-k)&1)
	}
	return string(b)
}

func (c *Clusters) buildIndex() {
	size := 16
	for size*3 < len(c.words)*8 {
		size *= 2
	}
	c.keys, c.vals, c.mask = make([]uint64, size), make([]uint32, size), uint64(size-1)
	for i, w := range c.words {
		h := form.HashBytes(form.Offset, w)
		if h == 0 {
			c.zero = c.codes[i]
			continue
		}
		for j := h & c.mask; ; j = (j + 1) & c.mask {
			if c.keys[j] == 0 || c.keys[j] == h {
				c.keys[j], c.vals[j] = h, c.codes[i]
				break
			}
		}
	}
}

// code returns the path code of the word whose form hash is h, 0 if it
// has none.
func (c *Clusters) code(h uint64) uint32 {
	if h == 0 {
		return c.zero
	}
	for j := h & c.mask; ; j = (j + 1) & c.mask {
		switch c.keys[j] {
		case h:
			return c.vals[j]
		case 0:
			return 0
		}
	}
}

// Flags of a word's cluster value (wordInfo.clu) besides its path code.
const (
	cluLowered = 1 << 40 // the path of the lowercased form
	cluNone    = 1 << 41 // neither form has a path
)

// set gives the n words of ws (padded as prepare pads them) their cluster
// values: the code of the form's path, else of the lowercased form's
// (flagged), else cluNone.
func (c *Clusters) set(ws []wordInfo, n int) {
	for i := range n {
		w := &ws[i+2]
		switch code, lowered := c.path(w.form, w.rawLower); {
		case code == 0:
			w.clu = cluNone
		case lowered:
			w.clu = uint64(code) | cluLowered
		default:
			w.clu = uint64(code)
		}
	}
}

// path returns the path code of the form whose exact and lowercased hashes
// are form and lower, else of its lowercased form (lowered), 0 if neither
// has a path.
func (c *Clusters) path(form, lower uint64) (code uint32, lowered bool) {
	if code := c.code(form); code != 0 {
		return code, false
	}
	if lower != form {
		if code := c.code(lower); code != 0 {
			return code, true
		}
	}
	return 0, false
}

// Code returns the path code of the form of hashes h, else of its
// lowercased form, 0 if neither has a path (or c is nil): the code set
// gives a word, without its flags (form.Word.Cluster).
func (c *Clusters) Code(h form.Hashes) uint64 {
	if c == nil {
		return 0
	}
	code, _ := c.path(h.Form, h.Lower)
	return uint64(code)
}

// Blobs of a tagger's clusters: the words, sorted, one a line, and their
// path codes (pathCode) as uvarints in the same order.
const (
	clusterWordsBlob = "tagger.clusters.words"
	clusterCodesBlob = "tagger.clusters.codes"
	// ClustersShared is the XPOS tagger's param that, set to 1, says its
	// clusters are the UPOS tagger's blobs, which it then does not hold.
	ClustersShared = "tagger.clusters_shared"
)

// encode returns the two blobs of c.
func (c *Clusters) encode() (words, codes []byte) {
	words = []byte(strings.Join(c.words, "\n"))
	for _, code := range c.codes {
		codes = binary.AppendUvarint(codes, uint64(code))
	}
	return words, codes
}

// decodeClusters decodes the blobs encode wrote: an error if the words
// are not sorted, unique, non-empty UTF-8, or the codes are not one valid
// path code per word.
func decodeClusters(words, codes []byte) (*Clusters, error) {
	if len(words) == 0 {
		return nil, fmt.Errorf("blob %q: no word", clusterWordsBlob)
	}
	if !utf8.Valid(words) {
		return nil, fmt.Errorf("blob %q: invalid UTF-8", clusterWordsBlob)
	}
	c := &Clusters{words: strings.Split(string(words), "\n")} // one copy, shared by the words
	for i, w := range c.words {
		if w == "" || (i > 0 && c.words[i-1] >= w) {
			return nil, fmt.Errorf("blob %q: word %d: empty or out of order", clusterWordsBlob, i+1)
		}
	}
	c.codes = make([]uint32, len(c.words))
	for i := range c.codes {
		v, n := binary.Uvarint(codes)
		if n <= 0 || v < 2 || v >= 1<<(MaxClusterPath+1) {
			return nil, fmt.Errorf("blob %q: code %d of %d missing or invalid", clusterCodesBlob, i+1, len(c.codes))
		}
		c.codes[i], codes = uint32(v), codes[n:]
	}
	if len(codes) != 0 {
		return nil, fmt.Errorf("blob %q: %d bytes after the last code", clusterCodesBlob, len(codes))
	}
	c.buildIndex()
	return c, nil
}
