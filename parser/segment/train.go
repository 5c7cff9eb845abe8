package segment

import (
	"cmp"
	"errors"
	"math/rand"
	"slices"
	"strings"

	"github.com/transparse/transparse/parser/conllu"
)

// Options are the settings of Train; zero values take the defaults.
type Options struct {
	// Epochs is the most passes over the training data (default 12);
	// the weights after the middle pass of the first run of passes with
	// the fewest dev errors are kept, which holds up to Epochs/2+1 tables
	// of 2^TableBits float32 while a decision trains.
	Epochs    int
	TableBits uint // bits of the token and sentence weight tables (default 20, at most 22)
	// Orders is how many perceptrons, each trained on its own order of
	// the examples, are averaged into each decision but the token
	// decision, which has one (default 4): more
	// orders, less dependence of the decisions on the order. Training
	// time grows with it, and so does memory: each order holds two
	// tables of 2^TableBits float32 while its decision trains (8 MiB at
	// 20 bits).
	Orders int
	// MinSuffix is how often a suffix must split off as the last word of a
	// two-word multiword token to be learned; 0 chooses 3, 2 or 1 on dev
	// (2 without dev).
	MinSuffix int
}

func (o Options) withDefaults() Options {
	if o.Epochs <= 0 {
		o.Epochs = 12
	}
	if o.Orders <= 0 {
		o.Orders = 4
	}
	if o.TableBits == 0 {
		o.TableBits = 20
	}
	o.TableBits = min(o.TableBits, maxBits)
	return o
}

// goldTok is a gold token in the text of its paragraph.
type goldTok struct {
	s, e    int
	words   []string
	sentEnd bool
}

// goldPar is a paragraph of a treebank as raw text with its gold tokens.
type goldPar struct {
	text []byte
	toks []goldTok
}

// paragraphs lays out the sentences in paragraphs as UDText does, from
// their tokens' forms and spacing (without UDText's line breaks, which
// are whitespace like the spaces they replace).
func paragraphs(sents []*conllu.Sentence) []goldPar {
	var pars []goldPar
	var cur goldPar
	for _, s := range sents {
		g := tokensOf(s)
		if len(g.Tokens) == 0 {
			continue
		}
		if g.NewPar && len(cur.toks) > 0 {
			pars = append(pars, cur)
			cur = goldPar{}
		}
		for _, t := range g.Tokens {
			s := len(cur.text)
			cur.text = append(cur.text, t.Form...)
			cur.toks = append(cur.toks, goldTok{s: s, e: len(cur.text), words: t.Words})
			if t.SpaceAfter {
				cur.text = append(cur.text, ' ')
			}
		}
		cur.toks[len(cur.toks)-1].sentEnd = true
	}
	if len(cur.toks) > 0 {
		pars = append(pars, cur)
	}
	return pars
}

// examples are the feature lists and labels of one binary decision.
type examples struct {
	feats []uint32
	off   []int
	y     []bool
}

func (x *examples) add(f []uint32, y bool) {
	x.feats = append(x.feats, f...)
	x.off = append(x.off, len(x.feats))
	x.y = append(x.y, y)
}

func (x *examples) get(i int) []uint32 {
	lo := 0
	if i > 0 {
		lo = x.off[i-1]
	}
	return x.feats[lo:x.off[i]]
}

// Train learns a segmenter from a treebank; dev (which may be empty)
// chooses the number of epochs and the decision thresholds.
func Train(train, dev []*conllu.Sentence, opt Options) (*Model, error) {
	opt = opt.withDefaults()
	tp, dp := paragraphs(train), paragraphs(dev)
	if len(tp) == 0 {
		return nil, errors.New("segment: no training sentences")
	}
	return fitModel(tp, dp, opt), nil
}

// fitModel trains a model on tp, tuned on dp.
func fitModel(tp, dp []goldPar, opt Options) *Model {
	m := &Model{}
	var tw, sw, aw table
	one := opt // the token decision: one order (doc.go)
	one.Orders = 1
	tw, m.TokThreshold = fit(tokExamples(tp), tokExamples(dp), opt.TableBits, one)
	ttoks, dtoks := goldToks(tp), goldToks(dp)
	sw = m.fitSentences(tp, dp, ttoks, dtoks, opt)
	m.MWT = dictionary(tp)
	m.build()
	aw, m.AmbThreshold = fit(m.ambExamples(tp, ttoks), m.ambExamples(dp, dtoks), 16, opt)
	m.amb = aw
	uw := m.fitSuffixes(tp, dp, ttoks, dtoks, opt)
	m.Tok, m.Sent = sparse(tw, opt.TableBits), sparse(sw, opt.TableBits)
	m.Amb, m.Suf = sparse(aw, 16), sparse(uw, 16)
	m.build()
	return m
}

