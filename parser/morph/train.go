package morph

import (
	"cmp"
	"fmt"
	"math/rand"
	"slices"
	"strings"

	"github.com/transparse/transparse/parser/conllu"
	"github.com/transparse/transparse/parser/linear"
)

// Options configures training.
type Options struct {
	// Epochs is the number of passes over the training data (0 means
	// DefaultEpochs).
	Epochs int
	// Seed seeds the order of sentences in each epoch.
	Seed int64
	// WeightBits is the number of bits (sign included, 2..16) the stored
	// weights are rounded to (0 means linear.TrainedWeightBits).
	WeightBits int
	// NoShape trains a lemmatizer whose candidates' own features leave
	// out their place and the ending of their lemma (appendShape), as
	// the bundled English model's lemmatizer does (docs/decisions.md,
	// "Lemmas by classifying lemma rules").
	NoShape bool
}

// rareMax is the largest number of occurrences of a dictionary entry for
// which a training word stands for an unknown word.
const rareMax = 3

// DefaultEpochs is the number of training epochs when Options.Epochs is 0.
const DefaultEpochs = 8

// gold returns the gold class name of w, or "" when w has no annotation of
// the kind (the word is then not learnt from).
func (k kind) gold(w *conllu.Word, lower bool) string {
	if k == kindFeats {
		if w.Feats == "" {
			return ""
		}
		return w.Feats
	}
	if w.Lemma == "" || w.Lemma == "_" && w.Form != "_" {
		return ""
	}
	f := w.Form
	if lower {
		f = strings.ToLower(f)
	}
	return Derive(f, w.Lemma).String()
}

// train builds a component of kind k from sents (gold FORM, UPOS, XPOS and
// the predicted column).
func train(k kind, sents []*conllu.Sentence, opt Options) (*component, error) {
	c := &component{kind: k, cands: map[string][]int32{}, lemmas: map[string]int{}, endPrefix: k == kindFeats, candShape: k == kindLemma && !opt.NoShape}
	n := &counter{c: c, ids: map[string]int32{}, counts: map[string]map[int32]int{}, keyCount: map[string]int{}}
	golds, words := n.countWords(sents)
	if words == 0 {
		return nil, fmt.Errorf("morph: no training words with a %s", k)
	}
	if len(c.classes) > linear.MaxClasses {
		return nil, fmt.Errorf("morph: %d %s classes, at most %d are supported", len(c.classes), k, linear.MaxClasses)
	}
	n.setCandidates()
	if err := c.parseRules(); err != nil {
		return nil, err
	}
	c.splitFeats()
	tr, rt := c.learn(sents, golds, n.keyCount, opt)
	c.prune()
	c.freeze()
	fo := opt.freeze()
	c.model = tr.Freeze(fo)
	c.rank = rt.Freeze(fo)
	if k == kindFeats {
		p, err := trainFeatParts(c, sents, opt.epochs(), opt)
		if err != nil {
			return nil, err
		}
		c.parts = p // nil without features
	}
	return c, nil
}

// counter counts the classes of the dictionary and candidate-index keys
// of the training words.
type counter struct {
	c        *component
	ids      map[string]int32         // the id of each class name
	counts   map[string]map[int32]int // counts[key][class]
	keyCount map[string]int           // the occurrences of each key
}

// class returns the id of the class name, adding it to c.classes when new.
func (n *counter) class(name string) int32 {
	id, ok := n.ids[name]
	if !ok {
		id = int32(len(n.c.classes))
		n.ids[name] = id
		n.c.classes = append(n.c.classes, name)
	}
	return id
}

// add counts one occurrence of class id under key.
func (n *counter) add(key string, id int32) {
	m := n.counts[key]
	if m == nil {
		m = map[int32]int{}
		n.counts[key] = m
	}
	m[id]++
	n.keyCount[key]++
}

// countWords counts the keys of every annotated word of sents and
// returns their gold classes and the number of annotated words:
// golds[si][2*i] is the class of word i of sentence si, -1 for words
// without annotation; golds[si][2*i+1] its class at the lowercase level
// of the dictionary.
func (n *counter) countWords(sents []*conllu.Sentence) (golds [][]int32, words int) {
	k := n.c.kind
	golds = make([][]int32, len(sents))
	for si, s := range sents {
		golds[si] = make([]int32, 2*len(s.Words))
		for i := range s.Words {
			w := &s.Words[i]
			name := k.gold(w, false)
			if name == "" {
				golds[si][2*i], golds[si][2*i+1] = -1, -1
				continue
			}
			words++
			id := n.class(name)
			golds[si][2*i], golds[si][2*i+1] = id, n.word(w, id)
		}
	}
	return golds, words
}

// word counts the keys of w, of class id, and returns its class at the
// lowercase level.
func (n *counter) word(w *conllu.Word, id int32) int32 {
	c := n.c
	lower := strings.ToLower(w.Form)
	n.add(key(levelTags, w.Form, w.UPOS, w.XPOS), id)
	n.add(key(levelUPOS, w.Form, w.UPOS), id)
	if c.kind == kindFeats {
		n.add(key(levelLower, lower, w.UPOS), id)
		n.add(key(indexTags, w.UPOS, w.XPOS), id)
		n.add(key(indexUPOS, w.UPOS), id)
		return id
	}
	lw := strings.ToLower(w.Lemma)
	c.lemmas[lw+"\t"+w.UPOS]++
	c.lemmas[lw+"\t"]++
	lid := n.class(c.kind.gold(w, true))
	n.add(key(levelLower, lower, w.UPOS), lid)
	r := Derive(w.Form, w.Lemma)
	if len(r.SuffixDel) <= maxSuffixDel {
		n.add(key(indexRule, string(r.Case), w.UPOS, r.SuffixDel), id)
		if r.Case == KeepCase && w.Form == lower {
			// The rule's twin for capitalized forms.
			tw := r
			tw.Case = Lower
			n.add(key(indexRule, string(Lower), w.UPOS, r.SuffixDel), n.class(tw.String()))
		}
	}
	return lid
}

