package linear

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/rand"
	"reflect"
	"strings"
	"testing"

	"github.com/transparse/transparse/modelfmt"
)

func argmax(s []float32) int {
	best := 0
	for i, v := range s {
		if v > s[best] {
			best = i
		}
	}
	return best
}

// separable generates instances whose class is determined by one of a few
// class-indicative features, mixed with random noise features.
func separable(rng *rand.Rand, n, classes int) ([][]uint64, []int) {
	var xs [][]uint64
	var ys []int
	for i := 0; i < n; i++ {
		y := rng.Intn(classes)
		f := []uint64{uint64(1000 + 10*y + rng.Intn(3))}
		for j := 0; j < 3; j++ {
			f = append(f, uint64(1_000_000+rng.Intn(5000)))
		}
		rng.Shuffle(len(f), func(a, b int) { f[a], f[b] = f[b], f[a] })
		xs = append(xs, f)
		ys = append(ys, y)
	}
	return xs, ys
}

func TestSeparable(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	const classes = 20
	xs, ys := separable(rng, 3000, classes)
	tr := NewTrainer(classes)
	scores := make([]float32, classes)
	converged := false
	for epoch := 0; epoch < 15; epoch++ {
		mistakes := 0
		for i, x := range xs {
			// Update unless the gold class wins strictly (ties count as
			// mistakes, so the learned separator has a margin).
			tr.Scores(x, scores)
			p := -1
			for c, v := range scores {
				if c != ys[i] && (p < 0 || v > scores[p]) {
					p = c
				}
			}
			if scores[p] >= scores[ys[i]] {
				tr.Update(x, ys[i], p)
				mistakes++
			}
			tr.Tick()
		}
		converged = mistakes == 0
	}
	if !converged {
		t.Fatal("the perceptron did not converge on a separable problem")
	}
	for _, opt := range []FreezeOptions{{Precision: Float32}, {}, {KeyBits: 32, MinAbs: 0.01}} {
		m := tr.Freeze(opt)
		tx, ty := separable(rand.New(rand.NewSource(2)), 1000, classes)
		errs := 0
		for i, x := range tx {
			m.Scores(x, scores)
			if argmax(scores) != ty[i] {
				errs++
			}
		}
		if errs > len(tx)/100 {
			t.Errorf("%+v: %d/%d test errors on a separable problem", opt, errs, len(tx))
		}
	}
}

// naive is a reference averaged perceptron: dense weights, and at every
// tick the whole weight vector is added to a running sum.
type naive struct {
	w, sum map[[2]uint64]float64
	clock  int
}

func (n *naive) add(feats []uint64, c int, d float64) {
	for _, f := range feats {
		n.w[[2]uint64{f, uint64(c)}] += d
	}
}

func (n *naive) tick() {
	for k, v := range n.w {
		n.sum[k] += v
	}
	n.clock++
}

