package eval

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/transparse/transparse/parser/conllu"
)

// A text is one side of a comparison (the gold or the predicted
// sentences) as the CoNLL 2018 evaluation script reads it: the characters
// of all tokens without whitespace, and the tokens, sentences and words
// as spans of these characters.
type text struct {
	chars  []rune
	tokens []span
	sents  []span
	words  []aword
	// firstWord[k] is the index in words of the first word of sentence
	// k; firstWord has one more element, len(words).
	firstWord []int
	// first is the number of the first sentence in error messages.
	first int
}

// A span is [start, end) in text.chars, with the sentence (0-based index
// into the sentences) where it begins.
type span struct {
	start, end int
	sent       int
}

// An aword is a syntactic word of a text.
type aword struct {
	w          *conllu.Word
	span       span   // the word's token: the whole multiword token for its words
	multi      bool   // part of a multiword token
	lower      string // FORM as LCS compares it, lowercased
	parent     int    // index in text.words of the head, -1 for the root
	functional []int  // indices of the children with a functional deprel
}

// FunctionalDeprels are the universal deprels of the function words MLAS
// attaches to their heads (FUNCTIONAL_DEPRELS of the CoNLL 2018 evaluation
// script).
var FunctionalDeprels = map[string]bool{
	"aux": true, "cop": true, "mark": true, "det": true, "clf": true, "case": true, "cc": true,
}

// readText builds the text of sents. side names it in errors ("gold",
// "prediction"). Every sentence must pass Check.
func readText(sents []*conllu.Sentence, side string, first int) (*text, error) {
	t := &text{first: first, firstWord: []int{0}}
	for k, s := range sents {
		if s == nil {
			return nil, fmt.Errorf("eval: %s sentence %d is nil", side, first+k)
		}
		if err := Check(s); err != nil {
			return nil, fmt.Errorf("eval: %s: %s %w", sentenceName(first+k, s), side, err)
		}
		if err := t.addSentence(k, s); err != nil {
			return nil, fmt.Errorf("eval: %s: %s %w", sentenceName(first+k, s), side, err)
		}
	}
	return t, nil
}

// addSentence appends sentence k.
func (t *text) addSentence(k int, s *conllu.Sentence) error {
	mwForm := map[int]string{} // first word → FORM of each multiword token
	inMW := make([]bool, len(s.Words)+1)
	for _, m := range s.Multiword {
		f := strings.SplitN(m.Text, "\t", 3)
		_, last, ok := strings.Cut(f[0], "-")
		end, err := strconv.Atoi(last)
		if err != nil || !ok || len(f) < 2 || m.Before < 1 || end < m.Before || end > len(s.Words) {
			return fmt.Errorf("has a malformed multiword token line %s", conllu.Quote(m.Text))
		}
		mwForm[m.Before] = f[1]
		for j := m.Before; j <= end; j++ {
			inMW[j] = true
		}
	}
	first := len(t.words)
	sentStart := len(t.chars)
	var tok span
	for i := range s.Words {
		w := &s.Words[i]
		id := i + 1
		if form, ok := mwForm[id]; ok {
			tok = t.addToken(form, k)
		} else if !inMW[id] {
			tok = t.addToken(w.Form, k)
		}
		multi := inMW[id]
		if tok.start == tok.end {
			return fmt.Errorf("has an empty FORM (word %d)", id)
		}
		lower := w.Form
		if !multi {
			lower = alignForm(lower)
		}
		parent := -1
		if w.Head > 0 {
			parent = first + w.Head - 1
		}
		t.words = append(t.words, aword{w: w, span: tok, multi: multi, lower: pythonLower(lower), parent: parent})
	}
	for i := first; i < len(t.words); i++ {
		if p := t.words[i].parent; p >= 0 && FunctionalDeprels[UniversalDeprel(t.words[i].w.Deprel)] {
			t.words[p].functional = append(t.words[p].functional, i)
		}
	}
	t.sents = append(t.sents, span{start: sentStart, end: len(t.chars), sent: k})
	t.firstWord = append(t.firstWord, len(t.words))
	return nil
}

// addToken appends a token with this FORM, Unicode space separators
// removed, and returns its span.
func (t *text) addToken(form string, sent int) span {
	sp := span{start: len(t.chars), sent: sent}
	t.chars = append(t.chars, []rune(alignForm(form))...)
	sp.end = len(t.chars)
	t.tokens = append(t.tokens, sp)
	return sp
}

