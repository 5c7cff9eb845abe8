#!/usr/bin/env bash
# build.sh -- build, test and install transparse.
#
#   ./build.sh [build]           build everything into the repository:
#       lib/libtransparse.so.0     the C library (soname libtransparse.so.0)
#       lib/libtransparse.so       symlink, for -ltransparse
#       lib/pkgconfig/transparse.pc  uninstalled .pc (prefix = this directory,
#                                  with an rpath so programs run uninstalled)
#       bin/transparse             the command line (if cmd/transparse exists)
#       bindings/c/examples/parse  the C example, built through pkg-config
#       bindings/python/transparse/libtransparse.so.0  copy for the Python package
#   ./build.sh test              build, then: go vet + go test ./... (and -race
#                                on the parser, linear, tagger, capi packages),
#                                each fuzz target briefly (a count of runs;
#                                $FUZZTIME overrides it), header
#                                and ABI checks, C and C++ tests, the example,
#                                Python tests and the docstrings' examples
#                                (doctests). Runs every suite, then exits
#                                non-zero if any failed.
#   ./build.sh install PREFIX    install library, header and transparse.pc
#                                under PREFIX (honours DESTDIR).
#   ./build.sh bench [--header]  scripts/bench.sh: the benchmark suite → docs/bench-results.md
#                                (docs/benchmarks.md; --header prints only its header)
#   ./build.sh clean             remove build outputs
#
# Environment: CC (default cc), CXX (default c++), GO (default go),
# TRANSPARSE_MODEL (model for the tests; default models/en_ewt.tpm -- tests
# that need a model are skipped, and say so, when it does not exist),
# PYTHON (default python3).
#
# Nothing is installed system-wide, except: when pkg-config is missing and
# the script runs as root in CI (CI set), it runs `apt-get install -y
# pkg-config`.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$ROOT"

CC=${CC:-cc}
CXX=${CXX:-c++}
GO=${GO:-go}
PYTHON=${PYTHON:-python3}
MODEL=${TRANSPARSE_MODEL:-$ROOT/models/en_ewt.tpm}

header=include/transparse.h
ver_part() { sed -n "s/^#define TP_VERSION_$1 \([0-9][0-9]*\).*/\1/p" "$header"; }
MAJOR=$(ver_part MAJOR)
VERSION=$MAJOR.$(ver_part MINOR).$(ver_part PATCH)
SONAME=libtransparse.so.$MAJOR

CWARN=(-Wall -Wextra -Werror)

say() { printf '==> %s\n' "$*"; }
die() { printf 'build.sh: %s\n' "$*" >&2; exit 1; }

ensure_pkg_config() {
    command -v pkg-config >/dev/null 2>&1 && return 0
    if [[ $(id -u) == 0 && -n ${CI:-} ]] && command -v apt-get >/dev/null 2>&1; then
        say "pkg-config missing; installing it (root in CI)"
        apt-get install -y pkg-config >/dev/null || { apt-get update >/dev/null && apt-get install -y pkg-config >/dev/null; }
        return 0
    fi
    die "pkg-config not found; install it (Debian/Ubuntu: apt-get install pkg-config)"
}

# write_pc FILE PREFIX RPATH(yes|no)
write_pc() {
    local rpath=""
    [[ $3 == yes ]] && rpath=' -Wl,-rpath,${libdir}'
    mkdir -p "$(dirname "$1")"
    cat >"$1" <<EOF
prefix=$2
libdir=\${prefix}/lib
includedir=\${prefix}/include

Name: transparse
Description: transition-based dependency parser (C library)
URL: https://github.com/transparse/transparse
Version: $VERSION
Cflags: -I\${includedir}
Libs: -L\${libdir}${rpath} -ltransparse
EOF
}

pc() { PKG_CONFIG_PATH="$ROOT/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}" pkg-config "$@" transparse; }

build() {
    command -v "$GO" >/dev/null || die "go not found"
    command -v "$CC" >/dev/null || die "C compiler '$CC' not found (set CC)"
    ensure_pkg_config

    say "lib/$SONAME (go build -buildmode=c-shared ./capi)"
    mkdir -p lib bin
    printf '*\n' >lib/.gitignore
    printf '*\n' >bin/.gitignore
    CGO_ENABLED=1 "$GO" build -buildmode=c-shared -trimpath \
        -ldflags "-extldflags=-Wl,-soname,$SONAME" \
        -o "lib/$SONAME" ./capi
    # cgo writes its own header (internal tpgo_* entry points); the public
    # header is include/transparse.h.
    rm -f lib/libtransparse*.h
    ln -sfn "$SONAME" lib/libtransparse.so
    write_pc lib/pkgconfig/transparse.pc "$ROOT" yes

    say "python package library"
    cp -f "lib/$SONAME" "bindings/python/transparse/$SONAME"

    say "bindings/c/examples/parse (via pkg-config)"
    # shellcheck disable=SC2046
    "$CC" -std=c99 -O2 "${CWARN[@]}" $(pc --cflags) bindings/c/examples/parse.c \
        -o bindings/c/examples/parse $(pc --libs)

    if compgen -G "cmd/transparse/*.go" >/dev/null; then
        say "bin/transparse"
        "$GO" build -trimpath -o bin/transparse ./cmd/transparse
    else
        say "bin/transparse: skipped (cmd/transparse has no Go files yet)"
    fi
}

