package segment

import (
	"fmt"
	"unicode/utf8"
)

// Limits of the segmenter's output.
const (
	// MaxTokens is the most tokens of a sentence: a sentence the model
	// would make longer is cut after its MaxTokens-th token (Sentence.Cut).
	MaxTokens = 1000
	// MaxRunBytes is the most bytes of a run of non-whitespace text that
	// is tokenized as one run: a longer run is cut into pieces of at most
	// MaxRunBytes (at grapheme-cluster boundaries), each piece at least
	// one token.
	MaxRunBytes = 4096
)

// Token is one surface token: bytes [Start, End) of the input.
type Token struct {
	Start, End int
	// Words are the syntactic words of a multiword token ("don't" gives
	// "do", "n't"), nil when the token is a single word, text[Start:End].
	// The slice may be shared with the Model: do not modify it.
	Words []string
}

// Sentence is a run of tokens that the model ends as a sentence.
type Sentence struct {
	Tokens []Token
	// NewPar is true for the first sentence of a paragraph: the first
	// sentence of the input and every sentence after a blank line.
	NewPar bool
	// Cut is true when the sentence was ended at MaxTokens tokens rather
	// than by the model.
	Cut bool
}

// InvalidUTF8Error reports input that is not valid UTF-8.
type InvalidUTF8Error struct {
	Offset int // byte offset of the first invalid byte
}

func (e *InvalidUTF8Error) Error() string {
	return fmt.Sprintf("segment: invalid UTF-8 at byte offset %d", e.Offset)
}

func checkUTF8(text []byte) error {
	if utf8.Valid(text) {
		return nil
	}
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRune(text[i:])
		if r == utf8.RuneError && size <= 1 {
			return &InvalidUTF8Error{Offset: i}
		}
		i += size
	}
	return nil
}

// Segment splits text into sentences of tokens. The whitespace before the
// first token, between tokens and after the last one is not in any token,
// so text is text[:first.Start] + the tokens and the bytes between them +
// text[last.End:]. Invalid UTF-8 gives an *InvalidUTF8Error and no
// sentences.
func (m *Model) Segment(text []byte) ([]Sentence, error) {
	var out []Sentence
	err := m.Each(text, func(s *Sentence) error {
		c := *s
		c.Tokens = append([]Token(nil), s.Tokens...)
		out = append(out, c)
		return nil
	})
	return out, err
}

// Each calls fn with each sentence of text in order, as Segment makes
// them. The Sentence and its Tokens are reused after fn returns; an error
// of fn stops the segmentation and is returned. Memory beyond text is
// bounded by the longest sentence (MaxTokens tokens), whatever the size
// of text.
func (m *Model) Each(text []byte, fn func(*Sentence) error) error {
	if err := checkUTF8(text); err != nil {
		return err
	}
	m.tables()
	p := &proc{m: m, text: text, fn: fn, newPar: true, state: -1}
	if err := p.feed(len(text)); err != nil {
		return err
	}
	return p.flush()
}

// bom is the byte order mark, U+FEFF: at the start of the input it is
// whitespace before the first token, not part of it.
const bom = "\ufeff"

// proc is the state of one segmentation.
type proc struct {
	m       *Model
	text    []byte
	fn      func(*Sentence) error
	run     []cluster // the current run of non-whitespace clusters
	cls     []byte
	pending []tok // tokens of the current sentence and the lookahead
	dec     int   // pending[:dec] are decided not to end a sentence
	feats   []uint32
	low     []byte
	sent    Sentence
	newPar  bool
	quotes  quoteState // of the paragraph's tokens so far
	state   int        // uniseg's state after the cluster before pos
	pos     int        // p.text[:pos] is segmented
	base    int        // offset of p.text in the input
	lastEnd int        // end of the last token handed to fn
	runes   int        // code points of the input before base
	perLine bool       // every line break ends a sentence, nothing else does
}