// tokExamples are the token-boundary decisions at the candidate positions
// of the paragraphs' runs, labelled by the gold tokens.
func tokExamples(pars []goldPar) *examples {
	x := &examples{}
	var run []cluster
	var f []uint32
	for _, p := range pars {
		bound := make([]bool, len(p.text)+1)
		for _, t := range p.toks {
			bound[t.s], bound[t.e] = true, true
		}
		state := -1
		for i := 0; i <= len(p.text); {
			var end int
			var cls byte
			space := true
			if i < len(p.text) {
				end, cls, space = nextCluster(p.text, i, &state)
			}
			if (space || (len(run) > 0 && end-run[0].s > MaxRunBytes)) && len(run) > 0 {
				parts := [][]cluster{run}
				if a, b, url := findURL(runView{text: p.text, run: run}); url {
					parts = [][]cluster{run[:a], run[b:]}
				}
				for _, part := range parts {
					v := runView{text: p.text, run: part}
					start := 0
					for j := 1; j < len(part); j++ {
						if v.candidate(j) {
							f = v.tokFeats(j, start, f[:0])
							x.add(f, bound[part[j].s])
						}
						if bound[part[j].s] {
							start = j
						}
					}
				}
				run = run[:0]
			}
			if i == len(p.text) {
				break
			}
			if !space {
				run = append(run, cluster{s: i, e: end, cls: cls})
			}
			i = end
		}
	}
	return x
}

// goldToks describes the gold tokens of each paragraph as the sentence
// decision sees them.
func goldToks(pars []goldPar) [][]tok {
	out := make([][]tok, len(pars))
	var cls []byte
	for k, p := range pars {
		ts := make([]tok, len(p.toks))
		var quotes quoteState
		for i, g := range p.toks {
			cls = cls[:0]
			state, last := -1, g.s
			for j := g.s; j < g.e; {
				end, c, _ := nextCluster(p.text[:g.e], j, &state)
				cls = append(cls, c)
				last, j = j, end
			}
			ts[i] = makeTok(p.text, g.s, g.e, last, cls)
			ts[i].inQuote = quotes.at(&ts[i])
			ts[i].glued = i+1 < len(p.toks) && p.toks[i+1].s == g.e
		}
		if len(ts) > 0 {
			ts[len(ts)-1].glued = false
		}
		out[k] = ts
	}
	return out
}

// fitSentences learns the sentence decision with feature set 2 and,
// given dev, with set 1 too, and keeps the one with the higher dev F1 at
// its threshold (set 2 on a tie): the case statistics of set 2 are
// sparse in a small treebank. It sets SentFeatures, SentThreshold and
// Orth and returns the decision's weights.
func (m *Model) fitSentences(tp, dp []goldPar, ttoks, dtoks [][]tok, opt Options) table {
	full := orthStats(tp, ttoks, func(int) bool { return true })
	setOrth(tp, ttoks, jackknifed(tp, ttoks))
	setOrth(dp, dtoks, func(int) map[uint32]uint8 { return full })
	var best table
	bestF1 := -1.0
	sets := []uint8{sentFeatureSet}
	if len(dp) > 0 {
		sets = append(sets, 1)
	}
	for _, set := range sets {
		dev := sentExamples(dp, dtoks, set)
		w, thr := fit(sentExamples(tp, ttoks, set), dev, opt.TableBits, opt)
		if f := f1(w, thr, dev); f > bestF1 {
			best, bestF1, m.SentFeatures, m.SentThreshold = w, f, set, thr
		}
	}
	m.Orth = nil
	if m.SentFeatures >= 2 {
		m.Orth = sortedKeys(full)
	}
	return best
}

// f1 is the F1 of the positive decisions of t over threshold thr on dev.
func f1(t table, thr float32, dev *examples) float64 {
	tp, pos, gold := 0, 0, 0
	for i, y := range dev.y {
		p := t.score(dev.get(i)) > thr
		if p {
			pos++
		}
		if y {
			gold++
			if p {
				tp++
			}
		}
	}
	if pos+gold == 0 {
		return 1
	}
	return 2 * float64(tp) / float64(pos+gold)
}

