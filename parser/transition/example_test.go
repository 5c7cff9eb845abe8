package transition_test

import (
	"fmt"

	"github.com/transparse/transparse/parser/transition"
)

// The arc-eager static oracle (Nivre 2008, §4.2, Fig. 6) derives the
// transition sequence that builds a gold tree: here "The cat sat ." with
// heads 2, 3, 0, 3. Node 0 is the artificial root; labels are indices into
// the caller's label set.
func ExampleDerive() {
	sys, err := transition.Lookup("arc-eager")
	if err != nil {
		panic(err)
	}
	labels := []string{"root", "det", "nsubj", "punct"}
	//                              The cat sat .
	head := []int32{transition.None, 2, 3, 0, 3}
	label := []int32{transition.None, 1, 2, 0, 3}
	var s transition.State
	seq, err := transition.Derive(sys, &s, transition.NewGold(head, label))
	if err != nil {
		panic(err)
	}
	for _, t := range seq {
		if t.Move.Labeled() {
			fmt.Printf("%v(%s)\n", t.Move, labels[t.Label])
		} else {
			fmt.Println(t.Move)
		}
	}
	fmt.Println("heads:", s.Head[1:])
	// Output:
	// SHIFT
	// LEFT-ARC(det)
	// SHIFT
	// LEFT-ARC(nsubj)
	// RIGHT-ARC(root)
	// RIGHT-ARC(punct)
	// heads: [2 3 0 3]
}
