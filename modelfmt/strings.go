package modelfmt

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The strings of a model reach CoNLL-U output, C strings (where a NUL
// would cut a label short) and terminals, so check refuses, in every model
// it encodes or decodes:
//
//   - text that is not valid UTF-8, or that holds a control character
//     (C0, DEL, C1; in the card's notes tab and line feed are allowed):
//     every string of the card, the system, its options, table and
//     classifier names, templates, layouts and the keys of params and
//     blobs;
//   - a label (an element of a string table or a classifier's class) that
//     is such text or repeats an earlier label of its table or classifier.
//
// The string tables of a morphology part in its first layout (names
// starting "morph.") hold tab-separated fields and binary dictionary keys:
// here they need only be valid UTF-8, and the part's decoder
// (parser/internal/core) checks the strings of them that reach the output.

// textProblem says what is wrong with s as text of a model ("" if
// nothing); multiline allows tab and line feed.
func textProblem(s string, multiline bool) string {
	if !utf8.ValidString(s) {
		return "is not valid UTF-8"
	}
	for _, r := range s {
		if unicode.IsControl(r) && !(multiline && (r == '\t' || r == '\n')) {
			return fmt.Sprintf("contains the control character %U", r)
		}
	}
	return ""
}

// labelsProblem checks a list of labels: the index of the first bad one
// and what is wrong with it, or -1.
func labelsProblem(labels []string) (int, string) {
	seen := make(map[string]int, len(labels))
	for i, s := range labels {
		if p := textProblem(s, false); p != "" {
			return i, p
		}
		if j, dup := seen[s]; dup {
			return i, fmt.Sprintf("%q repeats [%d]", s, j)
		}
		seen[s] = i
	}
	return -1, ""
}

// mapProblem checks the keys (and, if values, the values) of a string map
// as text, in key order: the field of the first bad one and its problem.
func mapProblem[V any](field string, m map[string]V, values func(V) string) (string, string) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if p := textProblem(k, false); p != "" {
			return field, "a key " + p
		}
		if values != nil {
			if p := textProblem(values(m[k]), false); p != "" {
				return field + keySeg(k), p
			}
		}
	}
	return "", ""
}

func identity(s string) string { return s }

// cardProblem checks the strings of the card.
func cardProblem(c *Card) (string, string) {
	for _, f := range [...]struct{ name, s string }{
		{"name", c.Name}, {"treebank", c.Treebank}, {"system", c.System},
		{"trained_at", c.TrainedAt}, {"version", c.Version},
	} {
		if p := textProblem(f.s, false); p != "" {
			return "card." + f.name, p
		}
	}
	if p := textProblem(c.Notes, true); p != "" {
		return "card.notes", p
	}
	if f, p := mapProblem("card.options", c.Options, identity); p != "" {
		return f, p
	}
	return mapProblem("card.scores", c.Scores, nil)
}

// stringsProblem checks every string of m but the classifiers' (see
// classifierStringsProblem).
func stringsProblem(m *Model) (string, string) {
	if f, p := cardProblem(&m.Card); p != "" {
		return f, p
	}
	if p := textProblem(m.System, false); p != "" {
		return "system", p
	}
	if f, p := mapProblem("system_options", m.SystemOptions, identity); p != "" {
		return f, p
	}
	if f, p := mapProblem("strings", m.Strings, nil); p != "" {
		return f, p
	}
	names := make([]string, 0, len(m.Strings))
	for k := range m.Strings {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, k := range names {
		if strings.HasPrefix(k, "morph.") {
			for i, s := range m.Strings[k] {
				if !utf8.ValidString(s) {
					return fmt.Sprintf("strings%s[%d]", keySeg(k), i), "is not valid UTF-8"
				}
			}
			continue
		}
		if i, p := labelsProblem(m.Strings[k]); i >= 0 {
			return fmt.Sprintf("strings%s[%d]", keySeg(k), i), p
		}
	}
	return "", ""
}

// classifierStringsProblem checks the strings of one classifier.
func classifierStringsProblem(c *Classifier) (string, string) {
	for _, f := range [...]struct{ name, s string }{{"name", c.Name}, {"layout", c.Layout}} {
		if p := textProblem(f.s, false); p != "" {
			return f.name, p
		}
	}
	for i, t := range c.Templates {
		if p := textProblem(t, false); p != "" {
			return fmt.Sprintf("templates[%d]", i), p
		}
	}
	if i, p := labelsProblem(c.Classes); i >= 0 {
		return fmt.Sprintf("classes[%d]", i), p
	}
	if f, p := mapProblem("params", c.Params, nil); p != "" {
		return f, p
	}
	return mapProblem("blobs", c.Blobs, nil)
}
