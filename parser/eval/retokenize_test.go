package eval

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/transparse/transparse/parser/conllu"
)

// The retokenizer of the tests works on sentences whose words refer to
// their heads by a number unique in the whole file (pword.id), so that
// sentences and tokens can be merged and split before the words are
// numbered again.
type pword struct {
	w        conllu.Word
	id, head int // head: the id of the head word, 0 for the root
}

// A ptok is a token: one word, or a multiword token (mwt) with its FORM.
type ptok struct {
	form  string
	mwt   bool
	words []*pword
}

type psent struct {
	comments []string
	toks     []*ptok
}

// toTokens converts sentences to the retokenizer's form (empty nodes are
// dropped: the scorer ignores them).
func toTokens(sents []*conllu.Sentence) []*psent {
	var out []*psent
	next := 1
	for _, s := range sents {
		ps := &psent{comments: s.Comments}
		base := next
		mwEnd, mwForm := map[int]int{}, map[int]string{}
		for _, m := range s.Multiword {
			f := strings.Split(m.Text, "\t")
			var a, b int
			fmt.Sscanf(f[0], "%d-%d", &a, &b)
			mwEnd[a], mwForm[a] = b, f[1]
		}
		for i := 0; i < len(s.Words); {
			id := i + 1
			end, mwt := mwEnd[id]
			if !mwt {
				end = id
			}
			t := &ptok{form: s.Words[i].Form, mwt: mwt}
			if mwt {
				t.form = mwForm[id]
			}
			for ; i < end; i++ {
				w := s.Words[i]
				h := 0
				if w.Head > 0 {
					h = base + w.Head - 1
				}
				t.words = append(t.words, &pword{w: w, id: base + i, head: h})
			}
			ps.toks = append(ps.toks, t)
		}
		next = base + len(s.Words)
		out = append(out, ps)
	}
	return out
}

// fromTokens numbers the words of each sentence again and returns the
// sentences.
func fromTokens(ps []*psent) []*conllu.Sentence {
	var out []*conllu.Sentence
	for _, p := range ps {
		s := &conllu.Sentence{Comments: p.comments}
		local := map[int]int{}
		for _, t := range p.toks {
			for _, w := range t.words {
				local[w.id] = len(local) + 1
			}
		}
		for _, t := range p.toks {
			if t.mwt {
				a := len(s.Words) + 1
				s.Multiword = append(s.Multiword, conllu.RawLine{Before: a,
					Text: fmt.Sprintf("%d-%d\t%s\t_\t_\t_\t_\t_\t_\t_\t_", a, a+len(t.words)-1, t.form)})
			}
			for _, w := range t.words {
				c := w.w
				c.ID, c.Head, c.Deps = len(s.Words)+1, local[w.head], "_" // DEPS refer to the old IDs
				s.Words = append(s.Words, c)
			}
		}
		out = append(out, s)
	}
	return out
}

func (p *psent) words() []*pword {
	var ws []*pword
	for _, t := range p.toks {
		ws = append(ws, t.words...)
	}
	return ws
}

// reroot makes p a tree of its own: the first word whose head is outside
// p becomes the root, and the other such words depend on it.
func (p *psent) reroot() {
	in := map[int]bool{}
	ws := p.words()
	for _, w := range ws {
		in[w.id] = true
	}
	root := 0
	for _, w := range ws {
		if w.head == 0 || !in[w.head] {
			if root == 0 {
				root, w.head, w.w.Deprel = w.id, 0, "root"
			} else {
				w.head, w.w.Deprel = root, "parataxis"
			}
		}
	}
}

// ancestor reports whether a is an ancestor of w among ws.
func ancestor(ws map[int]*pword, a, w int) bool {
	for h := ws[w].head; h != 0; h = ws[h].head {
		if h == a {
			return true
		}
	}
	return false
}

