package tree

// Arc is a weighted candidate arc for MaxSpanning: Head → Dep, Head in
// 0..n (0 the artificial root), Dep in 1..n, Head ≠ Dep.
type Arc struct {
	Head, Dep int32
	Weight    float64
}

// MaxSpanning returns the maximum spanning tree over words 1..n built from
// arcs (any number per dependent, parallel arcs allowed): the head array
// (head[0] = -1) of the tree, among those with exactly one word attached
// to 0, whose arcs' weights sum highest, and that sum. It tries each word
// that some arc attaches to 0 as the root word, with the other arcs from 0
// removed, finds the maximum spanning arborescence by Chu-Liu-Edmonds (Chu
// & Liu 1965, Edmonds 1967) and keeps the best (the first on a tie). ok is
// false when no such tree exists (some word has no arc into it, or no arc
// leaves 0). Time O(n·m) in the worst case for m arcs, about O(m) when
// few cycles need contracting; it does not modify arcs.
func MaxSpanning(n int, arcs []Arc) (head []int32, score float64, ok bool) {
	var rest []arc
	var roots []int
	for i, a := range arcs {
		if a.Head == 0 {
			roots = append(roots, i)
		} else {
			rest = append(rest, arc{int(a.Head), int(a.Dep), a.Weight, i})
		}
	}
	tried := make(map[int32]bool)
	for _, ri := range roots {
		r := arcs[ri]
		if tried[r.Dep] {
			continue
		}
		tried[r.Dep] = true
		g := append([]arc{}, rest...)
		for _, rj := range roots { // every arc from 0 into the root word
			if arcs[rj].Dep == r.Dep {
				g = append(g, arc{0, int(r.Dep), arcs[rj].Weight, rj})
			}
		}
		chosen := arborescence(n+1, g)
		if chosen == nil {
			continue
		}
		h := make([]int32, n+1)
		h[0] = -1
		s := 0.0
		for d := 1; d <= n; d++ {
			a := arcs[g[chosen[d]].orig]
			h[d], s = a.Head, s+a.Weight
		}
		if !ok || s > score {
			head, score, ok = h, s, true
		}
	}
	return head, score, ok
}

// arc is an arc of one level of arborescence: orig is the index of the
// arc it stands for one level up (in MaxSpanning's arcs at the top).
type arc struct {
	h, d int
	w    float64
	orig int
}

// arborescence returns, for each node d of 1..n-1, the index in arcs of
// its incoming arc in the maximum spanning arborescence rooted at node 0,
// or nil when none exists: each node takes its best incoming arc; a cycle
// among them is contracted into one node whose incoming arcs are weighed
// by what they gain over the cycle arc they replace, the smaller graph
// solved, and the cycle broken where the chosen arc enters it.
func arborescence(n int, arcs []arc) []int {
	best := make([]int, n)
	for d := range best {
		best[d] = -1
	}
	for i, a := range arcs {
		if b := best[a.d]; b < 0 || a.w > arcs[b].w {
			best[a.d] = i
		}
	}
	for d := 1; d < n; d++ {
		if best[d] < 0 {
			return nil
		}
	}
	cycle := findCycle(n, arcs, best)
	if cycle == nil {
		return best
	}
	// Number the nodes of the contracted graph: the cycle is node c.
	in := make([]bool, n)
	for _, v := range cycle {
		in[v] = true
	}
	id := make([]int, n)
	c := 0
	for v := range n {
		if !in[v] {
			id[v] = c
			c++
		}
	}
	for _, v := range cycle {
		id[v] = c
	}
	var sub []arc
	for i, a := range arcs {
		switch {
		case in[a.h] && in[a.d]:
		case in[a.d]:
			sub = append(sub, arc{id[a.h], c, a.w - arcs[best[a.d]].w, i})
		default:
			sub = append(sub, arc{id[a.h], id[a.d], a.w, i})
		}
	}
	chosen := arborescence(c+1, sub)
	if chosen == nil {
		return nil
	}
	res := make([]int, n)
	for v := range n {
		if in[v] {
			res[v] = best[v]
		}
	}
	res[0] = -1
	for d := 1; d <= c; d++ {
		a := sub[chosen[d]].orig
		res[arcs[a].d] = a // the cycle's entry replaces that node's cycle arc
	}
	return res
}

// findCycle returns the nodes of a cycle of the arcs best (best[d] the
// index in arcs of d's incoming arc; node 0 has none), or nil.
func findCycle(n int, arcs []arc, best []int) []int {
	state := make([]int, n) // 0: unvisited; s+1: visited from start node s
	for start := 1; start < n; start++ {
		if state[start] != 0 {
			continue
		}
		v := start
		for v != 0 && state[v] == 0 {
			state[v] = start + 1
			v = arcs[best[v]].h
		}
		if v != 0 && state[v] == start+1 { // met the current path: a cycle
			cycle := []int{v}
			for u := arcs[best[v]].h; u != v; u = arcs[best[u]].h {
				cycle = append(cycle, u)
			}
			return cycle
		}
	}
	return nil
}
