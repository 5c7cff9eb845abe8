package tree

// This file holds two mildly non-projective tree classes used for coverage
// statistics (Gómez-Rodríguez & Nivre 2013
// Table 1 reports ill-nestedness): well-nestedness (Bodirsky, Kuhlmann &
// Möhl 2005, "Well-nested drawings as models of syntactic structure") and
// gap degree (Kuhlmann & Nivre 2006, "Mildly non-projective dependency
// structures", COLING/ACL, Defs. 6–8).
//
// The yield (projection) of a node u is the set of nodes u dominates,
// reflexively. A gap is a pair of consecutive positions in the yield with
// positions outside it in between; a block is a maximal run of consecutive
// positions of the yield, so a yield with k gaps has k+1 blocks. A tree is
// projective iff every yield has gap degree 0.

// yieldBlocks returns the blocks of every yield: for node u, the blocks are
// blk[off[u]:off[u+1]], each a pair {first, last} of positions, left to
// right. Nodes not reachable from 0 (in a malformed head array) belong to no
// yield and have no blocks.
func yieldBlocks(head []int32) (off []int32, blk [][2]int32) {
	n := len(head) - 1
	if n < 0 {
		return []int32{0}, nil
	}
	// Children in compressed form, then a preorder numbering from 0:
	// u dominates p iff pre[u] <= pre[p] < pre[u]+size[u].
	start := make([]int32, n+2)
	valid := func(d int) bool { h := head[d]; return h >= 0 && int(h) <= n && int(h) != d }
	for d := 1; d <= n; d++ {
		if valid(d) {
			start[head[d]+1]++
		}
	}
	for h := 1; h <= n+1; h++ {
		start[h] += start[h-1]
	}
	kids := make([]int32, start[n+1])
	fill := append([]int32(nil), start[:n+1]...)
	for d := 1; d <= n; d++ {
		if valid(d) {
			kids[fill[head[d]]] = int32(d)
			fill[head[d]]++
		}
	}
	pre := make([]int32, n+1)
	size := make([]int32, n+1)
	for i := range pre {
		pre[i] = -1
	}
	order := make([]int32, 0, n+1) // preorder
	stack := []int32{0}
	for len(stack) > 0 {
		u := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		pre[u] = int32(len(order))
		order = append(order, u)
		ks := kids[start[u]:start[u+1]]
		for i := len(ks) - 1; i >= 0; i-- {
			stack = append(stack, ks[i])
		}
	}
	for i := len(order) - 1; i >= 0; i-- {
		u := order[i]
		size[u]++
		if u != 0 {
			size[head[u]] += size[u]
		}
	}
	off = make([]int32, n+2)
	for u := 0; u <= n; u++ {
		off[u] = int32(len(blk))
		if pre[u] < 0 {
			continue
		}
		lo, hi := pre[u], pre[u]+size[u]
		open := false
		for p := 0; p <= n; p++ {
			in := pre[p] >= lo && pre[p] < hi
			switch {
			case in && !open:
				blk = append(blk, [2]int32{int32(p), int32(p)})
				open = true
			case in:
				blk[len(blk)-1][1] = int32(p)
			default:
				open = false
			}
		}
	}
	off[n+1] = int32(len(blk))
	return off, blk
}

// GapDegree returns the gap degree of the tree (Kuhlmann & Nivre 2006,
// Def. 7): the largest number of gaps in the yield of any node, 0 for
// projective trees. head is a tree over nodes 0..n as in Check (head[0] is
// ignored); for a malformed array, nodes not reachable from 0 are left out.
// Time O(n²).
func GapDegree(head []int32) int {
	off, _ := yieldBlocks(head)
	g := 0
	for u := 0; u+1 < len(off); u++ {
		if k := int(off[u+1]-off[u]) - 1; k > g {
			g = k
		}
	}
	return g
}

// WellNested reports whether the tree is well-nested (Bodirsky, Kuhlmann &
// Möhl 2005; Kuhlmann & Nivre 2006, Def. 8): no two disjoint yields
// interleave, i.e. there are no nodes u, v that do not dominate one another
// and positions l1, r1 in u's yield and l2, r2 in v's with l1 < l2 < r1 < r2.
// Projective trees are well-nested. head is a tree over nodes 0..n as in
// Check; for a malformed array, nodes not reachable from 0 are left out.
//
// Two yields can only interleave if both have a gap, so only pairs of nodes
// with gaps are compared, by merging their blocks: time O(n²) plus the
// pairs of gapped nodes times their blocks.
func WellNested(head []int32) bool {
	off, blk := yieldBlocks(head)
	var gapped []int32
	for u := 0; u+1 < len(off); u++ {
		if off[u+1]-off[u] > 1 {
			gapped = append(gapped, int32(u))
		}
	}
	for i, u := range gapped {
		for _, v := range gapped[i+1:] {
			if Dominates(head, u, v) || Dominates(head, v, u) {
				continue
			}
			if interleave(blk[off[u]:off[u+1]], blk[off[v]:off[v+1]]) {
				return false
			}
		}
	}
	return true
}

// interleave reports whether two disjoint sets of positions, given as
// sorted blocks, interleave: merged left to right, the positions change
// from one set to the other at least three times (a…b…a…b).
func interleave(a, b [][2]int32) bool {
	runs, last := 0, -1
	for i, j := 0, 0; i < len(a) || j < len(b); {
		from := 0
		if j == len(b) || (i < len(a) && a[i][0] < b[j][0]) {
			i++
		} else {
			from = 1
			j++
		}
		if from != last {
			runs++
			last = from
		}
	}
	return runs >= 4
}