func TestAveragingMatchesNaive(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	const classes = 7
	tr := NewTrainer(classes)
	ref := &naive{w: map[[2]uint64]float64{}, sum: map[[2]uint64]float64{}}
	feats := func() []uint64 {
		f := make([]uint64, 1+rng.Intn(5))
		for i := range f {
			f[i] = uint64(rng.Intn(60)) * 0x9E3779B97F4A7C15 // includes 0
		}
		return f
	}
	// Some updates before the first tick.
	f0 := feats()
	tr.Update(f0, 1, 2)
	ref.add(f0, 1, 1)
	ref.add(f0, 2, -1)
	for step := 0; step < 3000; step++ {
		f := feats()
		switch rng.Intn(4) {
		case 0:
			g, p := rng.Intn(classes), rng.Intn(classes)
			tr.Update(f, g, p)
			if g != p {
				ref.add(f, g, 1)
				ref.add(f, p, -1)
			}
		case 1:
			c, d := rng.Intn(classes), float32(rng.Intn(7)-3)
			tr.UpdateClass(f, c, d)
			ref.add(f, c, float64(d))
		}
		if rng.Intn(3) > 0 {
			tr.Tick()
			ref.tick()
		}
	}
	if tr.Clock() != int64(ref.clock) {
		t.Fatalf("clock %d, want %d", tr.Clock(), ref.clock)
	}
	m := tr.Freeze(FreezeOptions{Precision: Float32})
	scores := make([]float32, classes)
	for f := uint64(0); f < 60; f++ {
		key := f * 0x9E3779B97F4A7C15
		tr.Scores([]uint64{key}, scores)
		for c := 0; c < classes; c++ {
			if want := float32(ref.w[[2]uint64{key, uint64(c)}]); scores[c] != want {
				t.Errorf("current weight (%d, %d) = %v, want %v", f, c, scores[c], want)
			}
		}
		m.Scores([]uint64{key}, scores)
		for c := 0; c < classes; c++ {
			want := float32(ref.sum[[2]uint64{key, uint64(c)}] / float64(ref.clock))
			if scores[c] != want {
				t.Errorf("averaged weight (%d, %d) = %v, want %v", f, c, scores[c], want)
			}
		}
	}
	if m.NumFeatures() == 0 || m.NumFeatures() > 60 {
		t.Errorf("NumFeatures = %d", m.NumFeatures())
	}
}

func TestTrainerManyClassesAndGrowth(t *testing.T) {
	// Rows grow through every block size; the table resizes many times.
	const classes = 300
	tr := NewTrainer(classes)
	ref := map[[2]uint64]float32{}
	rng := rand.New(rand.NewSource(4))
	for i := 0; i < 200000; i++ {
		f := uint64(rng.Intn(50000))
		c := rng.Intn(classes)
		if f < 20 {
			c = i % classes
		}
		tr.UpdateClass([]uint64{f}, c, 1)
		ref[[2]uint64{f, uint64(c)}]++
	}
	scores := make([]float32, classes)
	for f := uint64(0); f < 50000; f++ {
		tr.Scores([]uint64{f}, scores)
		for c, v := range scores {
			if want := ref[[2]uint64{f, uint64(c)}]; v != want {
				t.Fatalf("weight (%d, %d) = %v, want %v", f, c, v, want)
			}
		}
	}
	// No ticks: Freeze uses the current weights.
	m := tr.Freeze(FreezeOptions{Precision: Float32, MinUpdates: 3})
	for f := uint64(0); f < 50000; f++ {
		m.Scores([]uint64{f}, scores)
		n := 0
		for c := 0; c < classes; c++ {
			n += int(ref[[2]uint64{f, uint64(c)}])
		}
		for c, v := range scores {
			want := ref[[2]uint64{f, uint64(c)}]
			if n < 3 {
				want = 0
			}
			if v != want {
				t.Fatalf("frozen weight (%d, %d) = %v, want %v", f, c, v, want)
			}
		}
	}
	roundTrip(t, m, classes, rng)
}

func trained(classes, n int, seed int64) *Trainer {
	rng := rand.New(rand.NewSource(seed))
	tr := NewTrainer(classes)
	f := make([]uint64, 20)
	for i := 0; i < n; i++ {
		fillRandom(rng, f, 200000)
		tr.Update(f, rng.Intn(classes), rng.Intn(classes))
		tr.UpdateClass(f[:3], rng.Intn(classes), 0.5)
		tr.Tick()
	}
	return tr
}

func roundTrip(t *testing.T, m *Model, classes int, rng *rand.Rand) {
	t.Helper()
	names := make([]string, classes)
	for i := range names {
		names[i] = string(rune('A' + i%26))
	}
	c := m.Classifier("x", []string{"t1", "t2"}, names)
	m2, err := FromClassifier(&c)
	if err != nil {
		t.Fatalf("FromClassifier: %v", err)
	}
	if m2.NumFeatures() != m.NumFeatures() || m2.NumWeights() != m.NumWeights() ||
		m2.Precision() != m.Precision() || m2.KeyBits() != m.KeyBits() {
		t.Fatalf("decoded model differs: %d/%d features, %d/%d weights",
			m2.NumFeatures(), m.NumFeatures(), m2.NumWeights(), m.NumWeights())
	}
	compareScores(rng, m, m2, classes, 2000, 30, 250000, func(k int, x, y float32) {
		if math.Float32bits(x) != math.Float32bits(y) {
			t.Fatalf("scores differ after round trip: class %d: %v vs %v", k, x, y)
		}
	})
	c2 := m2.Classifier("x", []string{"t1", "t2"}, names)
	if !reflect.DeepEqual(c, c2) {
		t.Fatalf("re-encoding the decoded model gives a different classifier")
	}
}

