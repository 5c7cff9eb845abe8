package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/transparse/transparse/parser/conllu"
)

// bundledModel returns the path of the bundled model, or skips.
func bundledModel(t *testing.T) string {
	t.Helper()
	model := absPath(t, filepath.Join("..", "..", "models", "en_ewt.tpm"))
	if _, err := os.Stat(model); err != nil {
		t.Skipf("no bundled model: %v", err)
	}
	return model
}

// A CoNLL-U word line with the given ID, FORM and HEAD/DEPREL.
func wordLine(id, form, head, deprel string) string {
	return id + "\t" + form + "\t_\tX\t_\t_\t" + head + "\t" + deprel + "\t_\t_\n"
}

// Malformed CoNLL-U is never read as text: a *.conllu file, or a file
// whose first line that is not a comment starts with an ID and a tab, gets
// CoNLL-U's error (the one --input conllu gives), whatever its columns;
// when auto detection chose CoNLL-U the error says how to read the input
// as text.
func TestParseNeverGuessesTokens(t *testing.T) {
	model := bundledModel(t)
	dir := t.TempDir()
	good := wordLine("1", "Hi", "0", "root")
	for _, c := range []struct{ name, text, msg string }{
		{"nine.conllu", "1\tHi\t_\tX\t_\t_\t0\troot\t_\n\n", ":1: line has 9 columns, want 10"},
		{"eleven.conllu", "1\tHi\t_\tX\t_\t_\t0\troot\t_\t_\t_\n\n", ":1: line has 11 columns, want 10"},
		{"spaces.conllu", "1 Hi _ X _ _ 0 root _ _\n\n", ":1: line has 1 columns, want 10"},
		{"conll2009.conllu", "1\tHi\thi\thi\tX\tX\t_\t_\t0\t0\troot\troot\t_\t_\n\n", ":1: line has 14 columns, want 10"},
		{"nine.txt", "1\tHi\t_\tX\t_\t_\t0\troot\t_\n\n", ":1: line has 9 columns, want 10"},
		{"late.conllu", good + "\n\n\n" + "1\tHi\t_\tX\t_\t_\t0\troot\t_\n\n", ":5: line has 9 columns, want 10"},
	} {
		path := writeFile(t, dir, c.name, c.text)
		for _, input := range []string{"auto", "conllu"} {
			code, _, stderr := runCmd(t, "", "parse", "-m", model, "--input", input, path)
			if code != 1 || !strings.Contains(stderr, "conllu: "+path+c.msg) {
				t.Errorf("%s --input %s: exit %d, stderr %q; want %q", c.name, input, code, stderr, c.msg)
			}
			if hint := strings.Contains(stderr, "give --input text to read it as raw text"); hint != (input == "auto") {
				t.Errorf("%s --input %s: the hint to give --input text is there: %v; stderr %q", c.name, input, hint, stderr)
			}
		}
		code, _, stderr := runCmd(t, c.text, "parse", "-m", model, "--input", "conllu")
		if code != 1 || !strings.Contains(stderr, "conllu: <stdin>"+c.msg) {
			t.Errorf("%s from stdin: exit %d, stderr %q", c.name, code, stderr)
		}
		if code, _, stderr := runCmd(t, "", "eval", path, path); code != 1 || !strings.Contains(stderr, path+c.msg) {
			t.Errorf("eval %s: exit %d, stderr %q", c.name, code, stderr)
		}
	}
	// Pre-tokenized text reads as tokens when told.
	path := writeFile(t, dir, "plain.txt", "Hello world .\n")
	code, stdout, stderr := runCmd(t, "", "parse", "-m", model, "--input", "tokens", path)
	if code != 0 || len(readCoNLLU(t, "tokens", stdout)) != 1 {
		t.Errorf("plain text: exit %d, stderr %q", code, stderr)
	}
}

