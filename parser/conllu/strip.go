package conllu

import "strings"

// StripTags blanks LEMMA, UPOS, XPOS and FEATS of every word and every
// empty node, so that the sentence looks like plain tokens to a parser.
// The empty-node lines are replaced (in a new slice: a copy of the sentence
// that shares them with its original leaves the original unchanged).
func (s *Sentence) StripTags() {
	for j := range s.Words {
		w := &s.Words[j]
		w.Lemma, w.UPOS, w.XPOS, w.Feats = "_", "_", "_", "_"
	}
	if len(s.Empty) == 0 {
		return
	}
	empty := make([]RawLine, len(s.Empty))
	for i, l := range s.Empty {
		f := strings.Split(l.Text, "\t")
		if len(f) == len(columns) {
			f[2], f[3], f[4], f[5] = "_", "_", "_", "_"
			l.Text = strings.Join(f, "\t")
		}
		empty[i] = l
	}
	s.Empty = empty
}
