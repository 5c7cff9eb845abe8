// Package calib turns the raw confidence of a parsed arc into an estimate
// of the probability that the arc is right.
//
// The raw confidence of an arc (parser/beam's Result.Confidence, or the
// greedy parser's transition probability) ranks arcs within one deprel
// well, but its scale depends on the classifier and the beam width, and it
// ranks arcs of different deprels badly: a root attachment of arc-eager
// is taken with a large margin and is still wrong more often than a
// determiner taken with a small one. A Calibrator is a logistic regression
// (Platt 1999, "Probabilistic outputs for support vector machines and
// comparisons to regularized likelihood methods") on the log of the raw
// confidence c and of its complement, with a bias and a slope per deprel,
// fitted on the arcs of parsed development data:
//
//	P(right) = σ(A · log c + B[deprel] · log(1 − c) + Bias[deprel]
//	             + T[0] · u(dependent) + T[1] · u(head))
//
// with c kept within [MinConfidence, 1 − MinRest] (the raw confidences
// beyond are ties as far as their arcs' accuracy tells), A ≥ 0 and every
// B ≤ 0, so that it keeps the order of arcs of one deprel and places the
// deprels against each other by how often their arcs are right. The
// slope per deprel matters: a near-certain root attachment from plain
// tokens is wrong several times as often as a near-certain determiner.
//
// u is the uncertainty of a word's predicted tags (TagUncertainty): 0
// for a word whose UPOS and XPOS were given (and for the root), growing
// as the taggers' margin between their two best tags shrinks. An arc
// from or to a word whose tag is in doubt is more often wrong than its
// transition's probability says, since the parser took the tag as
// given. T[0], T[1] ≤ 0; a calibrator fitted on given tags has T = 0.
package calib

import (
	"fmt"
	"math"

	"github.com/transparse/transparse/modelfmt"
)

// The bounds of a raw confidence c as a Calibrator reads it:
// MinConfidence ≤ c ≤ 1 − MinRest.
const (
	MinConfidence = 1e-6
	MinRest       = 1e-15
)

// Layout names a Calibrator's modelfmt.Classifier encoding.
const Layout = "calibration/v1"

// Calibrator maps (deprel, raw log-odds, tag uncertainties) to a
// probability. It is immutable once fitted and safe for concurrent use.
type Calibrator struct {
	// A multiplies log c of the raw confidence c.
	A float64
	// B[l] multiplies log(1 − c) and Bias[l] is added for an arc of
	// deprel id l (the parser's label ids); the last entry of each is for
	// arcs made by a fallback (Label < 0 in Prob).
	B, Bias []float64
	// T multiplies the tag uncertainty of the arc's dependent (T[0]) and
	// of its head (T[1]).
	T [2]float64
}

// Sample is one parsed arc: its deprel id (negative for an arc made by a
// fallback), the log-odds of its raw confidence (±Inf allowed), whether
// head and deprel are right, and the tag uncertainties of its words.
type Sample struct {
	Label int32
	Z     float64
	Right bool
	// Dep and Head are the tag uncertainties (TagUncertainty) of the
	// arc's dependent and head.
	Dep, Head float64
}

// MarginCap is the tagger margin from which a predicted tag counts as
// certain (TagUncertainty 0): the averaged perceptron taggers' margin
// between their best two tags, in their score units, is above it for
// about a third of the EWT dev words, and the fit on EWT dev is best
// with it among 20, 60 and 200.
const MarginCap = 60

// TagUncertainty is the uncertainty of a word's predicted tag whose
// tagger chose it with margin m over the second best tag (the smaller
// margin of UPOS and XPOS when both were predicted; +Inf for a tag
// given, or a tagger with one candidate): log(1 + MarginCap) −
// log(1 + min(m, MarginCap)), 0 for m ≥ MarginCap, log(1 + MarginCap)
// for m ≤ 0 (or NaN).
func TagUncertainty(m float64) float64 {
	if !(m > 0) {
		m = 0
	}
	return math.Log1p(MarginCap) - math.Log1p(min(m, MarginCap))
}

// logs returns log c and log(1 − c) of the raw confidence c = σ(z),
// within the bounds.
func logs(z float64) (float64, float64) {
	lo, hi := math.Log(MinConfidence/(1-MinConfidence)), math.Log((1-MinRest)/MinRest)
	switch {
	case z != z || z < lo:
		z = lo
	case z > hi:
		z = hi
	}
	return -softplus(-z), -softplus(z)
}

// softplus is log(1 + e^x).
func softplus(x float64) float64 {
	if x > 30 {
		return x
	}
	return math.Log1p(math.Exp(x))
}

// class is the index into B and Bias of deprel id label.
func (c *Calibrator) class(label int32) int {
	if label < 0 || int(label) >= len(c.Bias)-1 {
		return len(c.Bias) - 1
	}
	return int(label)
}

