package modelfmt

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/golang/snappy"
	"github.com/klauspost/compress/huff0"

	"github.com/transparse/transparse/internal/freelist"
	"github.com/transparse/transparse/internal/hugepage"
	"github.com/transparse/transparse/internal/par"
)

// Blob coding (format version 2). Snappy removes repeats but does not
// entropy-code: the int16 weights and the delta-coded keys of a model, whose
// bytes are unevenly distributed but rarely repeat, pass through it almost
// unchanged. A version 2 writer stores such a blob Huffman-coded instead,
// under the classifier's "coded_blobs" key, in this form (a msgpack bin):
//
//	byte 0     coding: 1 (byte planes, Huffman-coded); other values are reserved
//	byte 1     stride s, 1..8: the blob is an array of s-byte elements
//	uvarint    n, the decoded length in bytes (a multiple of s, at most
//	           8 times the coded blob's length)
//	blocks     the elements in blocks of codedBlockElems (the last one
//	           shorter); for each block, for each byte plane p < s (byte p of
//	           every element of the block), a mode byte and:
//	             0: the plane's bytes, stored;
//	             1: uvarint L, then L bytes: a Huffman table and four
//	                streams (the huff0 format of github.com/klauspost/compress,
//	                as Compress4X writes it and zstd uses for literals)
//
// and nothing after the last block. Splitting elements into byte planes
// gives each byte position its own code: the high bytes of small int16
// weights take 2-3 bits instead of sharing a code with the low bytes.
// Decoding needs one pass over the coded bytes and writes every decoded
// byte once; the blocks are decoded in parallel.
const (
	codingPlanes    = 1
	codedBlockElems = 1 << 16 // elements per block: huff0 codes at most BlockSizeMax bytes at once
	maxStride       = 8
	// maxCodedExpansion bounds n by the coded length: a Huffman code takes
	// at least one bit per byte, and a stored byte one byte.
	maxCodedExpansion = 8
	// minCodedBlob is the shortest blob the writer tries to code.
	minCodedBlob = 4 << 10
	// minGain is the least saving, in percent of snappy's size, for which
	// the writer codes a blob.
	minGain = 10
	// minPlaneGain is the least saving, in percent of a plane's bytes, for
	// which the writer codes a plane of a coded blob; it stores the others.
	// Planes that barely shrink (the low bytes of int16 weights) cost more
	// Huffman decoding at load time than they save on disk
	// (docs/decisions.md).
	minPlaneGain = 10
)

// codeBlob returns the coded form of b if, compressed by snappy as the
// container does, it is at least minGain percent smaller than b compressed
// by snappy, else nil (decoding is not worth its time for a saving of a
// few percent). It tries the strides 1, 2, 4 and 8 and keeps
// the smallest result. The result is deterministic.
func codeBlob(b []byte) []byte {
	if len(b) < minCodedBlob {
		return nil
	}
	// Sizes as the container stores them: snappy compresses stored planes
	// that hold one repeated byte (the high bytes of small integers).
	best := len(snappy.Encode(nil, b)) * (100 - minGain) / 100
	var out []byte
	for s := 1; s <= maxStride; s *= 2 {
		if len(b)%s != 0 {
			continue
		}
		c := codePlanes(b, s)
		if z := len(snappy.Encode(nil, c)); z < best {
			out, best = c, z
		}
	}
	return out
}

// codePlanes codes b (len(b) a multiple of s) with stride s.
func codePlanes(b []byte, s int) []byte {
	out := []byte{codingPlanes, byte(s)}
	out = binary.AppendUvarint(out, uint64(len(b)))
	plane := make([]byte, 0, codedBlockElems)
	var sc huff0.Scratch
	for at := 0; at < len(b); at += codedBlockElems * s {
		blk := b[at:min(len(b), at+codedBlockElems*s)]
		for p := range s {
			plane = plane[:0]
			for i := p; i < len(blk); i += s {
				plane = append(plane, blk[i])
			}
			sc.Reuse = huff0.ReusePolicyNone
			h, _, err := huff0.Compress4X(plane, &sc)
			if err != nil || len(h) > len(plane)*(100-minPlaneGain)/100 {
				// Incompressible, one repeated byte (which snappy
				// compresses well enough), or too little to gain.
				out = append(out, 0)
				out = append(out, plane...)
				continue
			}
			out = append(out, 1)
			out = binary.AppendUvarint(out, uint64(len(h)))
			out = append(out, h...)
		}
	}
	return out
}