// setCandidates sets c.cands: the classes of each key, most frequent
// first (ties by class id).
func (n *counter) setCandidates() {
	for key, m := range n.counts {
		l := make([]int32, 0, len(m))
		for id := range m {
			l = append(l, id)
		}
		slices.SortFunc(l, func(a, b int32) int {
			return cmp.Or(cmp.Compare(m[b], m[a]), cmp.Compare(a, b))
		})
		n.c.cands[key] = l
	}
}

// learn trains the perceptrons that choose among several candidates, the
// class scores' (tr) and the rank scores' (rt), on the words whose
// candidates are several: ambiguous known words and, as unknown words,
// those whose dictionary entry was seen at most rareMax times
// (Ratnaparkhi 1996's rare words).
func (c *component) learn(sents []*conllu.Sentence, golds [][]int32, keyCount map[string]int, opt Options) (tr, rt *linear.Trainer) {
	tr = linear.NewTrainer(len(c.classes))
	rt = linear.NewTrainer(1)
	scores := make([]float32, len(c.classes))
	var sc scratch
	opt.eachSentence(len(sents), func(si int) {
		ws := sents[si].Words
		sc.ws = analyze(ws, sc.ws, &sc.offs, &sc.lowers, c.lemmaUse())
		prev := int32(-1)
		for i := range ws {
			cands, lower, known := c.candidates(&ws[i], i, &sc, func(key string) bool { return keyCount[key] > rareMax })
			sc.setPlaces(cands, known)
			sc.own = 0
			if !known {
				sc.own = keyCount[key(levelTags, ws[i].Form, ws[i].UPOS, ws[i].XPOS)]
			}
			g := golds[si][2*i]
			if lower {
				g = golds[si][2*i+1]
			}
			if g < 0 || len(cands) == 0 {
				prev = g
				continue
			}
			pred := cands[0]
			if len(cands) > 1 {
				sc.feats = extract(sc.feats[:0], sc.ws, i, prev)
				tr.Scores(sc.feats, scores)
				pred = c.choose(cands, &ws[i], lower, i, &sc, scores, rt.Scores)
				if pred != g {
					tr.Update(sc.feats, int(g), int(pred))
					rt.UpdateClass(c.candFeatures(sc.cf[:0], &ws[i], lower, i, &sc, g), 0, 1)
					rt.UpdateClass(c.candFeatures(sc.cf[:0], &ws[i], lower, i, &sc, pred), 0, -1)
				}
				tr.Tick()
				rt.Tick()
			}
			prev = pred
		}
	})
	return tr, rt
}

// prune drops the dictionary entries that lookups do not need: a form's
// entry with its tags when it equals the entry with its UPOS, and the
// entry of a lowercase form with its UPOS when it equals the lowercase
// level's. Lookups fall through to the same candidates.
func (c *component) prune() {
	// Two passes, so that the result does not depend on map order.
	for _, level := range []byte{levelTags, levelUPOS} {
		for k, l := range c.cands {
			if k[0] != level {
				continue
			}
			f := strings.Split(k[1:], "\t")
			next := key(levelUPOS, f[0], f[1])
			if level == levelUPOS {
				if strings.ToLower(f[0]) != f[0] {
					continue
				}
				next = key(levelLower, f[0], f[1])
			}
			if n, ok := c.cands[next]; ok && slices.Equal(n, l) {
				delete(c.cands, k)
			}
		}
	}
}

// freeze moves the dictionary of c.cands into c.dict.
func (c *component) freeze() {
	keys := make([]string, 0, len(c.cands))
	for k := range c.cands {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	ends := make([]uint32, len(keys))
	var ids []int32
	for i, k := range keys {
		ids = append(ids, c.cands[k]...)
		ends[i] = uint32(len(ids))
	}
	c.dict = newDict(keys, ends, ids)
	c.words = newWordIndex(c.dict)
	c.cands = nil
	lemmas := make([]string, 0, len(c.lemmas))
	for l := range c.lemmas {
		lemmas = append(lemmas, l)
	}
	slices.Sort(lemmas)
	c.seen = newSeenLemmas(lemmas)
	c.lemmas = nil
}

// epochs is the number of training epochs of o.
func (o Options) epochs() int {
	if o.Epochs <= 0 {
		return DefaultEpochs
	}
	return o.Epochs
}

// eachSentence calls each with every index of n training sentences, once
// per epoch, in an order shuffled anew each epoch (seeded by o.Seed).
func (o Options) eachSentence(n int, each func(si int)) {
	rng := rand.New(rand.NewSource(o.Seed))
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	for range o.epochs() {
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		for _, si := range order {
			each(si)
		}
	}
}

// freeze returns how the trained weights become the stored ones.
func (o Options) freeze() linear.FreezeOptions {
	bits := o.WeightBits
	if bits == 0 {
		bits = linear.TrainedWeightBits
	}
	return linear.FreezeOptions{MinUpdates: 1, Precision: linear.Int16, KeyBits: 32, WeightBits: bits}
}
