package parser_test

import (
	"fmt"
	"os"
	"strings"

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
	if _, err := m.Parse(words, nil); err != nil {
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

// Words given with their annotation (UPOS on every word) are parsed by the
// model's gold-tag parser, which uses the given columns as they are.
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
	if _, err := m.Parse(words, nil); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(conllu.Format(&conllu.Sentence{Words: words}))
	// Output:
	// 1	Dogs	dog	NOUN	NNS	Number=Plur	2	nsubj	_	_
	// 2	bark	bark	VERB	VBP	Mood=Ind|Tense=Pres	0	root	_	_
}

// Parse with a beam of width 2, asking for each word's confidence in its
// head and deprel and for the two best trees (docs/beam-search.md).
func ExampleModel_Parse_options() {
	m, err := parser.Load("../models/en_ewt.tpm")
	if err != nil {
		fmt.Println(err)
		return
	}
	words := []conllu.Word{{Form: "She"}, {Form: "saw"}, {Form: "him"}, {Form: "."}}
	r, err := m.Parse(words, &parser.Options{Beam: 2, KBest: 2, Confidence: true})
	if err != nil {
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

// Parse a document of pre-tokenized text, one sentence per line, to
// CoNLL-U.
func ExampleModel_ParseDocument() {
	m, err := parser.Load("../models/en_ewt.tpm")
	if err != nil {
		fmt.Println(err)
		return
	}
	in := strings.NewReader("I saw her .\nDogs bark .\n")
	st, err := m.ParseDocument(in, os.Stdout, parser.DocOptions{Name: "example", Input: parser.InputTokens})
	fmt.Println(st.Sentences, "sentences,", err)
	// Output:
	// # sent_id = 1
	// # text = I saw her .
	// 1	I	I	PRON	PRP	Case=Nom|Number=Sing|Person=1|PronType=Prs	2	nsubj	_	_
	// 2	saw	see	VERB	VBD	Mood=Ind|Number=Sing|Person=1|Tense=Past|VerbForm=Fin	0	root	_	_
	// 3	her	she	PRON	PRP	Case=Acc|Gender=Fem|Number=Sing|Person=3|PronType=Prs	2	obj	_	_
	// 4	.	.	PUNCT	.	_	2	punct	_	_
	//
	// # sent_id = 2
	// # text = Dogs bark .
	// 1	Dogs	dog	NOUN	NNS	Number=Plur	2	nsubj	_	_
	// 2	bark	bark	VERB	VBP	Mood=Ind|Number=Plur|Person=3|Tense=Pres|VerbForm=Fin	0	root	_	_
	// 3	.	.	PUNCT	.	_	2	punct	_	_
	//
	// 2 sentences, <nil>
}