func TestRoundTrip(t *testing.T) {
	tr := trained(17, 20000, 5)
	rng := rand.New(rand.NewSource(6))
	for _, opt := range []FreezeOptions{
		{}, {Precision: Float32}, {MinUpdates: 2, MinAbs: 0.01}, {KeyBits: 24}, {KeyBits: 40, Precision: Float32},
		{Levels: 2}, {Levels: 256, KeyBits: 32}, {WeightBits: 12}, {WeightBits: 2, KeyBits: 32},
	} {
		m := tr.Freeze(opt)
		if m.NumFeatures() == 0 {
			t.Fatalf("%+v: empty model", opt)
		}
		roundTrip(t, m, 17, rng)
	}
	// Empty model.
	roundTrip(t, NewTrainer(3).Freeze(FreezeOptions{}), 3, rng)
}

func TestQuantizationCloseToFloat(t *testing.T) {
	tr := trained(17, 20000, 7)
	mf := tr.Freeze(FreezeOptions{Precision: Float32})
	for _, bits := range []int{0, 12, 8} {
		mq := tr.Freeze(FreezeOptions{Precision: Int16, WeightBits: bits})
		// The largest weight is 2^(bits-1)-1 steps of the scale.
		top := 32767
		if bits != 0 {
			top = 1<<(bits-1) - 1
		}
		maxQ := 0
		for _, v := range int16s(t, mq) {
			maxQ = max(maxQ, int(v), -int(v))
		}
		if maxQ != top {
			t.Errorf("WeightBits %d: largest |weight| %d steps, want %d", bits, maxQ, top)
		}
		compareScores(rand.New(rand.NewSource(8)), mf, mq, 17, 1000, 20, 200000, func(k int, x, y float32) {
			// Each of 20 features rounds by at most half a step.
			if d := math.Abs(float64(x - y)); d > float64(10*mq.scale)*1.001 {
				t.Fatalf("WeightBits %d: quantized score differs by %v (scale %v)", bits, d, mq.scale)
			}
		})
	}
}

// compareScores scores n random vectors of width features (from a space
// of the given size) with a and b and calls check on each class's two
// scores.
func compareScores(rng *rand.Rand, a, b *Model, classes, n, width int, space uint64, check func(k int, x, y float32)) {
	s1 := make([]float32, classes)
	s2 := make([]float32, classes)
	f := make([]uint64, width)
	for range n {
		fillRandom(rng, f, space)
		a.Scores(f, s1)
		b.Scores(f, s2)
		for k := range s1 {
			check(k, s1[k], s2[k])
		}
	}
}

// int16s returns the stored weights of an Int16 model.
func int16s(t *testing.T, m *Model) []int16 {
	t.Helper()
	c := m.Classifier("x", nil, nil)
	q, err := int16Weights(&c)
	if err != nil {
		t.Fatal(err)
	}
	return q
}