// orthStats returns the case flags (orthLower, orthUpper) of the forms
// of the tokens that do not start a sentence, in the sentences whose
// number n satisfies keep(n), by orthKey.
func orthStats(pars []goldPar, toks [][]tok, keep func(n int) bool) map[uint32]uint8 {
	st := map[uint32]uint8{}
	n, first := 0, true
	for k, p := range pars {
		for i, g := range p.toks {
			if !first && keep(n) {
				t := &toks[k][i]
				switch t.first {
				case clsLower:
					st[orthKey(t.form)] |= orthLower
				case clsUpper:
					st[orthKey(t.form)] |= orthUpper
				}
			}
			first = g.sentEnd
			if g.sentEnd {
				n++
			}
		}
	}
	return st
}

// jackknifed returns, for a sentence number n of the paragraphs, the
// case statistics of the other half of their sentences: what unseen text
// sees of the training data.
func jackknifed(pars []goldPar, toks [][]tok) func(n int) map[uint32]uint8 {
	var halves [2]map[uint32]uint8
	for h := range halves {
		halves[h] = orthStats(pars, toks, func(n int) bool { return n%2 != h })
	}
	return func(n int) map[uint32]uint8 { return halves[n%2] }
}

// setOrth sets the orth flags of the tokens of the paragraphs from the
// statistics lex(n) of their sentence number n.
func setOrth(pars []goldPar, toks [][]tok, lex func(n int) map[uint32]uint8) {
	n := 0
	for k, p := range pars {
		for i, g := range p.toks {
			t := &toks[k][i]
			t.orth = lex(n)[orthKey(t.form)]
			if g.sentEnd {
				n++
			}
		}
	}
}

// sentExamples are the sentence-boundary decisions after every gold token
// but the last of a paragraph, seen from the start of its sentence as
// the segmenter sees them.
func sentExamples(pars []goldPar, toks [][]tok, set uint8) *examples {
	x := &examples{}
	var f []uint32
	for k, p := range pars {
		start := 0
		for i := 0; i+1 < len(p.toks); i++ {
			f = sentFeats(toks[k][start:], i-start, i-start+1, set, f[:0])
			x.add(f, p.toks[i].sentEnd)
			if p.toks[i].sentEnd {
				start = i + 1
			}
		}
	}
	return x
}

// fit trains opt.Orders perceptrons, each on its own order of the
// examples (shuffled with seeds 1, 2, ...), for at most opt.Epochs passes.
// After each pass the mean of their averaged weights is scored on dev;
// fit returns the mean after the middle pass of the first run of
// consecutive passes with the fewest errors on dev (after the last pass
// without dev examples), with the threshold that threshold chooses on
// dev (0 without dev examples). One order is the plain averaged
// perceptron.
func fit(train, dev *examples, bits uint, opt Options) (table, float32) {
	orders := opt.Orders
	trs := make([]*trainer, orders)
	perm := make([][]int, orders)
	rngs := make([]*rand.Rand, orders)
	for k := range trs {
		trs[k] = newTrainer(bits)
		perm[k] = make([]int, len(train.y))
		for i := range perm[k] {
			perm[k][i] = i
		}
		rngs[k] = rand.New(rand.NewSource(int64(k + 1)))
	}
	var passes tiedPasses
	for ep := 0; ep < opt.Epochs; ep++ {
		var avg table
		for k, tr := range trs {
			order := perm[k]
			rngs[k].Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
			for _, i := range order {
				tr.learn(train.get(i), train.y[i])
			}
			avg = tr.averagedInto(avg, 1/float32(orders))
		}
		errs := 0
		for i := range dev.y {
			if (avg.score(dev.get(i)) > 0) != dev.y[i] {
				errs++
			}
		}
		if len(dev.y) == 0 {
			passes = tiedPasses{} // without dev, the last pass
		}
		passes.add(avg, errs)
	}
	best := passes.middle()
	return best, threshold(best, dev)
}

// tiedPasses follows the first run of consecutive passes with the fewest
// dev errors so far, to return the weights after its middle pass: a pass
// at the edge of the run is the nearest to a pass with more errors. It
// holds the weights from the middle of the run on (at most half the
// passes and one).
type tiedPasses struct {
	run  []table // weights after each pass of the run; those before its middle are dropped
	errs int     // dev errors of each pass of the run
	open bool    // no pass with more errors has followed the run yet
}

