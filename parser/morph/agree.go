package morph

import (
	"fmt"
	"slices"
	"strings"

	"github.com/transparse/transparse/parser/conllu"
)

// Agreement sets the Person and Number of a predicted verb from its
// subject in the parsed tree: a verb agrees with its subject, which its
// own form often leaves open (English "cried" is any person and number,
// and "I cried" makes it Person=1|Number=Sing in UD English). It is a
// table learnt from a treebank's gold trees and FEATS: for a word of
// XPOS x whose subject has XPOS sx, Person sp and Number sn, the Person
// and Number the treebank gives such words, where that is the same in at
// least agreeMinShare of at least agreeMinCount of them. A treebank
// without XPOS is keyed by UPOS instead (tagOf). Immutable.
type Agreement struct {
	rules map[string]string // appendAgreeKey → "Person\tNumber"
	tags  map[string]bool   // the words' tags of the rules (tagOf)
}

// index sets a.tags from a.rules.
func (a *Agreement) index() {
	a.tags = map[string]bool{}
	for k := range a.rules {
		x, _, _ := strings.Cut(k, "\t")
		a.tags[x] = true
	}
}

// The least evidence for an agreement rule: the words it is learnt from,
// and the share of them that agree on the value.
const (
	agreeMinCount = 5
	agreeMinShare = 0.9
)

// tagOf is the tag the agreement table and LemmaCase key a word by: its
// XPOS, or its UPOS in a treebank without XPOS ("" if it has neither).
func tagOf(w *conllu.Word) string {
	switch {
	case !conllu.Absent(w.XPOS):
		return w.XPOS
	case !conllu.Absent(w.UPOS):
		return w.UPOS
	}
	return ""
}

// appendAgreeKey appends to b the table key of a word of XPOS x whose
// subject has the XPOS, Person and Number of subj ("" when absent), the
// four tab-separated.
func appendAgreeKey(b []byte, x string, subj *conllu.Word) []byte {
	b = append(append(append(b, x...), '\t'), tagOf(subj)...)
	b = append(append(b, '\t'), featValue(subj.Feats, "Person")...)
	return append(append(b, '\t'), featValue(subj.Feats, "Number")...)
}

// subjectOf returns the index in ws of the subject of word i: its first
// dependent of deprel nsubj (with any subtype), or, for a conjunct
// without one, its head's; -1 if there is none. children must index ws.
func subjectOf(ws []conllu.Word, ss *syntaxScratch, i int) int {
	for k := 0; k < 2; k++ {
		for d := ss.first[i+1]; d >= 0; d = ss.next[d] {
			if base, _, _ := strings.Cut(ws[d].Deprel, ":"); base == "nsubj" {
				return int(d)
			}
		}
		base, _, _ := strings.Cut(ws[i].Deprel, ":")
		if k > 0 || base != "conj" || ws[i].Head < 1 || ws[i].Head > len(ws) {
			break
		}
		i = ws[i].Head - 1
	}
	return -1
}

// featSpan returns the start and end in feats (a FEATS string) of the
// value of feature name; ok is false if feats lacks it.
func featSpan(feats, name string) (start, end int, ok bool) {
	for at := 0; at < len(feats); {
		end := strings.IndexByte(feats[at:], '|')
		if end < 0 {
			end = len(feats)
		} else {
			end += at
		}
		f := feats[at:end]
		if len(f) > len(name) && f[len(name)] == '=' && f[:len(name)] == name {
			return at + len(name) + 1, end, true
		}
		at = end + 1
	}
	return 0, 0, false
}

// featValue returns the value of feature name in the FEATS string feats
// ("" if absent).
func featValue(feats, name string) string {
	start, end, _ := featSpan(feats, name)
	return feats[start:end]
}

// appendPersonNumber appends to b feats with the values of Person and
// Number replaced by p and n, in one pass (either may come first); ok is
// false (and b is returned as it was) when a feature would be added or
// removed: a value given for a feature feats lacks, or "" for one it has.
func appendPersonNumber(b []byte, feats, p, n string) ([]byte, bool) {
	ps, pe, hasP := featSpan(feats, "Person")
	ns, ne, hasN := featSpan(feats, "Number")
	if hasP != (p != "") || hasN != (n != "") {
		return b, false
	}
	if !hasP {
		ps, pe = len(feats), len(feats)
	}
	if !hasN {
		ns, ne = len(feats), len(feats)
	}
	if ns > ps { // Person first
		ps, pe, p, ns, ne, n = ns, ne, n, ps, pe, p
	}
	b = append(append(b, feats[:ns]...), n...)
	b = append(append(b, feats[ne:ps]...), p...)
	return append(b, feats[pe:]...), true
}

