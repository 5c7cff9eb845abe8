package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"

	"gotest.tools/v3/golden"

	"github.com/transparse/transparse/internal/testenv"
	"github.com/transparse/transparse/modelfmt"
	"github.com/transparse/transparse/parser"
	"github.com/transparse/transparse/parser/conllu"
	"github.com/transparse/transparse/parser/train"
)

// runCmd runs the command line in process and returns its exit status,
// standard output and standard error.
func runCmd(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	if args == nil {
		args = []string{} // cobra reads os.Args for nil
	}
	code := run(args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

// noDefaultModel makes the default model lookup find nothing: no
// $TRANSPARSE_MODEL, an executable in an empty directory and an empty
// working directory. It returns the temporary root.
func noDefaultModel(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	bin := filepath.Join(root, "bin")
	work := filepath.Join(root, "work")
	for _, d := range []string{bin, work} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	oldEnv, oldExe := getenv, executable
	getenv = func(string) string { return "" }
	executable = func() (string, error) { return filepath.Join(bin, "transparse"), nil }
	t.Cleanup(func() { getenv, executable = oldEnv, oldExe })
	t.Chdir(work)
	return root
}

func wantContains(t *testing.T, what, s string, subs ...string) {
	t.Helper()
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			t.Errorf("%s does not contain %q:\n%s", what, sub, s)
		}
	}
}

func TestUsageErrors(t *testing.T) {
	noDefaultModel(t)
	for _, args := range [][]string{
		{"bogus"},
		{"parse", "--input", "xml"},
		{"parse", "--format", "tokens"},
		{"parse", "--strip-tags"},
		{"parse", "--ranges", "words"},
		{"parse", "--input", "tokens", "--presegmented"},
		{"parse", "--input", "conllu", "--ranges", "bytes"},
		{"tokenize", "--output", "xml"},
		{"tokenize", "--output", "tokens", "--ranges", "bytes"},
		{"parse", "--threads", "0"},
		{"parse", "--beam", "-1"},
		{"parse", "--beam", "65"},
		{"parse", "--beam", "2", "--kbest", "3"},
		{"parse", "--kbest", "-1"},
		{"parse", "--nope"},
		{"eval"},
		{"eval", "a", "b", "c"},
		{"eval", "-m", "model.tpm", "gold.conllu", "pred.conllu"},
		{"eval", "--no-tags", "gold.conllu", "pred.conllu"},
		{"eval", "-", "-"},
		{"train"},
		{"train", "--train", "t", "--dev", "d"},
		{"train", "--train", "t", "--dev", "d", "-o", "m", "--progress", "sometimes"},
		{"train", "--train", "t", "--dev", "d", "-o", "m", "--epochs", "-1"},
		{"train", "--train", "t", "--dev", "d", "-o", "m", "--epochs", "many"},
		{"train", "extra", "--train", "t", "--dev", "d", "-o", "m"},
		{"inspect", "a", "b"},
		{"version", "now"},
	} {
		code, stdout, stderr := runCmd(t, "", args...)
		if code != 2 {
			t.Errorf("%q: exit status %d, want 2 (stderr %q)", args, code, stderr)
		}
		if stdout != "" {
			t.Errorf("%q: wrote to stdout: %q", args, stdout)
		}
		if !strings.HasPrefix(stderr, "transparse: ") || !strings.Contains(stderr, "--help' for usage") {
			t.Errorf("%q: stderr %q", args, stderr)
		}
	}
}

// TestHelp compares "transparse --help" and "transparse help CMD" for every
// command with the golden files in testdata/help/ (NumCPU in a default is
// written as NumCPU). After a deliberate change of the help, regenerate them
// with
//
//	go test ./cmd/transparse -run TestHelp -update
//
// and review the diff.
func TestHelp(t *testing.T) {
	check := func(name string, args ...string) string {
		t.Helper()
		code, stdout, stderr := runCmd(t, "", args...)
		if code != 0 || stderr != "" {
			t.Errorf("%q: exit status %d, stderr %q", args, code, stderr)
		}
		golden.Assert(t, machineFree(stdout), filepath.Join("help", name+".txt"))
		return stdout
	}
	root := check("transparse", "--help")
	if _, noArgs, _ := runCmd(t, ""); noArgs != root {
		t.Errorf("transparse without arguments does not print the help of --help:\n%s", noArgs)
	}
	var names []string
	for _, c := range newRootCmd().Commands() {
		if !c.IsAvailableCommand() {
			continue
		}
		names = append(names, c.Name())
		help := check(c.Name(), "help", c.Name())
		wantContains(t, "help "+c.Name(), help, "Usage:", "Examples:", "transparse "+c.Name())
		if _, flagHelp, _ := runCmd(t, "", c.Name(), "--help"); flagHelp != help {
			t.Errorf("%s --help differs from help %s", c.Name(), c.Name())
		}
	}
	wantContains(t, "transparse --help", root, names...)
	for _, want := range []string{"train", "parse", "eval", "inspect", "version"} {
		if !slices.Contains(names, want) {
			t.Errorf("no %s command among %q", want, names)
		}
	}
}