// codedHeader reads the header of a coded blob: stride, decoded length and
// the offset of the first block. It checks the bounds that let the decoder
// allocate n bytes safely.
func codedHeader(c []byte) (stride int, n uint64, at int, err error) {
	if len(c) < 3 {
		return 0, 0, 0, errors.New("coded blob shorter than its header")
	}
	if c[0] != codingPlanes {
		return 0, 0, 0, fmt.Errorf("unknown blob coding %d", c[0])
	}
	stride = int(c[1])
	if stride < 1 || stride > maxStride {
		return 0, 0, 0, fmt.Errorf("stride %d, want 1..%d", stride, maxStride)
	}
	n, k := binary.Uvarint(c[2:])
	if k <= 0 {
		return 0, 0, 0, errors.New("bad decoded length")
	}
	if n%uint64(stride) != 0 {
		return 0, 0, 0, fmt.Errorf("decoded length %d is not a multiple of the stride %d", n, stride)
	}
	if n > maxCodedExpansion*uint64(len(c)) {
		return 0, 0, 0, fmt.Errorf("decoded length %d is more than %d times the %d coded bytes", n, maxCodedExpansion, len(c))
	}
	return stride, n, 2 + k, nil
}

// codedJob is one block of one coded blob: where its planes start in the
// coded bytes and where its elements go.
type codedJob struct {
	blob     int    // index into the blobs being decoded
	src      []byte // the coded bytes of the block's planes
	dst      []byte // the decoded bytes of the block
	stride   int
	blockIdx int
}

// splitBlocks walks the blocks of the coded blob c (header already read:
// blocks start at at) whose decoded bytes go to dst, and appends one job per
// block. It checks the structure (modes, lengths, the end) without decoding.
func splitBlocks(jobs []codedJob, blob int, c []byte, at, stride int, dst []byte) ([]codedJob, error) {
	for blk := 0; blk*codedBlockElems*stride < len(dst); blk++ {
		lo := blk * codedBlockElems * stride
		d := dst[lo:min(len(dst), lo+codedBlockElems*stride)]
		e := len(d) / stride
		start := at
		for p := range stride {
			if at >= len(c) {
				return nil, fmt.Errorf("block %d plane %d: coded blob ends before it", blk, p)
			}
			mode := c[at]
			at++
			switch mode {
			case 0:
				if len(c)-at < e {
					return nil, fmt.Errorf("block %d plane %d: coded blob ends inside %d stored bytes", blk, p, e)
				}
				at += e
			case 1:
				l, k := binary.Uvarint(c[at:])
				if k <= 0 || l > uint64(len(c)-at-k) {
					return nil, fmt.Errorf("block %d plane %d: bad Huffman-coded length", blk, p)
				}
				at += k + int(l)
			default:
				return nil, fmt.Errorf("block %d plane %d: unknown mode %d", blk, p, mode)
			}
		}
		jobs = append(jobs, codedJob{blob: blob, src: c[start:at], dst: d, stride: stride, blockIdx: blk})
	}
	if at != len(c) {
		return nil, fmt.Errorf("%d bytes after the last block", len(c)-at)
	}
	return jobs, nil
}

// decodeJob decodes one block. sc is the caller's scratch, planes its
// buffer of at least len(j.dst) bytes.
func decodeJob(j *codedJob, sc *huff0.Scratch, planes []byte) error {
	e := len(j.dst) / j.stride
	at := 0
	for p := range j.stride {
		// Stride 1 decodes straight into the blob; wider strides decode
		// each plane into planes, then interleave them.
		out := j.dst[:0:e]
		if j.stride > 1 {
			out = planes[p*e : p*e : (p+1)*e]
		}
		mode := j.src[at]
		at++
		if mode == 0 {
			copy(out[:e], j.src[at:at+e])
			at += e
			continue
		}
		l, k := binary.Uvarint(j.src[at:])
		at += k
		h := j.src[at : at+int(l)]
		at += int(l)
		s, rest, err := huff0.ReadTable(h, sc)
		if err != nil {
			return fmt.Errorf("block %d plane %d: Huffman table: %v", j.blockIdx, p, err)
		}
		got, err := s.Decoder().Decompress4X(out, rest)
		if err == nil && len(got) != e {
			err = fmt.Errorf("%d bytes instead of %d", len(got), e)
		}
		if err != nil {
			return fmt.Errorf("block %d plane %d: Huffman streams: %v", j.blockIdx, p, err)
		}
	}
	interleave(j.dst, planes[:len(j.dst)], j.stride)
	return nil
}