func TestFromClassifierRejectsCorruption(t *testing.T) {
	tr := trained(5, 3000, 9)
	good := tr.Freeze(FreezeOptions{}).Classifier("x", nil, nil)
	goodF := tr.Freeze(FreezeOptions{Precision: Float32}).Classifier("x", nil, nil)
	goodC := tr.Freeze(FreezeOptions{Levels: 40}).Classifier("x", nil, nil)
	clone := func(c modelfmt.Classifier) modelfmt.Classifier {
		d := c
		d.Params = map[string]int64{}
		for k, v := range c.Params {
			d.Params[k] = v
		}
		d.Blobs = map[string][]byte{}
		for k, v := range c.Blobs {
			d.Blobs[k] = append([]byte(nil), v...)
		}
		return d
	}
	cases := []struct {
		name string
		base modelfmt.Classifier
		mut  func(c *modelfmt.Classifier)
		want string
	}{
		{"layout", good, func(c *modelfmt.Classifier) { c.Layout = "dense/v9" }, "layout"},
		{"no classes", good, func(c *modelfmt.Classifier) { delete(c.Params, "classes") }, "missing param"},
		{"class names", good, func(c *modelfmt.Classifier) { c.Classes = []string{"a"} }, "class names"},
		{"zero classes", good, func(c *modelfmt.Classifier) { c.Params["classes"] = 0 }, "classes"},
		{"huge features", good, func(c *modelfmt.Classifier) { c.Params["features"] = 1 << 40 }, "features"},
		{"negative entries", good, func(c *modelfmt.Classifier) { c.Params["entries"] = -1 }, "entries"},
		{"entries mismatch", good, func(c *modelfmt.Classifier) { c.Params["entries"]-- }, "bytes"},
		{"key bits", good, func(c *modelfmt.Classifier) { c.Params["key_bits"] = 65 }, "key_bits"},
		{"precision", good, func(c *modelfmt.Classifier) { c.Params["precision"] = 24 }, "precision"},
		{"scale nan", good, func(c *modelfmt.Classifier) {
			c.Params["scale_bits"] = int64(math.Float32bits(float32(math.NaN())))
		}, "scale"},
		{"scale negative", good, func(c *modelfmt.Classifier) {
			c.Params["scale_bits"] = int64(math.Float32bits(-1))
		}, "scale"},
		{"no weights", good, func(c *modelfmt.Classifier) { delete(c.Blobs, "weights") }, "missing blob"},
		{"truncated weights", good, func(c *modelfmt.Classifier) {
			c.Blobs["weights"] = c.Blobs["weights"][:len(c.Blobs["weights"])-1]
		}, "weights"},
		{"truncated keys", good, func(c *modelfmt.Classifier) {
			c.Blobs["keys"] = c.Blobs["keys"][:len(c.Blobs["keys"])-3]
		}, "keys"},
		{"trailing keys", good, func(c *modelfmt.Classifier) { c.Blobs["keys"] = append(c.Blobs["keys"], 1) }, "keys"},
		{"repeated key", good, func(c *modelfmt.Classifier) {
			var b []byte
			b = binary.AppendUvarint(b, 5)
			b = binary.AppendUvarint(b, 0)
			c.Blobs["keys"] = append(b, c.Blobs["keys"][len(b):]...)
			c.Params["features"] = 2
			c.Blobs["counts"] = []byte{1, 1}
			c.Params["entries"] = 2
			c.Blobs["classes"] = []byte{0, 1}
			c.Blobs["weights"] = []byte{1, 0, 1, 0}
		}, "not greater"},
		{"key overflow", good, func(c *modelfmt.Classifier) {
			c.Params["features"] = 2
			c.Blobs["keys"] = binary.AppendUvarint(binary.AppendUvarint(nil, math.MaxUint64), 2)
			c.Blobs["counts"] = []byte{1, 1}
			c.Params["entries"] = 2
			c.Blobs["classes"] = []byte{0, 1}
			c.Blobs["weights"] = []byte{1, 0, 1, 0}
		}, "out of range"},
		{"key beyond key bits", good, func(c *modelfmt.Classifier) {
			c.Params["key_bits"] = 16
			c.Params["features"] = 1
			c.Blobs["keys"] = binary.AppendUvarint(nil, 1<<16)
			c.Blobs["counts"] = []byte{1}
			c.Params["entries"] = 1
			c.Blobs["classes"] = []byte{0}
			c.Blobs["weights"] = []byte{1, 0}
		}, "out of range"},
		{"zero count", good, func(c *modelfmt.Classifier) { c.Blobs["counts"][0] = 0 }, "counts"},
		{"count too big", good, func(c *modelfmt.Classifier) { c.Blobs["counts"][0] = 6 }, "counts"},
		{"bad class", good, func(c *modelfmt.Classifier) { c.Blobs["classes"][0] = 5 }, "out of range"},
		{"class order", good, func(c *modelfmt.Classifier) {
			// Find a row of length >= 2 and swap its first two classes.
			b := c.Blobs["counts"]
			off := 0
			for _, n := range b {
				if n >= 2 {
					cl := c.Blobs["classes"]
					cl[off], cl[off+1] = cl[off+1], cl[off]
					return
				}
				off += int(n)
			}
			t.Fatal("no row with two entries")
		}, "increasing"},
		{"zero q", good, func(c *modelfmt.Classifier) { c.Blobs["weights"][0], c.Blobs["weights"][1] = 0, 0 }, "quantized"},
		{"codebook layout, precision 16", goodC, func(c *modelfmt.Classifier) { c.Params["precision"] = 16 }, "precision"},
		{"precision 8 in v1", goodC, func(c *modelfmt.Classifier) { c.Layout = Layout }, "precision"},
		{"no codebook", goodC, func(c *modelfmt.Classifier) { delete(c.Blobs, "codebook") }, "codebook"},
		{"odd codebook", goodC, func(c *modelfmt.Classifier) { c.Blobs["codebook"] = c.Blobs["codebook"][1:] }, "codebook"},
		{"zero level", goodC, func(c *modelfmt.Classifier) { c.Blobs["codebook"][0], c.Blobs["codebook"][1] = 0, 0 }, "codebook"},
		{"code beyond codebook", goodC, func(c *modelfmt.Classifier) { c.Blobs["weights"][0] = 200 }, "code 200"},
		{"nan weight", goodF, func(c *modelfmt.Classifier) {
			binary.LittleEndian.PutUint32(c.Blobs["weights"], math.Float32bits(float32(math.Inf(1))))
		}, "finite"},
	}
	for _, tc := range cases {
		c := clone(tc.base)
		tc.mut(&c)
		_, err := FromClassifier(&c)
		if err == nil {
			t.Errorf("%s: no error", tc.name)
			continue
		}
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %q does not mention %q", tc.name, err, tc.want)
		}
	}
	if _, err := FromClassifier(nil); err == nil {
		t.Error("nil classifier: no error")
	}
	for _, c := range []modelfmt.Classifier{good, goodF, goodC} {
		if _, err := FromClassifier(&c); err != nil {
			t.Fatalf("good classifier: %v", err)
		}
	}

	// Random byte flips, truncations and parameter changes never panic.
	rng := rand.New(rand.NewSource(10))
	names := []string{"keys", "counts", "classes", "weights", "codebook"}
	params := []string{"classes", "features", "entries", "key_bits", "precision", "scale_bits"}
	for i := 0; i < 1500; i++ {
		c := clone([]modelfmt.Classifier{good, goodF, goodC}[i%3])
		for k := 0; k < 1+rng.Intn(3); k++ {
			b := c.Blobs[names[rng.Intn(len(names))]]
			switch {
			case len(b) == 0:
			case rng.Intn(4) == 0:
				c.Blobs[names[rng.Intn(len(names))]] = b[:rng.Intn(len(b))]
			default:
				b[rng.Intn(len(b))] ^= byte(1 << rng.Intn(8))
			}
		}
		if rng.Intn(3) == 0 {
			c.Params[params[rng.Intn(len(params))]] += int64(rng.Intn(5) - 2)
		}
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Fatalf("FromClassifier panicked: %v", r)
				}
			}()
			m, err := FromClassifier(&c)
			if err == nil {
				s := make([]float32, m.NumClasses())
				m.Scores([]uint64{1, 2, 3}, s)
			}
		}()
	}
}