// compareTexts returns nil when both texts have the same characters, and
// otherwise an error naming the first character offset (counting from 0,
// whitespace excluded, as the evaluation script counts) where they differ
// and the token of each side there.
func compareTexts(gold, pred *text, goldSents, predSents []*conllu.Sentence) error {
	i := 0
	for i < len(gold.chars) && i < len(pred.chars) && gold.chars[i] == pred.chars[i] {
		i++
	}
	if i == len(gold.chars) && i == len(pred.chars) {
		return nil
	}
	where := func(t *text, sents []*conllu.Sentence) string {
		if i >= len(t.chars) {
			return fmt.Sprintf("ends there (after %d characters)", len(t.chars))
		}
		for _, tok := range t.tokens {
			if tok.end > i {
				return fmt.Sprintf("has %s in %s, token %s", conllu.Quote(string(t.chars[i:min(i+20, len(t.chars))])),
					sentenceName(t.first+tok.sent, sents[tok.sent]), conllu.Quote(string(t.chars[tok.start:tok.end])))
			}
		}
		return ""
	}
	return fmt.Errorf("eval: the texts of gold and prediction (their tokens' characters without whitespace) differ at character %d (counting from 0): gold %s; prediction %s",
		i, where(gold, goldSents), where(pred, predSents))
}

// alignment pairs gold and predicted words.
type alignment struct {
	gold, pred *text
	pairs      [][2]int // gold word, predicted word
	goldOf     []int    // goldOf[p]: the gold word aligned with predicted word p, or notAligned
}

const notAligned = -2

// align aligns the words of two texts with the same characters, as
// align_words of the CoNLL 2018 evaluation script: words outside multiword
// tokens by their character spans, words in a multiword span (the smallest
// span that contains a multiword token and every multiword token it
// overlaps, on either side) by the longest common subsequence of their
// lowercased FORMs.
func align(gold, pred *text) *alignment {
	a := &alignment{gold: gold, pred: pred, goldOf: make([]int, len(pred.words))}
	for i := range a.goldOf {
		a.goldOf[i] = notAligned
	}
	gw, pw := gold.words, pred.words
	gi, pi := 0, 0
	for gi < len(gw) && pi < len(pw) {
		if gw[gi].multi || pw[pi].multi {
			var gs, ps int
			gs, ps, gi, pi = multiwordSpan(gw, pw, gi, pi)
			a.alignLCS(gs, gi, ps, pi)
			continue
		}
		g, p := gw[gi].span, pw[pi].span
		switch {
		case g.start == p.start && g.end == p.end:
			a.add(gi, pi)
			gi++
			pi++
		case g.start <= p.start:
			gi++
		default:
			pi++
		}
	}
	return a
}

func (a *alignment) add(g, p int) {
	a.pairs = append(a.pairs, [2]int{g, p})
	a.goldOf[p] = g
}

// multiwordSpan returns the words [gs, ge) and [ps, pe) of the multiword
// span that starts at gold word gi or predicted word pi
// (find_multiword_span of the evaluation script).
func multiwordSpan(gw, pw []aword, gi, pi int) (gs, ps, ge, pe int) {
	var end int
	if gw[gi].multi {
		end = gw[gi].span.end
		if !pw[pi].multi && pw[pi].span.start < gw[gi].span.start {
			pi++
		}
	} else {
		end = pw[pi].span.end
		if !gw[gi].multi && gw[gi].span.start < pw[pi].span.start {
			gi++
		}
	}
	gs, ps = gi, pi
	beyond := func(ws []aword, i int) bool {
		if i >= len(ws) {
			return true
		}
		if ws[i].multi {
			return ws[i].span.start >= end
		}
		return ws[i].span.end > end
	}
	extend := func(w aword) {
		if w.multi && w.span.end > end {
			end = w.span.end
		}
	}
	for !beyond(gw, gi) || !beyond(pw, pi) {
		if gi < len(gw) && (pi >= len(pw) || gw[gi].span.start <= pw[pi].span.start) {
			extend(gw[gi])
			gi++
		} else {
			extend(pw[pi])
			pi++
		}
	}
	return gs, ps, gi, pi
}

