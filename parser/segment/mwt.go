package segment

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// MWT is a multiword token of the dictionary: Form was a multiword token
// with Words Count times in the training data, and a token Total times.
type MWT struct {
	Form  string   `msgpack:"form"`
	Words []string `msgpack:"words"`
	Count int      `msgpack:"count"`
	Total int      `msgpack:"total"`
}

func (e *MWT) ambiguous() bool { return e.Count < e.Total }

// ambFeats are the features of the decision whether the ambiguous
// dictionary form of ts[i] (its lower case hash fh) is a multiword token.
func ambFeats(ts []tok, i int, f []uint32) []uint32 {
	fh := ts[i].form
	p2, p1, n1, n2 := ctx(ts, i-2), ctx(ts, i-1), ctx(ts, i+1), ctx(ts, i+2)
	return append(f,
		tmpl(47).h(fh).h(p2.form).h(p1.form).id(),
		tmpl(48).h(fh).h(p1.last).id(),
		tmpl(49).h(fh).b(p1.first).b(n1.first).id(),
		tmpl(40).h(fh).id(),
		tmpl(41).h(fh).h(p1.form).id(),
		tmpl(42).h(fh).h(n1.form).id(),
		tmpl(43).h(fh).b(n1.first).id(),
		tmpl(44).h(fh).h(n1.form).h(n2.form).id(),
		tmpl(45).h(fh).h(p1.shape).id(),
		tmpl(46).h(fh).h(p1.form).h(n1.form).id(),
		tmpl(54).h(fh).h(p1.suffix).id(),
		tmpl(55).h(fh).h(n1.suffix).id(),
	)
}

func ctx(ts []tok, i int) tok {
	if i < 0 || i >= len(ts) {
		return noTok
	}
	return ts[i]
}

// lastRunes returns the byte offset in p where its last n code points
// start, or -1 when p has fewer than n+min code points.
func lastRunes(p []byte, n, min int) int {
	i := len(p)
	for k := 0; k < n; k++ {
		if i == 0 {
			return -1
		}
		_, size := utf8.DecodeLastRune(p[:i])
		i -= size
	}
	j := i
	for k := 0; k < min; k++ {
		if j == 0 {
			return -1
		}
		_, size := utf8.DecodeLastRune(p[:j])
		j -= size
	}
	return i
}

// sufFeats are the features of splitting the token ts[i], whose lower
// case is low, into a stem and the learned suffix low[at:]; known tells
// whether a lower-case form was a plain token (knownToken) or a word
// (knownWord) in the training data.
func sufFeats(ts []tok, i int, low []byte, at int, known func([]byte) uint8, f []uint32) []uint32 {
	sh := tmpl(50).s(low[at:])
	stem := low[:at]
	l1, l2, l3, l4 := lastRunes(stem, 1, 0), lastRunes(stem, 2, 0), lastRunes(stem, 3, 0), lastRunes(stem, 4, 0)
	p1, n1 := ctx(ts, i-1), ctx(ts, i+1)
	kf, ks := known(low), known(stem)
	return append(f,
		sh.id(),
		sh.b(1).s(stem[max(l1, 0):]).id(),
		sh.b(2).s(stem[max(l2, 0):]).id(),
		sh.b(3).s(stem[max(l3, 0):]).id(),
		sh.b(4).h(n1.form).id(),
		sh.b(5).h(p1.form).id(),
		sh.b(6).b(bucket(utf8.RuneCount(stem), 8)).id(),
		sh.b(7).b(ts[i].first).id(),
		sh.b(8).b(n1.first).id(),
		sh.b(9).s(stem[max(l4, 0):]).id(),
		sh.b(10).b(kf).b(ks).id(),
		tmpl(51).b(kf).b(ks).id(),
		tmpl(52).b(kf).b(ks).s(stem[max(l2, 0):]).id(),
		tmpl(53).id(),
	)
}

// Flags of known.
const (
	knownToken = 1 // a token that is not a multiword token
	knownWord  = 2 // a word
)

func (m *Model) known(p []byte) uint8 {
	return m.lexicon[tmpl(60).s(p).id()>>2]
}

// suffixCandidates calls fn with where each learned suffix of low starts
// (leaving a stem of at least two code points), longest first.
func (m *Model) suffixCandidates(low []byte, fn func(at int)) {
	for n := m.maxSuffix; n > 0; n-- {
		at := lastRunes(low, n, 2)
		if at >= 0 && m.suffix[string(low[at:])] {
			fn(at)
		}
	}
}

// expand returns the words of the token ts[i] of a sentence when the
// model makes it a multiword token, else nil. Words of a dictionary
// entry found by its exact form are shared with the model.
func (m *Model) expand(p *proc, ts []tok, i int) []string {
	if len(m.MWT) == 0 && m.maxSuffix == 0 {
		return nil
	}
	form := p.text[ts[i].start:ts[i].end]
	if k, ok := m.exact[string(form)]; ok {
		return m.dictWords(p, ts, i, k)
	}
	p.low = lowerInto(p.low[:0], form)
	if k, ok := m.lower[string(p.low)]; ok {
		return withCase(m.dictWords(p, ts, i, k), form)
	}
	bestAt := m.bestSuffix(ts, i, p.low, &p.feats)
	if bestAt < 0 {
		return nil
	}
	cut := lastRunes(form, utf8.RuneCount(p.low[bestAt:]), 0)
	return []string{string(form[:cut]), string(form[cut:])}
}

// bestSuffix returns where the best-scoring learned suffix of low, the
// lower case of ts[i], starts when its score is over SufThreshold, or -1.
func (m *Model) bestSuffix(ts []tok, i int, low []byte, feats *[]uint32) int {
	best, bestAt := m.SufThreshold, -1
	m.suffixCandidates(low, func(at int) {
		*feats = sufFeats(ts, i, low, at, m.known, (*feats)[:0])
		if s := m.suf.score(*feats); s > best {
			best, bestAt = s, at
		}
	})
	return bestAt
}

func (m *Model) dictWords(p *proc, ts []tok, i int, k int32) []string {
	e := &m.MWT[k]
	if e.ambiguous() {
		p.feats = ambFeats(ts, i, p.feats[:0])
		if m.amb.score(p.feats) <= m.AmbThreshold {
			return nil
		}
	}
	return e.Words
}

// withCase gives words the case of form: all upper case when form is, a
// capital first letter when form has one.
func withCase(words []string, form []byte) []string {
	if words == nil {
		return nil
	}
	s := string(form)
	out := make([]string, len(words))
	for i, w := range words {
		out[i] = strings.ToLower(w)
	}
	switch r, _ := utf8.DecodeRuneInString(s); {
	case strings.ToUpper(s) == s && strings.ToLower(s) != s:
		for i, w := range out {
			out[i] = strings.ToUpper(w)
		}
	case unicode.IsUpper(r):
		w := out[0]
		f, size := utf8.DecodeRuneInString(w)
		out[0] = string(unicode.ToUpper(f)) + w[size:]
	}
	return out
}