// add records the weights after a pass and its dev errors.
func (p *tiedPasses) add(t table, errs int) {
	switch {
	case p.run == nil || errs < p.errs:
		p.run, p.errs, p.open = []table{t}, errs, true
	case errs == p.errs && p.open:
		p.run = append(p.run, t)
		for i := 0; i < (len(p.run)-1)/2; i++ {
			p.run[i] = table{}
		}
	default:
		p.open = false
	}
}

// middle returns the weights after the middle pass of the run (the
// earlier of the two middle ones when the run has an even length).
func (p *tiedPasses) middle() table {
	return p.run[(len(p.run)-1)/2]
}

// threshold returns the score threshold that maximizes F1 of the
// positive decisions on dev, in the middle of the thresholds that make
// as few dev errors as it (see middleThreshold).
func threshold(t table, dev *examples) float32 {
	if len(dev.y) == 0 {
		return 0
	}
	type sy struct {
		s float32
		y bool
	}
	xs := make([]sy, len(dev.y))
	gold := 0
	for i := range dev.y {
		xs[i] = sy{t.score(dev.get(i)), dev.y[i]}
		if dev.y[i] {
			gold++
		}
	}
	slices.SortFunc(xs, func(a, b sy) int { return cmp.Compare(b.s, a.s) })
	var cuts []cut
	correct := 0
	for i, x := range xs {
		if x.y {
			correct++
		}
		if i+1 < len(xs) && xs[i+1].s == x.s {
			continue
		}
		lo := x.s - 2e-3
		if i+1 < len(xs) {
			lo = xs[i+1].s
		}
		cuts = append(cuts, cut{lo: lo, hi: x.s, errs: i + 1 - correct + gold - correct})
		cuts[len(cuts)-1].f1 = 2 * float64(correct) / float64(i+1+gold)
	}
	best := 0
	for i, c := range cuts {
		if c.f1 > cuts[best].f1 {
			best = i
		}
	}
	return middleThreshold(cuts, best)
}

// cut is one choice of threshold on dev: every threshold between lo and
// hi (scores of neighbouring dev examples) makes the same decisions,
// with errs errors (false positives and false negatives) and F1 f1 of
// the positive decisions.
type cut struct {
	lo, hi float32
	errs   int
	f1     float64
}

// middleThreshold returns the threshold in the middle, in score, of the
// run of neighbouring cuts around cuts[best] (the cuts ordered by
// decreasing score) that make no more dev errors than it: a threshold at
// an edge of the run flips decisions, and adds errors, with the smallest
// change of the scores; the middle is as far from both edges as the run
// allows.
func middleThreshold(cuts []cut, best int) float32 {
	i, j := best, best
	for i > 0 && cuts[i-1].errs <= cuts[best].errs {
		i--
	}
	for j+1 < len(cuts) && cuts[j+1].errs <= cuts[best].errs {
		j++
	}
	return (cuts[i].hi + cuts[j].lo) / 2
}

// dictionary returns the multiword tokens of the training data: for each
// form, its most frequent words, how often it had them and how often the
// form was a token.
func dictionary(pars []goldPar) []MWT {
	counts := map[string]map[string]int{}
	for _, p := range pars {
		for _, t := range p.toks {
			if t.words != nil {
				f := string(p.text[t.s:t.e])
				if counts[f] == nil {
					counts[f] = map[string]int{}
				}
				counts[f][strings.Join(t.words, "\x00")]++
			}
		}
	}
	index := map[string]int{}
	var out []MWT
	for f, ws := range counts {
		best, n := "", 0
		for w, c := range ws {
			if c > n || (c == n && w < best) {
				best, n = w, c
			}
		}
		index[f] = len(out)
		out = append(out, MWT{Form: f, Words: strings.Split(best, "\x00"), Count: n})
	}
	for _, p := range pars {
		for _, t := range p.toks {
			if k, ok := index[string(p.text[t.s:t.e])]; ok {
				out[k].Total++
			}
		}
	}
	slices.SortFunc(out, func(a, b MWT) int { return strings.Compare(a.Form, b.Form) })
	return out
}

func sortedKeys(lex map[uint32]uint8) []uint32 {
	out := make([]uint32, 0, len(lex))
	for h, f := range lex {
		out = append(out, h<<2|uint32(f))
	}
	slices.Sort(out)
	return out
}
