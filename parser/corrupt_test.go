package parser_test

// Corrupt models: a damaged model file must give an error (or, if
// the damage happens to leave a valid model, a model that works) — never a
// panic, a hang, or memory out of proportion to the file.
//
// CI runs a sample (TestCorruptModels takes a few seconds). The long run,
// an experiment (testenv.Experiment), is
//
//	go test -tags experiment -run '^TestCorruptModelsLong$' -v -timeout 2h ./parser/
//
// which tries every truncation length of each model and 20,000 damaged
// copies per model and kind instead of a few hundred.

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/transparse/transparse/internal/testenv"
	"github.com/transparse/transparse/modelfmt"
	"github.com/transparse/transparse/parser"
)

// attemptTimeout is how long one load may take before it counts as a hang:
// a tiny model loads in about a millisecond.
const attemptTimeout = 10 * time.Second

// allocBound is the most a load of n bytes may allocate: 64 bytes per byte
// of input plus 1 MiB.
func allocBound(n int) uint64 { return 64*uint64(n) + 1<<20 }

// corruptStats accumulates what the attempts of one kind gave.
type corruptStats struct {
	attempts, loaded int
	maxAlloc         uint64  // largest allocation of one load, bytes
	maxRatio         float64 // largest allocation per input byte
	messages         map[string]int
}

// wherePattern is what every load error must say about where the problem
// is: a byte offset, a truncation, or the section of the document (a field
// path or a classifier, table or parameter of the model).
var wherePattern = regexp.MustCompile(`at byte \d+|truncated|input ends|not a transparse model|newer transparse|corrupt stream|` +
	`corrupt document \([a-z_]+|classifier "[a-z.]+"|deprel|system|classifiers`)

// loadBounded loads data with parser.LoadBytes under a watchdog and checks
// the outcome: an error of a model-file kind that says where the problem
// is, or a working model (checkLoad), which it returns; allocation within
// allocBound. what names the attempt; on a hang the input is written to
// testdata/corrupt-hang-<what>.tpm before the test binary panics.
func loadBounded(t *testing.T, st *corruptStats, what string, data []byte) *parser.Model {
	t.Helper()
	watchdog := time.AfterFunc(attemptTimeout, func() {
		p := filepath.Join("testdata", "corrupt-hang-"+strings.NewReplacer("/", "_", " ", "_").Replace(what)+".tpm")
		os.MkdirAll("testdata", 0o755)
		os.WriteFile(p, data, 0o644)
		panic(fmt.Sprintf("%s: LoadBytes of %d bytes still running after %v (input saved to %s)", what, len(data), attemptTimeout, p))
	})
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	m, err := parser.LoadBytes(data)
	runtime.ReadMemStats(&after)
	watchdog.Stop()

	alloc := after.TotalAlloc - before.TotalAlloc
	st.attempts++
	st.maxAlloc = max(st.maxAlloc, alloc)
	if len(data) > 0 {
		st.maxRatio = max(st.maxRatio, float64(alloc)/float64(len(data)))
	}
	if alloc > allocBound(len(data)) {
		t.Fatalf("%s: loading %d bytes allocated %d bytes, more than the bound %d (error: %v)",
			what, len(data), alloc, allocBound(len(data)), err)
	}
	if err != nil {
		if m != nil {
			t.Fatalf("%s: a model and an error (%v)", what, err)
		}
		if !errors.Is(err, modelfmt.ErrCorrupt) && !errors.Is(err, modelfmt.ErrNotModel) && !errors.Is(err, modelfmt.ErrNewerVersion) {
			t.Fatalf("%s: error %q has no model-file kind", what, err)
		}
		if !wherePattern.MatchString(err.Error()) {
			t.Fatalf("%s: error %q does not say where the problem is", what, err)
		}
		st.messages[messageClass(err.Error())]++
		return nil
	}
	// Damage that leaves a valid model (a changed weight, say): it must
	// work like any model.
	st.loaded++
	checkLoad(t, data)
	return m
}

