package conllu

import (
	"fmt"
	"strconv"
	"strings"
)

// Heads returns the HEAD of every word: Heads()[i] is the head of word i+1,
// 0 for the root and -1 where the HEAD is "_".
func (s *Sentence) Heads() []int {
	h := make([]int, len(s.Words))
	for i := range s.Words {
		h[i] = s.Words[i].Head
	}
	return h
}

// SentID returns the value of the sentence's "# sent_id = ..." comment, or ""
// if it has none.
func (s *Sentence) SentID() string {
	for _, c := range s.Comments {
		if rest, ok := strings.CutPrefix(c, "#"); ok {
			if rest, ok := strings.CutPrefix(strings.TrimSpace(rest), "sent_id"); ok {
				if v, ok := strings.CutPrefix(strings.TrimSpace(rest), "="); ok {
					return strings.TrimSpace(v)
				}
			}
		}
	}
	return ""
}

// CheckTree reports whether the words form a dependency tree, as training
// requires: the sentence has words, Words[i].ID == i+1, every HEAD is a
// number between 0 and the number of words, exactly one word has HEAD 0, and
// the heads form no cycle. The error is an *Error without a line number whose
// message names the sentence by its sent_id when it has one.
func (s *Sentence) CheckTree() error {
	fail := func(format string, args ...any) error {
		msg := fmt.Sprintf(format, args...)
		if id := s.SentID(); id != "" {
			msg = "sentence " + id + ": " + msg
		}
		return &Error{Msg: msg}
	}
	n := len(s.Words)
	if n == 0 {
		return fail("sentence has no words")
	}
	root := 0
	for i := range s.Words {
		w := &s.Words[i]
		switch {
		case w.ID != i+1:
			return fail("word %d has ID %d", i+1, w.ID)
		case w.Head == -1:
			return fail("word %d %s has no HEAD", w.ID, Quote(w.Form))
		case w.Head < 0 || w.Head > n:
			return fail("HEAD %d of word %d is out of range: the sentence has %d words", w.Head, w.ID, n)
		}
	}
	var marks []byte
	if c := findCycle(s.Words, &marks); c != nil {
		return fail("HEADs form a cycle: %s", cycleString(s.Words, c))
	}
	for i := range s.Words {
		if s.Words[i].Head == 0 {
			if root != 0 {
				return fail("words %d and %d both have HEAD 0; a tree has one root", root, i+1)
			}
			root = i + 1
		}
	}
	// With heads in range and no cycle there is always a root.
	return nil
}

// findCycle returns the IDs of the words of a cycle of heads, starting with
// the smallest ID and following heads, or nil if there is none. Heads must
// be -1 (no head) or within 0..len(words). marks is scratch space.
func findCycle(words []Word, marks *[]byte) []int {
	const (
		unseen = iota
		onPath
		done
	)
	n := len(words)
	if cap(*marks) < n+1 {
		*marks = make([]byte, n+1)
	}
	m := (*marks)[:n+1]
	clear(m)
	for i := 1; i <= n; i++ {
		j := i
		for j > 0 && m[j] == unseen {
			m[j] = onPath
			j = words[j-1].Head
		}
		if j > 0 && m[j] == onPath {
			c := []int{j}
			for k := words[j-1].Head; k != j; k = words[k-1].Head {
				c = append(c, k)
			}
			min := 0
			for k := range c {
				if c[k] < c[min] {
					min = k
				}
			}
			rotated := make([]int, 0, len(c))
			return append(append(rotated, c[min:]...), c[:min]...)
		}
		for j = i; j > 0 && m[j] == onPath; j = words[j-1].Head {
			m[j] = done
		}
	}
	return nil
}

// cycleString describes a cycle found by findCycle, as
// `2 "saw" -> 4 "dog" -> 2 "saw"`.
func cycleString(words []Word, c []int) string {
	var b strings.Builder
	for _, id := range append(c, c[0]) {
		if b.Len() > 0 {
			b.WriteString(" -> ")
		}
		b.WriteString(strconv.Itoa(id))
		b.WriteByte(' ')
		b.WriteString(Quote(words[id-1].Form))
	}
	return b.String()
}
