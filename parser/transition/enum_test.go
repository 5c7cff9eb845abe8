package transition

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
