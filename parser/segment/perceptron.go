package segment

// table is the weight table of a binary averaged perceptron (Collins 2002)
// over hashed features: a feature is an index into W, a decision is
// positive when the sum of its features' weights exceeds the threshold.
type table struct {
	W    []float32
	Mask uint32
}

func newTable(bits uint) table {
	return table{W: make([]float32, 1<<bits), Mask: 1<<bits - 1}
}

func (t *table) score(feats []uint32) float32 {
	var s float32
	for _, f := range feats {
		s += t.W[f&t.Mask]
	}
	return s
}

// trainer holds the sums that averaging needs: after c updates, the
// averaged weight is W - U/c (the usual lazy averaging).
type trainer struct {
	t table
	u []float32
	c float32
}

func newTrainer(bits uint) *trainer {
	t := newTable(bits)
	return &trainer{t: t, u: make([]float32, len(t.W)), c: 1}
}

// learn makes one perceptron step on an example with label y (true for a
// positive decision) and returns whether the current weights got it right.
func (tr *trainer) learn(feats []uint32, y bool) bool {
	s := tr.t.score(feats)
	ok := (s > 0) == y
	if !ok {
		d := float32(-1)
		if y {
			d = 1
		}
		for _, f := range feats {
			tr.t.W[f&tr.t.Mask] += d
			tr.u[f&tr.t.Mask] += tr.c * d
		}
	}
	tr.c++
	return ok
}

// averagedInto adds the averaged weights times scale to a (a new table
// when a has none) and returns it.
func (tr *trainer) averagedInto(a table, scale float32) table {
	if a.W == nil {
		a = table{W: make([]float32, len(tr.t.W)), Mask: tr.t.Mask}
	}
	for i, w := range tr.t.W {
		a.W[i] += (w - tr.u[i]/tr.c) * scale
	}
	return a
}

// Feature hashing: FNV-1a over a template number and bytes, finished with
// a mixing step so that the low bits used as the index are well spread.
const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

type hash uint64

func tmpl(n byte) hash { return (fnvOffset ^ hash(n)) * fnvPrime }

func (h hash) b(c byte) hash { return (h ^ hash(c)) * fnvPrime }

func (h hash) s(p []byte) hash {
	for _, c := range p {
		h = (h ^ hash(c)) * fnvPrime
	}
	return (h ^ 0xff) * fnvPrime // separator, so that ("ab","c") != ("a","bc")
}

func (h hash) id() uint32 {
	x := uint64(h)
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	return uint32(x)
}
