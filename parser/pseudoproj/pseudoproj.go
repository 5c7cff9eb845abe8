// Package pseudoproj implements pseudo-projective dependency parsing (Nivre
// & Nilsson 2005, "Pseudo-Projective Dependency Parsing", ACL; as used in
// Nivre 2008 §6.1): a projective
// parser is trained on trees made projective by lifting non-projective arcs,
// with the lifts encoded in the arc labels, and its output is turned back
// into a non-projective tree by following the encoding.
//
// Trees are head arrays over nodes 0..n as in package tree: head[d] is the
// head of word d (0 for the artificial root), head[0] = -1 and is ignored;
// deprel[d] is the label of the arc into d, deprel[0] is ignored.
//
// # Label encodings
//
// Nivre & Nilsson write l↑h for a lifted arc and p↓ for an arc on a lifting
// path. Those characters are replaced by two ASCII separators that cannot
// occur in a Universal Dependencies deprel ([a-z]+(:[a-z]+)?), the same ones
// MaltParser uses:
//
//	↑  is Up   = "|"
//	↓  is Down = "%"
//
// For a word d lifted from its syntactic head s (whose own incoming label is
// h) to an ancestor of s, and every word p that was the head of d at a lifting
// step (so that the arc into p lies on the path along which d was lifted):
//
//	encoding    arc into d (lifted)   arc into p (path)   deprojectivisation
//	Baseline    l                     p                   none
//	Head        l|h                   p                   BFS for a node labelled h
//	Path        l|                    p%                  BFS down %-arcs to the first end of the path
//	Head+Path   l|h                   p%                  BFS down %-arcs for a node labelled h
//
// A lifted arc that is also on a path gets both marks: "l|%" (Path) or
// "l|h%" (Head+Path).
package pseudoproj

import (
	"fmt"
	"strings"

	"github.com/transparse/transparse/parser/tree"
)

// Encoding is a pseudo-projective label encoding scheme of Nivre & Nilsson
// (2005, §3, Table 1).
type Encoding uint8

// The encodings. Baseline lifts without changing labels, so non-projective
// arcs cannot be recovered (Nivre 2008's "strictly projective" P-x parsers);
// Head is the scheme of Nivre 2008's PP-x parsers, Gómez-Rodríguez & Nivre
// 2013's PPr and Nivre 2009's S_pp.
const (
	Baseline Encoding = iota
	Head
	Path
	HeadPath
)

// Up replaces Nivre & Nilsson's ↑: it separates a lifted arc's label from
// the label of its syntactic head ("l|h") or ends it ("l|", Path encoding).
const Up = "|"

// Down replaces Nivre & Nilsson's ↓: it is appended to the label of an arc
// on a lifting path ("p%").
const Down = "%"

var encodingNames = [...]string{Baseline: "baseline", Head: "head", Path: "path", HeadPath: "head+path"}

// String returns the encoding's name as Parse accepts it: "baseline",
// "head", "path" or "head+path".
func (e Encoding) String() string {
	if int(e) < len(encodingNames) {
		return encodingNames[e]
	}
	return fmt.Sprintf("Encoding(%d)", e)
}

// Encodings lists every encoding, in the order of the constants.
func Encodings() []Encoding { return []Encoding{Baseline, Head, Path, HeadPath} }

// Parse returns the encoding named s ("baseline", "head", "path" or
// "head+path", case-sensitive), or an error naming the known ones.
func Parse(s string) (Encoding, error) {
	for e, name := range encodingNames {
		if s == name {
			return Encoding(e), nil
		}
	}
	return 0, fmt.Errorf("pseudoproj: unknown encoding %q (known: baseline, head, path, head+path)", s)
}

// Projectivize returns a projective tree made from the tree (head, deprel)
// by lifting the shortest non-projective arc first until none is left
// (tree.Lift: an arc (h, d) becomes (head[h], d); Nivre & Nilsson 2005 §3),
// with the lifts recorded in the labels as enc prescribes (see the package
// comment). lifted is the number of words whose arc was lifted (once or more).
// head and deprel are not modified; the results are new slices of the same
// length with newHead[0] = -1.
//
// head must be a forest rooted at 0: heads in 0..n and no cycle. Otherwise
// Projectivize returns unchanged copies and lifted = -1. Labels of the input
// must not already contain Up or Down.
func Projectivize(head []int32, deprel []string, enc Encoding) (newHead []int32, newDeprel []string, lifted int) {
	newDeprel = append([]string(nil), deprel...)
	if !isForest(head) {
		return append([]int32(nil), head...), newDeprel, -1
	}
	newHead, moved := tree.Lift(head)
	if len(head) > 0 {
		newHead[0] = -1
	}
	if len(moved) == 0 {
		return newHead, newDeprel, 0
	}
	// Replay the lifts: synHead[d] is d's original head if d was lifted;
	// onPath[p] marks the arcs into every head a word was lifted from.
	n := len(head) - 1
	cur := append([]int32(nil), head...)
	synHead := make([]int32, n+1)
	for i := range synHead {
		synHead[i] = -1
	}
	onPath := make([]bool, n+1)
	for _, d := range moved {
		x := cur[d]
		if synHead[d] < 0 {
			synHead[d] = x
			lifted++
		}
		onPath[x] = true
		cur[d] = cur[x]
	}
	if enc == Baseline {
		return newHead, newDeprel, lifted
	}
	for d := 1; d <= n; d++ {
		lab := deprel[d]
		if s := synHead[d]; s >= 0 {
			lab += Up
			if enc == Head || enc == HeadPath {
				lab += deprel[s]
			}
		}
		if onPath[d] && (enc == Path || enc == HeadPath) {
			lab += Down
		}
		newDeprel[d] = lab
	}
	return newHead, newDeprel, lifted
}

