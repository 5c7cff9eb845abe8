package main

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/transparse/transparse/internal/testenv"
)

// runAsCLI, as the test binary's first argument, makes it run the command
// line instead of the tests (see TestMain), so that tests can measure a
// whole process. The second argument names a file where such a child
// writes its peak resident memory (VmHWM, in kB) when the command ends
// (getrusage's maxrss would count the test process's memory, which the
// child shares until it executes); the command's arguments follow.
const runAsCLI = "-transparse.run-cli"

func TestMain(m *testing.M) {
	if len(os.Args) > 2 && os.Args[1] == runAsCLI {
		code := run(os.Args[3:], os.Stdin, os.Stdout, os.Stderr)
		status, _ := os.ReadFile("/proc/self/status")
		for _, line := range strings.Split(string(status), "\n") {
			if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
				os.WriteFile(os.Args[2], []byte(strings.TrimSuffix(strings.TrimSpace(rest), " kB")), 0o644)
			}
		}
		os.Exit(code)
	}
	os.Exit(m.Run())
}

// cliProcess runs the command line in a child process with stdin from
// the file stdin ("" for none) and returns its exit status, output,
// wall time and peak resident memory.
func cliProcess(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string, wall time.Duration, maxRSS int64) {
	t.Helper()
	rssFile := filepath.Join(t.TempDir(), "peak-rss")
	cmd := exec.Command(os.Args[0], append([]string{runAsCLI, rssFile}, args...)...)
	if stdin != "" {
		f, err := os.Open(stdin)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		cmd.Stdin = f
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	wall = time.Since(start)
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(rssFile); err == nil {
		kb, _ := strconv.ParseInt(string(b), 10, 64)
		maxRSS = kb << 10
	}
	return cmd.ProcessState.ExitCode(), out.String(), errb.String(), wall, maxRSS
}

// needModel returns the bundled model's path, or skips.
func needModel(t *testing.T) string {
	t.Helper()
	p := testenv.ModelPath()
	if _, err := os.Stat(p); err != nil {
		t.Skipf("no model: %v", err)
	}
	return p
}

// A device that never ends is refused on its first bytes: at once, in
// little memory. (The time bound only catches a read of the whole device;
// the process starts and stops well within it.)
func TestParseModelDevZero(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip(err)
	}
	code, _, stderr, wall, rss := cliProcess(t, "", "parse", "-m", "/dev/zero")
	if code != 1 || !strings.Contains(stderr, "modelfmt: /dev/zero: not a transparse model (first bytes 0000000000000000...)") {
		t.Errorf("exit status %d, stderr %q", code, stderr)
	}
	t.Logf("%v, peak RSS %.1f MB", wall, float64(rss)/1e6)
	if wall > time.Second {
		t.Errorf("took %v", wall)
	}
	if rss > 64<<20 {
		t.Errorf("peak RSS %d bytes", rss)
	}
}

// A model read from a pipe (-m /dev/stdin) parses as the file does.
func TestParseModelFromPipe(t *testing.T) {
	model := needModel(t)
	input := writeFile(t, t.TempDir(), "in.txt", "The cat sat on the mat .\n")
	code, want, stderr := runCmd(t, "", "parse", "-m", model, "--input", "tokens", input)
	if code != 0 {
		t.Fatalf("from the file: %d %s", code, stderr)
	}
	code, got, stderr, _, _ := cliProcess(t, model, "parse", "-m", "/dev/stdin", "--input", "tokens", input)
	if code != 0 || got != want {
		t.Errorf("from a pipe: exit status %d, stderr %q\ngot  %q\nwant %q", code, stderr, got, want)
	}
}

