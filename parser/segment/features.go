package segment

// Features of the token-boundary decision, before cluster j of a run of
// non-whitespace clusters (0 < j < len(run)).

const maxChunk = 24 // bytes of a run's part before or after a boundary that features see

var noneChar = []byte{clsNone}

type runView struct {
	text []byte
	run  []cluster
}

func (v runView) char(k int) []byte {
	if k < 0 || k >= len(v.run) {
		return noneChar
	}
	return v.text[v.run[k].s:v.run[k].e]
}

func (v runView) cls(k int) byte {
	if k < 0 || k >= len(v.run) {
		return clsNone
	}
	return v.run[k].cls
}

// lower hashes the bytes text[s:e] in ASCII lower case.
func (h hash) lower(p []byte) hash {
	for _, c := range p {
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		h = (h ^ hash(c)) * fnvPrime
	}
	return (h ^ 0xff) * fnvPrime
}

func bucket(n, max int) byte {
	if n > max {
		return byte(max + 1)
	}
	return byte(n)
}

// candidate reports whether the boundary before run[j] is decided by the
// classifier: never inside a stretch of letters or of digits.
func (v runView) candidate(j int) bool {
	a, b := v.run[j-1].cls, v.run[j].cls
	if isLetterCls(a) && isLetterCls(b) {
		return false
	}
	return !(a == clsDigit && b == clsDigit) && b != clsMark
}

// tokFeats are the features of the boundary before run[j]; the token
// being built starts at run[start].
func (v runView) tokFeats(j, start int, f []uint32) []uint32 {
	n := len(v.run)
	s, e := v.run[0].s, v.run[n-1].e
	at := v.run[j].s
	left, right := v.text[max(s, at-maxChunk):at], v.text[at:min(e, at+maxChunk)]
	c0, c1, c2, c3 := v.char(j-2), v.char(j-1), v.char(j), v.char(j+1)
	var shape [10]byte
	k := 0
	for i := 0; i < n && k < len(shape); i++ {
		if k == 0 || shape[k-1] != v.run[i].cls {
			shape[k] = v.run[i].cls
			k++
		}
	}
	dl, dr := bucket(j, 3), bucket(n-j, 3)
	return append(f,
		tmpl(0).id(),
		tmpl(1).s(c1).s(c2).id(),
		tmpl(2).s(c0).s(c1).s(c2).id(),
		tmpl(3).s(c1).s(c2).s(c3).id(),
		tmpl(4).s(c0).s(c1).s(c2).s(c3).id(),
		tmpl(5).b(v.cls(j-3)).b(v.cls(j-2)).b(v.cls(j-1)).b(v.cls(j)).b(v.cls(j+1)).b(v.cls(j+2)).id(),
		tmpl(6).lower(left).id(),
		tmpl(7).lower(right).id(),
		tmpl(8).lower(left).lower(right).id(),
		tmpl(9).b(dr).s(c1).s(c2).id(),
		tmpl(10).b(dl).s(c1).s(c2).id(),
		tmpl(11).s(shape[:k]).b(dl).b(dr).id(),
		tmpl(12).lower(v.word(j-1, -1)).s(c2).id(),
		tmpl(13).s(c1).lower(v.word(j, 1)).id(),
		tmpl(17).b(bucket(j-start, 3)).s(c1).s(c2).id(),
		tmpl(18).lower(v.text[max(v.run[start].s, at-maxChunk):at]).s(c2).id(),
	)
}

// word returns the letters around run[k] going in direction dir (at most
// 16 bytes), or run[k] alone when it is not a letter.
func (v runView) word(k, dir int) []byte {
	if !isLetterCls(v.run[k].cls) {
		return v.char(k)
	}
	i := k
	for i+dir >= 0 && i+dir < len(v.run) && isLetterCls(v.run[i+dir].cls) {
		i += dir
	}
	lo, hi := v.run[min(i, k)].s, v.run[max(i, k)].e
	if hi-lo > 16 {
		if dir < 0 {
			lo = hi - 16
		} else {
			hi = lo + 16
		}
	}
	return v.text[lo:hi]
}

// tok is a token as the sentence-boundary decision sees it.
type tok struct {
	start, end int
	form       hash // lower-case form (first maxChunk bytes)
	shape      hash // compressed class sequence
	last       hash // last cluster
	suffix     hash // last three bytes in lower case
	first      byte // class of the first cluster
	lastCls    byte
	glued      bool // no whitespace after the token
	quote      bool // the token is '"'
	inQuote    byte // quoteState.at
	orth       byte // case of the form inside sentences of the training data (orthLower, orthUpper)
	words      []string
}