// Labels returns every encoded label Projectivize can give a tree whose
// deprels are in deprels, with one word attached to node 0 by the deprel
// root (root arcs and the arcs from the root word are never lifted, so
// root takes no mark and is no lifted arc's h). For each deprel l other
// than root, in the order of deprels: Head gives l|h for every such h,
// Path gives l|, l% and l|%, Head+Path gives l|h and l|h% for every such h,
// then l%; Baseline gives none. A deprel that already holds Up or Down is
// an error.
func Labels(deprels []string, root string, enc Encoding) ([]string, error) {
	var out []string
	for _, l := range deprels {
		if strings.Contains(l, Up) || strings.Contains(l, Down) {
			return nil, fmt.Errorf("pseudoproj: deprel %q holds %q or %q, the encoding's marks", l, Up, Down)
		}
		if l == root || enc == Baseline {
			continue
		}
		if enc == Path {
			out = append(out, l+Up, l+Down, l+Up+Down)
			continue
		}
		for _, h := range deprels {
			if h == root {
				continue
			}
			out = append(out, l+Up+h)
			if enc == HeadPath {
				out = append(out, l+Up+h+Down)
			}
		}
		if enc == HeadPath {
			out = append(out, l+Down)
		}
	}
	return out, nil
}

// isForest reports whether head[1..n] are in 0..n and form no cycle.
func isForest(head []int32) bool {
	n := len(head) - 1
	for d := 1; d <= n; d++ {
		if h := head[d]; h < 0 || int(h) > n || int(h) == d {
			return false
		}
	}
	for d := 1; d <= n; d++ {
		x := head[d]
		for k := 0; x != 0; k++ {
			if k > n {
				return false
			}
			x = head[x]
		}
	}
	return true
}

// Label is an encoded label split into its parts by Decode.
type Label struct {
	Base    string // the deprel without marks
	Lifted  bool   // the label had an Up mark
	SynHead string // the label after Up, without Down ("" for Path)
	Down    bool   // the label ended with a Down mark
}

// Decode splits an encoded label (see the package comment) into its parts.
// Base is the text before the first Up or Down; it never contains a mark.
func Decode(label string) Label {
	var l Label
	if strings.HasSuffix(label, Down) {
		l.Down = true
		label = label[:len(label)-len(Down)]
	}
	if i := strings.Index(label, Up); i >= 0 {
		l.Lifted = true
		l.SynHead = strings.ReplaceAll(strings.ReplaceAll(label[i+len(Up):], Up, ""), Down, "")
		label = label[:i]
	}
	if i := strings.Index(label, Down); i >= 0 {
		label = label[:i]
	}
	l.Base = label
	return l
}

// Strip returns label without any pseudo-projective marks (Decode's Base).
func Strip(label string) string { return Decode(label).Base }

// Deprojectivize undoes the encoding enc on a parser output (head, deprel)
// whose labels may carry marks (Nivre & Nilsson 2005 §3; Nivre 2008 §6.1).
// The lifted arcs are processed top-down: repeatedly, the first word
// with a pending Up mark in a breadth-first, left-to-right traversal from
// node 0 of the current tree. For such a word d with current head g:
//
//   - Head: the first node labelled h (the label after Up) in a breadth-first,
//     left-to-right search of g's descendants becomes d's head;
//   - Path: the search follows only arcs marked Down from g and takes the
//     first node that has no Down-marked dependent (the end of a path);
//   - Head+Path: the search follows only Down-marked arcs and takes the first
//     end of a path labelled h, else the first node on the paths labelled h
//     (as MaltParser does); with no h it searches as Path does.
//
// Every search skips d's own subtree, so the result is acyclic; and since
// the new head is a proper descendant of g, the words attached to node 0
// never increase. When no node qualifies, d keeps its head. Baseline only
// strips marks. Every returned label is stripped of marks (Strip).
//
// If the input is a tree rooted at 0, so is the result, with the same
// number of words attached to 0. Words not reachable from 0 (a cycle, an
// out-of-range head) are neither moved nor used as new heads. head and deprel
// are not modified; the results are new slices.
func Deprojectivize(head []int32, deprel []string, enc Encoding) (newHead []int32, newDeprel []string) {
	n := len(head) - 1
	newHead = append([]int32(nil), head...)
	newDeprel = make([]string, len(deprel))
	if n < 0 {
		return newHead, newDeprel
	}
	labs := make([]Label, n+1)
	pending := 0
	for d, l := range deprel {
		newDeprel[d] = Strip(l)
		if d == 0 || d > n {
			continue
		}
		labs[d] = Decode(l)
		if labs[d].Lifted && enc != Baseline && (enc != Head || labs[d].SynHead != "") {
			pending++
		} else {
			labs[d].Lifted = false
		}
	}
	if len(deprel) > 0 {
		newDeprel[0] = deprel[0]
	}
	if pending == 0 {
		return newHead, newDeprel
	}
	t := newSearcher(n)
	for pending > 0 {
		t.build(newHead)
		d := int32(-1)
		for _, x := range t.order {
			if labs[x].Lifted {
				d = x
				break
			}
		}
		if d < 0 {
			break // the remaining marked words are unreachable from 0
		}
		labs[d].Lifted = false
		pending--
		var target int32
		switch syn := labs[d].SynHead; {
		case enc == Head:
			target = t.findHead(newHead[d], d, syn, newDeprel)
		case enc == HeadPath && syn != "":
			target = t.findHeadPath(newHead[d], d, syn, newDeprel, labs)
		default: // Path, or Head+Path without a head label
			target = t.findPath(newHead[d], d, labs)
		}
		if target >= 0 {
			newHead[d] = target
		}
	}
	return newHead, newDeprel
}

