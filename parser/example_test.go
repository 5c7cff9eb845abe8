package parser_test

import (
	"fmt"

	"github.com/transparse/transparse/parser"
	"github.com/transparse/transparse/parser/conllu"
)

// Parse a tokenized sentence with the bundled English model: the model's
// taggers predict UPOS and XPOS, then the parser assigns every word its
// head (0 for the root) and deprel.
func ExampleModel_Parse() {
	m, err := parser.Load("../models/en_ewt.tpm")
	if err != nil {
		fmt.Println(err)
		return
	}
	words := []conllu.Word{{Form: "I"}, {Form: "saw"}, {Form: "her"}, {Form: "."}}
	if err := m.Parse(words); err != nil {
		fmt.Println(err)
		return
	}
	for _, w := range words {
		fmt.Println(w.ID, w.Form, w.UPOS, w.XPOS, w.Head, w.Deprel)
	}
	// Output:
	// 1 I PRON PRP 2 nsubj
	// 2 saw VERB VBD 0 root
	// 3 her PRON PRP 2 obj
	// 4 . PUNCT . 2 punct
}

// Words given with their annotation are parsed by the model's gold-tag
// parser (Model.GoldInput says when), which uses the given columns as they
// are.
func ExampleModel_Parse_givenTags() {
	m, err := parser.Load("../models/en_ewt.tpm")
	if err != nil {
		fmt.Println(err)
		return
	}
	words := []conllu.Word{
		{Form: "Dogs", Lemma: "dog", UPOS: "NOUN", XPOS: "NNS", Feats: "Number=Plur"},
		{Form: "bark", Lemma: "bark", UPOS: "VERB", XPOS: "VBP", Feats: "Mood=Ind|Tense=Pres"},
	}
	fmt.Println("given tags:", m.GoldInput(words))
	if err := m.Parse(words); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(conllu.Format(&conllu.Sentence{Words: words}))
	// Output:
	// given tags: true
	// 1	Dogs	dog	NOUN	NNS	Number=Plur	2	nsubj	_	_
	// 2	bark	bark	VERB	VBP	Mood=Ind|Tense=Pres	0	root	_	_
}

// Parse with a beam of width 2, asking for each word's confidence in its
// head and deprel and for the two best trees (docs/beam-search.md).
func ExampleModel_ParseWithOptions() {
	m, err := parser.Load("../models/en_ewt.tpm")
	if err != nil {
		fmt.Println(err)
		return
	}
	words := []conllu.Word{{Form: "She"}, {Form: "saw"}, {Form: "him"}, {Form: "."}}
	var r parser.ParseResult
	if err := m.ParseWithOptions(words, parser.ParseOptions{Beam: 2, KBest: 2, Confidence: true}, &r); err != nil {
		fmt.Println(err)
		return
	}
	for i, w := range words {
		fmt.Println(w.ID, w.Form, w.Head, w.Deprel, r.Confidence[i] >= 0 && r.Confidence[i] <= 1)
	}
	fmt.Println(len(r.Trees), "trees; the first is the words':", r.Trees[0].Head)
	// Output:
	// 1 She 2 nsubj true
	// 2 saw 0 root true
	// 3 him 2 obj true
	// 4 . 2 punct true
	// 2 trees; the first is the words': [2 0 2 2]
}