// retokenize changes the tokenization and sentence segmentation of sents
// without changing their text, in a fixed pattern: some pairs of sentences
// are merged and some sentences split in two, some pairs of adjacent tokens
// merged into one word and some long words split in two, some multiword
// tokens replaced by their words (where the words spell the token) and some
// pairs of adjacent tokens made a multiword token (some of whose second
// words get another FORM, which the alignment does not match).
func retokenize(sents []*conllu.Sentence) []*conllu.Sentence {
	ps := toTokens(sents)
	var segs []*psent
	for k := 0; k < len(ps); k++ {
		p := ps[k]
		switch {
		case k%9 == 4 && k+1 < len(ps):
			p = &psent{comments: p.comments, toks: append(append([]*ptok(nil), p.toks...), ps[k+1].toks...)}
			k++
			p.reroot()
			segs = append(segs, p)
		case k%7 == 2 && len(p.toks) > 6:
			h := len(p.toks) / 2
			a, b := &psent{comments: p.comments, toks: p.toks[:h]}, &psent{toks: p.toks[h:]}
			a.reroot()
			b.reroot()
			segs = append(segs, a, b)
		default:
			segs = append(segs, p)
		}
	}
	n := 0
	for _, p := range segs {
		p.toks = retokenizeSentence(p, &n)
	}
	return fromTokens(segs)
}

// retokenizeSentence merges, splits and groups the tokens of p; n counts
// the tokens seen so far, which chooses what happens to each.
func retokenizeSentence(p *psent, n *int) []*ptok {
	byID := map[int]*pword{}
	for _, w := range p.words() {
		byID[w.id] = w
	}
	var out []*ptok
	for i := 0; i < len(p.toks); i++ {
		t := p.toks[i]
		*n++
		var next *ptok
		if i+1 < len(p.toks) && !t.mwt && !p.toks[i+1].mwt {
			next = p.toks[i+1]
		}
		switch {
		case *n%13 == 0 && next != nil:
			out = append(out, mergeTokens(byID, t, next))
			i++
		case *n%17 == 0 && next != nil:
			out = append(out, &ptok{form: t.form + next.form, mwt: true, words: []*pword{t.words[0], next.words[0]}})
			if *n%34 == 0 {
				next.words[0].w.Form = "X" + next.words[0].w.Form
			}
			i++
		case *n%11 == 0 && !t.mwt && utf8.RuneCountInString(t.form) >= 4 && !strings.ContainsFunc(t.form, isZs):
			r := []rune(t.form)
			w := t.words[0]
			first := &pword{w: w.w, id: -*n, head: w.id}
			first.w.Form, first.w.Lemma, first.w.Deprel = string(r[:len(r)/2]), string(r[:len(r)/2]), "compound"
			w.w.Form = string(r[len(r)/2:])
			byID[first.id] = first
			out = append(out, &ptok{form: first.w.Form, words: []*pword{first}}, &ptok{form: w.w.Form, words: []*pword{w}})
		case *n%3 == 0 && t.mwt && spells(t):
			for _, w := range t.words {
				out = append(out, &ptok{form: w.w.Form, words: []*pword{w}})
			}
		default:
			out = append(out, t)
		}
	}
	return out
}

// spells reports whether the words of a multiword token spell its FORM.
func spells(t *ptok) bool {
	var b strings.Builder
	for _, w := range t.words {
		b.WriteString(w.w.Form)
	}
	return b.String() == t.form
}

// mergeTokens makes two one-word tokens one word: the first, with the
// FORM of both, the dependents of both, and the head of the one that is
// higher in the tree.
func mergeTokens(byID map[int]*pword, a, b *ptok) *ptok {
	wa, wb := a.words[0], b.words[0]
	if ancestor(byID, wb.id, wa.id) {
		wa.head, wa.w.Deprel = wb.head, wb.w.Deprel
	}
	for _, w := range byID {
		if w.head == wb.id {
			w.head = wa.id
		}
	}
	if wa.head == wa.id {
		wa.head = wb.head
	}
	delete(byID, wb.id)
	wa.w.Form = a.form + b.form
	return &ptok{form: wa.w.Form, words: []*pword{wa}}
}