var digits = regexp.MustCompile(`\d+`)

// messageClass is an error message with its numbers and quoted parts
// blanked, to count messages by kind.
func messageClass(msg string) string {
	msg = regexp.MustCompile(`"[^"]*"`).ReplaceAllString(msg, `"…"`)
	msg = digits.ReplaceAllString(msg, "N")
	if len(msg) > 110 {
		msg = msg[:110] + "…"
	}
	return msg
}

func (st *corruptStats) report(t *testing.T, kind string, took time.Duration) {
	t.Logf("%s: %d attempts in %v: %d errors, %d loaded a working model (for file damage: the same model); max allocation %d bytes (%.1f× the input)",
		kind, st.attempts, took.Round(time.Millisecond), st.attempts-st.loaded, st.loaded, st.maxAlloc, st.maxRatio)
	if testing.Verbose() {
		type kv struct {
			k string
			v int
		}
		var all []kv
		for k, v := range st.messages {
			all = append(all, kv{k, v})
		}
		sort.Slice(all, func(i, j int) bool { return all[i].v > all[j].v })
		for i, e := range all {
			if i == 12 {
				t.Logf("    ... %d more kinds of message", len(all)-i)
				break
			}
			t.Logf("    %6d  %s", e.v, e.k)
		}
	}
}

// damage returns a copy of b with random damage: one byte changed, or 2 to
// 16 bytes anywhere, or a run of 2 to 64 random bytes, or (rarely) an
// insertion or a deletion.
func damage(rng *rand.Rand, b []byte) []byte {
	c := bytes.Clone(b)
	flip := func(i int) { c[i] ^= byte(1 + rng.Intn(255)) }
	switch k := rng.Intn(20); {
	case k < 8: // one byte
		flip(rng.Intn(len(c)))
	case k < 14: // several bytes anywhere
		for n := 2 + rng.Intn(15); n > 0; n-- {
			flip(rng.Intn(len(c)))
		}
	case k < 17: // a burst
		i := rng.Intn(len(c))
		for j := i; j < min(len(c), i+2+rng.Intn(63)); j++ {
			flip(j)
		}
	case k < 18: // a single bit
		i := rng.Intn(len(c))
		c[i] ^= 1 << rng.Intn(8)
	case k < 19: // insertion
		i := rng.Intn(len(c) + 1)
		ins := make([]byte, 1+rng.Intn(8))
		rng.Read(ins)
		c = slices.Insert(c, i, ins...)
	default: // deletion
		i := rng.Intn(len(c))
		c = slices.Delete(c, i, min(len(c), i+1+rng.Intn(8)))
	}
	return c
}

// TestCorruptModels damages tiny models (and a shrunk copy of each) in
// four ways and loads every result through parser.LoadBytes:
//
//   - truncation at every length below 4 KiB and a stride sample above it
//     (every length in the long run);
//   - random damage to the file's bytes (mostly stopped by the header
//     checks and the snappy checksums);
//   - random damage to the msgpack document, re-wrapped with correct
//     checksums, so that it reaches the document decoder and
//     parser.FromDocument;
//   - every header field set to extreme values.
func TestCorruptModels(t *testing.T) {
	// The sample CI runs: every truncation below dense, then every
	// stride-th; flips per model and kind. The race detector makes each
	// load about five times slower: a quarter of the sample then.
	dense, stride, flipsSmall, flipsFull := 1536, 61, 1000, 250
	if testenv.Race {
		dense, stride, flipsSmall, flipsFull = 256, 241, 250, 60
	}
	corruptModels(t, dense, stride, func(small bool) int {
		if small {
			return flipsSmall
		}
		return flipsFull
	})
}

// TestCorruptModelsLong is TestCorruptModels over every truncation length
// and 20,000 damaged copies per model and kind: an experiment, run with
// -timeout 2h.
func TestCorruptModelsLong(t *testing.T) {
	testenv.Experiment(t)
	if total := corruptModels(t, math.MaxInt, 1, func(bool) int { return 20000 }); total < 10000 {
		t.Errorf("only %d damaged files and documents tried, want at least 10,000", total)
	}
}

