package feature

import "strings"

// ZhangNivre2011 returns the "rich" non-local feature templates of Zhang &
// Nivre (2011, "Transition-based Dependency Parsing with Rich Non-local
// Features", ACL), Table 1, with p standing for the word's main tag (XPOS,
// else UPOS), plus templates over the second and third stack nodes (which
// arc-hybrid and arc-standard decide on) and, when morph is true, over
// UPOS, lemmas and FEATS (for models that are given gold morphology).
func ZhangNivre2011(morph bool) []string {
	t := []string{
		// single words
		"s0.w+s0.p", "s0.w", "s0.p", "n0.w+n0.p", "n0.w", "n0.p",
		"n1.w+n1.p", "n1.w", "n1.p", "n2.w+n2.p", "n2.w", "n2.p",
		// word pairs
		"s0.w+s0.p+n0.w+n0.p", "s0.w+s0.p+n0.w", "s0.w+n0.w+n0.p", "s0.w+s0.p+n0.p",
		"s0.p+n0.w+n0.p", "s0.w+n0.w", "s0.p+n0.p", "n0.p+n1.p",
		// three words
		"n0.p+n1.p+n2.p", "s0.p+n0.p+n1.p", "s0h.p+s0.p+n0.p", "s0.p+s0l.p+n0.p",
		"s0.p+s0r.p+n0.p", "s0.p+n0.p+n0l.p",
		// distance
		"s0.w+dist", "s0.p+dist", "n0.w+dist", "n0.p+dist", "s0.w+n0.w+dist", "s0.p+n0.p+dist",
		// valency
		"s0.w+s0.vr", "s0.p+s0.vr", "s0.w+s0.vl", "s0.p+s0.vl", "n0.w+n0.vl", "n0.p+n0.vl",
		// unigrams
		"s0h.w", "s0h.p", "s0.d", "s0l.w", "s0l.p", "s0l.d", "s0r.w", "s0r.p", "s0r.d",
		"n0l.w", "n0l.p", "n0l.d",
		// third order
		"s0h2.w", "s0h2.p", "s0h.d", "s0l2.w", "s0l2.p", "s0l2.d", "s0r2.w", "s0r2.p", "s0r2.d",
		"n0l2.w", "n0l2.p", "n0l2.d", "s0.p+s0l.p+s0l2.p", "s0.p+s0r.p+s0r2.p",
		"s0.p+s0h.p+s0h2.p", "n0.p+n0l.p+n0l2.p",
		// label sets
		"s0.w+s0.sr", "s0.p+s0.sr", "s0.w+s0.sl", "s0.p+s0.sl", "n0.w+n0.sl", "n0.p+n0.sl",
		// second and third stack nodes
		"s1.w", "s1.p", "s1.w+s1.p", "s1.p+s0.p", "s1.w+s0.w", "s1.p+s0.p+n0.p",
		"s1.w+s0.p", "s1.p+s0.w", "s2.p+s1.p+s0.p", "s2.p", "s1l.d", "s1r.d", "s1r.p",
		"s1.p+s1r.p+s0.p", "s1.p+s0.p+s0l.p", "s1.p+s0.p+s0r.p",
		// lowercased forms and suffixes help rare words
		"s0.lw", "n0.lw", "n1.lw", "s0.sf", "n0.sf", "s1.sf",
	}
	if !morph {
		// p is the predicted XPOS where the model predicts it: add UPOS.
		t = append(t, "s0.u", "n0.u", "n1.u", "s1.u", "s0.u+n0.u", "s1.u+s0.u",
			// predicted tags are noisy: lean more on the words themselves
			"s0.lw+n0.lw", "s0.lw+n0.p", "s0.p+n0.lw", "n0.lw+n1.lw", "s1.lw+s0.lw",
			"s0.sf+n0.sf", "n0.sf+n0.p", "s0.sf+s0.p", "n1.sf+n1.p",
			// tag dictionary ambiguity classes do not depend on the tagger's choice
			"s0.a", "n0.a", "n1.a", "s1.a", "s0.ax", "n0.ax", "n1.ax", "s1.ax",
			"s0.ax+n0.ax", "s0.a+n0.a", "s0.w+n0.ax", "s0.ax+n0.w", "n0.ax+n1.ax")
	}
	if morph {
		t = append(t, "s0.u", "n0.u", "n1.u", "s1.u", "s0.u+n0.u", "s1.u+s0.u", "s0.u+n0.u+n1.u")
		t = append(t, MorphTemplates()...)
	}
	return t
}