// machineFree writes the machine's CPU count in a flag default as NumCPU, so
// that the help's golden files hold on any machine.
func machineFree(help string) string {
	return strings.ReplaceAll(help, fmt.Sprintf("(default %d)", runtime.NumCPU()), "(default NumCPU)")
}

func TestVersion(t *testing.T) {
	code, stdout, _ := runCmd(t, "", "version")
	if code != 0 || !strings.HasPrefix(stdout, "transparse ") {
		t.Errorf("version: exit status %d, output %q", code, stdout)
	}
	code, flag, stderr := runCmd(t, "", "--version")
	if code != 0 || flag != stdout {
		t.Errorf("--version: exit status %d, output %q (stderr %q), want %q as from version", code, flag, stderr, stdout)
	}
	// The version the command line prints and model cards record is the
	// library's, from the header's TP_VERSION_MAJOR, _MINOR and _PATCH.
	h, err := os.ReadFile(filepath.Join("..", "..", "include", "transparse.h"))
	if err != nil {
		t.Fatal(err)
	}
	var parts []string
	for _, name := range []string{"MAJOR", "MINOR", "PATCH"} {
		m := regexp.MustCompile(`#define TP_VERSION_` + name + ` (\d+)`).FindSubmatch(h)
		if m == nil {
			t.Fatalf("include/transparse.h has no TP_VERSION_%s", name)
		}
		parts = append(parts, string(m[1]))
	}
	if want := strings.Join(parts, "."); train.Version != want {
		t.Errorf("train.Version is %s, the header's version %s", train.Version, want)
	}
}

func TestMissingModel(t *testing.T) {
	root := noDefaultModel(t)
	gold := writeFile(t, t.TempDir(), "gold.conllu", goldCoNLLU)
	for _, args := range [][]string{
		{"parse"},
		{"parse", "some.txt"},
		{"eval", gold},
		{"inspect"},
	} {
		code, stdout, stderr := runCmd(t, "The cat sat .\n", args...)
		if code != 1 {
			t.Errorf("%q: exit status %d, want 1", args, code)
		}
		if stdout != "" {
			t.Errorf("%q: wrote to stdout: %q", args, stdout)
		}
		wantContains(t, "stderr", stderr,
			"transparse: no model given and no default model found",
			filepath.Join(root, "bin", "models", "en_ewt.tpm"),
			filepath.Join(root, "models", "en_ewt.tpm"),
			filepath.Join(root, "share", "transparse", "models", "en_ewt.tpm"),
			filepath.Join(root, "work", "models", "en_ewt.tpm"),
			"-m MODEL", "TRANSPARSE_MODEL")
		if strings.Contains(stderr, "for usage") {
			t.Errorf("%q: a missing model is not a usage error: %q", args, stderr)
		}
	}
}

func TestModelLoadErrors(t *testing.T) {
	noDefaultModel(t)
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.tpm")
	code, _, stderr := runCmd(t, "a b\n", "parse", "-m", missing)
	if code != 1 {
		t.Errorf("exit status %d, want 1", code)
	}
	wantContains(t, "stderr", stderr, "transparse: loading model", missing)

	junk := writeFile(t, dir, "junk.tpm", "this is not a model\n")
	getenv = func(k string) string {
		if k == ModelEnv {
			return junk
		}
		return ""
	}
	code, _, stderr = runCmd(t, "", "inspect")
	if code != 1 {
		t.Errorf("exit status %d, want 1", code)
	}
	wantContains(t, "stderr", stderr, "transparse: loading model", "(from $TRANSPARSE_MODEL)", junk)
}

