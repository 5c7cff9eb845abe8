package doccheck

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// root is the repository root, seen from this package's directory.
var root = filepath.Join("..", "..")

// readmeEntry is a line of README.md's package list: "- `path` — what it does".
var readmeEntry = regexp.MustCompile("^- `([a-z0-9_/]+)` — ")

// readmePackages returns the package paths that README.md's "Layout and
// design" section lists, relative to the module root.
func readmePackages(t *testing.T) map[string]bool {
	t.Helper()
	f, err := os.Open(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	pkgs := map[string]bool{}
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "## ") {
			in = line == "## Layout and design"
			continue
		}
		if m := readmeEntry.FindStringSubmatch(line); in && m != nil {
			if pkgs[m[1]] {
				t.Errorf("README.md lists `%s` twice", m[1])
			}
			pkgs[m[1]] = true
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return pkgs
}

// goPackages returns the module's packages (go list ./...), relative to
// the module root.
func goPackages(t *testing.T) []string {
	t.Helper()
	goCmd := filepath.Join(os.Getenv("GOROOT"), "bin", "go")
	if _, err := os.Stat(goCmd); err != nil {
		goCmd = "go"
	}
	run := func(args ...string) string {
		cmd := exec.Command(goCmd, args...)
		cmd.Dir = root
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("go %s: %v", strings.Join(args, " "), err)
		}
		return strings.TrimSpace(string(out))
	}
	module := run("list", "-m")
	var pkgs []string
	for _, p := range strings.Fields(run("list", "./...")) {
		pkgs = append(pkgs, strings.TrimPrefix(strings.TrimPrefix(p, module), "/"))
	}
	return pkgs
}

// TestREADMEListsEveryPackage checks README.md's package list against go
// list ./...: a package without a line, or a line without a package, fails.
func TestREADMEListsEveryPackage(t *testing.T) {
	listed := readmePackages(t)
	pkgs := goPackages(t)
	if len(pkgs) == 0 {
		t.Fatal("go list ./... found no packages")
	}
	for _, p := range pkgs {
		if !listed[p] {
			t.Errorf("package %s has no line in README.md's \"Layout and design\" list: add \"- `%s` — what it does\"", p, p)
		}
		delete(listed, p)
	}
	var stale []string
	for p := range listed {
		stale = append(stale, p)
	}
	sort.Strings(stale)
	for _, p := range stale {
		t.Errorf("README.md lists `%s`, which is not a package of the module", p)
	}
}
