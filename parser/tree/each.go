package tree

// Each calls f with every dependency tree over n words rooted at node 0,
// in lexicographic order of head[1..n]: every assignment of heads in 0..n
// without a cycle, and with oneRoot only those with exactly one word
// attached to 0. There are n^(n-1) one-root trees and (n+1)^(n-1) in all
// (117,649 and 2,097,152 for n = 7). head[0] is -1. f must neither keep nor
// modify head. For exhaustive checks over small sentences (oracles, tree
// classes, encodings).
func Each(n int, oneRoot bool, f func(head []int32)) {
	head := make([]int32, n+1)
	head[0] = -1
	state := make([]uint8, n+1)
	var rec func(d int)
	rec = func(d int) {
		if d > n {
			if cycleAt(head, state) < 0 && (!oneRoot || rootWords(head) == 1) {
				f(head)
			}
			return
		}
		for h := int32(0); h <= int32(n); h++ {
			if h != int32(d) {
				head[d] = h
				rec(d + 1)
			}
		}
	}
	rec(1)
}

// cycleAt returns a word on a cycle of head, or -1 if every word reaches
// node 0; heads must be in 0..n. state is scratch of len(head).
func cycleAt(head []int32, state []uint8) int32 {
	clear(state) // 0 unvisited, 1 on the current path, 2 reaches 0
	state[0] = 2
	for d := 1; d < len(head); d++ {
		x := int32(d)
		for state[x] == 0 {
			state[x] = 1
			x = head[x]
		}
		if state[x] == 1 {
			return x
		}
		for y := int32(d); state[y] == 1; y = head[y] {
			state[y] = 2
		}
	}
	return -1
}

func rootWords(head []int32) int {
	r := 0
	for _, h := range head[1:] {
		if h == 0 {
			r++
		}
	}
	return r
}