func TestResolveModel(t *testing.T) {
	root := noDefaultModel(t)
	share := filepath.Join(root, "share", "transparse", "models")
	binModels := filepath.Join(root, "bin", "models")
	for _, d := range []string{share, binModels} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	writeFile(t, share, "en_ewt.tpm", "x")
	check := func(flag, wantPath, wantHow string) {
		t.Helper()
		p, how, err := resolveModel(flag)
		if err != nil || p != wantPath || how != wantHow {
			t.Errorf("resolveModel(%q) = %q, %q, %v; want %q, %q", flag, p, how, err, wantPath, wantHow)
		}
	}
	check("", filepath.Join(share, "en_ewt.tpm"), "default")
	writeFile(t, binModels, "en_ewt.tpm", "x")
	check("", filepath.Join(binModels, "en_ewt.tpm"), "default")
	getenv = func(k string) string { return map[string]string{ModelEnv: "env.tpm"}[k] }
	check("", "env.tpm", "$"+ModelEnv)
	check("flag.tpm", "flag.tpm", "-m")
}

const goldCoNLLU = `# sent_id = s1
# text = The cat sat.
1	The	the	DET	DT	_	2	det	_	_
2	cat	cat	NOUN	NN	_	3	nsubj	_	_
3	sat	sit	VERB	VBD	_	0	root	_	SpaceAfter=No
4	.	.	PUNCT	.	_	3	punct	_	_

# sent_id = s2
# text = Dogs bark loudly
1	Dogs	dog	NOUN	NNS	_	2	nsubj	_	_
2	bark	bark	VERB	VBP	_	0	root	_	_
3	loudly	loudly	ADV	RB	_	2	advmod	_	_

# sent_id = s3
# text = Go home now
1	Go	go	VERB	VB	_	0	root	_	_
2	home	home	ADV	RB	_	1	advmod	_	_
3	now	now	ADV	RB	_	1	advmod	_	_

`

// predCoNLLU is goldCoNLLU with the errors of the parser/eval test fixture:
// UPOS 9/10, UAS 9/10, LAS 6/10, FullLAS 5/10, CLAS P 6/7 R 6/8.
const predCoNLLU = `# sent_id = s1
# text = The cat sat.
1	The	the	DET	DT	_	2	amod	_	_
2	cat	cat	NOUN	NN	_	3	nsubj:pass	_	_
3	sat	sit	NOUN	VBD	_	0	root	_	SpaceAfter=No
4	.	.	PUNCT	.	_	2	punct	_	_

# sent_id = s2
# text = Dogs bark loudly
1	Dogs	dog	NOUN	NNS	_	2	nsubj	_	_
2	bark	bark	VERB	VBP	_	0	root	_	_
3	loudly	loudly	ADV	RB	_	2	advmod	_	_

# sent_id = s3
# text = Go home now
1	Go	go	VERB	VB	_	0	root	_	_
2	home	home	ADV	RB	_	1	case	_	_
3	now	now	ADV	RB	_	1	mark	_	_

`

func writeFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestEvalTwoFiles(t *testing.T) {
	dir := t.TempDir()
	gold := writeFile(t, dir, "gold.conllu", goldCoNLLU)
	pred := writeFile(t, dir, "pred.conllu", predCoNLLU)

	code, stdout, stderr := runCmd(t, "", "eval", gold, pred)
	if code != 0 {
		t.Fatalf("exit status %d, stderr %q", code, stderr)
	}
	wantContains(t, "eval output", stdout,
		"Gold:        "+gold+"\n",
		"Prediction:  "+pred+"\n",
		"Sentences: 3   Words: 10\n",
		"UPOS       |     90.00 |     90.00 |     90.00 |         9 |        10\n",
		"UAS        |     90.00 |     90.00 |     90.00 |         9 |        10\n",
		"LAS        |     60.00 |     60.00 |     60.00 |         6 |        10\n",
		"FullLAS    |     50.00 |     50.00 |     50.00 |         5 |        10\n",
		"CLAS       |     85.71 |     75.00 |     80.00 |         6 |         8\n",
		"ExactLAS   |     33.33 |     33.33 |     33.33 |         1 |         3\n",
	)

	// The prediction from standard input, as JSON.
	code, stdout, stderr = runCmd(t, predCoNLLU, "eval", "--json", gold, "-")
	if code != 0 {
		t.Fatalf("exit status %d, stderr %q", code, stderr)
	}
	var rep struct {
		Gold, Prediction string
		Scores           struct {
			Sentences, Words int
			LAS, CLAS        struct {
				Correct, Gold, System int
				F1                    float64
			}
		}
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("%v in %s", err, stdout)
	}
	if rep.Gold != gold || rep.Prediction != "-" || rep.Scores.Words != 10 || rep.Scores.Sentences != 3 ||
		rep.Scores.LAS.Correct != 6 || rep.Scores.LAS.F1 != 60 ||
		rep.Scores.CLAS.Gold != 8 || rep.Scores.CLAS.System != 7 || rep.Scores.CLAS.F1 != 80 {
		t.Errorf("JSON report %+v from\n%s", rep, stdout)
	}

	// A file against itself scores 100.
	code, stdout, _ = runCmd(t, "", "eval", gold, gold)
	if code != 0 {
		t.Fatalf("exit status %d", code)
	}
	wantContains(t, "eval output", stdout, "LAS        |    100.00 |    100.00 |    100.00 |        10 |        10\n")
}

