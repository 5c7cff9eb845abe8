#!/usr/bin/env bash
# longrun.sh -- the long-run memory check (long runs must not leak): parse the EWT test set
# PASSES times (default 40, about 1M words) through the C API
# (bindings/c/tests/longrun.c) and through Python (scripts/longrun.py), and
# check that the resident memory after the last pass is less than 5 % above
# the one after the first pass.
#
#   scripts/longrun.sh [-p PASSES] [CONLLU]
#
# CONLLU defaults to en_ewt-ud-test.conllu in the UD directory
# ($TRANSPARSE_UD_DIR, else ../shared/data/ud beside the repository, as for
# the tests); the model is $TRANSPARSE_MODEL, else models/en_ewt.tpm.
# Extra options for the drivers: LONGRUN_C_ARGS (e.g. "-g -t 4": gold tags,
# 4 threads) and LONGRUN_PY_ARGS (e.g. "--gold --threads 4"). Builds the
# library first if lib/ has none.
# Prints both drivers' per-pass RSS and a summary; exits non-zero if either
# driver failed (a parse error or growth of 5 % or more).
#
# Not run in CI (it takes minutes); bindings/c/tests/test_capi.c and
# bindings/python/tests/test_longrun.py run 3-pass versions.
#
#   scripts/longrun.sh --text [-s MB] [CONLLU]
#
# The raw-text memory check instead: streams MB megabytes (default 50) of
# raw text, the text of CONLLU (scripts/ud_text.py; default
# en_ewt-ud-train.conllu) repeated, once through each front end: the CLI (bin/transparse parse --input text),
# the C API (tp_stream with TP_INPUT_TEXT, scripts/textbench.c -s) and Python
# (Model.stream(file, input="text"), scripts/longrun.py --text), and checks
# that each one's peak RSS grows by less than 50 MB (10^6 bytes) from the
# first sentence returned to the end. The model must have a segmenter. A
# front end that cannot parse raw text is reported as skipped; the exit
# status is non-zero if one failed or grew 50 MB or more.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"

PASSES=40
TEXT=0
TEXT_MB=50
while [[ $# -gt 0 ]]; do
    case $1 in
    -p) PASSES=$2; shift 2 ;;
    --text) TEXT=1; shift ;;
    -s) TEXT_MB=$2; shift 2 ;;
    *) break ;;
    esac
done
default=en_ewt-ud-test.conllu
((TEXT)) && default=en_ewt-ud-train.conllu
DATA=${1:-${TRANSPARSE_UD_DIR:-$ROOT/../shared/data/ud}/$default}
[[ -f $DATA ]] || { echo "longrun.sh: no CoNLL-U file at $DATA" >&2; exit 2; }
MODEL=${TRANSPARSE_MODEL:-$ROOT/models/en_ewt.tpm}
[[ -f $MODEL ]] || { echo "longrun.sh: no model at $MODEL (set TRANSPARSE_MODEL)" >&2; exit 2; }

# text_check: the --text check, each front end streaming the same file.
text_check() {
    local rc=0 out status name
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    python3 scripts/ud_text.py "$DATA" >"$work/one.txt"
    while (($(stat -c %s "$work/text.txt" 2>/dev/null || echo 0) < TEXT_MB * 1000000)); do
        cat "$work/one.txt" >>"$work/text.txt"
    done
    # shellcheck disable=SC2046
    ${CC:-cc} -std=c11 -O2 -Wall -Wextra $(pkg-config --cflags transparse) scripts/textbench.c \
        -o "$work/textbench" $(pkg-config --libs transparse)
    echo "== raw text: $(stat -c %s "$work/text.txt") bytes ($(basename "$DATA") repeated), model $(basename "$MODEL")"
    for name in CLI C Python; do
        status=0
        case $name in
        CLI) out=$(python3 scripts/longrun.py --text --cli bin/transparse "$MODEL" "$work/text.txt" 2>&1) || status=$? ;;
        C) out=$("$work/textbench" -m "$MODEL" -s "$work/text.txt" 2>&1) || status=$? ;;
        Python) out=$(${PYTHON:-python3} scripts/longrun.py --text "$MODEL" "$work/text.txt" 2>&1) || status=$? ;;
        esac
        if [[ $name == C && $status == 0 ]]; then
            out=$(awk '{ v[$1] = $2 } END {
                printf "C API: %s bytes of raw text, %s sentences, %s words in %s s\n", v["bytes"], v["sentences"], v["words"], v["seconds"]
                printf "peak RSS after the first sentence: %s MB; at the end: %s MB; growth %s MB\n", v["base_mb"], v["peak_mb"], v["growth_mb"]
                exit (v["growth_mb"] < 50 ? 0 : 1) }' <<<"$out") || status=1
        fi
        echo "$out"
        case $status in
        0) echo "$name: ok" ;;
        3) echo "$name: skipped (no raw-text input here)" ;;
        *) echo "$name: FAILED (an error, or peak RSS grew 50 MB or more)"; rc=1 ;;
        esac
    done
    return $rc
}

[[ -f lib/libtransparse.so.0 && -f lib/pkgconfig/transparse.pc && -f bindings/python/transparse/libtransparse.so.0 ]] ||
    ./build.sh >/dev/null
export PKG_CONFIG_PATH="$ROOT/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
# shellcheck disable=SC2046
${CC:-cc} -std=c11 -O2 -Wall -Wextra -Werror -pthread $(pkg-config --cflags transparse) \
    bindings/c/tests/longrun.c -o bindings/c/tests/longrun $(pkg-config --libs transparse)

if ((TEXT)); then
    text_check
    exit
fi

rc=0
echo "== C API: $PASSES passes"
# shellcheck disable=SC2086
bindings/c/tests/longrun -p "$PASSES" ${LONGRUN_C_ARGS:-} "$MODEL" "$DATA" | tee /tmp/longrun-c.$$ || rc=1
echo
echo "== Python: $PASSES passes"
# shellcheck disable=SC2086
${PYTHON:-python3} scripts/longrun.py --passes "$PASSES" ${LONGRUN_PY_ARGS:-} "$MODEL" "$DATA" | tee /tmp/longrun-py.$$ || rc=1
echo
echo "== summary"
grep -h '^RSS after' /tmp/longrun-c.$$ | sed 's/^/C API:  /'
grep -h '^RSS after' /tmp/longrun-py.$$ | sed 's/^/Python: /'
rm -f /tmp/longrun-c.$$ /tmp/longrun-py.$$
if ((rc)); then echo "longrun.sh: FAILED (a parse error, or RSS grew 5 % or more)"; else echo "longrun.sh: ok"; fi
exit $rc