// feed segments p.text[p.pos:limit]; limit is the end of the text or
// the start of a whitespace span that ends a run.
func (p *proc) feed(limit int) error {
	text := p.text
	i := p.pos
	for i < limit {
		ws := i
		for i < limit {
			st := p.state
			end, _, space := nextCluster(text, i, &st)
			if !space && !(p.base+i == 0 && string(text[:end]) == bom) {
				break
			}
			i, p.state = end, st
		}
		if n := lineBreaks(text, ws, i); n >= 2 || n == 1 && p.perLine {
			if err := p.flush(); err != nil {
				return err
			}
			if n >= 2 {
				p.newPar, p.quotes = true, quoteState{}
			}
		}
		p.run = p.run[:0]
		for i < limit {
			st := p.state
			end, cls, space := nextCluster(text, i, &st)
			if space || (len(p.run) > 0 && end-p.run[0].s > MaxRunBytes) {
				break
			}
			p.run = append(p.run, cluster{s: i, e: end, cls: cls})
			i, p.state = end, st
		}
		if len(p.run) > 0 {
			p.tokenize()
			if err := p.decide(false); err != nil {
				return err
			}
		}
	}
	p.pos = i
	return nil
}

// flush ends the paragraph: every pending token is decided, the last one
// ends a sentence.
func (p *proc) flush() error {
	if len(p.pending) == 0 {
		return nil
	}
	p.pending[len(p.pending)-1].glued = false
	return p.decide(true)
}

// addTok appends the token of run[a:b] to pending.
func (p *proc) addTok(a, b int) {
	p.cls = p.cls[:0]
	for _, c := range p.run[a:b] {
		p.cls = append(p.cls, c.cls)
	}
	t := makeTok(p.text, p.run[a].s, p.run[b-1].e, p.run[b-1].s, p.cls)
	t.inQuote = p.quotes.at(&t)
	if p.m.SentFeatures >= 2 {
		t.orth = p.m.orth[orthKey(t.form)]
	}
	if n := len(p.pending); n > 0 {
		p.pending[n-1].glued = p.pending[n-1].end == t.start
	}
	p.pending = append(p.pending, t)
}

// tokenize splits the current run into tokens.
func (p *proc) tokenize() {
	v := runView{text: p.text, run: p.run}
	a, b, ok := findURL(v)
	if !ok {
		p.split(0, len(p.run))
		return
	}
	p.split(0, a)
	p.addTok(a, b)
	p.split(b, len(p.run))
}

// split tokenizes run[lo:hi] with the token-boundary decision.
func (p *proc) split(lo, hi int) {
	if lo == hi {
		return
	}
	v := runView{text: p.text, run: p.run[lo:hi]}
	a := 0
	for j := 1; j < len(v.run); j++ {
		if !v.candidate(j) {
			continue
		}
		p.feats = v.tokFeats(j, a, p.feats[:0])
		if p.m.tok.score(p.feats) > p.m.TokThreshold {
			p.addTok(lo+a, lo+j)
			a = j
		}
	}
	p.addTok(lo+a, hi)
}

// decide makes the sentence-boundary decisions that the lookahead allows
// (all of them at the end of a paragraph) and hands finished sentences to
// fn.
func (p *proc) decide(end bool) error {
	for p.dec < len(p.pending) {
		i := p.dec
		last := i == len(p.pending)-1
		if !end && i+2 >= len(p.pending) {
			return nil
		}
		cut := i+1 >= MaxTokens
		stop := cut || (end && last)
		if !stop && !p.perLine {
			p.feats = sentFeats(p.pending, i, i+1, p.m.SentFeatures, p.feats[:0])
			stop = p.m.sent.score(p.feats) > p.m.SentThreshold
		}
		if !stop {
			p.dec++
			continue
		}
		if err := p.emit(i+1, cut && !(end && last)); err != nil {
			return err
		}
	}
	return nil
}

// emit hands pending[:n] to fn as a sentence and keeps the rest.
func (p *proc) emit(n int, cut bool) error {
	s := &p.sent
	s.Tokens = s.Tokens[:0]
	s.NewPar, s.Cut = p.newPar, cut
	p.newPar = false
	for i := range p.pending[:n] {
		t := &p.pending[i]
		s.Tokens = append(s.Tokens, Token{Start: p.base + t.start, End: p.base + t.end, Words: p.m.expand(p, p.pending[:n], i)})
	}
	p.lastEnd = p.pending[n-1].end
	k := copy(p.pending, p.pending[n:])
	p.pending = p.pending[:k]
	p.dec = 0
	return p.fn(s)
}