// TrainAgreement learns the agreement table from sents, sentences with
// gold XPOS, FEATS, HEAD and DEPREL: the words with Person or Number
// whose subject (subjectOf) has an XPOS. It returns nil when no rule has
// enough evidence.
func TrainAgreement(sents []*conllu.Sentence) *Agreement {
	counts := map[string]map[string]int{}
	var ss syntaxScratch
	for _, s := range sents {
		ws := s.Words
		ss.children(ws)
		for i := range ws {
			w := &ws[i]
			p, n := featValue(w.Feats, "Person"), featValue(w.Feats, "Number")
			if (p == "" && n == "") || tagOf(w) == "" {
				continue
			}
			j := subjectOf(ws, &ss, i)
			if j < 0 || tagOf(&ws[j]) == "" {
				continue
			}
			key := string(appendAgreeKey(nil, tagOf(w), &ws[j]))
			if counts[key] == nil {
				counts[key] = map[string]int{}
			}
			counts[key][p+"\t"+n]++
		}
	}
	a := &Agreement{rules: map[string]string{}}
	for key, vals := range counts {
		total, best, bestN := 0, "", 0
		for v, c := range vals {
			total += c
			if c > bestN || (c == bestN && v < best) {
				best, bestN = v, c
			}
		}
		if total >= agreeMinCount && float64(bestN) >= agreeMinShare*float64(total) {
			a.rules[key] = best
		}
	}
	if len(a.rules) == 0 {
		return nil
	}
	a.index()
	return a
}

// Len returns the number of rules.
func (a *Agreement) Len() int { return len(a.rules) }

// data returns the rules as sorted strings, the key's four fields and
// the value's two separated by tabs.
func (a *Agreement) data() []string {
	out := make([]string, 0, len(a.rules))
	for k, v := range a.rules {
		out = append(out, k+"\t"+v)
	}
	slices.Sort(out)
	return out
}

// agreementFromData decodes the rules data wrote.
func agreementFromData(rules []string) (*Agreement, error) {
	a := &Agreement{rules: make(map[string]string, len(rules))}
	for i, r := range rules {
		f := strings.Split(r, "\t")
		if len(f) != 6 || f[0] == "" || f[1] == "" || (f[4] == "" && f[5] == "") || (i > 0 && rules[i-1] >= r) {
			return nil, fmt.Errorf("agreement rule %d of %d: want 6 tab-separated fields, sorted, with a word XPOS, a subject XPOS and a Person or Number", i+1, len(rules))
		}
		a.rules[strings.Join(f[:4], "\t")] = f[4] + "\t" + f[5]
	}
	a.index()
	return a, nil
}

// HasAgreement reports whether the tagger sets verbs' Person and Number
// from their subjects (SetAgreement).
func (t *FeatsTagger) HasAgreement() bool { return t.c.agree != nil }

// SetAgreement makes a (nil: none) the agreement table of t. Not safe
// while t is in use.
func (t *FeatsTagger) SetAgreement(a *Agreement) { t.c.setAgreement(a) }

// setAgreement sets c's agreement table and indexes c's classes for it.
func (c *component) setAgreement(a *Agreement) {
	c.agree, c.agreeIDs = a, nil
	if a != nil {
		c.agreeIDs = make(map[string]int32, len(c.classes))
		for i, name := range c.classes {
			c.agreeIDs[name] = int32(i)
		}
	}
}

// Agree sets, in each word of ws (one parsed sentence: XPOS, FEATS,
// HEAD and DEPREL set) whose FEATS has a Person or a Number, the values
// the tagger's agreement table gives for its subject, where the FEATS
// string that makes is one of the tagger's classes (features are only
// replaced, never added or removed). A tagger without a table leaves ws
// as it is. Safe for concurrent use.
func (t *FeatsTagger) Agree(ws []conllu.Word) {
	if t.c.agree != nil {
		t.c.fromTree(ws, nil, false, true)
	}
}

// agreeIn is Agree, sc.syn indexing ws.
func (c *component) agreeIn(ws []conllu.Word, sc *scratch) {
	for i := range ws {
		w := &ws[i]
		if !c.agree.tags[tagOf(w)] {
			continue
		}
		p, n := featValue(w.Feats, "Person"), featValue(w.Feats, "Number")
		if p == "" && n == "" {
			continue
		}
		j := subjectOf(ws, &sc.syn, i)
		if j < 0 {
			continue
		}
		sc.lb = appendAgreeKey(sc.lb[:0], tagOf(w), &ws[j])
		v, ok := c.agree.rules[string(sc.lb)]
		if !ok {
			continue
		}
		wp, wn, _ := strings.Cut(v, "\t")
		if wp == p && wn == n {
			continue
		}
		if sc.lb, ok = appendPersonNumber(sc.lb[:0], w.Feats, wp, wn); !ok {
			continue
		}
		if id, known := c.agreeIDs[string(sc.lb)]; known {
			w.Feats = c.classes[id]
		}
	}
}