func TestEvalErrors(t *testing.T) {
	dir := t.TempDir()
	gold := writeFile(t, dir, "gold.conllu", goldCoNLLU)
	short := writeFile(t, dir, "short.conllu", strings.Replace(predCoNLLU,
		"3\tloudly\tloudly\tADV\tRB\t_\t2\tadvmod\t_\t_\n", "", 1))
	code, stdout, stderr := runCmd(t, "", "eval", gold, short)
	if code != 1 || stdout != "" {
		t.Errorf("exit status %d, stdout %q", code, stdout)
	}
	wantContains(t, "stderr", stderr, "transparse: ", "differ at character 18 (counting from 0)",
		`gold has "loudlyGohomenow" in sentence 2 (sent_id s2), token "loudly"`)

	code, _, stderr = runCmd(t, "", "eval", gold, filepath.Join(dir, "nope.conllu"))
	if code != 1 {
		t.Errorf("exit status %d, want 1", code)
	}
	wantContains(t, "stderr", stderr, "nope.conllu")

	bad := writeFile(t, dir, "bad.conllu", "1\tx\n\n")
	code, _, stderr = runCmd(t, "", "eval", gold, bad)
	if code != 1 {
		t.Errorf("exit status %d, want 1", code)
	}
	wantContains(t, "stderr", stderr, "transparse: conllu: "+bad+":1:")
}

func TestSniffInput(t *testing.T) {
	word := "1\ta\t_\t_\t_\t_\t0\troot\t_\t_\n"
	for _, c := range []struct{ in, want string }{
		{"The cat sat.\n", inputText},
		{"\n\n  \nThe cat sat .\n", inputText},
		{"#MeToo is a hashtag.\n", inputText},
		{"# 1 reason to go.\n", inputText},
		{"# 1 reason to go.\n# and another\n\nThe end.\n", inputText},
		{"  # indented\n" + word, inputText},
		{"# sent_id = 1\n# text = a\n" + word + "\n", inputCoNLLU},
		{"\xEF\xBB\xBF# text = a\n" + word, inputCoNLLU},
		{"\xEF\xBB\xBF" + word, inputCoNLLU},
		{"\n1\ta\t_\t_\t_\t_\t0\troot\t_\t_\r\n\n", inputCoNLLU},
		{"1-2\tdon't\t_\t_\t_\t_\t_\t_\t_\t_\n", inputCoNLLU},
		{"0.1\tx\t_\t_\t_\t_\t_\t_\t_\t_\n", inputCoNLLU},
		{"1\ta\tb\n", inputCoNLLU}, // malformed CoNLL-U, reported as such
		{"1\ta\t_\t_\t_\t_\t0\troot\t_\n", inputCoNLLU},
		{"1 a _ _ _ _ 0 root _ _\n", inputText},
		{"a\tb\n", inputText},
		{"1.\tFirst point\n", inputText},
		{"# only a comment\n", inputText},
		{"#" + strings.Repeat("x", 200000) + "\n" + word, inputCoNLLU}, // a comment longer than the buffer
		{strings.Repeat("#\n", maxSniff) + word, inputText},            // bounded look-ahead
		{"", inputText},
		{"\n\n", inputText},
		{"no newline at end", inputText},
		{strings.Repeat("x ", 50000) + "\n", inputText},
	} {
		got, r, err := sniffInput(strings.NewReader(c.in))
		if err != nil {
			t.Fatal(err)
		}
		if got != c.want {
			t.Errorf("sniffInput(%.30q) = %s, want %s", c.in, got, c.want)
		}
		all, _ := io.ReadAll(r)
		if string(all) != c.in {
			t.Errorf("sniffInput(%.30q) lost input: got %.30q", c.in, all)
		}
	}
}

