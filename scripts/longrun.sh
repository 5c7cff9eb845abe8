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
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"

PASSES=40
if [[ ${1:-} == -p ]]; then
    PASSES=$2
    shift 2
fi
DATA=${1:-${TRANSPARSE_UD_DIR:-$ROOT/../shared/data/ud}/en_ewt-ud-test.conllu}
[[ -f $DATA ]] || { echo "longrun.sh: no CoNLL-U file at $DATA" >&2; exit 2; }
MODEL=${TRANSPARSE_MODEL:-$ROOT/models/en_ewt.tpm}
[[ -f $MODEL ]] || { echo "longrun.sh: no model at $MODEL (set TRANSPARSE_MODEL)" >&2; exit 2; }

[[ -f lib/libtransparse.so.0 && -f lib/pkgconfig/transparse.pc && -f bindings/python/transparse/libtransparse.so.0 ]] ||
    ./build.sh >/dev/null
export PKG_CONFIG_PATH="$ROOT/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
# shellcheck disable=SC2046
${CC:-cc} -std=c11 -O2 -Wall -Wextra -Werror -pthread $(pkg-config --cflags transparse) \
    bindings/c/tests/longrun.c -o bindings/c/tests/longrun $(pkg-config --libs transparse)

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
