package tree

import "sort"

// Crossing-based tree classes: the crossing intervals and k-Crossing-Interval
// trees of Pitler & McDonald (2015) §3 (docs/transition-systems.md), and
// the 1-Endpoint-Crossing trees of Pitler, Kannan & Marcus (2013) that
// contain them (PM15 §3.1). PM15 Table 1 reports the share of treebank trees
// in each class.
//
// The functions take a head array as elsewhere in this package (head[0] is
// ignored). A word whose head is negative (None) has no incoming arc, so the
// functions also accept forests, such as the output of a transition system
// before headless words are attached; the classes are then properties of
// the arc set. Arcs (i, j) and (k, l) cross iff min(i,j) < min(k,l) <
// max(i,j) < max(k,l) or the same with the arcs swapped; arcs sharing an
// endpoint never cross.

// Interval is a crossing interval [L, R] (PM15 Def. 2) with the crossed arcs
// that define it, each given by its dependent d (the arc is head[d] → d),
// in increasing order.
type Interval struct {
	L, R    int32
	Crossed []int32
}

// Crossed returns, for every word d, whether its incoming arc head[d] → d
// crosses some other arc (a "crossed arc", PM15 §1). Headless words and
// index 0 are false. O(n²).
func Crossed(head []int32) []bool {
	n := int32(len(head) - 1)
	crossed := make([]bool, n+1)
	for d := int32(1); d <= n; d++ {
		if head[d] < 0 {
			continue
		}
		a, b := minmax(head[d], d)
		for e := d + 1; e <= n; e++ {
			if head[e] < 0 {
				continue
			}
			if c, f := minmax(head[e], e); spansCross(a, b, c, f) {
				crossed[d], crossed[e] = true, true
			}
		}
	}
	return crossed
}

// CrossingIntervals returns the crossing intervals of the tree (PM15 Def. 2):
// the crossed arcs are grouped into the connected components of the graph
// that joins two crossed arcs whose closed spans [min, max] intersect; the
// interval of a component is the span of its endpoints (Def. 1). The
// intervals are vertex-disjoint and returned left to right; a projective
// tree has none. O(n²).
func CrossingIntervals(head []int32) []Interval {
	crossed := Crossed(head)
	var arcs []int32
	for d, c := range crossed {
		if c {
			arcs = append(arcs, int32(d))
		}
	}
	if len(arcs) == 0 {
		return nil
	}
	lo := func(d int32) int32 { a, _ := minmax(head[d], d); return a }
	sort.Slice(arcs, func(i, j int) bool {
		if a, b := lo(arcs[i]), lo(arcs[j]); a != b {
			return a < b
		}
		return arcs[i] < arcs[j]
	})
	// Sweep: the spans of a component form one interval, so an arc joins
	// the current component iff it starts at or before its right end.
	var out []Interval
	for _, d := range arcs {
		a, b := minmax(head[d], d)
		if k := len(out) - 1; k >= 0 && a <= out[k].R {
			if b > out[k].R {
				out[k].R = b
			}
			out[k].Crossed = append(out[k].Crossed, d)
			continue
		}
		out = append(out, Interval{L: a, R: b, Crossed: []int32{d}})
	}
	for i := range out {
		c := out[i].Crossed
		sort.Slice(c, func(x, y int) bool { return c[x] < c[y] })
	}
	return out
}

// ciFarSide returns, for every node h, whether h has a child on the far side
// of its parent g (PM15 Def. 3 (b)): a child m with h < g < m or m < g < h.
func ciFarSide(head []int32) []bool {
	n := len(head) - 1
	left, right := make([]int32, n+1), make([]int32, n+1)
	for i := range left {
		left[i], right[i] = -1, -1
	}
	for d := 1; d <= n; d++ {
		h := head[d]
		if h < 0 {
			continue
		}
		if left[h] < 0 || int32(d) < left[h] {
			left[h] = int32(d)
		}
		if right[h] < 0 || int32(d) > right[h] {
			right[h] = int32(d)
		}
	}
	far := make([]bool, n+1)
	for h := 1; h <= n; h++ {
		g := head[h]
		if g < 0 {
			continue
		}
		if int32(h) < g {
			far[h] = right[h] > g
		} else {
			far[h] = left[h] >= 0 && left[h] < g
		}
	}
	return far
}