// interleave writes the s planes of e = len(dst)/s bytes each, one after
// the other in planes, to dst as e elements of s bytes.
func interleave(dst, planes []byte, s int) {
	e := len(dst) / s
	switch s {
	case 1:
	case 2:
		lo, hi := planes[:e], planes[e:2*e]
		// Four elements at a time: spread 4 bytes of each plane to every
		// other byte of a word (two 64-bit shifts and masks each).
		i := 0
		for ; i+4 <= e; i += 4 {
			binary.LittleEndian.PutUint64(dst[2*i:], spread2(binary.LittleEndian.Uint32(lo[i:]))|
				spread2(binary.LittleEndian.Uint32(hi[i:]))<<8)
		}
		for ; i < e; i++ {
			binary.LittleEndian.PutUint16(dst[2*i:], uint16(lo[i])|uint16(hi[i])<<8)
		}
	case 4:
		b0, b1, b2, b3 := planes[:e], planes[e:2*e], planes[2*e:3*e], planes[3*e:4*e]
		for i := range b0 {
			binary.LittleEndian.PutUint32(dst[4*i:], uint32(b0[i])|uint32(b1[i])<<8|uint32(b2[i])<<16|uint32(b3[i])<<24)
		}
	default:
		for p := range s {
			for i, v := range planes[p*e : (p+1)*e] {
				dst[i*s+p] = v
			}
		}
	}
}

// spread2 returns the 4 bytes of x at the even bytes of a word: byte k
// of x becomes byte 2k.
func spread2(x uint32) uint64 {
	v := uint64(x)
	v = (v | v<<16) & 0x0000FFFF0000FFFF
	return (v | v<<8) & 0x00FF00FF00FF00FF
}

// decodeCodedBlobs decodes the coded blobs of every classifier of m into
// one new buffer and adds them to the classifiers' Blobs. Errors name the
// classifier and blob.
func decodeCodedBlobs(m *Model, coded [][]namedBlob) error {
	type item struct {
		ci   int
		name string
		c    []byte
		at   int
		s    int
		n    uint64
	}
	var items []item
	total := uint64(0)
	for ci, list := range coded {
		for _, nb := range list {
			s, n, at, err := codedHeader(nb.b)
			if err != nil {
				return codedError(ci, nb.name, err)
			}
			items = append(items, item{ci, nb.name, nb.b, at, s, n})
			total += n
		}
	}
	if len(items) == 0 {
		return nil
	}
	// Each n is at most 8 times its coded bytes, all of which lie in the
	// document: total <= 8 * MaxDocumentSize fits an int on 64-bit
	// machines; on 32-bit ones refuse what cannot be addressed.
	if total > math.MaxInt {
		return newError("", -1, "classifiers", kindCorrupt, "corrupt document (coded blobs decode to %d bytes)", total)
	}
	buf := make([]byte, total)
	hugepage.Advise(buf)
	var jobs []codedJob
	off := uint64(0)
	for k, it := range items {
		dst := buf[off : off+it.n : off+it.n]
		off += it.n
		var err error
		if jobs, err = splitBlocks(jobs, k, it.c, it.at, it.s, dst); err != nil {
			return codedError(it.ci, it.name, err)
		}
		c := &m.Classifiers[it.ci]
		if c.Blobs == nil {
			c.Blobs = make(map[string][]byte, len(coded[it.ci]))
		}
		c.Blobs[it.name] = dst
	}
	// The jobs are independent: decode them on all CPUs.
	errs := make([]error, len(jobs))
	steps := make([]par.Step, len(jobs))
	for i := range jobs {
		steps[i] = par.Step{Cost: int64(len(jobs[i].dst)), Run: func() {
			sc := decodeScratch.Get()
			if sc == nil {
				sc = new(jobScratch)
			}
			if n := len(jobs[i].dst); cap(sc.planes) < n {
				// As large as the blocks: a small document allocates little.
				sc.planes = make([]byte, n)
			}
			errs[i] = decodeJob(&jobs[i], &sc.huff, sc.planes)
			decodeScratch.Put(sc)
		}}
	}
	par.Do(steps)
	for i, err := range errs {
		if err != nil {
			it := items[jobs[i].blob]
			return codedError(it.ci, it.name, err)
		}
	}
	return nil
}

// jobScratch is the working memory of decodeJob, reused through
// decodeScratch (a free list: at most one per job running at once is
// allocated, and kept across collections).
type jobScratch struct {
	huff   huff0.Scratch
	planes []byte
}

var decodeScratch freelist.List[jobScratch]

// namedBlob is one entry of a classifier's "coded_blobs", in document order.
type namedBlob struct {
	name string
	b    []byte
}

func codedError(ci int, name string, err error) error {
	field := fmt.Sprintf("classifiers[%d].coded_blobs%s", ci, keySeg(name))
	return newError("", -1, field, kindCorrupt, "corrupt document (%s: %v)", field, err)
}

// sortedNamed returns the entries of a blob map in name order.
func sortedNamed(m map[string][]byte) []namedBlob {
	out := make([]namedBlob, 0, len(m))
	for k, v := range m {
		out = append(out, namedBlob{k, v})
	}
	slices.SortFunc(out, func(a, b namedBlob) int { return strings.Compare(a.name, b.name) })
	return out
}
