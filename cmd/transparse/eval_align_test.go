package main

import (
	"path/filepath"
	"testing"
)

// retokenizedCoNLLU is goldCoNLLU tokenized and split into sentences
// otherwise: "sat." is one token and the last two sentences are one.
const retokenizedCoNLLU = `# sent_id = s1
1	The	the	DET	DT	_	2	det	_	_
2	cat	cat	NOUN	NN	_	3	nsubj	_	_
3	sat.	sit	VERB	VBD	_	0	root	_	_

# sent_id = s2
1	Dogs	dog	NOUN	NNS	_	2	nsubj	_	_
2	bark	bark	VERB	VBP	_	0	root	_	_
3	loudly	loudly	ADV	RB	_	2	advmod	_	_
4	Go	go	VERB	VB	_	2	parataxis	_	_
5	home	home	ADV	RB	_	4	advmod	_	_
6	now	now	ADV	RB	_	4	advmod	_	_

`

// TestEvalOtherTokenization scores a prediction with another tokenization
// and sentence segmentation of the gold text. The figures are those of
// the CoNLL 2018 scorer (udeval -v) on the same files: 8 of 10 gold tokens
// and words (9 predicted) and 1 of 3 sentences (2 predicted) match; "cat"
// loses its head "sat" and "Go" is no longer a root.
func TestEvalOtherTokenization(t *testing.T) {
	dir := t.TempDir()
	gold := writeFile(t, dir, "gold.conllu", goldCoNLLU)
	pred := writeFile(t, dir, "retokenized.conllu", retokenizedCoNLLU)
	code, stdout, stderr := runCmd(t, "", "eval", gold, pred)
	if code != 0 {
		t.Fatalf("exit status %d, stderr %q", code, stderr)
	}
	wantContains(t, "eval output", stdout,
		"Prediction:  "+filepath.Join(dir, "retokenized.conllu")+"\n",
		"Sentences: 3   Words: 10\n",
		"Tokens     |     88.89 |     80.00 |     84.21 |         8 |        10\n",
		"Sentences  |     50.00 |     33.33 |     40.00 |         1 |         3\n",
		"Words      |     88.89 |     80.00 |     84.21 |         8 |        10\n",
		"UPOS       |     88.89 |     80.00 |     84.21 |         8 |        10\n",
		"UAS        |     66.67 |     60.00 |     63.16 |         6 |        10\n",
		"LAS        |     66.67 |     60.00 |     63.16 |         6 |        10\n",
		"CLAS       |     62.50 |     62.50 |     62.50 |         5 |         8\n",
		"MLAS       |     62.50 |     62.50 |     62.50 |         5 |         8\n",
		"BLEX       |     62.50 |     62.50 |     62.50 |         5 |         8\n",
		"ExactLAS   |      0.00 |      0.00 |      0.00 |         0 |         3\n",
	)
}