// alignLCS aligns gold words [gs, ge) with predicted words [ps, pe) along
// a longest common subsequence of their lowercased FORMs, choosing among
// equally long ones as the evaluation script does.
func (a *alignment) alignLCS(gs, ge, ps, pe int) {
	ng, np := ge-gs, pe-ps
	if ng <= 0 || np <= 0 {
		return
	}
	lcs := make([][]int, ng+1)
	for g := range lcs {
		lcs[g] = make([]int, np+1)
	}
	eq := func(g, p int) bool { return a.gold.words[gs+g].lower == a.pred.words[ps+p].lower }
	for g := ng - 1; g >= 0; g-- {
		for p := np - 1; p >= 0; p-- {
			if eq(g, p) {
				lcs[g][p] = 1 + lcs[g+1][p+1]
			}
			lcs[g][p] = max(lcs[g][p], lcs[g+1][p], lcs[g][p+1])
		}
	}
	for g, p := 0, 0; g < ng && p < np; {
		switch {
		case eq(g, p):
			a.add(gs+g, ps+p)
			g++
			p++
		case lcs[g][p] == lcs[g+1][p]:
			g++
		default:
			p++
		}
	}
}

// spansMatch counts the spans of gold that pred has too (the evaluation
// script's spans_score) and returns, for each gold span, the index of the
// identical predicted span or -1.
func spansMatch(gold, pred []span) (Metric, []int) {
	m := Metric{Gold: len(gold), System: len(pred)}
	same := make([]int, len(gold))
	gi, pi := 0, 0
	for gi < len(gold) && pi < len(pred) {
		same[gi] = -1
		switch g, p := gold[gi], pred[pi]; {
		case p.start < g.start:
			pi++
		case g.start < p.start:
			gi++
		default:
			if g.end == p.end {
				m.Correct++
				same[gi] = pi
			}
			gi++
			pi++
		}
	}
	for ; gi < len(gold); gi++ {
		same[gi] = -1
	}
	return m, same
}

// head returns the gold word aligned with the head of predicted word p,
// -1 for the root and notAligned when the head is not aligned.
func (a *alignment) head(p int) int {
	if h := a.pred.words[p].parent; h >= 0 {
		return a.goldOf[h]
	}
	return -1
}

// count adds the word metrics of the alignment to s.
func (a *alignment) count(s *Scores) {
	for _, m := range []*Metric{&s.UPOS, &s.XPOS, &s.UFeats, &s.AllTags, &s.Lemmas, &s.UAS, &s.LAS, &s.FullLAS} {
		m.Gold, m.System = len(a.gold.words), len(a.pred.words)
	}
	for _, w := range a.gold.words {
		if IsContent(w.w.Deprel) {
			s.CLAS.Gold++
		}
	}
	for _, w := range a.pred.words {
		if IsContent(w.w.Deprel) {
			s.CLAS.System++
		}
		for _, c := range []struct {
			n *int
			v string
		}{{&s.PredictedUPOS, w.w.UPOS}, {&s.PredictedXPOS, w.w.XPOS},
			{&s.PredictedFeats, w.w.Feats}, {&s.PredictedLemmas, w.w.Lemma}} {
			if !conllu.Absent(c.v) {
				*c.n++
			}
		}
	}
	s.MLAS.Gold, s.MLAS.System = s.CLAS.Gold, s.CLAS.System
	s.BLEX.Gold, s.BLEX.System = s.CLAS.Gold, s.CLAS.System
	for _, pr := range a.pairs {
		r := a.judge(pr[0], pr[1])
		for _, c := range []struct {
			m  *Metric
			ok bool
		}{{&s.UPOS, r.upos}, {&s.XPOS, r.xpos}, {&s.UFeats, r.feats},
			{&s.AllTags, r.upos && r.xpos && r.feats}, {&s.Lemmas, r.lemma},
			{&s.UAS, r.head}, {&s.LAS, r.las}, {&s.FullLAS, r.head && r.fullDeprel},
			{&s.CLAS, r.content && r.las}, {&s.MLAS, r.content && r.las && r.upos && r.feats && r.children},
			{&s.BLEX, r.content && r.las && r.lemma}} {
			if c.ok {
				c.m.Correct++
			}
		}
	}
}

// judgement says what is right about a predicted word aligned with a gold
// one.
type judgement struct {
	upos, xpos, feats, lemma bool
	head, las, fullDeprel    bool
	content                  bool // the gold word is a content word
	children                 bool // MLAS: the functional children agree
}

