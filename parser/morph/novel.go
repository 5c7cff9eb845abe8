package morph

import "sync"

// maxNovel bounds the lemmas a component keeps in its novel table (about
// a megabyte at most).
const maxNovel = 1 << 14

// novelLemmas interns the predicted lemmas that are neither a part of
// their form nor a training lemma (lemmaString), so that a lemma
// predicted before is returned without allocating: unknown words recur
// in a text. Once maxNovel lemmas are kept, new ones are allocated each
// time. Safe for concurrent use.
type novelLemmas struct {
	mu sync.Mutex
	m  map[string]string
}

// get returns b as a string, the kept one when there is one.
func (t *novelLemmas) get(b []byte) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if s, ok := t.m[string(b)]; ok { // no allocation for the lookup
		return s
	}
	s := string(b)
	if len(t.m) < maxNovel {
		if t.m == nil {
			t.m = make(map[string]string)
		}
		t.m[s] = s
	}
	return s
}
