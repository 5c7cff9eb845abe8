// Package feature turns parser states into hashed feature vectors.
//
// Features are written as templates over node addresses and value
// extractors, in the style of Parsito and MaltParser: "s0.w+n0.p" combines
// the form of the stack top with the tag of the buffer front. Templates are
// written once against addresses, so every transition system reuses them.
//
// Addresses: s0..s3 (stack, 0 = top), n0..n3 (buffer, 0 = front), q0..q3
// (the second structure of a system: Covington's λ2 from its head next to
// λ1, or the 2-planar inactive stack from its top), g0 and g1 (the
// two-registers system's R1 and R2), each optionally followed by a path of h (head), l / r (leftmost / rightmost
// dependent) and l2 / r2 (second leftmost / rightmost dependent), for
// example s0h2 is the head of the head, s0l2 the second leftmost dependent.
//
// Values: w form, lw lowercased form, p the word's main tag (its XPOS, or
// its UPOS where it has no XPOS: for plain tokens, the XPOS the model's
// XPOS tagger or XPOS table predicts, or the predicted UPOS when the model
// has neither), u UPOS, x XPOS, lm lemma, m FEATS, cs the Case feature of
// FEATS, sf the form's last 3 characters, a / ax the form's ambiguity
// class in the UPOS / XPOS tagger's dictionary (FillAnalyzed; 0 from
// FillWords), c / c4 / c6 the form's path in the model's word clusters
// (Brown et al. 1992), whole or its first 4 or 6 bits, as dependency
// parsing features in Koo, Carreras & Collins (2008) (FillAnalyzed or
// Words.SetCluster for a model with clusters; "no path" from FillWords), d deprel of the node's arc,
// vl / vr number of left / right dependents, sl / sr set of left / right
// dependents' labels; and the node-free value "dist", the distance between
// s0 and n0 (capped at 10). The feature set of Zhang & Nivre (2011) is
// ZhangNivre2011.
package feature

import (
	"fmt"
	"strings"

	"github.com/transparse/transparse/parser/form"
	"github.com/transparse/transparse/parser/transition"
)

// Value is a value extractor.
type Value uint8

// The value extractors. Word values (W..SF) are precomputed per sentence.
const (
	W Value = iota
	LW
	P
	U
	X
	LM
	M
	SF
	A  // ambiguity class of the form in the UPOS tagger's dictionary
	AX // ambiguity class of the form in the XPOS tagger's dictionary
	CS // the Case feature of FEATS (morphological case: Nom, Acc, Ine, ...)
	C  // the form's word-cluster path (Words.SetCluster)
	C4 // the first 4 bits of the path
	C6 // the first 6 bits of the path
	numWordValues
	D
	VL
	VR
	SL
	SR
	Dist
)

var valueNames = map[string]Value{"w": W, "lw": LW, "p": P, "u": U, "x": X, "lm": LM, "m": M, "sf": SF, "a": A, "ax": AX, "cs": CS,
	"c": C, "c4": C4, "c6": C6,
	"d": D, "vl": VL, "vr": VR, "sl": SL, "sr": SR}

// NumWordValues is the number of per-word precomputed values.
const NumWordValues = int(numWordValues)

type step uint8

const (
	stepHead step = iota
	stepL1
	stepL2
	stepR1
	stepR2
)

// pathSteps are the path letters of an address, longest first.
var pathSteps = []struct {
	name  string
	steps []step
}{
	{"h2", []step{stepHead, stepHead}}, {"l2", []step{stepL2}}, {"r2", []step{stepR2}},
	{"h", []step{stepHead}}, {"l", []step{stepL1}}, {"r", []step{stepR1}},
}

// Address kinds: where an address starts.
const (
	kindStack = iota
	kindBuffer
	kindSecond
	kindRegister
)

type address struct {
	kind  uint8
	index int
	path  []step
}

type atom struct {
	addr  int // index into Extractor.addrs, or -1 for Dist
	value Value
}

// Extractor computes the features of a state for a fixed list of
// templates. It is immutable and safe for concurrent use.
//
// Compiled, a template is a list of indices into the extractor's distinct
// atoms (an address with a value), so that each atom's value is computed
// once per state however many templates use it.
type Extractor struct {
	templates []string
	addrs     []address
	atoms     []atom   // distinct atoms
	uses      []uint16 // template t uses atoms uses[ends[t-1]:ends[t]]
	ends      []uint32
	hash      int // HashV1 or HashV2
	// The atoms by kind: word values (read from Words, the null row for a
	// missing node, without a branch), values of the state's arcs (D..SR),
	// and dist (-1 if no template uses it); each with its index in atoms.
	wordAtoms, arcAtoms []atomRef
	distAtom            int
	// The templates by number of atoms (HashV2): byArity[a] holds those of
	// a atoms (1..maxArity), long the indices of longer ones. Hashing
	// each group in a loop of its own avoids a data-dependent inner loop.
	byArity [maxArity + 1][]compiled
	long    []longTemplate
	morph   bool // a template reads lm, m or cs
	cluster bool // a template reads c, c4 or c6
}

