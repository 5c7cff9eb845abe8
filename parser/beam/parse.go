package beam

import (
	"fmt"
	"sync"

	"github.com/transparse/transparse/parser"
	"github.com/transparse/transparse/parser/conllu"
	"github.com/transparse/transparse/parser/feature"
	"github.com/transparse/transparse/parser/pseudoproj"
	"github.com/transparse/transparse/parser/transition"
)

// Parser parses sentences given with morphology (parser.HasMorphology:
// the gold-tag classifier's input) with a beam of width K. It is
// immutable once in use and safe for concurrent use: each call takes a
// decoder of its own from a pool.
type Parser struct {
	Classes *transition.Classes
	Ext     *feature.Extractor
	Clf     Scorer
	K       int
	// Confidence asks Parse for Result.Confidence (Decoder.Confidence).
	Confidence bool
	// Temperature of the confidences (Decoder.Temperature; 0 means
	// DefaultTemperature).
	Temperature float64
	// PseudoProjective is the encoding the deprels carry; Parse undoes it
	// on the best tree and Tree on any tree.
	PseudoProjective pseudoproj.Encoding

	pool sync.Pool
}

// FromModel returns a parser of width k with the gold-tag classifier of m
// (without its fast classifier), m's class table and pseudo-projective
// encoding. With k = 1 its trees are those of m's gold-tag classifier
// alone; parser.Model.Parse stays the fast greedy path.
func FromModel(m *parser.Model, k int) *Parser {
	v := m.Variant(true)
	return &Parser{Classes: m.Classes(), Ext: v.Ext, Clf: v.Clf, K: max(k, 1), PseudoProjective: m.PseudoProjective()}
}

type parseScratch struct {
	dec   *Decoder
	words feature.Words
}

// Parse parses words (one sentence, with morphology) and writes the best
// tree into their Head and Deprel (Deps "_", IDs 1..n, as parser.Model.Parse
// does), and the decoder's result into r (confidences and the distinct
// trees of the final beam, in the classifier's deprel encoding: Tree
// writes one into words). Errors wrap parser.ErrInput.
func (p *Parser) Parse(words []conllu.Word, r *Result) error {
	if err := parser.CheckWords(words); err != nil {
		return err
	}
	if !parser.HasMorphology(words) {
		return fmt.Errorf("%w: beam search parses sentences given with UPOS and XPOS, LEMMA or FEATS", parser.ErrInput)
	}
	sc, _ := p.pool.Get().(*parseScratch)
	if sc == nil {
		sc = &parseScratch{dec: NewDecoder(p.Classes, p.Ext, p.K)}
		sc.dec.Confidence = p.Confidence
		if p.Temperature > 0 {
			sc.dec.Temperature = p.Temperature
		}
	}
	defer p.pool.Put(sc)
	for i := range words {
		words[i].ID = i + 1
	}
	feature.FillWords(&sc.words, words, true)
	sc.dec.Decode(&sc.words, len(words), p.Clf, r)
	p.Tree(Tree{Head: r.Head, Label: r.Label}, words)
	return nil
}

// Tree writes tree t (from a Result of the same sentence) into the Head,
// Deprel and Deps of words: deprels by name ("dep" for a word attached by
// the completion of an unfinished derivation), the pseudo-projective
// encoding undone.
func (p *Parser) Tree(t Tree, words []conllu.Word) {
	deprels := p.Classes.Deprels
	for i := range words {
		words[i].Deps = "_"
		words[i].Head = int(t.Head[i+1])
		if l := t.Label[i+1]; l >= 0 {
			words[i].Deprel = deprels[l]
		} else {
			words[i].Deprel = "dep"
		}
	}
	if p.PseudoProjective != pseudoproj.Baseline {
		parser.Deprojectivize(words, p.PseudoProjective)
	}
}