// Prob is the estimated probability that an arc of deprel id label
// (negative: made by a fallback) whose raw confidence has log-odds z is
// right, its dependent's and head's tags of uncertainty dep and head
// (TagUncertainty; 0 for given tags).
func (c *Calibrator) Prob(label int32, z, dep, head float64) float64 {
	lc, lr := logs(z)
	j := c.class(label)
	return sigmoid(c.A*lc + c.B[j]*lr + c.Bias[j] + c.T[0]*dep + c.T[1]*head)
}

// Sigmoid is 1 / (1 + e^−z): the raw confidence of log-odds z.
func Sigmoid(z float64) float64 { return sigmoid(z) }

// LogSigmoid is log σ(z), exact for large |z|.
func LogSigmoid(z float64) float64 { return -softplus(-z) }

func sigmoid(z float64) float64 {
	if z >= 0 {
		return 1 / (1 + math.Exp(-z))
	}
	e := math.Exp(z)
	return e / (1 + e)
}

// slopePrior is the variance of the prior on a deprel's slope offset.
const slopePrior = 0.01

// prior is the variance of the Gaussian prior that pulls a deprel's bias
// towards the bias of all arcs: a deprel seen on a handful of dev arcs
// gets about the overall rate.
const prior = 4.0

// MinArcs is the fewest right arcs, and the fewest wrong arcs, that Fit
// fits a calibrator on: both outcomes must be seen.
const MinArcs = 1

// Fit fits a Calibrator for labels deprel ids to the samples by maximum
// likelihood, with a Gaussian prior on each deprel's offsets from the
// common bias and slope, so that a deprel seen on a handful of arcs gets
// about the common curve (Newton steps: A, the common bias and slope and
// T together, then each deprel's offsets). A is kept at least 0 and every
// B and T at most 0, so that the order of one deprel's arcs stays that of
// their raw confidence, and a tag in doubt never raises it. Samples
// without tag uncertainty (given tags) leave T at 0. Fit needs at least
// MinArcs right and MinArcs wrong arcs: on arcs all right (or all wrong)
// the fit would give every arc a confidence of 1 (or 0), so such samples
// are refused with an error that counts them.
func Fit(samples []Sample, labels int) (*Calibrator, error) {
	right := 0
	for _, s := range samples {
		if s.Right {
			right++
		}
	}
	if wrong := len(samples) - right; right < MinArcs || wrong < MinArcs {
		return nil, fmt.Errorf("calib: the parse has %d right and %d wrong arcs; fitting confidences needs at least %d of each "+
			"(calibrate on more data, or on data the parser finds harder)", right, wrong, MinArcs)
	}
	nb := labels + 1
	c := &Calibrator{B: make([]float64, nb), Bias: make([]float64, nb)}
	// x[i] = (log c, log(1 − c), 1, u(dependent), u(head)) of sample i;
	// y[i] its outcome; k[i] its class.
	x := make([][common]float64, len(samples))
	y := make([]float64, len(samples))
	k := make([]int, len(samples))
	for i, s := range samples {
		lc, lr := logs(s.Z)
		x[i] = [common]float64{lc, lr, 1, s.Dep, s.Head}
		if s.Right {
			y[i] = 1
		}
		k[i] = c.class(s.Label)
	}
	var w [common]float64       // A, the common slope and bias, T
	offB := make([]float64, nb) // each deprel's offsets from them
	offC := make([]float64, nb)
	type acc struct{ g0, g1, h00, h01, h11 float64 }
	per := make([]acc, nb)
	lin := func(i int) float64 {
		j := k[i]
		return w[0]*x[i][0] + (w[1]+offB[j])*x[i][1] + w[2] + offC[j] + w[3]*x[i][3] + w[4]*x[i][4]
	}
	for iter := 0; iter < 200; iter++ {
		var gw [common]float64
		var hw [common][common]float64
		for i := range x {
			p := sigmoid(lin(i))
			r, q := p-y[i], p*(1-p)
			for a := range common {
				gw[a] += r * x[i][a]
				for b := range common {
					hw[a][b] += q * x[i][a] * x[i][b]
				}
			}
		}
		for a := range common {
			hw[a][a] += 1e-6
		}
		d := solve(hw, gw)
		moved := 0.0
		for a := range common {
			w[a] -= d[a]
			moved += math.Abs(d[a])
		}
		w[0], w[1] = max(w[0], 0), min(w[1], 0)
		w[3], w[4] = min(w[3], 0), min(w[4], 0)
		clear(per)
		for i := range x {
			j := k[i]
			p := sigmoid(lin(i))
			r, q := p-y[i], p*(1-p)
			a := &per[j]
			a.g0 += r * x[i][1]
			a.g1 += r
			a.h00 += q * x[i][1] * x[i][1]
			a.h01 += q * x[i][1]
			a.h11 += q
		}
		for j := range per {
			a := per[j]
			// The prior: offsets ~ N(0, slopePrior) and N(0, prior).
			g0, g1 := a.g0+offB[j]/slopePrior, a.g1+offC[j]/prior
			h00, h11 := a.h00+1/slopePrior, a.h11+1/prior
			det := h00*h11 - a.h01*a.h01
			db, dc := (h11*g0-a.h01*g1)/det, (h00*g1-a.h01*g0)/det
			offB[j] -= db
			offC[j] -= dc
			offB[j] = min(offB[j], -w[1]) // B ≤ 0
			moved += math.Abs(db) + math.Abs(dc)
		}
		if moved < 1e-9 {
			break
		}
	}
	// Rounded to float32, as the model file stores them.
	c.A = f32(w[0])
	for j := range nb {
		c.B[j], c.Bias[j] = f32(min(w[1]+offB[j], 0)), f32(w[2]+offC[j])
	}
	c.T = [2]float64{f32(w[3]), f32(w[4])}
	return c, nil
}