func TestScoresTable(t *testing.T) {
	got := scoresTable(map[string]float64{
		"test/predicted/LAS": 80.5, "dev/gold/UAS": 90, "dev/gold/LAS": 88.25,
		"test/predicted/UPOS": 95, "dev/gold/Zeta": 1,
	})
	lines := strings.Split(strings.TrimRight(got, "\n"), "\n")
	if len(lines) != 3 {
		t.Fatalf("table:\n%s", got)
	}
	for i, want := range []string{
		"Scores (%) UPOS UAS LAS Zeta",
		"dev/gold - 90.00 88.25 1.00",
		"test/predicted 95.00 - 80.50 -",
	} {
		if got := strings.Join(strings.Fields(lines[i]), " "); got != want {
			t.Errorf("line %d = %q, want %q", i, got, want)
		}
	}
	if scoresTable(nil) != "Scores: none\n" {
		t.Errorf("empty table %q", scoresTable(nil))
	}
}

func TestRowLess(t *testing.T) {
	want := []string{"train/gold", "dev/gold", "dev/predicted", "test/gold", "test/predicted", "extra/gold"}
	for i := range want {
		for j := range want {
			if got := rowLess(want[i], want[j]); got != (i < j) {
				t.Errorf("rowLess(%q, %q) = %v", want[i], want[j], got)
			}
		}
	}
}

func TestWrap(t *testing.T) {
	got := wrap("aaa bbb ccc\nddd\n\neee", "  ", 10)
	if want := "  aaa bbb\n  ccc ddd\n\n  eee\n"; got != want {
		t.Errorf("wrap = %q, want %q", got, want)
	}
}

// udDir holds the shared Universal Dependencies treebanks (testenv.UDDir).
var udDir = testenv.UDDir()