// Errors name the right line with repeated blank lines, with and without
// --no-tags, in parse and eval -m; NUL bytes are refused with their
// position; a huge token gives a short message.
func TestParseErrorPlaces(t *testing.T) {
	model := bundledModel(t)
	dir := t.TempDir()
	good := wordLine("1", "Hi", "0", "root")
	big := strings.Repeat("y", 2000)
	doc := writeFile(t, dir, "blank.conllu", good+"\n\n\n\n"+good+"\n\n\n"+wordLine("1", big, "0", "root")+"\n")
	for _, args := range [][]string{
		{"parse", "-m", model, doc},
		{"parse", "-m", model, "--no-tags", doc},
		{"parse", "-m", model, "--no-tags", "-t", "3", doc},
		{"eval", "-m", model, doc},
		{"eval", "-m", model, "--no-tags", doc},
	} {
		code, _, stderr := runCmd(t, "", args...)
		if code != 1 || !strings.Contains(stderr, doc+":10: sentence ") {
			t.Errorf("%q: exit %d, stderr %q; want line 10", args, code, stderr)
		}
		if len(stderr) > 400 {
			t.Errorf("%q: message of %d bytes", args, len(stderr))
		}
	}
	nul := writeFile(t, dir, "nul.conllu", good+"\n"+"1\tH\x00i\t_\tX\t_\t_\t0\troot\t_\t_\n\n")
	code, stdout, stderr := runCmd(t, "", "parse", "-m", model, nul)
	if code != 1 || !strings.Contains(stderr, nul+":3: line contains a NUL byte at byte 4") || strings.Contains(stdout, "\x00") {
		t.Errorf("NUL in CoNLL-U: exit %d, stderr %q", code, stderr)
	}
	code, stdout, stderr = runCmd(t, "a b\nc\x00d\n", "parse", "-m", model, "--input", "tokens")
	if code != 1 || !strings.Contains(stderr, "<stdin>:2: line contains a NUL byte at byte 2") || strings.Contains(stdout, "\x00") {
		t.Errorf("NUL in tokens: exit %d, stderr %q", code, stderr)
	}
	huge := strings.Repeat("z", 1000000)
	code, _, stderr = runCmd(t, huge+" .\n", "parse", "-m", model, "--input", "tokens")
	if code != 1 || len(stderr) > 400 || !strings.Contains(stderr, "<stdin>:1: sentence 1:") {
		t.Errorf("1 MB token: exit %d, stderr of %d bytes: %.400q", code, len(stderr), stderr)
	}
	code, _, stderr = runCmd(t, wordLine("1", huge, "0", "root")+"\n", "parse", "-m", model)
	if code != 1 || len(stderr) > 400 || !strings.Contains(stderr, `sentence starting "zzzz`) {
		t.Errorf("1 MB CoNLL-U token: exit %d, stderr of %d bytes: %.400q", code, len(stderr), stderr)
	}
}

// --on-error skip copies bad sentences through with a comment, goes on and
// says how many; stop (the default) ends at the first.
func TestParseOnErrorSkip(t *testing.T) {
	model := bundledModel(t)
	dir := t.TempDir()
	good := "# sent_id = g\n" + wordLine("1", "Hi", "_", "_") + wordLine("2", "!", "_", "_") + "\n"
	bad := "# sent_id = bad\n1\tHi\t_\n\n"
	doc := writeFile(t, dir, "doc.conllu", good+bad+good)
	code, stdout, stderr := runCmd(t, "", "parse", "-m", model, doc)
	if code != 1 || len(readCoNLLU(t, "stop", stdout)) != 1 || !strings.Contains(stderr, doc+":6: line has 3 columns") {
		t.Errorf("stop: exit %d, stderr %q", code, stderr)
	}
	for _, threads := range []string{"1", "2"} {
		code, stdout, stderr = runCmd(t, "", "parse", "-m", model, "--on-error", "skip", "-t", threads, doc)
		if code != 0 || !strings.Contains(stderr, "1 of 3 sentences copied through unparsed") {
			t.Fatalf("skip: exit %d, stderr %q", code, stderr)
		}
		if !strings.Contains(stdout, "# transparse_error = conllu: "+doc+":6: line has 3 columns, want 10 (separated by tabs)\n# sent_id = bad\n1\tHi\t_\n\n") ||
			strings.Count(stdout, "\t0\troot\t") != 2 {
			t.Errorf("skip output:\n%s", stdout)
		}
	}
	if code, _, stderr := runCmd(t, "", "parse", "-m", model, "--on-error", "maybe", doc); code != 2 || !strings.Contains(stderr, "--on-error") {
		t.Errorf("--on-error maybe: exit %d, stderr %q", code, stderr)
	}
}

