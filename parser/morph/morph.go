// Package morph predicts the LEMMA and FEATS columns of CoNLL-U words from
// their FORM, UPOS and XPOS (and, for FEATS, their LEMMA): a lemmatizer
// and a FEATS tagger, trained on a treebank and stored beside the taggers
// in a model file. For a treebank whose XPOS tag set is too large for a
// tagger, XPOSTable gives XPOS from the FORM, UPOS and FEATS.
//
// Both are classifiers over classes learnt from the training data, in the
// manner of UDPipe 1 and MorphoDiTa (Straka and Straková 2017, "Tokenizing,
// POS tagging, lemmatizing and parsing UD 2.0 with UDPipe", CoNLL shared
// task; Straková, Straka and Hajič 2014, "Open-source tools for
// morphology, lemmatization, POS tagging and named entity recognition",
// ACL demos):
//
//   - The lemmatizer's classes are lemma rules (Rule): edit scripts that
//     strip a prefix and a suffix of the form and add others, after an
//     optional change of case (Chrupała, Dinu and van Genabith 2008,
//     "Learning morphology with Morfette", LREC; Chrupała 2008, "Towards a
//     machine-learning architecture for lexical functional grammar
//     parsing", PhD thesis). Lemmatizing a word is choosing its rule.
//   - The FEATS tagger's classes are the whole FEATS strings seen in
//     training ("_" for none).
//
// The candidates of a word come from a dictionary built from the training
// data: the classes seen with the form and its UPOS and XPOS, else with the
// form and its UPOS, else with the lowercased form and its UPOS. A word
// missing from the dictionary is guessed: its candidates are the FEATS
// seen with its UPOS and XPOS (else its UPOS), or the lemma rules seen with
// its UPOS that apply to its form (the stripped prefix and suffix must
// match); a rule learnt from a lowercase form also applies, after
// lowercasing, to the form capitalized (a sentence-initial word, say), as
// its Lower twin. When there is one candidate it is taken; otherwise
// averaged perceptrons (package linear; Collins 2002) choose among them. A
// candidate's score is the sum of
//
//   - its class score, from features of the form's suffixes, prefixes and
//     shape, its UPOS and XPOS, the neighbouring words and tags, and the
//     class chosen for the previous word; for FEATS also, where the word
//     has a LEMMA, the lemma and the form's ending after the prefix it
//     shares with the lemma (Turkish "açılmıştı", lemma "aç": "ılmıştı"),
//     which carries the inflection and derivation the FEATS describe,
//     and the ending's first one, two and three letters (where voice,
//     negation and mood follow a Turkish stem);
//   - a score of the candidate's own features: for a lemma rule, whether
//     the lemma it gives was a training lemma; for FEATS, each of its
//     features with the word's suffixes and tags;
//   - for FEATS, the per-feature classifiers' scores of its value of each
//     feature name (or of the feature's absence), so that the prediction
//     is always a FEATS string seen in training but rare strings share
//     the evidence of their features.
//
// The perceptrons learn from the ambiguous known words and, standing for
// unknown words, from the words whose dictionary entry was seen at most
// three times in training (Ratnaparkhi 1996's rare words).
//
// The UPOS and XPOS decide between candidates: they are part of every
// dictionary key and of every feature. At prediction time they are the
// tagger's (or the caller's); a model for plain tokens should be trained
// on jackknifed tags, as the parser is.
//
// Dictionary and candidate-index keys (Data.Keys) are a level byte
// followed by tab-separated fields:
//
//	'1' FORM UPOS XPOS       classes of the form with its tags
//	'2' FORM UPOS            classes of the form with its UPOS
//	'3' lower(FORM) UPOS     classes of the lowercased form (lemma rules
//	                         derived from it and applied to it)
//	't' UPOS XPOS            FEATS seen with the tags (unknown words)
//	'u' UPOS                 FEATS seen with the UPOS (unknown words)
//	'c' casing UPOS suffix   lemma rules of the casing seen with the UPOS
//	                         whose SuffixDel is suffix (unknown words),
//	                         under 'l' also the Lower twins of the
//	                         KeepCase rules of lowercase forms
//
// Entries a lookup does not need are dropped: a '1' entry equal to the
// '2' entry of its form and UPOS, and a '2' entry of a lowercase form equal
// to its '3' entry. Once frozen (trained or decoded), a component finds
// the entries of a word with one hashed lookup: its '3' entry lists the
// '1' and '2' entries of the forms that lowercase to it.
//
// A Lemmatizer or FeatsTagger is safe for concurrent use and makes no
// garbage: calls reuse working memory from a free list
// (internal/freelist), and a lemma is returned as its form or a part of
// it, as the training lemma it equals, or from a table of the other
// lemmas it predicted before (up to 16,384 of them, under a mutex; a
// lemma that finds the table full is allocated). The table is the only
// thing that changes once the component is trained or decoded.
package morph

import (
	"fmt"

	"github.com/transparse/transparse/parser/conllu"
)

// Lemmatizer predicts the LEMMA column from FORM, UPOS and XPOS.
type Lemmatizer struct{ c *component }

// FeatsTagger predicts the FEATS column from FORM, UPOS and XPOS.
type FeatsTagger struct{ c *component }

// TrainLemmatizer trains a lemmatizer on the FORM, UPOS, XPOS and LEMMA
// columns of sents. Words whose LEMMA is empty, or "_" with a FORM other
// than "_", are not learnt from. It fails when no word has a lemma.
func TrainLemmatizer(sents []*conllu.Sentence, opt Options) (*Lemmatizer, error) {
	c, err := train(kindLemma, sents, opt)
	if err != nil {
		return nil, err
	}
	return &Lemmatizer{c}, nil
}

