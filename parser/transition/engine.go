package transition

import "fmt"

// CheckGold reports whether head and label (indexed 1..n, index 0 ignored)
// form a tree over nodes 0..n that oracles can be given: every head in
// 0..n and not the word itself, no cycle, every label in 0..nLabels-1.
// The error names the first offending word.
func CheckGold(head, label []int32, nLabels int) error {
	n := len(head) - 1
	if len(label) != len(head) {
		return fmt.Errorf("transition: %d heads but %d labels", n, len(label)-1)
	}
	for d := 1; d <= n; d++ {
		if h := head[d]; h < 0 || int(h) > n || int(h) == d {
			return fmt.Errorf("transition: word %d has head %d (want 0..%d, not itself)", d, h, n)
		}
		if l := label[d]; l < 0 || int(l) >= nLabels {
			return fmt.Errorf("transition: word %d has deprel index %d (want 0..%d)", d, l, nLabels-1)
		}
	}
	for d := 1; d <= n; d++ {
		x := int32(d)
		for steps := 0; x != 0; steps++ {
			if steps > n {
				return fmt.Errorf("transition: word %d is on a cycle of heads", d)
			}
			x = head[x]
		}
	}
	return nil
}

// OracleClasses returns the static-oracle derivation of g as classes of c
// (Derive, then Classes.Class per transition). A tree outside the system's
// class gives an error naming the system and the first transition the
// oracle could not take.
func OracleClasses(c *Classes, g *Gold) ([]int32, error) {
	var s State
	seq, err := Derive(c.Sys, &s, g)
	if err != nil {
		if !c.Sys.InClass(g) {
			return nil, fmt.Errorf("transition: tree is outside the class of %s: %w", c.Sys.Name(), err)
		}
		return nil, err
	}
	out := make([]int32, len(seq))
	for i, t := range seq {
		out[i] = int32(c.Class(t))
	}
	return out, nil
}