// Predicted output carries DEPS "_" on parsed words, MISC and comments
// from the input; the given LEMMA, UPOS, XPOS and FEATS are kept, and with
// --no-tags they are those of the same forms parsed as tokens; the empty
// node (of the enhanced graph only) is left out.
func TestParseOutputHasNoGoldAnnotation(t *testing.T) {
	model := bundledModel(t)
	doc := "# sent_id = a\n" +
		"1\tI\tI\tPRON\tPRP\tCase=Nom\t2\tnsubj\t2:nsubj\tSpaceAfter=No\n" +
		"2\tsee\tsee\tVERB\tVBP\t_\t0\troot\t0:root\tGloss=x\n" +
		"2.1\tsee\tsee\tVERB\tVB\tVerbForm=Inf\t_\t_\t0:root\tCopyOf=2\n\n"
	in := readCoNLLU(t, "input", doc)[0]
	code, stdout, stderr := runCmd(t, "I see\n", "parse", "-m", model, "--input", "tokens")
	if code != 0 {
		t.Fatalf("tokens: exit %d, stderr %q", code, stderr)
	}
	plain := readCoNLLU(t, "tokens", stdout)[0]
	for _, noTags := range []bool{false, true} {
		args := []string{"parse", "-m", model}
		if noTags {
			args = append(args, "--no-tags")
		}
		code, stdout, stderr := runCmd(t, doc, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d, stderr %q", args, code, stderr)
		}
		s := readCoNLLU(t, "parse", stdout)[0]
		if len(s.Comments) != 1 || s.Comments[0] != "# sent_id = a" {
			t.Errorf("%v: comments %q", args, s.Comments)
		}
		for i, w := range s.Words {
			want := in.Words[i]
			if noTags {
				want = plain.Words[i]
			}
			if w.Deps != "_" || w.Misc != in.Words[i].Misc || w.Lemma != want.Lemma || w.UPOS != want.UPOS ||
				w.XPOS != want.XPOS || w.Feats != want.Feats || w.UPOS == "_" {
				t.Errorf("%v: word %+v, want DEPS _, MISC %q, tags of %+v", args, w, in.Words[i].Misc, want)
			}
		}
		if len(in.Empty) != 1 || len(s.Empty) != 0 {
			t.Errorf("%v: empty nodes %v", args, s.Empty)
		}
	}
}

// eval refuses a file with two roots in a sentence, and files without
// annotation; eval -m says when GOLD has no tags.
func TestEvalRefusesUnscorable(t *testing.T) {
	model := bundledModel(t)
	dir := t.TempDir()
	tree := "# sent_id = a\n" + wordLine("1", "I", "2", "nsubj") + wordLine("2", "see", "0", "root") + wordLine("3", "it", "2", "obj") + "\n"
	two := strings.Replace(tree, wordLine("3", "it", "2", "obj"), wordLine("3", "it", "0", "root"), 1)
	none := "# sent_id = a\n" + wordLine("1", "I", "_", "_") + wordLine("2", "see", "_", "_") + wordLine("3", "it", "_", "_") + "\n"
	gold := writeFile(t, dir, "gold.conllu", tree)
	twoPath := writeFile(t, dir, "two.conllu", two)
	nonePath := writeFile(t, dir, "none.conllu", none)
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"eval", gold, twoPath}, "prediction has 2 roots (the first two: words 2 and 3); the CoNLL 2018 scorer refuses a sentence with several roots"},
		{[]string{"eval", twoPath, gold}, "gold has 2 roots"},
		{[]string{"eval", gold, nonePath}, `prediction has no annotation: the HEAD of word 1 is "_"`},
		{[]string{"eval", nonePath, nonePath}, `gold has no annotation`},
		{[]string{"eval", "-m", model, nonePath}, nonePath + `:1: sentence a has no annotation`},
		{[]string{"eval", "-m", model, twoPath}, twoPath + `:1: sentence a has 2 roots`},
	} {
		code, stdout, stderr := runCmd(t, "", c.args...)
		if code != 1 || stdout != "" || !strings.Contains(stderr, c.msg) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want %q", c.args, code, stdout, stderr, c.msg)
		}
	}
	// GOLD without tags: eval -m does not claim gold tags.
	bare := strings.ReplaceAll(tree, "\tX\t", "\t_\t")
	barePath := writeFile(t, dir, "bare.conllu", bare)
	if _, err := conllu.ReadFile(barePath); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCmd(t, "", "eval", "-m", model, barePath)
	if code != 0 || strings.Contains(stdout, "Tags:        gold") || !strings.Contains(stdout, "GOLD has no tags") {
		t.Errorf("eval -m of untagged GOLD: exit %d, stderr %q, stdout\n%s", code, stderr, stdout)
	}
}