// searcher holds the children of every node of the current tree in
// left-to-right order (compressed: kids[start[h]:start[h+1]]) and the
// breadth-first order of the nodes reachable from 0.
type searcher struct {
	start []int32
	kids  []int32
	order []int32
	queue []int32
}

func newSearcher(n int) *searcher {
	return &searcher{
		start: make([]int32, n+2),
		kids:  make([]int32, 0, n),
		order: make([]int32, 0, n+1),
		queue: make([]int32, 0, n+1),
	}
}

// build computes the children lists and the breadth-first order for head.
func (t *searcher) build(head []int32) {
	n := len(head) - 1
	for i := range t.start {
		t.start[i] = 0
	}
	valid := func(d int) bool { h := head[d]; return h >= 0 && int(h) <= n && int(h) != d }
	for d := 1; d <= n; d++ {
		if valid(d) {
			t.start[head[d]+1]++
		}
	}
	for h := 1; h <= n+1; h++ {
		t.start[h] += t.start[h-1]
	}
	t.kids = t.kids[:t.start[n+1]]
	fill := append(t.queue[:0], t.start[:n+1]...)
	for d := 1; d <= n; d++ {
		if valid(d) {
			h := head[d]
			t.kids[fill[h]] = int32(d)
			fill[h]++
		}
	}
	t.queue = fill[:0]
	// Breadth-first order from 0. A node is reached at most once because
	// each node is in one children list; nodes on a cycle are never reached.
	t.order = append(t.order[:0], 0)
	for i := 0; i < len(t.order); i++ {
		x := t.order[i]
		t.order = append(t.order, t.kids[t.start[x]:t.start[x+1]]...)
	}
}

func (t *searcher) children(x int32) []int32 { return t.kids[t.start[x]:t.start[x+1]] }

// findHead searches g's descendants breadth-first, left to right, outside
// d's subtree, for the first node labelled syn.
func (t *searcher) findHead(g, d int32, syn string, base []string) int32 {
	q := t.queue[:0]
	q = append(q, g)
	for i := 0; i < len(q); i++ {
		for _, c := range t.children(q[i]) {
			if c == d {
				continue
			}
			if base[c] == syn {
				t.queue = q
				return c
			}
			q = append(q, c)
		}
	}
	t.queue = q
	return -1
}

// downKids appends to buf the children of x, other than d, whose arc is
// marked Down.
func (t *searcher) downKids(buf []int32, x, d int32, labs []Label) []int32 {
	for _, c := range t.children(x) {
		if c != d && labs[c].Down {
			buf = append(buf, c)
		}
	}
	return buf
}

// findPath follows Down-marked arcs from g breadth-first, left to right,
// and returns the first node without Down-marked children.
func (t *searcher) findPath(g, d int32, labs []Label) int32 {
	q := t.downKids(t.queue[:0], g, d, labs)
	for i := 0; i < len(q); i++ {
		k := len(q)
		q = t.downKids(q, q[i], d, labs)
		if len(q) == k {
			t.queue = q
			return q[i]
		}
	}
	t.queue = q
	return -1
}

// findHeadPath follows Down-marked arcs from g breadth-first, left to right,
// and returns the first node without Down-marked children labelled syn,
// else the first node on the way labelled syn.
func (t *searcher) findHeadPath(g, d int32, syn string, base []string, labs []Label) int32 {
	second := int32(-1)
	q := t.downKids(t.queue[:0], g, d, labs)
	for i := 0; i < len(q); i++ {
		x := q[i]
		k := len(q)
		q = t.downKids(q, x, d, labs)
		if base[x] == syn {
			if len(q) == k {
				t.queue = q
				return x
			}
			if second < 0 {
				second = x
			}
		}
	}
	t.queue = q
	return second
}
