package tree

import "math/bits"

// This file holds the planarity classes of Gómez-Rodríguez & Nivre (2013),
// "Divisible Transition Systems and Multiplanar Dependency Parsing",
// Computational Linguistics 39(4) (GN13): crossing arcs (§2.1), planar
// graphs (Def. 2) and k-planar graphs (§4.1, Def. 14, after Yli-Jyrä 2003,
// "Multiplanarity – a model for dependency structures in treebanks", TLT).
//
// Arcs from the artificial root node 0 take part like any other arc: node 0
// sits at position 0, left of every word. Such an arc never covers a root
// (only node 0 is one in a tree), so for trees Planar is the same as
// Projective; GN13, which has no artificial root, allows a covered root
// word and so calls slightly more trees planar (its Table 1).
//
// Head arrays may describe forests: a word d with head[d] < 0 (None) has no
// arc, and is simply left out.

// maxColourSteps bounds the backtracking search of Planes for k > 2 (search
// nodes per connected component of the crossings graph's k-core). The
// crossings graphs of treebank sentences are tiny after the k-core pruning
// (the colouring is almost always found without a single backtrack), so the
// bound only guards against adversarial input.
var maxColourSteps = 1 << 20

// Crosses reports whether the arcs h1–d1 and h2–d2 cross (GN13 §2.1): their
// endpoints interleave strictly, min(a) < min(b) < max(a) < max(b) or the
// same with the arcs swapped. Direction does not matter, and arcs that share
// an endpoint, nest, or are disjoint do not cross.
func Crosses(h1, d1, h2, d2 int32) bool {
	a, b := minmax(h1, d1)
	c, d := minmax(h2, d2)
	return spansCross(a, b, c, d)
}

// Planar reports whether no two arcs of head cross (GN13 Def. 2), arcs from
// node 0 included; for a tree this is the same as Projective. head is
// indexed 0..n (head[0] ignored); words with head < 0 have no arc. It takes
// O(n²) time and does not allocate.
func Planar(head []int32) bool {
	n := int32(len(head) - 1)
	for d := int32(1); d <= n; d++ {
		if head[d] < 0 {
			continue
		}
		a, b := minmax(head[d], d)
		for e := d + 1; e <= n; e++ {
			if head[e] < 0 {
				continue
			}
			c, f := minmax(head[e], e)
			if spansCross(a, b, c, f) {
				return false
			}
		}
	}
	return true
}

// KPlanar reports whether the arcs of head can be split into k planar sets
// (GN13 §4.1, Def. 14; Yli-Jyrä 2003). KPlanar(head, 1) is Planar(head).
// See Planes for the method and its cost.
func KPlanar(head []int32, k int) bool {
	if k == 1 {
		return Planar(head)
	}
	_, ok := Planes(head, k)
	return ok
}

// Planes assigns each arc of head one of k planes so that crossing arcs get
// different planes, i.e. k-colours the crossings graph of GN13 §4.1 (one
// vertex per arc, an edge between every two crossing arcs); head is k-planar
// iff such a colouring exists. plane has len(head) entries: plane[d] in
// 0..k−1 is the plane of the arc into word d, and −1 for node 0 and words
// without a head. ok is false (and plane nil) if head is not k-planar, or if
// k is outside 1..127.
//
// Method: building the crossings graph takes O(n²). For k = 1 the graph
// must have no edge. For k = 2, each connected component is 2-coloured by
// breadth-first search (bipartiteness, GN13 §4.1), O(n²) in all; this is
// the plane assignment used by the 2-planar oracles. For k > 2 the
// colouring is exact: vertices of degree < k are peeled off repeatedly
// (they can always be coloured last), and each component of what remains
// (the k-core) is coloured by backtracking (DSATUR order, colours tried in
// increasing order, a new colour only after the used ones). k-colouring is
// NP-complete in general, so the search is bounded by maxColourSteps nodes
// per component; if the bound is hit Planes gives up and reports ok =
// false. On treebank sentences the k-core is empty or a handful of arcs.
func Planes(head []int32, k int) (plane []int8, ok bool) {
	if k < 1 || k > 127 {
		return nil, false
	}
	n := len(head) - 1
	plane = make([]int8, n+1)
	for i := range plane {
		plane[i] = -1
	}
	// Arcs are named by their dependent d; adj[d] lists the crossing arcs.
	adj := make([][]int32, n+1)
	edges := 0
	for d := 1; d <= n; d++ {
		if head[d] < 0 {
			continue
		}
		a, b := minmax(head[d], int32(d))
		for e := d + 1; e <= n; e++ {
			if head[e] < 0 {
				continue
			}
			c, f := minmax(head[e], int32(e))
			if spansCross(a, b, c, f) {
				adj[d] = append(adj[d], int32(e))
				adj[e] = append(adj[e], int32(d))
				edges++
			}
		}
	}
	for d := 1; d <= n; d++ {
		if head[d] >= 0 {
			plane[d] = 0
		}
	}
	switch {
	case edges == 0:
		return plane, true
	case k == 1:
		return nil, false
	case k == 2:
		if !planeBipartite(adj, plane) {
			return nil, false
		}
		return plane, true
	}
	c := planeColourer{adj: adj, col: plane, k: k}
	if !c.colour() {
		return nil, false
	}
	return plane, true
}

