package transition

import "testing"

// workedExample is a worked example for one system: a paper's figure
// reproduced transition by transition, or, where the paper gives none, an
// example of ours checked by hand (docs/transition-systems.md shows each).
type workedExample struct {
	Name  string // what it reproduces, e.g. "Nivre 2008 Fig. 6"
	Check func(t *testing.T)
}

// workedExamples lists the worked examples of every registered system.
// TestConformance requires at least one per system and runs them.
func workedExamples() map[string][]workedExample {
	return map[string][]workedExample{
		"arc-standard": {{"Nivre 2008 Fig. 4", exArcStandardNivre2008Fig4}},
		"arc-eager":    {{"Nivre 2008 Fig. 6", exArcEagerNivre2008Fig6}},
		"arc-hybrid":   {{"Nivre 2008 Fig. 2 tree", exArcHybridTVE1}},
		"covington-nonprojective": {
			{"Nivre 2008 Fig. 8", exCovingtonNonProjectiveNivre2008Fig8},
			{"Nivre 2008 Fig. 10 tree", exCovingtonProjectiveNivre2008Fig10},
		},
		"covington-projective": {{"Nivre 2008 Fig. 10", exCovingtonProjectiveNivre2008Fig10}},
		"swap-eager": {
			{"Nivre 2009 Fig. 3", exSwapEagerNivre2009Fig3},
			{"Czech tree of Nivre 2008 Fig. 8", exSwapTVC2},
			{"component after the last shift", exSwapLazyComponentAfterLastShift},
		},
		"swap-lazy": {
			{"Nivre 2009 Fig. 3 tree, lazy", exSwapLazyTVH2},
			{"Czech tree of Nivre 2008 Fig. 8", exSwapTVC2},
			{"component after the last shift", exSwapLazyComponentAfterLastShift},
		},
		"planar": {
			{"GN13 graph A2", exPlanarTVE5},
			{"Nivre 2008 Fig. 2 tree", exPlanarTVE1},
		},
		"2-planar": {{"GN13 Fig. 6", exTwoPlanarTVC3}},
		"3-planar": {{"three mutually crossing arcs", exThreePlanarTriangle}},
		"two-registers": {
			{"PM15 Table 3", exTwoRegistersTVS},
			{"two crossing intervals", exTwoRegistersTVW},
			{"trees X1 to X4", exTwoRegistersX1X4},
		},
		"two-registers-literal": {
			{"two crossing intervals", exTwoRegistersTVW},
			{"trees X1 to X4", exTwoRegistersX1X4},
		},
	}
}

// The tree 0 → 1, 1 → 2, 2 → 3, 1 → 4, 2 → 5, 3 → 6 has three mutually
// crossing arcs (1, 4), (2, 5), (3, 6): it is 3-planar and not 2-planar.
// The 3-planar oracle (the Lemma 7 construction of Gómez-Rodríguez & Nivre
// 2013 over k = 3 stacks, planes from tree.Planes) puts each crossing arc
// on its own plane and switches to it when its right end is at the buffer
// front (sequence checked by hand, docs/transition-systems.md).
func exThreePlanarTriangle(t *testing.T) {
	h := []int32{None, 0, 1, 2, 1, 2, 3}
	g := plUnlabeled(h)
	sys := MultiPlanar{k: 3}
	if !sys.InClass(g) || (MultiPlanar{k: 2}).InClass(g) {
		t.Fatalf("3-planar %v, 2-planar %v; want true, false", sys.InClass(g), (MultiPlanar{k: 2}).InClass(g))
	}
	var s State
	seq, err := Derive(sys, &s, g)
	if err != nil {
		t.Fatal(err)
	}
	// 0..3 arrive on plane 0 with their arcs; at 4, plane 0 reduces 3 and 2
	// for 1 → 4; at 5 a SWITCH to plane 1 (whose stack still holds 0..4)
	// reduces 4 and 3 for 2 → 5; at 6 a SWITCH to plane 2 reduces 5 and 4
	// for 3 → 6.
	want := "SH RA SH RA SH RA SH RE RE RA SH SW RE RE RA SH SW RE RE RA SH"
	if got := plAbbrev(seq); got != want {
		t.Errorf("3-planar:\n got %s\nwant %s", got, want)
	}
}
