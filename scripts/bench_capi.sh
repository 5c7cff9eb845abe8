#!/usr/bin/env bash
# bench_capi.sh -- benchmark the C API (bindings/c/bench/bench.c).
#
#   scripts/bench_capi.sh [CONLLU] [-- BENCH_ARGS...]
#
# CONLLU defaults to en_ewt-ud-test.conllu in the UD directory
# ($TRANSPARSE_UD_DIR, else ../shared/data/ud beside the repository, as for
# the tests). The model is $TRANSPARSE_MODEL, else models/en_ewt.tpm. Builds the library first if
# lib/ has none. Prints one table: load times, words/s with gold tags and
# with forms only (one thread), peak RSS.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"

DATA=${1:-${TRANSPARSE_UD_DIR:-$ROOT/../shared/data/ud}/en_ewt-ud-test.conllu}
[[ $# -gt 0 ]] && shift
[[ ${1:-} == -- ]] && shift
[[ -f $DATA ]] || { echo "bench_capi.sh: no CoNLL-U file at $DATA" >&2; exit 1; }
MODEL=${TRANSPARSE_MODEL:-$ROOT/models/en_ewt.tpm}
[[ -f $MODEL ]] || { echo "bench_capi.sh: no model at $MODEL (set TRANSPARSE_MODEL)" >&2; exit 1; }

[[ -f lib/libtransparse.so.0 && -f lib/pkgconfig/transparse.pc ]] || ./build.sh >/dev/null
export PKG_CONFIG_PATH="$ROOT/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
# shellcheck disable=SC2046
${CC:-cc} -std=c11 -O2 -Wall -Wextra $(pkg-config --cflags transparse) bindings/c/bench/bench.c \
    -o bindings/c/bench/bench $(pkg-config --libs transparse) -lpthread
exec bindings/c/bench/bench -m "$MODEL" "$@" "$DATA"
