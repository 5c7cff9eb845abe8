package train

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

// Progress is one report of training progress (Options.Progress). A phase
// is one thing being trained: "tagger UPOS", "tagger XPOS", "lemmatizer",
// "FEATS tagger" (one report when each starts and ends), "jackknife",
// "parser (gold tags)", "parser (plain tokens)", a fast classifier
// ("parser (gold tags, fast)", ...) or, last, the classifiers for beam
// search (Options.Beam.Width: "parser (gold tags, beam)", "parser (plain
// tokens, beam)"); the gold-tag and the plain-token parsers train at the
// same time, so their reports interleave.
type Progress struct {
	Phase string
	// Epoch is the 1-based epoch of a parser phase and Epochs their number
	// (0 for the tagger and jackknife phases, whose Done and Total span
	// every epoch).
	Epoch, Epochs int
	// Done of Total units are done: words (tagger), folds (jackknife) or
	// training sentences, counting every run (parser, this epoch); 0 or 1
	// of 1 for the lemmatizer and the FEATS tagger.
	Done, Total int64
	// EpochEnd marks the report at the end of a parser epoch, which carries
	// the epoch's dev scores (percent, CoNLL 2018 UAS and LAS) and whether
	// the epoch is the best so far (the one kept unless a later one beats it).
	EpochEnd       bool
	DevUAS, DevLAS float64
	Best           bool
}

// ErrCanceled is wrapped by the error of a training stopped by
// Options.Progress.
var ErrCanceled = errors.New("training canceled by the progress callback")

// minInterval is the shortest time between two reports of the same phase
// that are not the first, the last or the end of an epoch.
const minInterval = 100 * time.Millisecond

// reporter serializes, throttles and guards the calls of Options.Progress:
// a returned error or a panic stops the training (stopped, err).
type reporter struct {
	fn   func(Progress) error
	mu   sync.Mutex
	last map[string]time.Time
	err  error
	stop atomic.Bool
}

func newReporter(fn func(Progress) error) *reporter {
	return &reporter{fn: fn, last: map[string]time.Time{}}
}

// report forwards p unless it follows the phase's previous report within
// minInterval (and is neither its first, last nor an epoch's end), or the
// training was stopped.
func (r *reporter) report(p Progress) {
	if r == nil || r.fn == nil || r.stop.Load() {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	now := time.Now()
	key := fmt.Sprintf("%s/%d", p.Phase, p.Epoch)
	if t, seen := r.last[key]; seen && !p.EpochEnd && p.Done < p.Total && now.Sub(t) < minInterval {
		return
	}
	r.last[key] = now
	defer func() {
		if v := recover(); v != nil {
			r.fail(fmt.Errorf("train: the progress callback panicked: %v: %w", v, ErrCanceled))
		}
	}()
	if err := r.fn(p); err != nil {
		if errors.Is(err, ErrCanceled) {
			r.fail(err)
		} else {
			r.fail(fmt.Errorf("%w: %w", ErrCanceled, err))
		}
	}
}

func (r *reporter) fail(err error) {
	if r.err == nil {
		r.err = err
	}
	r.stop.Store(true)
}

// stopped reports whether the training should stop.
func (r *reporter) stopped() bool { return r != nil && r.stop.Load() }

// error returns the error that stopped the training, or nil.
func (r *reporter) error() error {
	if r == nil || !r.stop.Load() {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.err
}
