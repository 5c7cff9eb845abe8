package segment

import (
	"bytes"
	"cmp"
	"math"
	"slices"
	"strings"
	"unicode/utf8"
)

// suffixes returns the lower-case last words of two-word multiword
// tokens whose words spell the token (a stem and a suffix: "n't" of
// "didn't", "ki" of Turkish "yakasındaki"), seen at least min times.
func suffixes(pars []goldPar, min int) []string {
	counts := map[string]int{}
	for _, p := range pars {
		for _, t := range p.toks {
			if len(t.words) != 2 {
				continue
			}
			low := string(lowerInto(nil, p.text[t.s:t.e]))
			w := string(lowerInto(nil, []byte(t.words[1])))
			if low == string(lowerInto(nil, []byte(t.words[0])))+w && len(w) <= 16 {
				counts[w]++
			}
		}
	}
	var out []string
	for s, n := range counts {
		if n >= min {
			out = append(out, s)
		}
	}
	slices.Sort(out)
	return out
}

// sentences calls fn with each gold sentence of a paragraph: the tokens
// from its first one on (as the segmenter sees them) and its gold tokens.
func sentences(p goldPar, ts []tok, fn func(ts []tok, g []goldTok)) {
	start := 0
	for i, t := range p.toks {
		if t.sentEnd {
			fn(ts[start:i+1], p.toks[start:i+1])
			start = i + 1
		}
	}
}

// ambExamples are the decisions on the ambiguous dictionary forms.
func (m *Model) ambExamples(pars []goldPar, toks [][]tok) *examples {
	x := &examples{}
	var f []uint32
	var low []byte
	for k, p := range pars {
		sentences(p, toks[k], func(ts []tok, g []goldTok) {
			for i, t := range g {
				form := p.text[t.s:t.e]
				e, ok := m.exact[string(form)]
				if !ok {
					low = lowerInto(low[:0], form)
					e, ok = m.lower[string(low)]
				}
				if ok && m.MWT[e].ambiguous() {
					f = ambFeats(ts, i, f[:0])
					x.add(f, t.words != nil)
				}
			}
		})
	}
	return x
}

// lexicon returns the hashes of the lower-case plain tokens and words
// of the paragraphs whose sentence number n satisfies keep(n).
func lexicon(pars []goldPar, keep func(n int) bool) map[uint32]uint8 {
	lex := map[uint32]uint8{}
	var low []byte
	n := 0
	for _, p := range pars {
		for _, t := range p.toks {
			if keep(n) {
				low = lowerInto(low[:0], p.text[t.s:t.e])
				if t.words == nil {
					lex[tmpl(60).s(low).id()>>2] |= knownToken | knownWord
				}
				for _, w := range t.words {
					low = lowerInto(low[:0], []byte(w))
					lex[tmpl(60).s(low).id()>>2] |= knownWord
				}
			}
			if t.sentEnd {
				n++
			}
		}
	}
	return lex
}

// sufExamples are the suffix-split decisions on every token that ends in
// a learned suffix, dictionary forms included: the decision must learn
// from the forms whose splits it will see only as unseen forms. With
// jackknife, the sentences of each half see the lexicon of the other
// half, as unseen text sees the lexicon of the training data.
func (m *Model) sufExamples(pars []goldPar, toks [][]tok, jackknife bool) *examples {
	x := &examples{}
	if m.maxSuffix == 0 {
		return x
	}
	var halves [2]func([]byte) uint8
	for h := range halves {
		lex := lexicon(pars, func(n int) bool { return n%2 != h })
		halves[h] = func(p []byte) uint8 { return lex[tmpl(60).s(p).id()>>2] }
	}
	var f []uint32
	var low, w []byte
	n := 0
	for k, p := range pars {
		sentences(p, toks[k], func(ts []tok, g []goldTok) {
			known := m.known
			if jackknife {
				known = halves[n%2]
			}
			n++
			for i, t := range g {
				low = lowerInto(low[:0], p.text[t.s:t.e])
				m.suffixCandidates(low, func(at int) {
					y := false
					if len(t.words) == 2 {
						w = lowerInto(w[:0], []byte(t.words[1]))
						y = bytes.Equal(w, low[at:]) && strings.EqualFold(t.words[0]+t.words[1], string(p.text[t.s:t.e]))
					}
					f = sufFeats(ts, i, low, at, known, f[:0])
					x.add(f, y)
				})
			}
		})
	}
	return x
}