# Suites of `test`: each runs even if an earlier one failed.
failed_suites=()
suite() {
    local name=$1
    shift
    say "test: $name"
    if "$@"; then
        printf '    ok: %s\n' "$name"
    else
        printf '    FAILED: %s\n' "$name"
        failed_suites+=("$name")
    fi
}

t_go_vet() { "$GO" vet ./...; }
t_go_test() { "$GO" test ./...; }
# The packages that run inside a host's threads, under the race detector.
t_go_race() { "$GO" test -race ./parser/ ./parser/linear/ ./parser/tagger/ ./capi/; }
# The portable (non-amd64) scoring kernels, and a 32-bit int: the 386 build
# runs on an amd64 machine without emulation.
t_go_portable() { GOARCH=386 CGO_ENABLED=0 "$GO" test ./parser/linear/ ./parser/tagger/ ./internal/top2/; }

# Every fuzz target of the library boundary, briefly: each runs a number of
# executions (about 5-10 s of this machine's rate) rather than a duration.
# A duration (-fuzztime=10s) races Go's fuzz coordinator against its own
# deadline and can fail with a bare "context deadline exceeded" and no
# input (go.dev/issue/75804, fixed in Go 1.27; CI failed on it twice with
# go1.26.8); a count has no deadline. FUZZTIME overrides every budget
# (e.g. FUZZTIME=5m for a long run; see the targets' doc comments).
# Minimizing a new input is limited to 1s: by default a worker may spend
# 60s shrinking one large model document. A failing input is written to
# the package's testdata/fuzz/<target>/, where it stays as a regression
# test of the plain `go test`.
FUZZ_TARGETS=(
    ./parser/conllu:FuzzReader:100000x ./parser/conllu:FuzzTokenReader:100000x
    ./modelfmt:FuzzDecode:100000x ./modelfmt:FuzzDocument:60000x
    ./parser:FuzzParse:4000x ./parser:FuzzParseCoNLLU:8000x
    ./parser:FuzzLoadBytes:35000x ./parser:FuzzLoadDocument:5000x
    ./cmd/transparse:FuzzSniffFormat:100000x
)
t_go_fuzz() {
    local spec pkg target budget rc=0
    for spec in "${FUZZ_TARGETS[@]}"; do
        IFS=: read -r pkg target budget <<<"$spec"
        budget=${FUZZTIME:-$budget}
        echo "    $target ($pkg, $budget)"
        "$GO" test -run='^$' -fuzz="^$target\$" -fuzztime="$budget" -fuzzminimizetime=1s \
            "$pkg" >/tmp/tp_fuzz.$$ 2>&1 ||
            { cat /tmp/tp_fuzz.$$; rc=1; }
    done
    rm -f /tmp/tp_fuzz.$$
    return $rc
}

# The header alone compiles cleanly as C99, C11 and C++11.
t_header() {
    local tmp
    tmp=$(mktemp -d)
    printf '#include <transparse.h>\nint main(void){return TP_OK;}\n' >"$tmp/h.c"
    cp "$tmp/h.c" "$tmp/h.cpp"
    "$CC" -std=c99 -pedantic "${CWARN[@]}" -Iinclude -c "$tmp/h.c" -o "$tmp/a.o" &&
        "$CC" -std=c11 -pedantic "${CWARN[@]}" -Iinclude -c "$tmp/h.c" -o "$tmp/b.o" &&
        "$CXX" -std=c++11 -pedantic "${CWARN[@]}" -Iinclude -c "$tmp/h.cpp" -o "$tmp/c.o"
    local rc=$?
    rm -rf "$tmp"
    return $rc
}

# The library exports exactly the tp_* functions the header declares, and
# carries the soname.
t_abi() {
    local declared exported
    declared=$(grep -o 'TP_API[^(]*\btp_[a-z_0-9]*(' "$header" | grep -o 'tp_[a-z_0-9]*' | sort -u)
    exported=$(nm -D --defined-only "lib/$SONAME" | awk '$2 == "T" && $3 ~ /^tp_/ {print $3}' | sort -u)
    if [[ $declared != "$exported" ]]; then
        echo "header and library disagree:"
        diff <(echo "$declared") <(echo "$exported") || true
        return 1
    fi
    echo "    $(echo "$declared" | wc -l) functions declared and exported"
    local so
    so=$(objdump -p "lib/$SONAME" | awk '$1 == "SONAME" {print $2}')
    [[ $so == "$SONAME" ]] || { echo "soname is '$so', want $SONAME"; return 1; }
}