func TestScoresDoesNotAllocate(t *testing.T) {
	m := trained(17, 5000, 11).Freeze(FreezeOptions{})
	f := []uint64{1, 2, 3, 4, 5, 6, 7, 8}
	s := make([]float32, 17)
	if n := testing.AllocsPerRun(100, func() { m.Scores(f, s) }); n != 0 {
		t.Errorf("Model.Scores allocates %v times", n)
	}
}

// benchModel builds a model shaped like a parser classifier (many
// features, a few weights each) and query sets of 60 features, 70 % of them
// known, drawn uniformly (worst case for caches) or Zipf-distributed (like
// real feature frequencies).
func benchModel(features, classes int, zipf bool) (*Model, [][]uint64) {
	rng := rand.New(rand.NewSource(12))
	tr := NewTrainer(classes)
	keys := make([]uint64, features)
	f := make([]uint64, 1)
	for i := range keys {
		keys[i] = rng.Uint64()
		f[0] = keys[i]
		for k := 0; k < 1+rng.Intn(4); k++ {
			tr.UpdateClass(f, rng.Intn(classes), float32(rng.Intn(9)-4)+0.5)
		}
	}
	m := tr.Freeze(FreezeOptions{})
	z := rand.NewZipf(rng, 1.1, 10, uint64(features-1))
	queries := make([][]uint64, 1024)
	for i := range queries {
		q := make([]uint64, 60)
		for j := range q {
			switch {
			case rng.Intn(10) >= 7:
				q[j] = rng.Uint64()
			case zipf:
				q[j] = keys[z.Uint64()]
			default:
				q[j] = keys[rng.Intn(len(keys))]
			}
		}
		queries[i] = q
	}
	return m, queries
}