// corruptModels damages the tiny models as TestCorruptModels says:
// truncation at every length below dense and at every stride-th above it,
// flips(small) damaged copies of the file and of the document per model
// (small: the shrunk copies), and the header fields. It returns how many
// damaged files and documents it tried.
func corruptModels(t *testing.T, dense, stride int, flips func(small bool) int) int {
	rng := rand.New(rand.NewSource(4))
	models := tiny(t)
	type input struct {
		name  string
		file  []byte
		small bool
	}
	var inputs []input
	for _, m := range models {
		inputs = append(inputs, input{m.system, m.file, false}, input{m.system + " (shrunk)", m.small, true})
	}
	cb := codebook(models[0].small)
	if cb == nil {
		t.Fatal("the codebook model does not load")
	}
	inputs = append(inputs, input{models[0].system + " (shrunk, codebook weights)", cb, true})
	total := 0

	// Truncation.
	for _, in := range inputs {
		st := &corruptStats{messages: map[string]int{}}
		start := time.Now()
		step := 1
		for n := 0; n < len(in.file); n += step {
			if n >= dense {
				step = stride // a prime: truncations fall everywhere in the chunks
			}
			loadBounded(t, st, fmt.Sprintf("%s truncated to %d", in.name, n), in.file[:n])
		}
		if st.loaded != 0 {
			t.Errorf("%s: %d truncated files loaded", in.name, st.loaded)
		}
		st.report(t, in.name+": truncated", time.Since(start))
	}

	// Damage to the file and to the document.
	for _, in := range inputs {
		ref, err := parser.LoadBytes(in.file)
		if err != nil {
			t.Fatal(err)
		}
		want, err := ref.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		st := &corruptStats{messages: map[string]int{}}
		start := time.Now()
		for i := 0; i < flips(in.small); i++ {
			what := fmt.Sprintf("%s file damage %d", in.name, i)
			if m := loadBounded(t, st, what, damage(rng, in.file)); m != nil {
				// The checksums cover the decompressed document: damage
				// they let through changed only its compressed encoding
				// (a copy of repeated bytes from another offset, say).
				if b, err := m.MarshalBinary(); err != nil || !bytes.Equal(b, want) {
					t.Fatalf("%s: a damaged file loaded a different model", what)
				}
			}
		}
		total += st.attempts
		st.report(t, in.name+": file damaged", time.Since(start))

		doc := rawDocument(t, in.file)
		st = &corruptStats{messages: map[string]int{}}
		start = time.Now()
		for i := 0; i < flips(in.small); i++ {
			loadBounded(t, st, fmt.Sprintf("%s document damage %d", in.name, i), container(damage(rng, doc)))
		}
		total += st.attempts
		st.report(t, in.name+": document damaged (valid checksums)", time.Since(start))
	}

	corruptHeader(t, models[0].small)
	t.Logf("%d damaged files and documents in all", total)
	return total
}

// corruptHeader loads file with its magic, version and document length
// set to extreme values: none may load.
func corruptHeader(t *testing.T, file []byte) {
	st := &corruptStats{messages: map[string]int{}}
	for _, v := range []uint32{0, modelfmt.FormatVersion + 1, modelfmt.FormatVersion + 2, 255, math.MaxUint32} {
		c := bytes.Clone(file)
		binary.LittleEndian.PutUint32(c[8:], v)
		loadBounded(t, st, fmt.Sprintf("version %d", v), c)
	}
	for _, v := range []uint64{0, 1, uint64(len(file)), 22 * uint64(len(file)), 1<<31 - 1, 1 << 31, 1<<63 + 5, math.MaxUint64} {
		c := bytes.Clone(file)
		binary.LittleEndian.PutUint64(c[12:], v)
		loadBounded(t, st, fmt.Sprintf("document length %d", v), c)
	}
	for i := 0; i < 8; i++ {
		for _, x := range []byte{1, 0x20, 0x80, 0xff} {
			c := bytes.Clone(file)
			c[i] ^= x
			loadBounded(t, st, fmt.Sprintf("magic byte %d ^ %#x", i, x), c)
		}
	}
	if st.loaded != 0 {
		t.Errorf("%d files with a damaged header loaded", st.loaded)
	}
	st.report(t, "header fields", 0)
}

