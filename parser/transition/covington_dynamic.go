package transition

// Cost is the dynamic oracle of Gómez-Rodríguez & Fernández-González (2015,
// "An Efficient Dynamic Oracle for Unrestricted Non-Projective Parsing",
// ACL) for Covington's non-projective system: the loss of a configuration c
// (the fewest gold arcs that any tree reachable from c gets wrong) is
//
//	ℓ(c) = |U(c)| + #cycles(A ∪ I(c))
//
// where I(c) are the gold arcs not built yet that can each still be built
// on its own (the pair is still to be visited, the dependent is headless,
// the arc closes no cycle with A and respects the single-root rule) and
// U(c) the gold arcs neither built nor in I(c); each cycle of A ∪ I(c)
// costs one of its arcs. The cost of t is ℓ(t(c)) − ℓ(c), plus one when t
// builds a gold arc with another label. O(n) per call; it allocates O(n)
// scratch (training only).
//
// The computation relies on the shape of Covington configurations: λ1 is
// always the nodes 0..k and λ2 the nodes k+1..j−1 for buffer front j.
func (o covNPOracle) Cost(s *State, t Transition) int {
	g := o.g
	k, j := s.S(0), s.B(0)
	if j == None {
		j = int32(s.N + 1)
	}
	before := covLoss(s, g, k, j, None, None)
	var xh, xd int32 = None, None
	k2, j2 := k-1, j
	if k2 < 0 {
		k2 = None
	}
	switch t.Move {
	case Shift:
		k2, j2 = j, j+1
	case LeftArc:
		xh, xd = j, k
	case RightArc:
		xh, xd = k, j
	}
	cost := covLoss(s, g, k2, j2, xh, xd) - before
	if xd != None && g.Head[xd] == xh && t.Label != g.Label[xd] {
		cost++
	}
	return cost
}

// covLoss is ℓ for λ1 = 0..k (k = None: empty), buffer front j (N+1:
// empty) and the arcs of s plus the arc xh → xd (xd = None: none).
func covLoss(s *State, g *Gold, k, j, xh, xd int32) int {
	n := int32(s.N)
	roots := s.Roots
	if xd != None && xh == 0 {
		roots++
	}
	connected := func(x, y int32) bool {
		if s.Connected(x, y) {
			return true
		}
		if xd == None {
			return false
		}
		return (s.Connected(x, xh) && s.Connected(y, xd)) || (s.Connected(x, xd) && s.Connected(y, xh))
	}
	parent := make([]int32, n+1)
	parent[0] = None
	lost := 0
	for d := int32(1); d <= n; d++ {
		gh := g.Head[d]
		hd := s.Head[d]
		if d == xd {
			hd = xh
		}
		if hd != None {
			parent[d] = hd
			if hd != gh {
				lost++
			}
			continue
		}
		left, right := min(gh, d), max(gh, d)
		if gh >= 0 && right >= j && right <= n && (right > j || (k != None && left <= k)) &&
			(gh != 0 || roots == 0) && !connected(gh, d) {
			parent[d] = gh
		} else {
			parent[d] = None
			lost++
		}
	}
	// Count the cycles of the functional graph parent (in-degree ≤ 1 per
	// node reversed: every node has at most one parent).
	walk := make([]int32, n+1) // 0: unvisited, else the walk that visited it
	for d := int32(1); d <= n; d++ {
		if walk[d] != 0 {
			continue
		}
		x := d
		for x != None && walk[x] == 0 {
			walk[x] = d
			x = parent[x]
		}
		if x != None && walk[x] == d {
			lost++
		}
	}
	return lost
}