func BenchmarkScore(b *testing.B) {
	for _, bm := range []struct {
		name              string
		features, classes int
		zipf              bool
	}{
		{"1M-feats-100-classes-uniform", 1 << 20, 100, false},
		{"1M-feats-100-classes-zipf", 1 << 20, 100, true},
		{"300k-feats-17-classes-zipf", 300000, 17, true},
	} {
		b.Run(bm.name, func(b *testing.B) {
			m, queries := benchModel(bm.features, bm.classes, bm.zipf)
			s := make([]float32, m.NumClasses())
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				m.Scores(queries[i&1023], s)
			}
			b.ReportMetric(float64(b.N)*60/b.Elapsed().Seconds()/1e6, "Mlookups/s")
		})
	}
}

// BenchmarkUpdate measures one perceptron step (Scores, argmax, Update on a
// mistake, Tick) on an endless synthetic stream shaped like parser training:
// 60 features per instance, 100 classes with Zipf-distributed frequencies,
// half of the features correlated with the class and half drawn from a
// vocabulary of 4M values (half Zipf-distributed, half uniform), so that
// the number of distinct features keeps growing into the millions.
func BenchmarkUpdate(b *testing.B) {
	const classes, templates = 100, 60
	rng := rand.New(rand.NewSource(13))
	zc := rand.NewZipf(rng, 1.3, 2, classes-1)
	zv := rand.NewZipf(rng, 1.05, 10, 4<<20)
	cs := make([]int, 1<<16)
	for i := range cs {
		cs[i] = int(zc.Uint64())
	}
	vs := make([]uint64, 1<<22)
	for i := range vs {
		if i%2 == 0 {
			vs[i] = zv.Uint64()
		} else {
			vs[i] = uint64(rng.Intn(4 << 20))
		}
	}
	tr := NewTrainer(classes)
	s := make([]float32, classes)
	q := make([]uint64, templates)
	x := uint64(1)
	next := func() uint64 { // xorshift64
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		return x
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		y := cs[next()&(1<<16-1)]
		for j := range q {
			r := next()
			v := vs[r&(1<<22-1)]
			if r>>63 == 0 {
				v = uint64(y)*7 + (r>>40)%3
			}
			q[j] = (v*templates + uint64(j) + 1) * 0x9E3779B97F4A7C15
		}
		if next()%10 == 0 {
			y = int(next() % classes) // label noise keeps the error rate near 10 %
		}
		tr.Scores(q, s)
		if p := argmax(s); p != y {
			tr.Update(q, y, p)
		}
		tr.Tick()
	}
	b.ReportMetric(float64(tr.NumFeatures()), "features")
}