func absPath(t *testing.T, p string) string {
	t.Helper()
	a, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// hasSegmenter reports whether the model file has a segmenter.
func hasSegmenter(t *testing.T, model string) bool {
	t.Helper()
	m, err := parser.Load(model)
	if err != nil {
		t.Fatal(err)
	}
	return m.HasSegmenter()
}

// readCoNLLU parses CoNLL-U output of a command.
func readCoNLLU(t *testing.T, what, s string) []*conllu.Sentence {
	t.Helper()
	sents, err := conllu.ReadAll(strings.NewReader(s), what)
	if err != nil {
		t.Fatalf("%s: %v\n%s", what, err, s)
	}
	for _, s := range sents {
		if err := s.CheckTree(); err != nil {
			t.Errorf("%s: %v", what, err)
		}
	}
	return sents
}

// exerciseModel runs parse, eval and inspect with a real model.
func exerciseModel(t *testing.T, model string) {
	dir := t.TempDir()
	gold := writeFile(t, dir, "gold.conllu", goldCoNLLU)
	// A model with a lemmatizer predicts LEMMA (and FEATS); an older one
	// leaves them "_".
	doc, err := modelfmt.ReadFile(model)
	if err != nil {
		t.Fatal(err)
	}
	lemmas := slices.ContainsFunc(doc.Classifiers, func(c modelfmt.Classifier) bool { return c.Name == "morph.lemma" })
	morphOK := func(w conllu.Word) bool {
		if !lemmas {
			return w.Lemma == "_" && w.Feats == "_"
		}
		return !conllu.Absent(w.Lemma) && w.Feats != ""
	}

	// Tokens from standard input.
	code, stdout, stderr := runCmd(t, "The cat sat on the mat .\n\nDogs bark .\n", "parse", "-m", model, "--input", "tokens")
	if code != 0 {
		t.Fatalf("parse tokens: exit status %d, stderr %q", code, stderr)
	}
	sents := readCoNLLU(t, "parse tokens", stdout)
	if len(sents) != 2 || len(sents[0].Words) != 7 || len(sents[1].Words) != 3 {
		t.Fatalf("parse tokens gave %d sentences:\n%s", len(sents), stdout)
	}
	if sents[1].SentID() != "2" || !strings.Contains(stdout, "# text = Dogs bark .\n") {
		t.Errorf("parse tokens comments:\n%s", stdout)
	}
	for _, s := range sents {
		for _, w := range s.Words {
			// UPOS and XPOS are predicted (English has an XPOS tagger),
			// and so are LEMMA and FEATS ("_": no features) by a model
			// with a lemmatizer.
			if conllu.Absent(w.UPOS) || conllu.Absent(w.XPOS) || conllu.Absent(w.Deprel) || !morphOK(w) {
				t.Errorf("parse tokens word %+v", w)
			}
		}
	}

	// A line starting with '#' is a word of tokens input.
	code, stdout, stderr = runCmd(t, "#tag is a word\n", "parse", "-m", model, "--input", "tokens")
	if code != 0 {
		t.Fatalf("parse --input tokens: exit status %d, stderr %q", code, stderr)
	}
	if sents := readCoNLLU(t, "parse --input tokens", stdout); len(sents) != 1 || sents[0].Words[0].Form != "#tag" {
		t.Errorf("parse --input tokens:\n%s", stdout)
	}

	// CoNLL-U with gold tags, and the same with --no-tags; then a
	// CoNLL-U file followed by tokens on standard input.
	code, stdout, stderr = runCmd(t, "", "parse", "-m", model, gold)
	if code != 0 {
		t.Fatalf("parse conllu: exit status %d, stderr %q", code, stderr)
	}
	goldSents := readCoNLLU(t, "gold", goldCoNLLU)
	sents = readCoNLLU(t, "parse conllu", stdout)
	if len(sents) != 3 {
		t.Fatalf("parse conllu gave %d sentences", len(sents))
	}
	for i, s := range sents {
		if s.SentID() != goldSents[i].SentID() {
			t.Errorf("sentence %d: sent_id %q", i, s.SentID())
		}
		for j, w := range s.Words {
			g := goldSents[i].Words[j]
			if w.Form != g.Form || w.UPOS != g.UPOS || w.Lemma != g.Lemma || w.XPOS != g.XPOS {
				t.Errorf("parse conllu changed tags: %+v, gold %+v", w, g)
			}
		}
	}
	code, stdout, stderr = runCmd(t, "", "parse", "-m", model, "--no-tags", gold)
	if code != 0 {
		t.Fatalf("parse --no-tags: exit status %d, stderr %q", code, stderr)
	}
	for _, s := range readCoNLLU(t, "parse --no-tags", stdout) {
		for _, w := range s.Words {
			if !morphOK(w) || conllu.Absent(w.UPOS) || conllu.Absent(w.XPOS) {
				t.Errorf("parse --no-tags word %+v", w)
			}
		}
	}
	// A CoNLL-U file (by its name), then raw text on standard input (by
	// its first line), which needs a segmenter.
	code, stdout, stderr = runCmd(t, "Dogs bark.\n", "parse", "-m", model, gold, "-")
	if hasSegmenter(t, model) {
		if code != 0 {
			t.Fatalf("parse FILE -: exit status %d, stderr %q", code, stderr)
		}
		if n := len(readCoNLLU(t, "parse FILE -", stdout)); n != 4 {
			t.Errorf("parse FILE - gave %d sentences, want 4", n)
		}
	} else {
		if code != 1 || len(readCoNLLU(t, "parse FILE -", stdout)) != 3 {
			t.Errorf("parse FILE - without a segmenter: exit status %d, want 1 after the 3 sentences of FILE", code)
		}
		wantContains(t, "stderr", stderr, "<stdin>: read as raw text (its first line that is not a comment is not a CoNLL-U word line), but the model has no segmenter",
			"--input tokens")
	}

	// eval parses GOLD itself.
	out := filepath.Join(dir, "pred.conllu")
	code, stdout, stderr = runCmd(t, "", "eval", "-m", model, "-o", out, gold)
	if code != 0 {
		t.Fatalf("eval -m: exit status %d, stderr %q", code, stderr)
	}
	wantContains(t, "eval -m", stdout, "Parsed by:   "+model, "Tags:        gold",
		"UPOS       |    100.00 |    100.00 |    100.00 |        10 |        10\n")
	var lasLine string
	for _, l := range strings.Split(stdout, "\n") {
		if strings.HasPrefix(l, "LAS ") {
			lasLine = l
		}
	}
	code, stdout, _ = runCmd(t, "", "eval", gold, out)
	if code != 0 || lasLine == "" {
		t.Fatalf("eval of the -o output: exit status %d", code)
	}
	wantContains(t, "eval GOLD PRED", stdout, lasLine+"\n")

	code, stdout, stderr = runCmd(t, "", "eval", "-m", model, "--no-tags", "--json", gold)
	if code != 0 {
		t.Fatalf("eval --no-tags: exit status %d, stderr %q", code, stderr)
	}
	var rep evalReport
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("%v in %s", err, stdout)
	}
	if rep.Tags != "predicted" || rep.Model != model || rep.Scores.Words != 10 {
		t.Errorf("eval --no-tags --json: %+v", rep)
	}

	// inspect.
	code, stdout, stderr = runCmd(t, "", "inspect", model)
	if code != 0 {
		t.Fatalf("inspect: exit status %d, stderr %q", code, stderr)
	}
	wantContains(t, "inspect", stdout, "Model file:", "Name:", "System:", "Trained at:", "Deprels:", "XPOS tags:", "Scores")
	code, stdout, _ = runCmd(t, "", "inspect", "--json", model)
	var card inspectReport
	if code != 0 || json.Unmarshal([]byte(stdout), &card) != nil {
		t.Fatalf("inspect --json: exit status %d, output %s", code, stdout)
	}
	if card.Path != model || card.FileBytes <= 0 || len(card.Deprels) == 0 || card.System == "" || len(card.XPOSTags) == 0 {
		t.Errorf("inspect --json: %+v", card)
	}
}