// atomRef is an atom of a word or arc value: its index among the
// extractor's atoms, its address's and its value.
type atomRef struct {
	i     uint16
	addr  uint8
	value Value
}

// longTemplate is a template of more than maxArity atoms: its index and
// its atoms, uses[start:end].
type longTemplate struct {
	t, start, end uint32
}

// maxArity is the largest number of atoms of a template hashed without
// an inner loop.
const maxArity = 4

// compiled is a template of at most maxArity atoms: its index and atoms.
type compiled struct {
	t uint32
	k [maxArity]uint16
}

// Feature hash versions. A model records the version its weights were
// trained with; New uses the current one.
const (
	// HashV1 mixes after every atom (MurmurHash3's finaliser); models of
	// transparse 0.1.
	HashV1 = 1
	// HashV2 multiplies per atom and folds once per template: about twice
	// as fast, the same accuracy.
	HashV2 = 2
)

// HashVersion returns the extractor's feature hash version.
func (e *Extractor) HashVersion() int { return e.hash }

// NewVersion is New with an explicit hash version (HashV1 or HashV2), for
// models trained with an older one.
func NewVersion(templates []string, hash int) (*Extractor, error) {
	if hash != HashV1 && hash != HashV2 {
		return nil, fmt.Errorf("feature: unknown hash version %d", hash)
	}
	e, err := New(templates)
	if err != nil {
		return nil, err
	}
	e.hash = hash
	return e, nil
}

// New compiles templates. An unknown address or value gives an error
// naming the template.
func New(templates []string) (*Extractor, error) {
	e := &Extractor{templates: append([]string(nil), templates...), hash: HashV2}
	index := map[string]int{}
	atomIndex := map[atom]int{}
	use := func(a atom) {
		k, ok := atomIndex[a]
		if !ok {
			k = len(e.atoms)
			atomIndex[a] = k
			e.atoms = append(e.atoms, a)
		}
		e.uses = append(e.uses, uint16(k))
	}
	for _, t := range templates {
		for _, part := range strings.Split(t, "+") {
			if part == "dist" {
				use(atom{addr: -1, value: Dist})
				continue
			}
			addrS, valS, ok := strings.Cut(part, ".")
			v, okv := valueNames[valS]
			if !ok || !okv {
				return nil, fmt.Errorf("feature: template %q: bad atom %q (want address.value)", t, part)
			}
			ai, ok := index[addrS]
			if !ok {
				a, err := parseAddress(addrS)
				if err != nil {
					return nil, fmt.Errorf("feature: template %q: %v", t, err)
				}
				ai = len(e.addrs)
				index[addrS] = ai
				e.addrs = append(e.addrs, a)
			}
			use(atom{addr: ai, value: v})
		}
		e.ends = append(e.ends, uint32(len(e.uses)))
	}
	if len(e.atoms) > 1<<16 {
		return nil, fmt.Errorf("feature: %d distinct atoms, at most 65536", len(e.atoms))
	}
	if len(e.addrs) > 1<<8 {
		return nil, fmt.Errorf("feature: %d distinct addresses, at most 256", len(e.addrs))
	}
	e.distAtom = -1
	for i, a := range e.atoms {
		switch {
		case a.addr < 0:
			e.distAtom = i
		case a.value < numWordValues:
			e.wordAtoms = append(e.wordAtoms, atomRef{uint16(i), uint8(a.addr), a.value})
			e.morph = e.morph || a.value == LM || a.value == M || a.value == CS
			e.cluster = e.cluster || a.value == C || a.value == C4 || a.value == C6
		default:
			e.arcAtoms = append(e.arcAtoms, atomRef{uint16(i), uint8(a.addr), a.value})
		}
	}
	start := uint32(0)
	for t, end := range e.ends {
		if u := e.uses[start:end]; len(u) > maxArity {
			e.long = append(e.long, longTemplate{uint32(t), start, end})
		} else {
			c := compiled{t: uint32(t)}
			copy(c.k[:], u)
			e.byArity[len(u)] = append(e.byArity[len(u)], c)
		}
		start = end
	}
	return e, nil
}