// FreezeMean of several trainers scores every vector with the mean of
// their scores (weights present in one trainer only count 1/k); MinAbs
// applies to the means; FreezeMean of one trainer is Freeze.
func TestFreezeMean(t *testing.T) {
	a, b := trained(11, 8000, 21), trained(11, 8000, 22)
	ma := a.Freeze(FreezeOptions{Precision: Float32})
	mb := b.Freeze(FreezeOptions{Precision: Float32})
	mean := FreezeMean([]*Trainer{a, b}, FreezeOptions{Precision: Float32})
	if mean.NumFeatures() < max(ma.NumFeatures(), mb.NumFeatures()) {
		t.Fatalf("mean has %d features, the trainers %d and %d", mean.NumFeatures(), ma.NumFeatures(), mb.NumFeatures())
	}
	rng := rand.New(rand.NewSource(23))
	sa, sb, sm := make([]float32, 11), make([]float32, 11), make([]float32, 11)
	f := make([]uint64, 20)
	for i := 0; i < 500; i++ {
		fillRandom(rng, f, 200000)
		ma.Scores(f, sa)
		mb.Scores(f, sb)
		mean.Scores(f, sm)
		for k := range sm {
			if want := (sa[k] + sb[k]) / 2; math.Abs(float64(sm[k]-want)) > 1e-4*(1+math.Abs(float64(want))) {
				t.Fatalf("class %d: mean model scores %v, mean of scores %v", k, sm[k], want)
			}
		}
	}
	// MinAbs drops small means, not small weights of one trainer.
	const minAbs = 0.3
	pm := FreezeMean([]*Trainer{a, b}, FreezeOptions{Precision: Float32, MinAbs: minAbs})
	for i := 0; i < 200; i++ {
		one := []uint64{rng.Uint64() % 200000}
		mean.Scores(one, sm)
		pm.Scores(one, sa)
		for k := range sm {
			want := sm[k]
			if math.Abs(float64(want)) < minAbs {
				want = 0
			}
			if sa[k] != want {
				t.Fatalf("feature %d class %d: pruned mean %v, want %v", one[0], k, sa[k], want)
			}
		}
	}
	one := FreezeMean([]*Trainer{a}, FreezeOptions{MinAbs: 0.2, MinUpdates: 2}).Classifier("x", nil, nil)
	ref := a.Freeze(FreezeOptions{MinAbs: 0.2, MinUpdates: 2}).Classifier("x", nil, nil)
	for name, blob := range ref.Blobs {
		if !bytes.Equal(blob, one.Blobs[name]) {
			t.Errorf("FreezeMean of one trainer: blob %s differs from Freeze", name)
		}
	}
}

// fillRandom sets every feature of f to a random one below n.
func fillRandom(rng *rand.Rand, f []uint64, n uint64) {
	for j := range f {
		f[j] = rng.Uint64() % n
	}
}

// scaleSums (four at a time on amd64) gives the scalar loop's scores bit
// for bit, sums beyond float32's 24-bit mantissa and every tail length
// included.
func TestScaleSumsMatchesScalar(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for n := 0; n <= 40; n++ {
		for trial := 0; trial < 50; trial++ {
			src := make([]int32, n+3)
			for i := range src {
				src[i] = int32(rng.Uint32())
				if trial%2 == 0 {
					src[i] >>= 12
				}
			}
			scale := float32(rng.ExpFloat64()) * 1e-3
			got, want := make([]float32, n), make([]float32, n)
			scaleSums(got, src, scale)
			scaleSumsGo(want, src, scale)
			for i := range got {
				if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
					t.Fatalf("n %d: score %d of sum %d: %v, want %v", n, i, src[i], got[i], want[i])
				}
			}
		}
	}
}