// fitSuffixes learns the suffixes, the lexicon and the suffix decision,
// for each minimum count that opt allows, with the threshold that makes
// the fewest errors on the dev tokens outside the dictionary (the tokens
// the decision is asked about), and keeps those that make the fewest
// such errors (the larger minimum on a tie). It returns the decision's
// weights.
func (m *Model) fitSuffixes(tp, dp []goldPar, ttoks, dtoks [][]tok, opt Options) table {
	mins := []int{opt.MinSuffix}
	if opt.MinSuffix <= 0 {
		mins = []int{2}
		if len(dp) > 0 {
			mins = []int{3, 2, 1}
		}
	}
	type fitted struct {
		suffixes []string
		lexicon  []uint32
		w        table
		thr      float32
		errs     int
	}
	var best *fitted
	for _, min := range mins {
		m.Suffixes, m.Lexicon = suffixes(tp, min), nil
		if len(m.Suffixes) > 0 {
			m.Lexicon = sortedKeys(lexicon(tp, func(int) bool { return true }))
		}
		m.build()
		m.suf, m.SufThreshold = fit(m.sufExamples(tp, ttoks, true), m.sufExamples(dp, dtoks, false), 16, opt)
		f := &fitted{m.Suffixes, m.Lexicon, m.suf, m.SufThreshold, 0}
		if len(dp) > 0 {
			f.thr, f.errs = m.sufThreshold(dp, dtoks)
		}
		if best == nil || f.errs < best.errs {
			best = f
		}
	}
	m.Suffixes, m.Lexicon, m.SufThreshold = best.suffixes, best.lexicon, best.thr
	return best.w
}

// sufThreshold returns the threshold of the suffix decision that makes
// the fewest errors on the dev tokens outside the dictionary (a split, or
// its absence, that differs from the gold one), and that number.
func (m *Model) sufThreshold(pars []goldPar, toks [][]tok) (float32, int) {
	type decision struct {
		s             float32 // score of the best suffix
		right, golden bool    // the best suffix is the gold split; the gold token is a multiword token
	}
	var ds []decision
	var low []byte
	var f []uint32
	saved := m.SufThreshold
	m.SufThreshold = -math.MaxFloat32
	errs := 0 // errors whatever the threshold: gold multiword tokens without a candidate
	for k, p := range pars {
		sentences(p, toks[k], func(ts []tok, g []goldTok) {
			for i, t := range g {
				form := p.text[t.s:t.e]
				low = lowerInto(low[:0], form)
				if _, ok := m.exact[string(form)]; ok {
					continue
				}
				if _, ok := m.lower[string(low)]; ok {
					continue
				}
				at := m.bestSuffix(ts, i, low, &f)
				if at < 0 {
					if t.words != nil {
						errs++
					}
					continue
				}
				right := len(t.words) == 2 && strings.EqualFold(t.words[1], string(form[lastRunes(form, utf8.RuneCount(low[at:]), 0):]))
				f = sufFeats(ts, i, low, at, m.known, f[:0])
				ds = append(ds, decision{m.suf.score(f), right, t.words != nil})
			}
		})
	}
	m.SufThreshold = saved
	slices.SortFunc(ds, func(a, b decision) int { return cmp.Compare(b.s, a.s) })
	// Threshold above every score: no split; each gold multiword token is an error.
	cur := errs
	for _, d := range ds {
		if d.golden {
			cur++
		}
	}
	if len(ds) == 0 {
		return math.MaxFloat32, cur
	}
	// No split: every threshold above the highest score, taken as up to 2 above it.
	cuts := []cut{{lo: ds[0].s, hi: ds[0].s + 2, errs: cur}}
	for i, d := range ds {
		// Lowering the threshold below d.s splits d at its best suffix.
		if d.golden {
			cur--
		}
		if !d.right {
			cur++
		}
		if i+1 < len(ds) && ds[i+1].s == d.s {
			continue
		}
		lo := d.s - 2e-3
		if i+1 < len(ds) {
			lo = ds[i+1].s
		}
		cuts = append(cuts, cut{lo: lo, hi: d.s, errs: cur})
	}
	best := 0
	for i, c := range cuts {
		if c.errs < cuts[best].errs {
			best = i
		}
	}
	return middleThreshold(cuts, best), cuts[best].errs
}