// planeBipartite 2-colours the graph by breadth-first search from every
// uncoloured vertex; col holds 0 for every vertex on entry (−1 for
// non-vertices) and the colours on return. Colours are written as 0/1 after
// a first pass marks visited vertices with 2/3.
func planeBipartite(adj [][]int32, col []int8) bool {
	var queue []int32
	for r := range adj {
		if col[r] != 0 || len(adj[r]) == 0 {
			continue
		}
		col[r] = 2
		queue = append(queue[:0], int32(r))
		for len(queue) > 0 {
			x := queue[0]
			queue = queue[1:]
			for _, y := range adj[x] {
				switch col[y] {
				case 0:
					col[y] = 5 - col[x] // 2 ↔ 3
					queue = append(queue, y)
				case col[x]:
					return false
				}
			}
		}
	}
	for i, c := range col {
		if c >= 2 {
			col[i] = c - 2
		}
	}
	return true
}

// planeColourer k-colours a crossings graph (k > 2): peel vertices of degree < k,
// search the k-core component by component, then colour the peeled
// vertices greedily in reverse order.
type planeColourer struct {
	adj   [][]int32
	col   []int8 // −1: not a vertex; otherwise the colour, or planeUnset during search
	k     int
	steps int
}

const planeUnset = int8(-2)

func (c *planeColourer) colour() bool {
	n := len(c.adj)
	deg := make([]int, n)
	removed := make([]bool, n)
	var order, stack []int32
	for v := range c.adj {
		if c.col[v] < 0 {
			removed[v] = true
			continue
		}
		c.col[v] = planeUnset
		deg[v] = len(c.adj[v])
		if deg[v] < c.k {
			removed[v] = true
			stack = append(stack, int32(v))
		}
	}
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		order = append(order, v)
		for _, u := range c.adj[v] {
			if removed[u] {
				continue
			}
			if deg[u]--; deg[u] < c.k {
				removed[u] = true
				stack = append(stack, u)
			}
		}
	}
	// Components of the k-core.
	seen := make([]bool, n)
	var comp []int32
	for r := range c.adj {
		if removed[r] || seen[r] {
			continue
		}
		comp = append(comp[:0], int32(r))
		seen[r] = true
		for i := 0; i < len(comp); i++ {
			for _, u := range c.adj[comp[i]] {
				if !removed[u] && !seen[u] {
					seen[u] = true
					comp = append(comp, u)
				}
			}
		}
		c.steps = 0
		if !c.search(comp, len(comp), -1) {
			return false
		}
	}
	for i := len(order) - 1; i >= 0; i-- {
		v := order[i]
		var used planeSet
		for _, u := range c.adj[v] {
			if c.col[u] >= 0 {
				used.set(int(c.col[u]))
			}
		}
		p := 0
		for used.has(p) {
			p++
		}
		c.col[v] = int8(p) // p < k: v has fewer than k coloured neighbours
	}
	return true
}

// search colours the left uncoloured vertices of comp by backtracking;
// maxUsed is the largest colour used so far in comp (colours above
// maxUsed+1 are symmetric and not tried).
func (c *planeColourer) search(comp []int32, left, maxUsed int) bool {
	if left == 0 {
		return true
	}
	if c.steps++; c.steps > maxColourSteps {
		return false
	}
	// DSATUR: the uncoloured vertex with the most distinct neighbour
	// colours, ties broken by degree.
	best, bestSat, bestDeg := int32(-1), -1, -1
	var bestUsed planeSet
	for _, v := range comp {
		if c.col[v] != planeUnset {
			continue
		}
		var used planeSet
		for _, u := range c.adj[v] {
			if c.col[u] >= 0 {
				used.set(int(c.col[u]))
			}
		}
		sat := used.count()
		if sat > bestSat || (sat == bestSat && len(c.adj[v]) > bestDeg) {
			best, bestSat, bestDeg, bestUsed = v, sat, len(c.adj[v]), used
		}
	}
	top := maxUsed + 1
	if top >= c.k {
		top = c.k - 1
	}
	for p := 0; p <= top; p++ {
		if bestUsed.has(p) {
			continue
		}
		c.col[best] = int8(p)
		if c.search(comp, left-1, max(maxUsed, p)) {
			return true
		}
		if c.steps > maxColourSteps {
			break
		}
	}
	c.col[best] = planeUnset
	return false
}

// planeSet is a set of colours 0..127.
type planeSet [2]uint64

func (u *planeSet) set(i int)     { u[i>>6] |= 1 << (uint(i) & 63) }
func (u planeSet) has(i int) bool { return u[i>>6]&(1<<(uint(i)&63)) != 0 }
func (u planeSet) count() int     { return bits.OnesCount64(u[0]) + bits.OnesCount64(u[1]) }
