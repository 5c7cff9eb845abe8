package transition

import (
	"flag"
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
// "OUT-OF-CLASS" for trees the system does not derive. Deprels are the
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

// OracleClasses names the system for a tree outside its class.
func TestOracleClassesOutOfClass(t *testing.T) {
	sys, _ := Lookup("arc-eager")
	c := NewClasses(sys, []string{"root", "dep"}, 0)
	// 1 → 3 crosses 2 → 4 (0 → 2 root): non-projective.
	_, err := OracleClasses(c, NewGold([]int32{None, 2, 0, 1, 2}, []int32{None, 1, 0, 1, 1}))
	if err == nil || !strings.Contains(err.Error(), "outside the class of arc-eager") {
		t.Fatalf("err = %v", err)
	}
}