// TrainFeatsTagger trains a FEATS tagger on the FORM, UPOS, XPOS, LEMMA
// and FEATS columns of sents ("_" is the class of words without features;
// words with an empty FEATS are not learnt from). It fails when no word
// has a FEATS column.
func TrainFeatsTagger(sents []*conllu.Sentence, opt Options) (*FeatsTagger, error) {
	c, err := train(kindFeats, sents, opt)
	if err != nil {
		return nil, err
	}
	return &FeatsTagger{c}, nil
}

// Lemmas returns the lemma of each word of ws (one sentence, in order),
// from their Form, UPOS and XPOS, in dst[:len(ws)] (dst is grown if it is
// too short). A word with no candidate rule, or whose rule would leave
// nothing of it, gets its form: a lemma is never empty. A lemmatizer with
// a LemmaCase gives a capitalized word of its tags its capital back.
func (l *Lemmatizer) Lemmas(ws []conllu.Word, dst []string) []string {
	out := l.c.run(ws, dst, nil)
	if lc := l.c.lemmaCase; lc != nil {
		for i := range ws {
			out[i] = lc.recase(&ws[i], out[i], &l.c.novel)
		}
	}
	return out
}

// Feats returns the FEATS string of each word of ws (one sentence, in
// order), from their Form, UPOS, XPOS and Lemma, in dst[:len(ws)] (dst is
// grown if it is too short), never empty ("_" for no features). A word
// whose UPOS was never seen in training gets "_". The tagger learns from the training lemmas: give it the
// words' lemmas (from Lemmas where the LEMMA column is absent); a word
// without one ("" or "_") is tagged without its lemma features, less
// accurately.
func (t *FeatsTagger) Feats(ws []conllu.Word, dst []string) []string {
	return t.c.run(ws, dst, nil)
}

// FeatsMarked is Feats that also sets marks[i] (marks is grown if it is
// too short) to whether Refine would choose word i's FEATS again (it has
// several candidates in the dictionary), for RefineMarked.
func (t *FeatsTagger) FeatsMarked(ws []conllu.Word, dst []string, marks []bool) ([]string, []bool) {
	if cap(marks) < len(ws) {
		marks = make([]bool, len(ws))
	}
	marks = marks[:len(ws)]
	return t.c.run(ws, dst, marks), marks
}

func (c *component) run(ws []conllu.Word, dst []string, marks []bool) []string {
	if cap(dst) < len(ws) {
		dst = make([]string, len(ws))
	}
	dst = dst[:len(ws)]
	sc := c.free.Get()
	if sc == nil {
		sc = new(scratch)
	}
	c.predict(ws, dst, sc, marks)
	c.free.Put(sc)
	return dst
}

// SetDictionaryFirst makes a word found in the dictionary take its most
// frequent lemma rule there without scoring its candidates (on: the
// classifier then lemmatizes only the words the dictionary lacks), or
// restores the classifier's choice among a known word's candidates (off,
// as trained). Training keeps it where it raises dev Lemmas. Not safe
// while l is in use.
func (l *Lemmatizer) SetDictionaryFirst(on bool) { l.c.dictFirst = on }

// DictionaryFirst reports whether known words take their most frequent
// lemma rule unscored (SetDictionaryFirst).
func (l *Lemmatizer) DictionaryFirst() bool { return l.c.dictFirst }

// SetConsistentTags restricts a known word's FEATS candidates to those
// seen in training with its UPOS and XPOS, tagging it as an unknown word
// of its tags when none was (on), or lets the dictionary's candidates of
// the form stand whatever the tags (off, as trained): UPOS, XPOS and
// FEATS then form a combination seen in training. Training keeps it
// where it raises dev UFeats. Not safe while t is in use.
func (t *FeatsTagger) SetConsistentTags(on bool) { t.c.tagsFirst = on }

// ConsistentTags reports whether SetConsistentTags is on.
func (t *FeatsTagger) ConsistentTags() bool { return t.c.tagsFirst }

// Classes returns the number of lemma rules.
func (l *Lemmatizer) Classes() int { return len(l.c.classes) }

// Classes returns the number of FEATS strings.
func (t *FeatsTagger) Classes() int { return len(t.c.classes) }

// Data returns the serialisable form of the lemmatizer. It shares no
// memory with l.
func (l *Lemmatizer) Data() *Data { return l.c.data() }

// Data returns the serialisable form of the FEATS tagger. It shares no
// memory with t.
func (t *FeatsTagger) Data() *Data { return t.c.data() }

// LemmatizerFromData decodes a lemmatizer from its Data, checking every
// field (kind, class names, key order and candidate ranges, the weights);
// a corrupted Data gives an error, never a panic.
func LemmatizerFromData(d *Data) (*Lemmatizer, error) {
	c, err := fromData(d, kindLemma)
	if err != nil {
		return nil, err
	}
	return &Lemmatizer{c}, nil
}

// FeatsTaggerFromData decodes a FEATS tagger from its Data, checked as by
// LemmatizerFromData.
func FeatsTaggerFromData(d *Data) (*FeatsTagger, error) {
	c, err := fromData(d, kindFeats)
	if err != nil {
		return nil, err
	}
	return &FeatsTagger{c}, nil
}

// String describes the lemmatizer.
func (l *Lemmatizer) String() string {
	return fmt.Sprintf("lemmatizer: %d rules, %d dictionary keys, %d weights", len(l.c.classes), len(l.c.dict.keys), l.c.model.NumWeights())
}

// String describes the FEATS tagger.
func (t *FeatsTagger) String() string {
	return fmt.Sprintf("FEATS tagger: %d classes, %d dictionary keys, %d weights", len(t.c.classes), len(t.c.dict.keys), t.c.model.NumWeights())
}
