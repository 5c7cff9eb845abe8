package segment

import (
	"strconv"
	"strings"

	"github.com/transparse/transparse/parser/conllu"
)

// CoNLLU returns s, a sentence that Segment made from text, as an
// unannotated CoNLL-U sentence: a "# text" comment (the sentence's bytes,
// each whitespace between tokens written as one space), one word per
// syntactic word with every other column "_" (HEAD -1), a multiword-token
// line for each multiword token, and SpaceAfter=No in MISC (of the
// multiword-token line for a multiword token) where no whitespace follows
// a token inside the sentence. comments go before "# text".
func (s *Sentence) CoNLLU(text []byte, comments ...string) *conllu.Sentence {
	out := &conllu.Sentence{Comments: append([]string(nil), comments...)}
	var b strings.Builder
	b.WriteString("# text = ")
	for i, t := range s.Tokens {
		glued := i+1 < len(s.Tokens) && s.Tokens[i+1].Start == t.End
		if i > 0 && s.Tokens[i-1].End < t.Start {
			b.WriteByte(' ')
		}
		b.Write(text[t.Start:t.End])
		misc := "_"
		if glued {
			misc = "SpaceAfter=No"
		}
		form := string(text[t.Start:t.End])
		if t.Words == nil {
			out.Words = append(out.Words, word(len(out.Words)+1, form, misc))
			continue
		}
		first := len(out.Words) + 1
		out.Multiword = append(out.Multiword, conllu.RawLine{
			Before: first,
			Text: strconv.Itoa(first) + "-" + strconv.Itoa(first+len(t.Words)-1) + "\t" + form +
				"\t_\t_\t_\t_\t_\t_\t_\t" + misc,
		})
		for _, w := range t.Words {
			out.Words = append(out.Words, word(len(out.Words)+1, w, "_"))
		}
	}
	out.Comments = append(out.Comments, b.String())
	return out
}

func word(id int, form, misc string) conllu.Word {
	return conllu.Word{ID: id, Form: form, Lemma: "_", UPOS: "_", XPOS: "_", Feats: "_",
		Head: -1, Deprel: "_", Deps: "_", Misc: misc}
}