t_c() {
    # shellcheck disable=SC2046
    "$CC" -std=c11 -O1 -g "${CWARN[@]}" -pthread $(pc --cflags) bindings/c/tests/test_capi.c \
        -o bindings/c/tests/test_capi $(pc --libs) &&
        bindings/c/tests/test_capi "$MODEL"
}

t_cpp() {
    # shellcheck disable=SC2046
    "$CXX" -std=c++17 -O1 -g "${CWARN[@]}" -pthread $(pc --cflags) -Ibindings/c \
        bindings/c/tests/test_cpp.cpp -o bindings/c/tests/test_cpp $(pc --libs) &&
        bindings/c/tests/test_cpp "$MODEL"
}

# The example runs uninstalled (rpath from the .pc) and prints CoNLL-U, or
# fails cleanly without a model.
t_example() {
    local out
    if [[ -f $MODEL ]]; then
        out=$(printf 'I saw her .\nThe cat sleeps\n' | bindings/c/examples/parse -m "$MODEL") || return 1
        printf '%s\n' "$out" | head -n 8 | sed 's/^/    /'
        [[ $(printf '%s\n' "$out" | grep -c $'^[0-9]\+\t') == 7 ]]
    else
        echo "    SKIP: run with a model: no model at $MODEL"
        if out=$(echo "x" | bindings/c/examples/parse -m /nonexistent.tpm 2>&1); then
            echo "example succeeded without a model"
            return 1
        fi
        printf '    without a model: %s\n' "$out"
    fi
}

t_python() {
    command -v "$PYTHON" >/dev/null || { echo "python not found"; return 1; }
    PYTHONPATH="$ROOT/bindings/python${PYTHONPATH:+:$PYTHONPATH}" TRANSPARSE_MODEL="$MODEL" \
        "$PYTHON" -m pytest -q -p no:cacheprovider bindings/python/tests bindings/python/transparse
}

run_tests() {
    build
    if [[ -f $MODEL ]]; then say "model for tests: $MODEL"; else say "no model at $MODEL: tests that need one are skipped"; fi
    suite "go vet ./..." t_go_vet
    suite "go test ./..." t_go_test
    suite "go test -race (parser, linear, tagger, capi)" t_go_race
    suite "go test GOARCH=386 (portable kernels: linear, tagger, top2)" t_go_portable
    suite "go fuzz targets" t_go_fuzz
    suite "header compiles standalone (C99, C11, C++11)" t_header
    suite "ABI: exported symbols and soname" t_abi
    suite "C tests (bindings/c/tests/test_capi.c)" t_c
    suite "C++ tests (bindings/c/tests/test_cpp.cpp)" t_cpp
    suite "C example (bindings/c/examples/parse)" t_example
    suite "Python tests and doctests (bindings/python)" t_python
    if ((${#failed_suites[@]})); then
        printf '\nFAILED suites:\n'
        printf '  %s\n' "${failed_suites[@]}"
        exit 1
    fi
    printf '\nall test suites passed\n'
}

install_to() {
    local prefix=${1:-}
    [[ -n $prefix ]] || die "usage: ./build.sh install PREFIX"
    [[ $prefix == /* ]] || prefix=$(cd "$prefix" 2>/dev/null && pwd || echo "$PWD/$prefix")
    [[ -f lib/$SONAME ]] || build
    local dest=${DESTDIR:-}$prefix
    say "installing into $dest"
    install -d "$dest/lib/pkgconfig" "$dest/include"
    install -m 0755 "lib/$SONAME" "$dest/lib/libtransparse.so.$VERSION"
    ln -sfn "libtransparse.so.$VERSION" "$dest/lib/$SONAME"
    ln -sfn "$SONAME" "$dest/lib/libtransparse.so"
    install -m 0644 "$header" "$dest/include/transparse.h"
    local rpath=yes
    case $prefix in /usr | /usr/local) rpath=no ;; esac
    write_pc "$dest/lib/pkgconfig/transparse.pc" "$prefix" "$rpath"
    if [[ -f bin/transparse ]]; then
        install -d "$dest/bin"
        install -m 0755 bin/transparse "$dest/bin/transparse"
    fi
    say "done; use PKG_CONFIG_PATH=$prefix/lib/pkgconfig"
}

clean() {
    rm -rf lib bin
    rm -f bindings/c/examples/parse bindings/c/tests/test_capi bindings/c/tests/test_cpp \
        bindings/c/bench/bench bindings/python/transparse/libtransparse.so*
}

cmd=${1:-build}
case $cmd in
build) build ;;
test) run_tests ;;
install) install_to "${2:-}" ;;
bench) shift; build; exec scripts/bench.sh "$@" ;;
clean) clean ;;
-h | --help | help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' ;;
*) die "unknown command '$cmd' (build, test, install PREFIX, bench [--header], clean)" ;;
esac
