package conllu_test

import (
	"fmt"
	"strings"

	"github.com/transparse/transparse/parser/conllu"
)

// Read CoNLL-U sentence by sentence. Comments and the columns of every
// word are kept; a multiword token ("don't" over "do" and "n't") is kept
// apart from the syntactic words.
func ExampleReader() {
	text := "# sent_id = 1\n" +
		"1-2\tdon't\t_\t_\t_\t_\t_\t_\t_\t_\n" +
		"1\tdo\tdo\tAUX\tVBP\t_\t3\taux\t_\t_\n" +
		"2\tn't\tnot\tPART\tRB\t_\t3\tadvmod\t_\t_\n" +
		"3\tgo\tgo\tVERB\tVB\t_\t0\troot\t_\t_\n\n"
	r := conllu.NewReader(strings.NewReader(text), "example.conllu")
	for {
		s, err := r.Next()
		if err != nil {
			break // io.EOF at the end; a *conllu.Error names the line
		}
		fmt.Println("sentence", s.SentID())
		for _, w := range s.Words {
			fmt.Println(w.ID, w.Form, w.UPOS, w.Head, w.Deprel)
		}
	}
	// Output:
	// sentence 1
	// 1 do AUX 3 aux
	// 2 n't PART 3 advmod
	// 3 go VERB 0 root
}

// Errors say where the input is wrong: the file, the line and what is
// wrong with it.
func ExampleReader_error() {
	text := "1\tHello\t_\tINTJ\t_\t_\t0\troot\t_\t_\n" +
		"2\tworld\t_\tNOUN\t_\t_\tx\tvocative\t_\t_\n\n"
	_, err := conllu.NewReader(strings.NewReader(text), "bad.conllu").Next()
	fmt.Println(err)
	// Output:
	// conllu: bad.conllu:2: HEAD "x" is not a number
}
