package core

import (
	"fmt"
	"strconv"

	"github.com/transparse/transparse/modelfmt"
)

// Card options naming beam widths: DefaultBeamOption is the model's
// default beam width (written by training with a beam classifier, the
// width it was trained for); TrainedBeamOption is the width the beam
// classifiers were trained with (read when DefaultBeamOption is absent).
const (
	DefaultBeamOption = "default_beam"
	TrainedBeamOption = "beam"
)

// DefaultBeam is the model's default beam width: the width parser.Model
// parses with when the caller leaves it to the model (ResolveOptions). It
// is 1, the greedy parser, for a model without classifiers trained for
// the beam (Variant.Beam); for one with them, the card's option
// DefaultBeamOption, or else TrainedBeamOption, or else 1.
func (m *Model) DefaultBeam() int {
	if !m.HasBeam() {
		return 1
	}
	k, _ := cardBeam(m.card)
	return k
}

// HasBeam reports whether the model has classifiers trained for beam
// search (Variant.Beam): only then does a beam wider than one parse.
func (m *Model) HasBeam() bool { return m.gold.HasBeam() || m.plain.HasBeam() }

// TrainedBeam is the beam width the model's beam classifiers were trained
// at (card option TrainedBeamOption, else the default width), 0 for a
// model without them.
func (m *Model) TrainedBeam() int {
	if !m.HasBeam() {
		return 0
	}
	if k, err := strconv.Atoi(m.card.Options[TrainedBeamOption]); err == nil && k >= 1 && k <= MaxBeam {
		return k
	}
	return m.DefaultBeam()
}

// checkBeam refuses, for a model without classifiers trained for the
// beam, a beam width above 1 (a beam over the greedy classifiers parses
// worse than the greedy parser: docs/decisions.md, "A beam wider than one
// is for a globally trained classifier, and needs one") and the accurate
// mode, which revotes the beam's tree with the greedy parser's.
func (m *Model) checkBeam(opt Options) error {
	switch {
	case m.HasBeam():
		if opt.Beam > 1 || opt.Accurate {
			return m.decodeBeams()
		}
	case opt.Beam > 1:
		return fmt.Errorf("%w: beam width %d: the model has no classifiers trained for the beam (transparse train --beam K); "+
			"its only width is 1, the greedy parser", ErrOptions, opt.Beam)
	case opt.Accurate:
		return fmt.Errorf("%w: accurate mode: the model has no classifiers trained for the beam (transparse train --beam K); "+
			"it revotes the beam's tree with the greedy parser's", ErrOptions)
	}
	return nil
}

// cardBeam reads the default beam width of a card (1 when it names none)
// and checks it: a width that is not an integer from 1 to MaxBeam is an
// error naming the option.
func cardBeam(c modelfmt.Card) (int, error) {
	for _, name := range []string{DefaultBeamOption, TrainedBeamOption} {
		s, ok := c.Options[name]
		if !ok {
			continue
		}
		k, err := strconv.Atoi(s)
		if err != nil || k < 0 || k > MaxBeam || k == 0 && name == DefaultBeamOption {
			return 1, fmt.Errorf("card option %q is %q: want a beam width, 1 to %d", name, s, MaxBeam)
		}
		return max(k, 1), nil
	}
	return 1, nil
}

// ResolveOptions returns the options parser.Model parses with when given
// opt: opt with Beam 0 replaced by the model's default width (DefaultBeam), checked
// (Options.Check; KBest is bounded by the resolved width). A Beam of
// 1 stays the greedy parser; a Beam above 1, and Accurate, are refused
// for a model without classifiers trained for the beam (HasBeam). Errors
// wrap ErrOptions.
func (m *Model) ResolveOptions(opt Options) (Options, error) {
	if opt.Beam < 0 || opt.Beam > MaxBeam {
		return opt, fmt.Errorf("%w: beam width %d: want 1 to %d (0: the model's default, %d)", ErrOptions, opt.Beam, MaxBeam, m.DefaultBeam())
	}
	if opt.Beam == 0 {
		opt.Beam = m.DefaultBeam()
	}
	if err := m.checkBeam(opt); err != nil {
		return opt, err
	}
	return opt, opt.Check()
}

// decodeBeams decodes the classifiers trained for the beam of a loaded
// model (once; the error of a damaged one wraps modelfmt.ErrCorrupt).
func (m *Model) decodeBeams() error {
	for _, v := range []*Variant{&m.gold, &m.plain} {
		if _, err := v.beam(); err != nil {
			return err
		}
	}
	return nil
}
