package transition

import (
	"crypto/sha256"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/transparse/transparse/internal/testenv"
	"github.com/transparse/transparse/parser/conllu"
)

var updateOracle = flag.Bool("update-oracle", false, "rewrite testdata/engine/oracle-en_ewt-dev-40.txt")

// oracleGolden is the static oracles' class sequences for the committed
// slice, per system and sentence; the Python engine's tests compare theirs
// with it.
const oracleGolden = "../../testdata/engine/oracle-en_ewt-dev-40.txt"

// oracleText renders OracleClasses for every system and sentence of a
// CoNLL-U file: "system<TAB>sentence<TAB>class names" per line, or
// "OUT-OF-CLASS h -> d" for trees the system does not derive (h -> d is
// FirstArcOutside; plain "OUT-OF-CLASS" if no arc is). Deprels are the
// file's, sorted.
func oracleText(t *testing.T, path string) string {
	sents, err := conllu.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{"root": true}
	for _, s := range sents {
		for _, w := range s.Words {
			seen[w.Deprel] = true
		}
	}
	var deprels []string
	for d := range seen {
		deprels = append(deprels, d)
	}
	sort.Strings(deprels)
	index := map[string]int32{}
	for i, d := range deprels {
		index[d] = int32(i)
	}
	var b strings.Builder
	for _, name := range Names() {
		sys, _ := Lookup(name)
		c := NewClasses(sys, deprels, index["root"])
		names := c.Names()
		for i, s := range sents {
			head := []int32{None}
			label := []int32{None}
			for _, w := range s.Words {
				head = append(head, int32(w.Head))
				label = append(label, index[w.Deprel])
			}
			if err := CheckGold(head, label, len(deprels)); err != nil {
				t.Fatalf("sentence %d: %v", i, err)
			}
			seq, err := OracleClasses(c, NewGold(head, label))
			line := "OUT-OF-CLASS"
			if d := FirstArcOutside(sys, head); err != nil && d > 0 {
				line += fmt.Sprintf(" %d -> %d", head[d], d)
			}
			if err == nil {
				words := make([]string, len(seq))
				for j, k := range seq {
					words[j] = names[k]
				}
				line = strings.Join(words, " ")
			}
			b.WriteString(name + "\t" + strconv.Itoa(i) + "\t" + line + "\n")
		}
	}
	return b.String()
}

// The static oracles' sequences on the committed slice are the golden
// file's (run with -update-oracle after a deliberate oracle change), and
// every in-class tree's sequence was checked by Derive to rebuild it.
func TestOracleClassesGolden(t *testing.T) {
	got := oracleText(t, testenv.Fixture(t, "en_ewt-dev-40.conllu"))
	if *updateOracle {
		if err := os.WriteFile(oracleGolden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(oracleGolden)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Fatalf("oracle sequences differ from %s (rerun with -update-oracle if the change is deliberate)", filepath.Base(oracleGolden))
	}
	if n := strings.Count(got, "OUT-OF-CLASS"); n == 0 || n == strings.Count(got, "\n") {
		t.Fatalf("%d of %d trees out of class: the slice must have both kinds", n, strings.Count(got, "\n"))
	}
}

// CheckGold rejects what is not a tree, naming the word.
func TestCheckGold(t *testing.T) {
	for _, c := range []struct {
		head, label []int32
		want        string
	}{
		{[]int32{None, 2, 0}, []int32{None, 0, 1}, ""},
		{[]int32{None, 3, 0}, []int32{None, 0, 1}, "word 1 has head 3"},
		{[]int32{None, 1, 0}, []int32{None, 0, 1}, "word 1 has head 1"},
		{[]int32{None, 2, 1, 0}, []int32{None, 0, 0, 1}, "word 1 is on a cycle"},
		{[]int32{None, 2, 0}, []int32{None, 0, 2}, "word 2 has deprel index 2"},
	} {
		err := CheckGold(c.head, c.label, 2)
		if (err == nil) != (c.want == "") || (err != nil && !strings.Contains(err.Error(), c.want)) {
			t.Errorf("CheckGold(%v, %v) = %v, want %q", c.head, c.label, err, c.want)
		}
	}
}

// OracleClasses names the system and the first arc outside its class.
func TestOracleClassesOutOfClass(t *testing.T) {
	for _, c := range []struct {
		sys        string
		head, want []int32 // want: the arc h -> d the error names
	}{
		// 1 -> 3 crosses 0 -> 2 (2 -> 4 too, but it comes later).
		{"arc-eager", []int32{None, 2, 0, 1, 2}, []int32{1, 3}},
		{"planar", []int32{None, 2, 0, 1, 2}, []int32{1, 3}},
		// Two root words: only the second arc from 0 is outside.
		{"covington-nonprojective", []int32{None, 0, 1, 0}, []int32{0, 3}},
		{"swap-lazy", []int32{None, 0, 1, 0}, []int32{0, 3}},
		// 5 -> 2, 6 -> 3 and 1 -> 4 cross pairwise: three planes.
		{"2-planar", []int32{None, 0, 5, 6, 1, 1, 1}, []int32{1, 4}},
		{"3-planar", []int32{None, 0, 5, 6, 1, 1, 1}, nil},
	} {
		sys, _ := Lookup(c.sys)
		label := make([]int32, len(c.head))
		for d := 1; d < len(c.head); d++ {
			if c.head[d] == 0 {
				label[d] = 1
			}
		}
		cl := NewClasses(sys, []string{"dep", "root"}, 1)
		_, err := OracleClasses(cl, NewGold(c.head, label))
		if c.want == nil {
			if err != nil {
				t.Errorf("%s %v: %v", c.sys, c.head, err)
			}
			continue
		}
		want := fmt.Sprintf("outside the class of %s: its first arc outside it, in word order, is %d -> %d (", c.sys, c.want[0], c.want[1])
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s %v: err = %v, want %q", c.sys, c.head, err, want)
		}
	}
}