func parseAddress(s string) (address, error) {
	var a address
	if len(s) < 2 || s[1] < '0' || s[1] > '3' {
		return a, fmt.Errorf("bad address %q", s)
	}
	switch s[0] {
	case 's':
		a.kind = kindStack
	case 'n':
		a.kind = kindBuffer
	case 'q':
		a.kind = kindSecond
	case 'g':
		a.kind = kindRegister
		if s[1] > '1' {
			return a, fmt.Errorf("bad address %q (registers are g0 and g1)", s)
		}
	default:
		return a, fmt.Errorf("bad address %q", s)
	}
	a.index = int(s[1] - '0')
	rest := s[2:]
	for len(rest) > 0 {
		ok := false
		for _, st := range pathSteps { // two-letter steps come first
			if strings.HasPrefix(rest, st.name) {
				a.path = append(a.path, st.steps...)
				rest = rest[len(st.name):]
				ok = true
				break
			}
		}
		if !ok {
			return a, fmt.Errorf("bad address %q", s)
		}
	}
	return a, nil
}

// UsesMorph reports whether a template reads a lemma or FEATS value (lm,
// m, cs): then the words' values must be filled with morph true
// (FillWords, FillAnalyzed).
func (e *Extractor) UsesMorph() bool { return e.morph }

// UsesClusters reports whether a template reads a word-cluster value (c,
// c4, c6): only words filled by FillAnalyzed from an analysis with
// clusters have them.
func (e *Extractor) UsesClusters() bool { return e.cluster }

// Templates returns the templates the extractor was built from.
func (e *Extractor) Templates() []string { return e.templates }

// Len is the number of features Extract produces.
func (e *Extractor) Len() int { return len(e.ends) }

// Scratch is per-call working memory for Extract; reuse it across calls.
type Scratch struct {
	nodes []int32
	vals  []uint64
	Feats []uint64
}

// Words holds the precomputed word values of one sentence: Values[i] for
// node i in 0..N (node 0 is the root), and Values[N+1], the null row, whose
// every value is that of a missing node (FillWords sets it), so that
// Extract reads the word values of present and missing nodes alike.
type Words struct {
	Values [][NumWordValues]uint64
}

// Extract computes the features of s into sc.Feats (len = e.Len()) and
// returns them. It does not allocate once sc has grown.
func (e *Extractor) Extract(s *transition.State, words *Words, sc *Scratch) []uint64 {
	null := int32(len(words.Values) - 1) // the null row
	if int(null) != s.N+1 {
		panic(fmt.Sprintf("feature: Words of %d rows for %d words: the null row is missing (fill Words with FillWords)", len(words.Values), s.N))
	}
	nodes := e.resolve(s, null, sc)
	vals := e.atomValues(s, words, nodes, null, sc)
	if cap(sc.Feats) < len(e.ends) {
		sc.Feats = make([]uint64, len(e.ends))
	}
	out := sc.Feats[:len(e.ends)]
	if e.hash == HashV1 {
		e.hashV1(vals, out)
	} else {
		e.hashV2(vals, out)
	}
	return out
}

// resolve finds the node each address names in s, null for a missing node,
// into sc.nodes (indexed like e.addrs).
func (e *Extractor) resolve(s *transition.State, null int32, sc *Scratch) []int32 {
	if cap(sc.nodes) < len(e.addrs) {
		sc.nodes = make([]int32, len(e.addrs))
	}
	nodes := sc.nodes[:len(e.addrs)]
	for i := range e.addrs {
		a := &e.addrs[i]
		var x int32
		switch a.kind {
		case kindStack:
			x = s.S(a.index)
		case kindBuffer:
			x = s.B(a.index)
		case kindSecond:
			x = s.Q(a.index)
		default:
			x = s.Reg[a.index]
		}
		for _, st := range a.path {
			if x < 0 {
				break
			}
			switch st {
			case stepHead:
				x = s.Head[x]
			case stepL1:
				x = s.Left1[x]
			case stepL2:
				x = s.Left2[x]
			case stepR1:
				x = s.Right1[x]
			case stepR2:
				x = s.Right2[x]
			}
		}
		if x < 0 {
			x = null
		}
		nodes[i] = x
	}
	return nodes
}