// A model from a newer format version and a file that is not a model each
// give their own error, with a message that says so, from LoadBytes and
// from Load (which adds the path).
func TestModelFileErrors(t *testing.T) {
	m := tiny(t)[0]
	newer := bytes.Clone(m.small)
	binary.LittleEndian.PutUint32(newer[8:], modelfmt.FormatVersion+1)
	notModel := []byte("1\tThe\tthe\tDET\tDT\t_\t2\tdet\t_\t_\n")
	elf := []byte("\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00")
	truncated := m.small[:len(m.small)-10]
	flipped := bytes.Clone(m.small)
	flipped[len(flipped)-20] ^= 0x55
	dir := t.TempDir()
	cases := []struct {
		name string
		data []byte
		kind error
		want []string
	}{
		{"newer", newer, modelfmt.ErrNewerVersion, []string{
			fmt.Sprintf("made by a newer transparse (format version %d; this library reads versions up to %d)",
				modelfmt.FormatVersion+1, modelfmt.FormatVersion)}},
		{"conllu", notModel, modelfmt.ErrNotModel, []string{"not a transparse model (first bytes 3109546865097468...)"}},
		{"elf", elf, modelfmt.ErrNotModel, []string{"not a transparse model", "looks like an ELF executable or library"}},
		{"empty", nil, modelfmt.ErrNotModel, []string{"not a transparse model (empty input)"}},
		{"truncated", truncated, modelfmt.ErrCorrupt, []string{"truncated: ", " bytes of document (the input ends early)"}},
		{"flipped", flipped, modelfmt.ErrCorrupt, []string{"corrupt at byte "}},
	}
	for _, c := range cases {
		path := filepath.Join(dir, c.name+".tpm")
		if err := os.WriteFile(path, c.data, 0o644); err != nil {
			t.Fatal(err)
		}
		_, errBytes := parser.LoadBytes(c.data)
		_, errFile := parser.Load(path)
		for _, err := range []error{errBytes, errFile} {
			if err == nil || !errors.Is(err, c.kind) {
				t.Errorf("%s: got %v, want an error wrapping %v", c.name, err, c.kind)
				continue
			}
			for _, other := range []error{modelfmt.ErrNewerVersion, modelfmt.ErrNotModel, modelfmt.ErrCorrupt} {
				if other != c.kind && errors.Is(err, other) {
					t.Errorf("%s: %v is also %v", c.name, err, other)
				}
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("%s: %q lacks %q", c.name, err, w)
				}
			}
		}
		if errFile != nil && !strings.Contains(errFile.Error(), path) {
			t.Errorf("%s: Load error %q does not name the file", c.name, errFile)
		}
		var me *modelfmt.Error
		if errors.As(errFile, &me) && c.kind == modelfmt.ErrCorrupt && me.Offset < 0 && me.Section == "" {
			t.Errorf("%s: %q has neither an offset nor a section", c.name, errFile)
		}
	}
	// Content the document decoder accepts but the parser cannot use names
	// the part at fault.
	doc, err := modelfmt.Decode(m.small)
	if err != nil {
		t.Fatal(err)
	}
	doc.Params["root_deprel"] = 1000
	b, err := modelfmt.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	_, err = parser.LoadBytes(b)
	if err == nil || !errors.Is(err, modelfmt.ErrCorrupt) || !strings.Contains(err.Error(), "root deprel 1000 out of range") {
		t.Errorf("root deprel out of range: got %v", err)
	}
}