// MorphTemplates returns the templates over lemmas and FEATS of
// ZhangNivre2011 with morph: the gold-tag parser's, and the plain-token
// parser's when the model predicts LEMMA and FEATS.
func MorphTemplates() []string {
	return []string{
		"s0.lm", "n0.lm", "n1.lm", "s1.lm", "s0.lm+n0.lm", "s0.lm+n0.p", "s0.p+n0.lm",
		"s0.m", "n0.m", "s1.m", "s0.m+n0.m", "s0.m+n0.p", "s0.p+n0.m", "s1.m+s0.m",
		"s0.lm+s0.d", "n0l.lm", "s0l.lm", "s0r.lm",
	}
}

// ForSystem returns the templates for a transition system: ZhangNivre2011
// plus templates over the structures the system adds to the stack and
// buffer — Covington's λ2 and the inactive stack of the k-planar systems
// (q0), the two-registers system's registers (g0, g1).
func ForSystem(system string, morph bool) []string {
	t := ZhangNivre2011(morph)
	switch {
	case strings.HasPrefix(system, "covington"), strings.HasSuffix(system, "planar") && system != "planar":
		t = append(t, "q0.w", "q0.p", "q0.p+s0.p", "q0.p+n0.p", "q0.p+s0.p+n0.p", "q0.w+n0.w",
			"q0.d", "q0h.p", "q0l.d", "q0r.d", "q1.p", "q1.p+q0.p+n0.p")
	case strings.HasPrefix(system, "swap"):
		// SWAP and the arcs decide on the two topmost stack nodes (the
		// arc-standard S_p form of Nivre 2009): pair them as Zhang & Nivre
		// pair s0 and n0.
		t = append(t, "s1.w+s1.p+s0.w+s0.p", "s1.w+s1.p+s0.w", "s1.w+s0.w+s0.p", "s1.w+s1.p+s0.p",
			"s1.p+s0.w+s0.p", "s1.p+s0.p+n1.p", "s1l.p", "s1l.w", "s1r.w", "s1l2.d", "s1r2.d",
			"s1.p+s1l.p+s0.p", "s1.w+s1.vl", "s1.w+s1.vr", "s1.p+s1.vl", "s1.p+s1.vr",
			"s1.p+s1.sl", "s1.p+s1.sr", "s1.p+s0.p+s0r.p", "s1h.p", "s1.d")
	case strings.HasPrefix(system, "two-registers"):
		t = append(t, "g0.w", "g0.p", "g1.w", "g1.p", "g0.p+g1.p", "g0.p+s0.p", "g1.p+s0.p",
			"g0.p+n0.p", "g1.p+n0.p", "g0.p+s0.p+n0.p", "g1.p+s0.p+n0.p", "g0.d", "g1.d",
			"g0h.p", "g1h.p", "g0.w+s0.w", "g1.w+s0.w")
	}
	return t
}

// CaseTemplates are templates over the Case feature of FEATS for gold
// morphology models of case languages: morphological case drives
// attachment there (Hungarian dev LAS +0.6 with arc-eager, +0.8 with
// Covington), while on English, which marks case on pronouns only, they
// cost 0.2 (EWT dev). Training adds them when the treebank marks case on
// many words.
func CaseTemplates() []string {
	return []string{"s0.cs", "n0.cs", "s1.cs", "n1.cs", "s0.cs+n0.cs", "s0.p+s0.cs+n0.p+n0.cs",
		"s0.cs+n0.p", "s0.p+n0.cs", "s0.w+n0.cs", "s0.cs+n0.w", "s1.cs+s0.cs", "s0l.cs", "s0r.cs", "n0l.cs"}
}
