package morph

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Casing is how a lemma rule changes the case of a form before editing it.
type Casing byte

const (
	// KeepCase edits the form as written.
	KeepCase Casing = 'f'
	// Lower lowercases every letter first.
	Lower Casing = 'l'
	// Title uppercases the first letter and lowercases the others first.
	Title Casing = 't'
	// Upper uppercases every letter first.
	Upper Casing = 'u'
)

// casings is the order in which Derive tries casings: on a tie in edit
// length the earlier one wins, so a lowercase word keeps KeepCase.
var casings = [...]Casing{KeepCase, Lower, Title, Upper}

// Rule is a lemma rule (an edit script in the sense of Chrupała 2008): the
// lemma of a form is Apply(form) = PrefixAdd + middle + SuffixAdd, where
// Case(form) = PrefixDel + middle + SuffixDel. A rule applies only to the
// forms that start with PrefixDel and end with SuffixDel (after casing), so
// the stripped strings, not only their lengths, are part of the rule.
type Rule struct {
	Case      Casing
	PrefixDel string
	PrefixAdd string
	SuffixDel string
	SuffixAdd string
}

// String encodes the rule as its class name: the five fields joined by
// tabs (a tab cannot occur in a CoNLL-U form or lemma), the casing as one
// letter, e.g. "f\t\t\tring\t" for "running" -> "run".
func (r Rule) String() string {
	return string(r.Case) + "\t" + r.PrefixDel + "\t" + r.PrefixAdd + "\t" + r.SuffixDel + "\t" + r.SuffixAdd
}

// ParseRule decodes a rule written by Rule.String.
func ParseRule(s string) (Rule, error) {
	f := strings.Split(s, "\t")
	if len(f) != 5 || len(f[0]) != 1 {
		return Rule{}, fmt.Errorf("morph: lemma rule %q: want a casing letter and four tab-separated strings", s)
	}
	c := Casing(f[0][0])
	switch c {
	case KeepCase, Lower, Title, Upper:
	default:
		return Rule{}, fmt.Errorf("morph: lemma rule %q: unknown casing %q", s, f[0])
	}
	return Rule{c, f[1], f[2], f[3], f[4]}, nil
}

// applyCase returns form in casing c.
func applyCase(form string, c Casing) string {
	switch c {
	case Lower:
		return strings.ToLower(form)
	case Upper:
		return strings.ToUpper(form)
	case Title:
		r, n := utf8.DecodeRuneInString(form)
		if n == 0 {
			return form
		}
		return string(unicode.ToUpper(r)) + strings.ToLower(form[n:])
	}
	return form
}

// Applies reports whether the rule can be applied to form.
func (r Rule) Applies(form string) bool { return r.appliesCased(applyCase(form, r.Case)) }

// appliesCased reports whether the rule can be applied to a form whose
// casing r.Case is f.
func (r Rule) appliesCased(f string) bool {
	return len(f) >= len(r.PrefixDel)+len(r.SuffixDel) &&
		strings.HasPrefix(f, r.PrefixDel) && strings.HasSuffix(f, r.SuffixDel)
}

// Apply returns the lemma the rule gives form, and false if the rule does
// not apply to it.
func (r Rule) Apply(form string) (string, bool) { return r.applyCased(applyCase(form, r.Case)) }

// applyCased is Apply of a form whose casing r.Case is f.
func (r Rule) applyCased(f string) (string, bool) {
	if !r.appliesCased(f) {
		return "", false
	}
	return r.PrefixAdd + f[len(r.PrefixDel):len(f)-len(r.SuffixDel)] + r.SuffixAdd, true
}

// appendApplyCased appends to dst the lemma the rule gives a form whose
// casing r.Case is f, without allocating when dst has room; false if the
// rule does not apply.
func (r Rule) appendApplyCased(dst []byte, f string) ([]byte, bool) {
	if !r.appliesCased(f) {
		return dst, false
	}
	dst = append(dst, r.PrefixAdd...)
	dst = append(dst, f[len(r.PrefixDel):len(f)-len(r.SuffixDel)]...)
	return append(dst, r.SuffixAdd...), true
}

// casedForms caches the casings of one form (applyCase), so that the
// rules of a word do not case it again for each candidate. The casings
// live in its arena until the form changes.
type casedForms struct {
	base  string
	forms [len(casings)]string
	done  [len(casings)]bool
	buf   arena
}

// get returns applyCase(base, c).
func (cf *casedForms) get(base string, c Casing) string {
	if base != cf.base {
		cf.start(base)
	}
	i := casingIndex(c)
	if i < 0 {
		return applyCase(base, c)
	}
	if !cf.done[i] {
		cf.forms[i], cf.done[i] = cf.buf.cased(base, c), true
	}
	return cf.forms[i]
}

// start empties the cache for base.
func (cf *casedForms) start(base string) {
	buf := cf.buf
	buf.reset()
	*cf = casedForms{base: base, buf: buf}
}

// seed starts a cache of base whose Lower casing is lower.
func (cf *casedForms) seed(base, lower string) {
	cf.start(base)
	cf.forms[1], cf.done[1] = lower, true
}

// casingIndex is the index of c in casings, -1 if it is none of them.
func casingIndex(c Casing) int {
	switch c {
	case KeepCase:
		return 0
	case Lower:
		return 1
	case Title:
		return 2
	case Upper:
		return 3
	}
	return -1
}

// lowerBytes lowercases b as strings.ToLower would, in place (within
// b's capacity where it can, so without allocating once b has grown).
func lowerBytes(b []byte) []byte {
	for _, c := range b {
		if c >= utf8.RuneSelf {
			// The lowercase runes after b, then moved to its start.
			n := len(b)
			for i := 0; i < n; {
				r, size := utf8.DecodeRune(b[i:n])
				b = utf8.AppendRune(b, unicode.ToLower(r))
				i += size
			}
			m := copy(b, b[n:])
			return b[:m]
		}
	}
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return b
}

// Derive returns the rule that turns form into lemma. Over the casings it
// keeps the one with the shortest edit (runes deleted plus added), ties
// going to KeepCase, then Lower, Title, Upper. For a casing, the edit keeps
// the longest common substring of the cased form and the lemma (the
// leftmost one on ties, so that suffix edits are preferred) and replaces
// what is before it and after it.
func Derive(form, lemma string) Rule {
	lr := []rune(lemma)
	var best Rule
	bestCost := -1
	for _, c := range casings {
		fr := []rune(applyCase(form, c))
		i, j, n := longestCommon(fr, lr)
		cost := len(fr) - n + len(lr) - n
		if bestCost >= 0 && cost >= bestCost {
			continue
		}
		bestCost = cost
		best = Rule{
			Case:      c,
			PrefixDel: string(fr[:i]),
			PrefixAdd: string(lr[:j]),
			SuffixDel: string(fr[i+n:]),
			SuffixAdd: string(lr[j+n:]),
		}
	}
	return best
}

// longestCommon returns the start in a, the start in b and the length of
// the longest common substring of a and b; among the longest, the one with
// the smallest i+j (then the smallest i).
func longestCommon(a, b []rune) (int, int, int) {
	bi, bj, bn := 0, 0, 0
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			if a[i-1] != b[j-1] {
				cur[j] = 0
				continue
			}
			cur[j] = prev[j-1] + 1
			n := cur[j]
			si, sj := i-n, j-n
			if n > bn || n == bn && (si+sj < bi+bj || si+sj == bi+bj && si < bi) {
				bi, bj, bn = si, sj, n
			}
		}
		prev, cur = cur, prev
	}
	return bi, bj, bn
}
