package tree

import "testing"

// Each enumerates n^(n-1) one-root trees and (n+1)^(n-1) trees in all, each
// a tree by Check (one-root) or acyclic, none twice.
func TestEachCounts(t *testing.T) {
	pow := func(b, e int) int {
		r := 1
		for ; e > 0; e-- {
			r *= b
		}
		return r
	}
	for n := 1; n <= 6; n++ {
		for _, oneRoot := range []bool{true, false} {
			seen := map[string]bool{}
			Each(n, oneRoot, func(head []int32) {
				if oneRoot && Check(head) != nil {
					t.Fatalf("n=%d: %v is not a tree: %v", n, head, Check(head))
				}
				seen[string(rune(len(head)))+fmtHeads(head)] = true
			})
			want := pow(n, n-1)
			if !oneRoot {
				want = pow(n+1, n-1)
			}
			if len(seen) != want {
				t.Errorf("n=%d oneRoot=%v: %d distinct trees, want %d", n, oneRoot, len(seen), want)
			}
		}
	}
}

func fmtHeads(head []int32) string {
	b := make([]byte, 0, len(head))
	for _, h := range head[1:] {
		b = append(b, byte('0'+h))
	}
	return string(b)
}
