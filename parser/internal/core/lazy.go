package core

import (
	"fmt"
	"sync"

	"github.com/transparse/transparse/modelfmt"
	"github.com/transparse/transparse/parser/linear"
)

// lazyClassifier is a classifier of a model file decoded at its first
// use: the classifiers trained for the beam, which only a beam wider than
// one and the accurate mode read, so that loading a model for the greedy
// parser neither decodes nor holds their weight tables. Safe for
// concurrent use.
type lazyClassifier struct {
	src     modelfmt.Classifier // as the file holds it: what Document writes back
	classes int                 // the number of classes it must have
	once    sync.Once
	clf     *linear.Model
	err     error
}

// get decodes the classifier once; a damaged one gives an error wrapping
// modelfmt.ErrCorrupt, naming it, at every call.
func (l *lazyClassifier) get() (*linear.Model, error) {
	l.once.Do(func() {
		clf, err := linear.FromClassifier(&l.src) // its errors name the classifier
		switch {
		case err != nil:
			l.err = fmt.Errorf("%w: %v", modelfmt.ErrCorrupt, err)
		case clf.NumClasses() != l.classes:
			l.err = corrupt("classifier %q weights have %d classes, want %d", l.src.Name, clf.NumClasses(), l.classes)
		default:
			l.clf = clf
		}
	})
	return l.clf, l.err
}

// beam returns the variant's classifier trained for the beam, decoding
// it at its first use, or nil when it has none.
func (v *Variant) beam() (*linear.Model, error) {
	if v.Beam != nil || v.lazyBeam == nil {
		return v.Beam, nil
	}
	return v.lazyBeam.get()
}

// HasBeam reports whether the variant has a classifier trained for the
// beam, decoded or not.
func (v *Variant) HasBeam() bool { return v.Beam != nil || v.lazyBeam != nil }

// WithoutBeam returns v without its classifier trained for the beam.
func (v Variant) WithoutBeam() Variant {
	v.Beam, v.lazyBeam = nil, nil
	return v
}