// TestBundledModel exercises the commands with the bundled English model,
// when it has been built.
func TestBundledModel(t *testing.T) {
	model := absPath(t, filepath.Join("..", "..", "models", "en_ewt.tpm"))
	if _, err := os.Stat(model); err != nil {
		t.Skipf("no bundled model: %v", err)
	}
	exerciseModel(t, model)

	dev := absPath(t, filepath.Join(udDir, "en_ewt-ud-dev.conllu"))
	if _, err := os.Stat(dev); err != nil || testing.Short() {
		return
	}
	// One thread and four write the same parse of dev, from its tags and
	// from its forms.
	for _, flags := range [][]string{nil, {"--no-tags"}} {
		var outs [2]string
		for i, threads := range []string{"1", "4"} {
			args := append([]string{"parse", "-m", model, "--threads", threads}, flags...)
			code, stdout, stderr := runCmd(t, "", append(args, dev)...)
			if code != 0 {
				t.Fatalf("%q: exit status %d, stderr %q", args, code, stderr)
			}
			outs[i] = stdout
		}
		if outs[0] != outs[1] || len(readCoNLLU(t, "parse dev", outs[0])) != 2001 {
			t.Fatalf("parse %q of dev: 1 and 4 threads differ, or not 2001 sentences", flags)
		}
	}
	code, stdout, stderr := runCmd(t, "", "eval", "-m", model, "--json", dev)
	if code != 0 {
		t.Fatalf("eval dev: exit status %d, stderr %q", code, stderr)
	}
	var rep evalReport
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatal(err)
	}
	t.Logf("en_ewt dev, gold tags: UAS %.2f LAS %.2f CLAS %.2f", rep.Scores.UAS.F1(), rep.Scores.LAS.F1(), rep.Scores.CLAS.F1())
	if rep.Scores.UPOS.F1() != 100 || rep.Scores.LAS.F1() < 60 {
		t.Errorf("en_ewt dev with gold tags: UPOS %.2f LAS %.2f", rep.Scores.UPOS.F1(), rep.Scores.LAS.F1())
	}
}