// No command writes over its own input: an output that names an input,
// directly, through a symbolic link or as a hard link, is refused before
// any work, and the input is left as it was. Render -o DIR replaces a
// symbolic link it finds in DIR instead of writing through it.
func TestHostileOutputOverInput(t *testing.T) {
	model := bundledModel(t)
	dir := t.TempDir()
	gold := writeFile(t, dir, "g.conllu", goldCoNLLU)
	link := filepath.Join(dir, "link.conllu")
	hard := filepath.Join(dir, "hard.conllu")
	if err := os.Symlink("g.conllu", link); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(gold, hard); err != nil {
		t.Fatal(err)
	}
	modelCopy := filepath.Join(dir, "m.tpm")
	data, err := os.ReadFile(model)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(modelCopy, data, 0o644); err != nil {
		t.Fatal(err)
	}
	tpl := writeFile(t, dir, "tpl.txt", "s0.w\n")
	trainArgs := []string{"train", "--train", gold, "--dev", gold, "--epochs", "1", "--tagger-epochs", "1", "--progress", "never"}
	for _, args := range [][]string{
		{"render", "--html", gold, gold},
		{"render", "--html", link, gold},
		{"render", "--html", hard, gold},
		{"eval", "-m", modelCopy, "-o", gold, gold},
		{"eval", "-m", modelCopy, "-o", link, gold},
		{"eval", "-m", modelCopy, "-o", modelCopy, gold},
		{"calibrate", "-m", modelCopy, "-o", gold, gold},
		{"calibrate", "-m", modelCopy, "-o", modelCopy, gold},
		{"prune", "--weight-bits", "8", modelCopy, "-o", modelCopy},
		append(trainArgs, "-o", gold),
		append(trainArgs, "--test", hard, "-o", hard),
		append(trainArgs, "--gold-templates", tpl, "-o", tpl),
	} {
		code, _, stderr := runCmd(t, "", args...)
		if code != 1 || !strings.Contains(stderr, "refusing to write over it") {
			t.Errorf("%v: exit %d, stderr %q; want a refusal", args, code, stderr)
		}
		if got, _ := os.ReadFile(gold); string(got) != goldCoNLLU {
			t.Fatalf("%v: the input was written over", args)
		}
		if got, _ := os.ReadFile(modelCopy); !bytes.Equal(got, data) {
			t.Fatalf("%v: the model was written over", args)
		}
		if got, _ := os.ReadFile(tpl); string(got) != "s0.w\n" {
			t.Fatalf("%v: the templates were written over", args)
		}
	}

	// A symbolic link in render's directory is replaced, not written
	// through.
	out := filepath.Join(dir, "svg")
	if err := os.Mkdir(out, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(gold, filepath.Join(out, "0001.svg")); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runCmd(t, "", "render", "-o", out, gold); code != 0 {
		t.Fatalf("render -o: exit %d, stderr %q", code, stderr)
	}
	if got, _ := os.ReadFile(gold); string(got) != goldCoNLLU {
		t.Fatal("render -o wrote through a symbolic link")
	}
	if fi, err := os.Lstat(filepath.Join(out, "0001.svg")); err != nil || !fi.Mode().IsRegular() {
		t.Errorf("render -o: 0001.svg is %v, %v; want a regular file", fi, err)
	}
}

// Calibrate checks that it can write its output before it reads anything.
func TestHostileCalibrateChecksOutputFirst(t *testing.T) {
	model := bundledModel(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "no", "such", "m.tpm")
	code, _, stderr := runCmd(t, "", "calibrate", "-m", model, "-o", out, filepath.Join(dir, "missing.conllu"))
	if code != 1 || !strings.Contains(stderr, "cannot write "+out) {
		t.Errorf("exit %d, stderr %q; want the output's error first", code, stderr)
	}
}

// Prune refuses thresholds that are not numbers of 0 or more, and drops
// every weight under a huge one (no overflow keeps them all).
func TestHostilePruneThresholds(t *testing.T) {
	model := bundledModel(t)
	out := filepath.Join(t.TempDir(), "p.tpm")
	for _, v := range []string{"NaN", "Inf", "-Inf", "-1"} {
		code, _, stderr := runCmd(t, "", "prune", "--gold-min-abs", v, model, "-o", out)
		if code != 2 || !strings.Contains(stderr, "want a finite number, 0 or more") {
			t.Errorf("--gold-min-abs %s: exit %d, stderr %q", v, code, stderr)
		}
	}
	code, _, stderr := runCmd(t, "", "prune", "--gold-min-abs", "1e18", model, "-o", out)
	if code != 0 || !strings.Contains(stderr, "parser.gold min_abs 1e+18: 0 of ") {
		t.Errorf("--gold-min-abs 1e18: exit %d, stderr %q", code, stderr)
	}
}

// Calibrate refuses data that the model parses all wrong: the fitted
// confidences would all be 0. The error counts the arcs.
func TestHostileCalibrateDegenerate(t *testing.T) {
	model := bundledModel(t)
	dir := t.TempDir()
	var b strings.Builder
	for i := 0; i < 5; i++ {
		for j, w := range []string{"the", "cat", "sat", "on", "mats"} {
			head, rel := "5", "vocative"
			if j == 4 {
				head, rel = "0", "root"
			}
			b.WriteString(wordLine(strconv.Itoa(j+1), w, head, rel))
		}
		b.WriteString("\n")
	}
	dev := writeFile(t, dir, "wrong.conllu", b.String())
	out := filepath.Join(dir, "out.tpm")
	code, _, stderr := runCmd(t, "", "calibrate", "-m", model, dev, "-o", out)
	if code != 1 || !regexp.MustCompile(`has 0 right and 25 wrong arcs; fitting confidences needs at least 1 of each`).MatchString(stderr) {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a model was written")
	}
}

// Render refuses a sentence over its word limit at once, naming it.
func TestHostileRenderLongSentence(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("# sent_id = long\n" + wordLine("1", "w", "0", "root"))
	for i := 2; i <= 1001; i++ {
		b.WriteString(wordLine(strconv.Itoa(i), "w", "1", "dep"))
	}
	in := writeFile(t, dir, "long.conllu", b.String()+"\n")
	for _, args := range [][]string{{"render", "-o", filepath.Join(dir, "svg"), in}, {"render", "--html", "-", in}} {
		code, _, stderr := runCmd(t, "", args...)
		if code != 1 || !strings.Contains(stderr, `render: sentence "long" has 1001 words; at most 1000 are drawn`) {
			t.Errorf("%v: exit %d, stderr %q", args, code, stderr)
		}
	}
}

// Pre-tokenized text with old Mac OS line ends (a lone CR) is one
// sentence a line, as with LF or CRLF.
func TestHostileTokensCRLineEnds(t *testing.T) {
	model := bundledModel(t)
	code, stdout, stderr := runCmd(t, "The cat sleeps .\rDogs bark .\r\nBirds sing .\r", "parse", "-m", model, "--input", "tokens")
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	sents := readCoNLLU(t, "parse", stdout)
	if len(sents) != 3 || len(sents[0].Words) != 4 || len(sents[1].Words) != 3 {
		t.Errorf("%d sentences:\n%s", len(sents), stdout)
	}
}