// A truncated model is called truncated, with how much of it arrived.
func TestParseModelTruncated(t *testing.T) {
	model := needModel(t)
	data, err := os.ReadFile(model)
	if err != nil {
		t.Fatal(err)
	}
	docLen := binary.LittleEndian.Uint64(data[12:20])
	cut := filepath.Join(t.TempDir(), "cut.tpm")
	if err := os.WriteFile(cut, data[:len(data)/10], 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runCmd(t, "a b\n", "parse", "-m", cut)
	want := regexp.MustCompile(regexp.QuoteMeta("modelfmt: "+cut+": truncated: ") + `\d+` +
		regexp.QuoteMeta(fmt.Sprintf(" of %d bytes of document (the input ends early)", docLen)))
	if code != 1 || !want.MatchString(stderr) {
		t.Errorf("exit status %d, stderr %q, want it to match %s", code, stderr, want)
	}
}

// --threads beyond any sensible number is capped: the parse is that of
// one thread.
func TestParseThreadsCapped(t *testing.T) {
	model := needModel(t)
	const in = "The cat sat .\nDogs bark .\n"
	code, want, stderr := runCmd(t, in, "parse", "-m", model, "--input", "tokens", "-t", "1")
	if code != 0 {
		t.Fatalf("-t 1: %d %s", code, stderr)
	}
	for _, n := range []string{"1000000000", "9223372036854775807"} {
		code, got, stderr := runCmd(t, in, "parse", "-m", model, "--input", "tokens", "-t", n)
		if code != 0 || got != want {
			t.Errorf("-t %s: exit status %d, stderr %q\ngot  %q\nwant %q", n, code, stderr, got, want)
		}
	}
}

// No command panics on empty input: an empty file where each one reads a
// file, and empty standard input where it reads that.
func TestEmptyInputEveryCommand(t *testing.T) {
	dir := t.TempDir()
	empty := writeFile(t, dir, "empty.conllu", "")
	emptyModel := writeFile(t, dir, "empty.tpm", "")
	out := filepath.Join(dir, "out.tpm")
	cases := [][]string{
		{"parse", "-m", emptyModel},
		{"eval", empty, empty},
		{"eval", "-", empty},
		{"eval", empty, "-"},
		{"stats", empty},
		{"stats", "--format", "tsv", empty},
		{"inspect", emptyModel},
		{"prune", emptyModel, "-o", out},
		{"train", "--train", empty, "--dev", empty, "-o", out, "--epochs", "1"},
		{"version"},
	}
	if _, err := os.Stat(testenv.ModelPath()); err == nil {
		model := testenv.ModelPath()
		cases = append(cases,
			[]string{"parse", "-m", model},
			[]string{"parse", "-m", model, "-"},
			[]string{"parse", "-m", model, empty},
			[]string{"parse", "-m", model, "--input", "conllu", empty},
			[]string{"parse", "-m", model, "--input", "tokens"},
			[]string{"parse", "-m", model, "--input", "text"},
			[]string{"tokenize", "-m", model},
			[]string{"parse", "-m", model, "--no-tags", empty},
			[]string{"parse", "-m", model, "-t", "4", empty},
			[]string{"eval", "-m", model, empty},
			[]string{"eval", "-m", model, "-"},
			[]string{"inspect", model},
		)
	}
	for _, args := range cases {
		code, stdout, stderr := runCmd(t, "", args...)
		t.Logf("%q: exit status %d, stdout %d bytes, stderr %q", args, code, len(stdout), stderr)
		if strings.Contains(stderr, "panic") || strings.Contains(stderr, "internal error") {
			t.Errorf("%q: %s", args, stderr)
		}
		if code != 0 && !strings.Contains(stderr, "transparse: ") {
			t.Errorf("%q: exit status %d without a message: %q", args, code, stderr)
		}
		if code < 0 || code > 2 {
			t.Errorf("%q: exit status %d", args, code)
		}
	}
}

// A sentence of a million word lines (25 MB) is refused as it is read:
// within seconds and with the memory of a small parse plus a little, not
// hundreds of MB. With --on-error skip the sentences after it are parsed
// and the output says which lines were dropped.
func TestHostileParseHugeSentence(t *testing.T) {
	model := needModel(t)
	dir := t.TempDir()
	small := writeFile(t, dir, "small.conllu", "1\tHi\t_\t_\t_\t_\t_\t_\t_\t_\n\n")
	var b strings.Builder
	b.WriteString("# sent_id = big\n")
	for i := 1; i <= 1000000; i++ {
		b.WriteString(strconv.Itoa(i) + "\tw\t_\t_\t_\t_\t_\t_\t_\t_\n")
	}
	b.WriteString("\n1\tHi\t_\t_\t_\t_\t_\t_\t_\t_\n\n")
	big := writeFile(t, dir, "big.conllu", b.String())
	b.Reset()
	_, _, _, _, base := cliProcess(t, "", "parse", "-t", "1", "-m", model, small)
	code, _, stderr, wall, rss := cliProcess(t, "", "parse", "-t", "1", "-m", model, big)
	t.Logf("%v, peak RSS %.1f MB (a small parse: %.1f MB)", wall, float64(rss)/1e6, float64(base)/1e6)
	if code != 1 || !strings.Contains(stderr, "big.conllu:10003: sentence has more than 10001 words (the limit is 10000)") {
		t.Errorf("exit status %d, stderr %q", code, stderr)
	}
	if rss-base > 64<<20 || wall > 5*time.Second {
		t.Errorf("peak RSS %.1f MB over a small parse's, %v", float64(rss-base)/1e6, wall)
	}
	code, out, stderr, _, _ := cliProcess(t, "", "parse", "-t", "1", "--on-error", "skip", "-m", model, big)
	if code != 0 || !strings.Contains(out, "# sent_id = big\n# transparse_dropped = lines 2-1000001 of "+big+" (1000000 token lines) not copied") ||
		!strings.Contains(out, "1\tHi\t") {
		t.Errorf("--on-error skip: exit status %d, stderr %q, output %.300q", code, stderr, out)
	}
}