// TestTrainSmall trains a small model on the first English EWT sentences
// and exercises the commands with it.
func TestTrainSmall(t *testing.T) {
	if testing.Short() {
		t.Skip("trains a model")
	}
	train := testenv.UDFile(t, "en_ewt-ud-train.conllu")
	devSents, err := conllu.ReadFile(testenv.UDFile(t, "en_ewt-ud-dev.conllu"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var devBuf bytes.Buffer
	if err := conllu.WriteAll(&devBuf, devSents[:50]); err != nil {
		t.Fatal(err)
	}
	dev := writeFile(t, dir, "dev.conllu", devBuf.String())
	model := filepath.Join(dir, "small.tpm")

	code, stdout, stderr := runCmd(t, "", "train", "--system", "arc-eager", "--train", absPath(t, train),
		"--dev", dev, "--max-sentences", "200", "--epochs", "1", "--tagger-epochs", "1",
		"--options", writeFile(t, dir, "options.json", `{"jackknife_folds": 2}`), "--progress", "never", "-o", model)
	if code == 1 && strings.Contains(stderr, "not implemented") {
		t.Skipf("training is not implemented yet: %s", stderr)
	}
	if code != 0 {
		t.Fatalf("train: exit status %d, stderr:\n%s", code, stderr)
	}
	if stdout != model+"\n" {
		t.Errorf("train: stdout %q, want the model's path", stdout)
	}
	wantContains(t, "train's stderr", stderr, "saved model small to "+model)
	exerciseModel(t, model)

	code, stdout, _ = runCmd(t, "", "inspect", model)
	if code != 0 {
		t.Fatalf("inspect: exit status %d", code)
	}
	wantContains(t, "inspect", stdout, "arc-eager", "small", "weight_bits = 12")

	// Rounding its weights to fewer bits makes a smaller file that still
	// parses; a bad bit count is a usage error naming the range.
	small := filepath.Join(dir, "small8.tpm")
	code, _, stderr = runCmd(t, "", "prune", "--weight-bits", "6", model, "-o", small)
	if code != 0 {
		t.Fatalf("prune --weight-bits 6: exit status %d, stderr:\n%s", code, stderr)
	}
	wantContains(t, "prune output", stderr, "parser.gold: weights rounded to 6 bits", "tagger.upos: weights rounded to 6 bits")
	before, after := fileSize(t, model), fileSize(t, small)
	if after >= before {
		t.Errorf("6-bit model is %d bytes, the 12-bit one %d", after, before)
	}
	exerciseModel(t, small)
	code, _, stderr = runCmd(t, "", "prune", "--weight-bits", "17", model, "-o", filepath.Join(dir, "bad.tpm"))
	if code == 0 || !strings.Contains(stderr, "17 bits, want 2..16") {
		t.Errorf("prune --weight-bits 17: exit status %d, stderr %q", code, stderr)
	}
}

func fileSize(t *testing.T, path string) int64 {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}

func TestTrainMissingInput(t *testing.T) {
	dir := t.TempDir()
	code, _, stderr := runCmd(t, "", "train", "--train", filepath.Join(dir, "nope.conllu"),
		"--dev", filepath.Join(dir, "nope.conllu"), "-o", filepath.Join(dir, "m.tpm"))
	if code != 1 {
		t.Errorf("exit status %d, want 1", code)
	}
	wantContains(t, "stderr", stderr, "transparse: ", "nope.conllu")

	gold := writeFile(t, dir, "gold.conllu", goldCoNLLU)
	code, _, stderr = runCmd(t, "", "train", "--train", gold, "--dev", gold, "-o", filepath.Join(dir, "no", "such", "m.tpm"))
	if code != 2 {
		t.Errorf("exit status %d, want 2 (a bad option)", code)
	}
	wantContains(t, "stderr", stderr, "train: output: the directory "+filepath.Join(dir, "no", "such"))
}

// TestEvalMorphologyRows checks that eval prints the UFeats, AllTags and
// Lemmas rows, on the golden pair of parser/eval (counted by hand in its
// TestScoreMorphologyGolden: 6, 4 and 5 of 7 words correct).
func TestEvalMorphologyRows(t *testing.T) {
	dir := filepath.Join("..", "..", "parser", "eval", "testdata")
	code, stdout, stderr := runCmd(t, "", "eval", filepath.Join(dir, "gold.conllu"), filepath.Join(dir, "pred.conllu"))
	if code != 0 {
		t.Fatalf("exit status %d, stderr %q", code, stderr)
	}
	wantContains(t, "eval output", stdout,
		"Sentences: 2   Words: 7\n",
		"UFeats     |     85.71 |     85.71 |     85.71 |         6 |         7\n",
		"AllTags    |     57.14 |     57.14 |     57.14 |         4 |         7\n",
		"Lemmas     |     71.43 |     71.43 |     71.43 |         5 |         7\n",
	)
}

// TestInspectEscapesCardStrings: the card comes from the model file; a
// control character in it reaches the terminal escaped, never raw.
func TestInspectEscapesCardStrings(t *testing.T) {
	r := &inspectReport{
		Path: "m.tpm", Name: "\x1b]0;pwned\a", Treebank: "tb\u009b31m\x9b", System: "arc-eager",
		Options: map[string]string{"k\x1b": "v\r\x00"}, Scores: map[string]float64{"dev/gold/L\x1bAS": 1},
		Notes: "line one\nline\x1b[2J two \xff",
	}
	out := r.String()
	for _, c := range []string{"\x1b", "\a", "\r", "\x00", "\u009b", "\x9b", "\xff"} {
		if strings.Contains(out, c) {
			t.Errorf("the report holds %q raw:\n%s", c, out)
		}
	}
	for _, want := range []string{`\x1b]0;pwned\a`, `tb\u009b31m\x9b`, `k\x1b = v\r\x00`, `line\x1b[2J two \xff`, "line one"} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q:\n%s", want, out)
		}
	}
}
