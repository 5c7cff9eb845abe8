package eval_test

import (
	"fmt"
	"strings"

	"github.com/transparse/transparse/parser/conllu"
	"github.com/transparse/transparse/parser/eval"
)

// Score a predicted parse against the gold one. Of the four words, the
// prediction gets every head right and one deprel wrong ("obj" for
// "iobj"): UAS 100, LAS 75. CLAS counts content words only, so the
// punctuation is left out: 2 of 3.
func ExampleScore() {
	gold := "1\tShe\tshe\tPRON\tPRP\t_\t2\tnsubj\t_\t_\n" +
		"2\tgave\tgive\tVERB\tVBD\t_\t0\troot\t_\t_\n" +
		"3\thim\the\tPRON\tPRP\t_\t2\tiobj\t_\t_\n" +
		"4\t.\t.\tPUNCT\t.\t_\t2\tpunct\t_\t_\n\n"
	pred := strings.Replace(gold, "iobj", "obj", 1)
	g, err := conllu.ReadAll(strings.NewReader(gold), "gold")
	if err != nil {
		panic(err)
	}
	p, err := conllu.ReadAll(strings.NewReader(pred), "pred")
	if err != nil {
		panic(err)
	}
	sc, err := eval.Score(g, p)
	if err != nil {
		panic(err)
	}
	fmt.Printf("UAS %.2f LAS %.2f CLAS %.2f\n", sc.UAS.F1(), sc.LAS.F1(), sc.CLAS.F1())
	// Output:
	// UAS 100.00 LAS 75.00 CLAS 66.67
}