func f32(x float64) float64 { return float64(float32(x)) }

// common is the number of parameters all arcs share: A, the common slope
// and bias, and T.
const common = 5

// solve solves the system m·d = v by Gaussian elimination with partial
// pivoting; a singular system gives 0.
func solve(m [common][common]float64, v [common]float64) [common]float64 {
	var d [common]float64
	for c := range common {
		p := c
		for r := c + 1; r < common; r++ {
			if math.Abs(m[r][c]) > math.Abs(m[p][c]) {
				p = r
			}
		}
		if m[p][c] == 0 {
			return d
		}
		m[c], m[p] = m[p], m[c]
		v[c], v[p] = v[p], v[c]
		for r := c + 1; r < common; r++ {
			f := m[r][c] / m[c][c]
			for j := c; j < common; j++ {
				m[r][j] -= f * m[c][j]
			}
			v[r] -= f * v[c]
		}
	}
	for c := common - 1; c >= 0; c-- {
		x := v[c]
		for j := c + 1; j < common; j++ {
			x -= m[c][j] * d[j]
		}
		d[c] = x / m[c][c]
	}
	return d
}

// Classifier encodes the calibrator as a model-file classifier named name
// whose classes are the deprels (then "fallback"): blob "slope" (A, one
// float32), blobs "rest" and "bias" (B and Bias, one float32 per class),
// blob "tags" (T, two float32s; a file without it, written before the
// tag terms, reads as T = 0, and a reader that predates it ignores it).
func (c *Calibrator) Classifier(name string, deprels []string) modelfmt.Classifier {
	f32s := func(v []float64) []byte {
		b := make([]float32, len(v))
		for i, x := range v {
			b[i] = float32(x)
		}
		return modelfmt.Float32Bytes(b)
	}
	return modelfmt.Classifier{
		Name:    name,
		Classes: append(append([]string(nil), deprels...), "fallback"),
		Layout:  Layout,
		Params:  map[string]int64{},
		Blobs: map[string][]byte{
			"slope": modelfmt.Float32Bytes([]float32{float32(c.A)}),
			"rest":  f32s(c.B),
			"bias":  f32s(c.Bias),
			"tags":  f32s(c.T[:]),
		},
	}
}

// FromClassifier decodes a calibrator for labels deprels. A wrong layout,
// size or value gives an error wrapping modelfmt.ErrCorrupt.
func FromClassifier(mc *modelfmt.Classifier, labels int) (*Calibrator, error) {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: classifier %q: %s", modelfmt.ErrCorrupt, mc.Name, fmt.Sprintf(format, args...))
	}
	if mc.Layout != Layout {
		return nil, bad("layout %q, want %q", mc.Layout, Layout)
	}
	var blobs [3][]float32
	for i, name := range []string{"slope", "rest", "bias"} {
		b, err := mc.Blob(name)
		if err != nil {
			return nil, bad("%v", err)
		}
		if blobs[i], err = modelfmt.Float32s(b); err != nil {
			return nil, bad("blob %q: %v", name, err)
		}
	}
	if len(blobs[0]) != 1 || len(blobs[1]) != labels+1 || len(blobs[2]) != labels+1 {
		return nil, bad("%d, %d and %d values in slope, rest and bias, want 1, %d and %d", len(blobs[0]), len(blobs[1]), len(blobs[2]), labels+1, labels+1)
	}
	c := &Calibrator{A: float64(blobs[0][0]), B: make([]float64, labels+1), Bias: make([]float64, labels+1)}
	if b, ok := mc.Blobs["tags"]; ok {
		t, err := modelfmt.Float32s(b)
		if err != nil {
			return nil, bad("blob %q: %v", "tags", err)
		}
		if len(t) != 2 {
			return nil, bad("%d values in tags, want 2", len(t))
		}
		for i, v := range t {
			if !(v <= 0) || math.IsInf(float64(v), 0) {
				return nil, bad("tag term %d: %v, want a finite value ≤ 0", i, v)
			}
			c.T[i] = float64(v)
		}
	}
	if !(c.A >= 0) || math.IsInf(c.A, 0) {
		return nil, bad("slope %v: want a finite value ≥ 0", c.A)
	}
	for i := range c.B {
		b, v := float64(blobs[1][i]), float64(blobs[2][i])
		if !(b <= 0) || math.IsInf(b, 0) || math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, bad("class %d: slope %v (want finite, ≤ 0) and bias %v", i, b, v)
		}
		c.B[i], c.Bias[i] = b, v
	}
	return c, nil
}