var noTok = tok{form: tmpl(99), shape: tmpl(99), last: tmpl(99), suffix: tmpl(99), first: clsNone, lastCls: clsNone}

// quoteState follows the '"' tokens of a paragraph: a quote is open
// after an odd number of them, until maxQuote tokens without one (an
// unbalanced '"' does not flip the rest of the paragraph).
type quoteState struct {
	open  bool
	since int // tokens since the last '"'
}

const maxQuote = 50

// at returns 1 when t is inside an open quote and counts t.
func (q *quoteState) at(t *tok) byte {
	if q.since >= maxQuote {
		q.open = false
	}
	o := byte(0)
	if q.open {
		o = 1
	}
	q.since++
	if t.quote {
		q.open, q.since = !q.open, 0
	}
	return o
}

// makeTok describes text[s:e]; lastStart is where its last cluster starts.
func makeTok(text []byte, s, e, lastStart int, cls []byte) tok {
	t := tok{start: s, end: e}
	form := text[s:min(e, s+maxChunk)]
	t.form = tmpl(90).lower(form)
	t.last = tmpl(91).s(text[lastStart:e])
	t.suffix = tmpl(93).lower(text[max(s, e-3):e])
	var shape [6]byte
	k := 0
	for _, c := range cls {
		if k == 0 || shape[k-1] != c {
			if k == len(shape) {
				break
			}
			shape[k] = c
			k++
		}
	}
	t.shape = tmpl(92).s(shape[:k])
	t.first, t.lastCls = cls[0], cls[len(cls)-1]
	t.quote = e-s == 1 && text[s] == '"'
	return t
}

// Flags of Model.Orth.
const (
	orthLower = 1 // seen with a lower-case first letter inside a sentence
	orthUpper = 2 // seen with an upper-case first letter inside a sentence
)

// orthKey is the key of a token's form in Model.Orth.
func orthKey(form hash) uint32 { return form.id() >> 2 }

func (h hash) h(x hash) hash { return hash(uint64(h^x)*0x9e3779b97f4a7c15) * fnvPrime }

// sentFeatureSet is the SentFeatures of the models that Train makes.
const sentFeatureSet = 2

// sentFeats are the features of a sentence boundary after ts[i], the
// n-th token of its sentence (1-based); set is the model's SentFeatures.
func sentFeats(ts []tok, i, n int, set uint8, f []uint32) []uint32 {
	t, p1, n1, n2 := ts[i], noTok, noTok, noTok
	if i > 0 {
		p1 = ts[i-1]
	}
	if i+1 < len(ts) {
		n1 = ts[i+1]
	}
	if i+2 < len(ts) {
		n2 = ts[i+2]
	}
	g := byte(0)
	if t.glued {
		g = 1
	}
	if t.inQuote|n1.inQuote != 0 {
		f = append(f,
			tmpl(38).b(n1.inQuote).h(n1.form).id(),
			tmpl(39).b(t.inQuote).b(n1.inQuote).h(t.last).b(n1.first).id(),
		)
	}
	if set >= 2 {
		f = append(f,
			tmpl(56).b(n1.orth).b(n1.first).b(t.lastCls).id(),
			tmpl(57).b(n1.orth).b(n1.first).h(t.last).id(),
		)
	}
	if set >= 1 {
		f = append(f,
			tmpl(35).h(n1.form).b(n1.first).id(),
			tmpl(36).h(p1.suffix).h(t.last).b(n1.first).id(),
			tmpl(37).h(t.last).b(n1.first).h(n1.suffix).id(),
			tmpl(58).b(bucket(n, 12)).b(t.lastCls).b(n1.first).id(),
			tmpl(59).h(n2.form).b(n2.first).b(n1.first).id(),
		)
	}
	return append(f,
		tmpl(20).id(),
		tmpl(21).h(t.form).id(),
		tmpl(22).h(n1.form).id(),
		tmpl(23).h(t.form).b(n1.first).id(),
		tmpl(24).h(t.last).b(n1.first).id(),
		tmpl(25).h(t.shape).h(n1.shape).id(),
		tmpl(26).h(p1.form).h(t.form).id(),
		tmpl(27).h(t.form).h(n1.form).id(),
		tmpl(28).b(g).h(t.last).b(n1.first).id(),
		tmpl(29).h(n1.shape).h(n2.shape).id(),
		tmpl(30).b(bucket(n/2, 20)).h(t.last).id(),
		tmpl(31).h(n1.form).b(n2.first).id(),
		tmpl(32).h(t.shape).b(n1.first).b(n2.first).id(),
		tmpl(33).h(p1.shape).h(t.form).id(),
		tmpl(34).h(p1.last).h(t.last).b(n1.first).id(),
	)
}