// judge compares gold word gi with its aligned predicted word pi.
func (a *alignment) judge(gi, pi int) judgement {
	g, p := &a.gold.words[gi], &a.pred.words[pi]
	gw, pw := g.w, p.w
	r := judgement{
		upos:       gw.UPOS == pw.UPOS,
		xpos:       gw.XPOS == pw.XPOS,
		feats:      UniversalFeats(gw.Feats) == UniversalFeats(pw.Feats),
		lemma:      lemmaCorrect(gw.Lemma, pw.Lemma),
		head:       g.parent == a.head(pi),
		fullDeprel: gw.Deprel == pw.Deprel,
		content:    IsContent(gw.Deprel),
	}
	r.las = r.head && UniversalDeprel(gw.Deprel) == UniversalDeprel(pw.Deprel)
	r.children = len(g.functional) == len(p.functional)
	for i := 0; r.children && i < len(g.functional); i++ {
		gc, pc := a.gold.words[g.functional[i]].w, a.pred.words[p.functional[i]].w
		r.children = g.functional[i] == a.goldOf[p.functional[i]] &&
			UniversalDeprel(gc.Deprel) == UniversalDeprel(pc.Deprel) &&
			gc.UPOS == pc.UPOS && UniversalFeats(gc.Feats) == UniversalFeats(pc.Feats)
	}
	return r
}

// exact counts ExactUAS and ExactLAS: a gold sentence is right when the
// prediction has a sentence with the same span (sameSent, from
// spansMatch), all words of both are aligned, and every gold word's head
// (and universal deprel) is right.
func (a *alignment) exact(s *Scores, sameSent []int) {
	nGold, nPred := len(a.gold.sents), len(a.pred.sents)
	s.ExactUAS = Metric{Gold: nGold, System: nPred}
	s.ExactLAS = Metric{Gold: nGold, System: nPred}
	predOf := make([]int, len(a.gold.words))
	for i := range predOf {
		predOf[i] = notAligned
	}
	for _, pr := range a.pairs {
		predOf[pr[0]] = pr[1]
	}
	for k, j := range sameSent {
		if j < 0 {
			continue
		}
		g0, g1 := a.gold.firstWord[k], a.gold.firstWord[k+1]
		if a.pred.firstWord[j+1]-a.pred.firstWord[j] != g1-g0 {
			continue
		}
		uas, las := true, true
		for gi := g0; gi < g1 && uas; gi++ {
			pi := predOf[gi]
			if pi == notAligned {
				uas, las = false, false
				break
			}
			r := a.judge(gi, pi)
			uas, las = r.head, las && r.las
		}
		if uas {
			s.ExactUAS.Correct++
		}
		if las {
			s.ExactLAS.Correct++
		}
	}
}

// pythonLower lowercases s as Python's str.lower, which the evaluation
// script uses to compare FORMs: strings.ToLower but for the two
// context-dependent mappings of Unicode's SpecialCasing.txt, U+0130 (İ) →
// "i̇" and the final sigma Σ → ς.
func pythonLower(s string) string {
	if !strings.ContainsAny(s, "\u0130\u03a3") {
		return strings.ToLower(s)
	}
	r := []rune(s)
	var b strings.Builder
	for i, c := range r {
		switch {
		case c == '\u0130':
			b.WriteString("i\u0307")
		case c == '\u03a3' && cased(r[:i], -1) && !cased(r[i+1:], 1):
			b.WriteRune('ς')
		default:
			b.WriteRune(unicode.ToLower(c))
		}
	}
	return b.String()
}

// cased reports whether the first character of r (dir 1) or its last (dir
// -1) that is not case-ignorable is a cased letter.
func cased(r []rune, dir int) bool {
	for n := range r {
		c := r[n]
		if dir < 0 {
			c = r[len(r)-1-n]
		}
		if !caseIgnorable(c) {
			return unicode.IsUpper(c) || unicode.IsLower(c) || unicode.IsTitle(c)
		}
	}
	return false
}

// caseIgnorable approximates Unicode's Case_Ignorable property: marks,
// format characters, modifier letters and symbols, and the apostrophes,
// periods and colons that may stand inside a word.
func caseIgnorable(c rune) bool {
	return unicode.In(c, unicode.Mn, unicode.Me, unicode.Cf, unicode.Lm, unicode.Sk) ||
		strings.ContainsRune("'.:\u00b7\u0387\u05f3\u05f4\u2018\u2019\u2024\u2027\ufe13\ufe52\ufe55\uff07\uff0e\uff1a", c)
}