// KCrossingInterval reports whether the tree is a k-Crossing-Interval tree
// (PM15 Def. 3): for every crossing interval there are at most k vertices
// such that (a) every crossed arc of the interval is incident to one of them
// and (b) every vertex of the interval that has a child on the far side of
// its parent is one of them. k = 0 and k = 1 give the projective trees
// (PM15 §3.1). The vertices of (b) are forced; the rest is a vertex cover of
// the remaining crossed arcs of size ≤ k − |forced|, found by bounded
// branching (O(2^k · arcs) per interval). A negative k gives false.
func KCrossingInterval(head []int32, k int) bool {
	if k < 0 {
		return false
	}
	far := ciFarSide(head)
	for _, iv := range CrossingIntervals(head) {
		var forced []int32
		for v := iv.L; v <= iv.R; v++ {
			if far[v] {
				forced = append(forced, v)
			}
		}
		if len(forced) > k {
			return false
		}
		var rest [][2]int32
		for _, d := range iv.Crossed {
			if !ciHas(forced, head[d]) && !ciHas(forced, d) {
				rest = append(rest, [2]int32{head[d], d})
			}
		}
		if !ciCoverable(rest, k-len(forced)) {
			return false
		}
	}
	return true
}

func ciHas(vs []int32, x int32) bool {
	for _, v := range vs {
		if v == x {
			return true
		}
	}
	return false
}

// ciCoverable reports whether the arcs have a vertex cover of at most k
// vertices: an uncovered arc needs one of its two endpoints.
func ciCoverable(arcs [][2]int32, k int) bool {
	if len(arcs) == 0 {
		return true
	}
	if k == 0 {
		return false
	}
	for _, v := range arcs[0] {
		var rest [][2]int32
		for _, a := range arcs[1:] {
			if a[0] != v && a[1] != v {
				rest = append(rest, a)
			}
		}
		if ciCoverable(rest, k-1) {
			return true
		}
	}
	return false
}

// TwoCrossingPairs returns every pair (a, b), a < b, of vertices of the
// crossing interval iv of the tree that satisfies PM15 Def. 3 for k = 2:
// every crossed arc of iv is incident to a or b, and every vertex of iv with
// a child on the far side of its parent is a or b. These are the register
// pairs of the two-registers system (PM15 §5.2; docs/transition-systems.md,
// "Two-registers: static oracle"). The result is ordered by increasing b,
// then decreasing a (the oracle's preference); it is empty when the interval needs more
// than two vertices. Since the first crossed arc (u, v) must be covered,
// every valid pair holds u or v, and the other vertex must cover the first
// crossed arc not incident to it: at most four pairs are candidates.
func TwoCrossingPairs(head []int32, iv Interval) [][2]int32 {
	far := ciFarSide(head)
	var forced []int32
	for v := iv.L; v <= iv.R; v++ {
		if far[v] {
			forced = append(forced, v)
		}
	}
	if len(forced) > 2 || len(iv.Crossed) == 0 {
		return nil
	}
	incident := func(d, x int32) bool { return head[d] == x || d == x }
	var out [][2]int32
	d0 := iv.Crossed[0]
	for _, x := range [2]int32{head[d0], d0} {
		var other int32 = -1
		for _, d := range iv.Crossed {
			if !incident(d, x) {
				other = d
				break
			}
		}
		if other < 0 {
			continue // cannot happen: two crossing arcs share no endpoint
		}
		for _, y := range [2]int32{head[other], other} {
			a, b := minmax(x, y)
			ok := true
			for _, d := range iv.Crossed {
				if !incident(d, a) && !incident(d, b) {
					ok = false
					break
				}
			}
			for _, f := range forced {
				if f != a && f != b {
					ok = false
				}
			}
			if ok && !ciHasPair(out, a, b) {
				out = append(out, [2]int32{a, b})
			}
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i][1] != out[j][1] {
			return out[i][1] < out[j][1]
		}
		return out[i][0] > out[j][0]
	})
	return out
}

func ciHasPair(ps [][2]int32, a, b int32) bool {
	for _, p := range ps {
		if p[0] == a && p[1] == b {
			return true
		}
	}
	return false
}

// OneEndpointCrossing reports whether the tree is 1-Endpoint-Crossing
// (Pitler, Kannan & Marcus 2013; cited in PM15 §3.1): for every arc, all
// the arcs that cross it share a common endpoint. Every 2-Crossing-Interval
// tree is 1-Endpoint-Crossing. O(n²).
func OneEndpointCrossing(head []int32) bool {
	n := int32(len(head) - 1)
	for d := int32(1); d <= n; d++ {
		if head[d] < 0 {
			continue
		}
		a, b := minmax(head[d], d)
		c1, c2 := int32(-1), int32(-1) // candidate common endpoints
		first := true
		for e := int32(1); e <= n; e++ {
			if e == d || head[e] < 0 {
				continue
			}
			c, f := minmax(head[e], e)
			if !spansCross(a, b, c, f) {
				continue
			}
			if first {
				c1, c2, first = c, f, false
				continue
			}
			if c1 != c && c1 != f {
				c1 = -1
			}
			if c2 != c && c2 != f {
				c2 = -1
			}
			if c1 < 0 && c2 < 0 {
				return false
			}
		}
	}
	return true
}
