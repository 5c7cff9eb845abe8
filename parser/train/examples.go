package train

import (
	"fmt"
	"io"

	"github.com/transparse/transparse/parser/conllu"
	"github.com/transparse/transparse/parser/pseudoproj"
	"github.com/transparse/transparse/parser/transition"
	"github.com/transparse/transparse/parser/tree"
)

// encode returns sents with every tree outside the system's class made
// projective, the lifts encoded in the deprels (pseudoproj.Projectivize),
// and the number of trees changed. Sentences are copied, not modified.
func encode(sys transition.System, sents []*conllu.Sentence, enc pseudoproj.Encoding) ([]*conllu.Sentence, int) {
	out := make([]*conllu.Sentence, len(sents))
	changed := 0
	for k, s := range sents {
		out[k] = s
		if s.CheckTree() != nil {
			continue
		}
		n := len(s.Words)
		head := make([]int32, n+1)
		deprel := make([]string, n+1)
		head[0] = transition.None
		for i, w := range s.Words {
			head[i+1], deprel[i+1] = int32(w.Head), w.Deprel
		}
		if sys.InClass(transition.NewGold(head, make([]int32, n+1))) {
			continue
		}
		h, l, lifted := pseudoproj.Projectivize(head, deprel, enc)
		if lifted <= 0 {
			continue
		}
		c := cloneSentence(s)
		for i := range c.Words {
			c.Words[i].Head, c.Words[i].Deprel = int(h[i+1]), l[i+1]
		}
		out[k] = c
		changed++
	}
	return out, changed
}

// example is one training sentence with its gold tree inside the system's
// class.
type example struct {
	words []conllu.Word
	gold  *transition.Gold
	amb   [][3]uint64             // plain tokens: ambiguity classes (A, AX) and word-cluster path code (C) per word
	seq   []transition.Transition // static-oracle sequence (systems without a dynamic oracle)
}

// prepare converts sentences into examples: trees outside the system's class
// are lifted to projective ones; sentences that are not annotated trees and
// sentences of more than MaxTrainingWords words are skipped and counted in
// the log. It returns the examples and the number of long sentences
// skipped. amb, if not nil, holds each sentence's ambiguity classes and
// cluster codes (example.amb).
func prepare(sys transition.System, sents []*conllu.Sentence, amb [][][3]uint64, deprels []string, log io.Writer) ([]example, int) {
	index := map[string]int32{}
	for i, l := range deprels {
		index[l] = int32(i)
	}
	var out []example
	skipped, lifted, failed, long := 0, 0, 0, 0
	_, dynamic := sys.(transition.DynamicSystem)
	var state transition.State
	for k, s := range sents {
		if len(s.Words) > MaxTrainingWords {
			long++
			continue
		}
		if !annotated(s) || s.CheckTree() != nil {
			skipped++
			continue
		}
		n := len(s.Words)
		head := make([]int32, n+1)
		label := make([]int32, n+1)
		head[0], label[0] = transition.None, transition.None
		for i, w := range s.Words {
			head[i+1] = int32(w.Head)
			label[i+1] = index[w.Deprel]
		}
		g := transition.NewGold(head, label)
		if !sys.InClass(g) {
			// Lift the shortest non-projective arc until the system
			// derives the tree (projective trees are in every class).
			for !sys.InClass(g) && tree.LiftStep(head) >= 0 {
				g = transition.NewGold(head, label)
			}
			lifted++
			if !sys.InClass(g) {
				skipped++
				continue
			}
		}
		ex := example{words: s.Words, gold: g}
		if !dynamic {
			seq, err := transition.Derive(sys, &state, g)
			if err != nil {
				failed++
				continue
			}
			ex.seq = seq
		}
		if amb != nil {
			ex.amb = amb[k]
		}
		out = append(out, ex)
	}
	fmt.Fprintf(log, "%s: %d training trees, %d lifted to the system's class, %d skipped (not trees), %d oracle failures skipped\n",
		sys.Name(), len(out), lifted, skipped, failed)
	if long > 0 {
		fmt.Fprintf(log, "%s: %d training sentences of more than %d words skipped (train.MaxTrainingWords)\n", sys.Name(), long, MaxTrainingWords)
	}
	return out, long
}