// oracleDigests records, per shared treebank file and system, the static
// oracle on every tree (oracleText's lines of the system): the number of
// trees, of trees the system derives, of transitions, and the SHA-256 of
// the lines. The Python engine's tests compute the same from their own
// calls; the file's SHA-256 tells them whether they read the same
// treebank.
const oracleDigests = "../../testdata/engine/oracle-digests.tsv"

// digestText renders the oracleDigests lines of one treebank file.
func digestText(t *testing.T, path string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	file := fmt.Sprintf("%s\t%x", filepath.Base(path), sha256.Sum256(data))
	lines := strings.SplitAfter(oracleText(t, path), "\n")
	var b strings.Builder
	for _, name := range Names() {
		h := sha256.New()
		trees, derived, transitions := 0, 0, 0
		for _, l := range lines {
			if !strings.HasPrefix(l, name+"\t") {
				continue
			}
			h.Write([]byte(l))
			trees++
			seq := strings.SplitN(strings.TrimSuffix(l, "\n"), "\t", 3)[2]
			if !strings.HasPrefix(seq, "OUT-OF-CLASS") {
				derived++
				transitions += len(strings.Fields(seq))
			}
		}
		fmt.Fprintf(&b, "%s\t%s\t%d\t%d\t%d\t%x\n", file, name, trees, derived, transitions, h.Sum(nil))
	}
	return b.String()
}

// The static oracles on every tree of the shared treebanks' en_ewt, tr_imst
// and hu_szeged files are the recorded ones (rewrite with -update-oracle;
// skipped without the treebanks).
func TestOracleDigests(t *testing.T) {
	if testing.Short() {
		t.Skip("whole treebanks")
	}
	want, err := os.ReadFile(oracleDigests)
	if err != nil && !*updateOracle {
		t.Fatal(err)
	}
	var got strings.Builder
	for _, tb := range []string{"en_ewt", "hu_szeged", "tr_imst"} {
		for _, part := range []string{"dev", "test", "train"} {
			got.WriteString(digestText(t, testenv.UDFile(t, tb+"-ud-"+part+".conllu")))
		}
	}
	if *updateOracle {
		if err := os.WriteFile(oracleDigests, []byte(got.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if got.String() != string(want) {
		t.Fatalf("oracle digests differ from %s (rerun with -update-oracle if the change is deliberate)", filepath.Base(oracleDigests))
	}
}
