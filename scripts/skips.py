#!/usr/bin/env python3
"""The skipped tests of ./build.sh test, counted and grouped by reason.

    go test -json ./... | skips.py go SKIPS     prints what plain `go test`
        prints (package lines, the output of failed tests) and appends one
        line per skipped test to the file SKIPS: "go<TAB>reason"
    skips.py pytest OUTPUT SKIPS               appends the skips of a pytest
        run with -rs (its "SKIPPED [N] file:line: reason" lines) to SKIPS
    skips.py summary SKIPS                     prints the count of skipped
        tests and their reasons, grouped, largest group first

Reasons are grouped by what is missing: a UD treebank, a model, an opt-in
variable; other reasons by their text with paths left out.
"""

import collections
import json
import re
import sys

GROUPS = [
    (re.compile(r"no UD data|UD_|-ud-|treebank", re.I),
     "no UD treebank (set TRANSPARSE_UD_DIR, or put the treebanks in ../shared/data/ud)"),
    (re.compile(r"no (bundled )?model|needs a model", re.I),
     "no model (set TRANSPARSE_MODEL, or keep models/en_ewt.tpm)"),
    (re.compile(r"checked without -race"), "computes only: checked by the plain go test, not under -race"),
    (re.compile(r"^set [A-Z_]+="), "opt-in measurement or training (set the variable the test names)"),
]
LOG_LINE = re.compile(r"^\s+\S+\.go:\d+: (.*)$")
PYTEST_SKIP = re.compile(r"^SKIPPED \[(\d+)\] [^:]+:\d+: (.*)$")


def group(reason):
    for pattern, label in GROUPS:
        if pattern.search(reason):
            return label
    return re.sub(r"(?<![\w.])/\S+", "…", reason.strip())[:100]


def go(skips_path):
    """Render a go test -json stream on stdout as plain go test would."""
    out = collections.defaultdict(list)  # (package, test) -> its output
    with open(skips_path, "a") as skips:
        for line in sys.stdin:
            try:
                ev = json.loads(line)
            except ValueError:
                sys.stdout.write(line)  # build errors come as plain text
                continue
            key, action = (ev.get("Package"), ev.get("Test")), ev.get("Action")
            if action == "build-output":
                sys.stdout.write(ev.get("Output", ""))
            elif action == "output":
                if key[1] is None:
                    if ev["Output"] not in ("PASS\n", "FAIL\n") and not ev["Output"].startswith("=== "):
                        sys.stdout.write(ev["Output"])
                else:
                    out[key].append(ev["Output"])
            elif action == "fail" and key[1] is not None:
                sys.stdout.write("".join(out.pop(key, [])))
            elif action == "skip" and key[1] is not None:
                logs = [m.group(1) for m in map(LOG_LINE.match, out.pop(key, [])) if m]
                skips.write(f"go\t{logs[-1] if logs else 'no reason given'}\n")
            elif action in ("pass", "skip"):
                out.pop(key, None)
            sys.stdout.flush()


def pytest(output_path, skips_path):
    with open(output_path) as f, open(skips_path, "a") as skips:
        for line in f:
            m = PYTEST_SKIP.match(line.rstrip("\n"))
            if m:
                skips.write(f"python\t{m.group(2)}\n" * int(m.group(1)))


def summary(skips_path):
    try:
        with open(skips_path) as f:
            rows = [line.rstrip("\n").split("\t", 1) for line in f if "\t" in line]
    except FileNotFoundError:
        rows = []
    if not rows:
        print("no test skipped")
        return
    by_suite = collections.Counter(suite for suite, _ in rows)
    print(f"{len(rows)} tests skipped ({', '.join(f'{n} {s}' for s, n in by_suite.most_common())}):")
    for label, n in collections.Counter(group(r) for _, r in rows).most_common():
        print(f"  {n:4d} skipped: {label}")


if __name__ == "__main__":
    cmd, args = sys.argv[1], sys.argv[2:]
    {"go": go, "pytest": pytest, "summary": summary}[cmd](*args)
