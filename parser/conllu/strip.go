package conllu

// StripTags blanks LEMMA, UPOS, XPOS and FEATS of every word, so that the
// sentence looks like plain tokens to a parser.
func (s *Sentence) StripTags() {
	for j := range s.Words {
		w := &s.Words[j]
		w.Lemma, w.UPOS, w.XPOS, w.Feats = "_", "_", "_", "_"
	}
}