// atomValues computes the value of every atom into sc.vals (indexed like
// e.atoms): word values from the Words rows of the resolved nodes, arc
// values from s, and the stack-buffer distance.
func (e *Extractor) atomValues(s *transition.State, words *Words, nodes []int32, null int32, sc *Scratch) []uint64 {
	if cap(sc.vals) < len(e.atoms) {
		sc.vals = make([]uint64, len(e.atoms))
	}
	vals := sc.vals[:len(e.atoms)]
	wv := words.Values
	for _, a := range e.wordAtoms {
		vals[a.i] = wv[nodes[a.addr]][a.value]
	}
	for _, a := range e.arcAtoms {
		if x := nodes[a.addr]; x != null {
			vals[a.i] = value(s, words, x, a.value)
		} else {
			vals[a.i] = nullValue
		}
	}
	if e.distAtom >= 0 {
		vals[e.distAtom] = dist(s)
	}
	return vals
}

// hashV1 hashes each template's atom values into out (HashV1): a
// template's hash mixes in its atoms one by one with mix.
func (e *Extractor) hashV1(vals, out []uint64) {
	start := uint32(0)
	for t, end := range e.ends {
		h := uint64(t+1) * 0x9E3779B97F4A7C15
		for _, k := range e.uses[start:end] {
			h = mix(h ^ vals[k])
		}
		out[t] = h
		start = end
	}
}

// hashV2 hashes each template's atom values into out (HashV2): one multiply
// per atom and a shift-xor that folds the product's well-mixed high bits
// into its low bits (the values are hashes or small integers). Templates of
// up to maxArity atoms run unrolled, grouped by arity.
func (e *Extractor) hashV2(vals, out []uint64) {
	const seed, mul = 0x9E3779B97F4A7C15, 0xff51afd7ed558ccd
	for _, c := range e.byArity[1] {
		h := (uint64(c.t+1)*seed ^ vals[c.k[0]]) * mul
		out[c.t] = h ^ h>>29
	}
	for _, c := range e.byArity[2] {
		h := (uint64(c.t+1)*seed ^ vals[c.k[0]]) * mul
		h = (h ^ vals[c.k[1]]) * mul
		out[c.t] = h ^ h>>29
	}
	for _, c := range e.byArity[3] {
		h := (uint64(c.t+1)*seed ^ vals[c.k[0]]) * mul
		h = (h ^ vals[c.k[1]]) * mul
		h = (h ^ vals[c.k[2]]) * mul
		out[c.t] = h ^ h>>29
	}
	for _, c := range e.byArity[4] {
		h := (uint64(c.t+1)*seed ^ vals[c.k[0]]) * mul
		h = (h ^ vals[c.k[1]]) * mul
		h = (h ^ vals[c.k[2]]) * mul
		h = (h ^ vals[c.k[3]]) * mul
		out[c.t] = h ^ h>>29
	}
	for _, l := range e.long {
		h := uint64(l.t+1) * seed
		for _, k := range e.uses[l.start:l.end] {
			h = (h ^ vals[k]) * mul
		}
		out[l.t] = h ^ h>>29
	}
}

func dist(s *transition.State) uint64 {
	a, b := s.S(0), s.B(0)
	if a < 0 || b < 0 {
		return 0x51
	}
	d := int64(b) - int64(a)
	if d < 0 {
		d = -d
	}
	if d > 10 {
		d = 10
	}
	return uint64(d) + 0x100
}

const nullValue = 0x6e756c6c6e756c6c // "nullnull"

func value(s *transition.State, words *Words, x int32, v Value) uint64 {
	if x < 0 {
		return nullValue
	}
	if v < numWordValues {
		return words.Values[x][v]
	}
	switch v {
	case D:
		return uint64(s.Label[x]) + 0x1000
	case VL:
		return uint64(s.NLeft[x]) + 0x2000
	case VR:
		return uint64(s.NRight[x]) + 0x3000
	case SL:
		return mix(s.LeftSet[x] + 0x4000)
	case SR:
		return mix(s.RightSet[x] + 0x5000)
	}
	return 0
}

// mix is a 64-bit finaliser (from MurmurHash3's fmix64).
func mix(h uint64) uint64 {
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	h *= 0xc4ceb9fe1a85ec53
	h ^= h >> 33
	return h
}

// Hash hashes a string value of kind v (FNV-1a, then mixed with v), for
// filling Words. It does not allocate.
func Hash(v Value, s string) uint64 { return hashOf(v, form.HashBytes(form.Offset, s)) }

// hashOf is Hash of a string whose FNV-1a hash is h.
func hashOf(v Value, h uint64) uint64 { return mix(h ^ uint64(v)<<56) }
