package transition

import "testing"

// allTrees calls f with every dependency tree over n words that has exactly
// one word attached to node 0: head[0] = None, head[1..n] in 0..n. There are
// n^(n-1) such trees (7^6 = 117,649 for n = 7). f must not keep head.
func allTrees(n int, f func(head []int32)) {
	head := make([]int32, n+1)
	head[0] = None
	var rec func(d int)
	rec = func(d int) {
		if d > n {
			if isSingleRootTree(head) {
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

// isSingleRootTree reports whether head is a tree rooted at 0 with one root word.
func isSingleRootTree(head []int32) bool {
	n := len(head) - 1
	roots := 0
	for d := 1; d <= n; d++ {
		if head[d] == 0 {
			roots++
		}
		// walk up at most n steps; a cycle never reaches 0
		x, k := int32(d), 0
		for x != 0 && k <= n {
			x = head[x]
			k++
		}
		if x != 0 {
			return false
		}
	}
	return roots == 1
}

// labelsFor gives every word label 1, and the root word label 0.
func labelsFor(head []int32) []int32 {
	l := make([]int32, len(head))
	l[0] = None
	for d := 1; d < len(head); d++ {
		if head[d] == 0 {
			l[d] = 0
		} else {
			l[d] = 1
		}
	}
	return l
}

func TestAllTreesCount(t *testing.T) {
	want := []int{1: 1, 2: 2, 3: 9, 4: 64, 5: 625}
	for n := 1; n <= 5; n++ {
		got := 0
		allTrees(n, func([]int32) { got++ })
		if got != want[n] {
			t.Errorf("n=%d: %d trees, want %d", n, got, want[n])
		}
	}
}
