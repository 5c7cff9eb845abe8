#!/usr/bin/env bash
# bench_engine.sh -- the "Engine" section of docs/bench-results.md (run by
# scripts/bench.sh; alone: prints the section): the CPU time of one
# transition of the engine (tp_state_legal + tp_state_apply) through the C
# API (bindings/c/bench/bench_engine.c) and through Python
# (scripts/bench_engine.py: State.legal() + State.apply(k)), one thread,
# replaying the static oracle's derivations of DATA, and their ratio: the
# overhead of driving the engine from Python.
#
#   scripts/bench_engine.sh            DATA, PASSES, SYSTEMS as for bench.sh
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
DATA=${DATA:-${TRANSPARSE_UD_DIR:-$ROOT/../shared/data/ud}/en_ewt-ud-test.conllu}
PASSES=${PASSES:-3}
SYSTEMS=${SYSTEMS:-arc-eager arc-hybrid covington-nonprojective swap-lazy}
[[ -f $DATA ]] || { echo "bench_engine.sh: no CoNLL-U file at $DATA" >&2; exit 1; }
[[ -f lib/libtransparse.so.0 ]] || ./build.sh >/dev/null
export PKG_CONFIG_PATH="$ROOT/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
# shellcheck disable=SC2046
${CC:-cc} -std=c11 -O2 -Wall -Wextra $(pkg-config --cflags transparse) bindings/c/bench/bench_engine.c \
    -o bindings/c/bench/bench_engine $(pkg-config --libs transparse)
get() { awk -v k="$1" '$1==k{print $2}' <<<"$2"; }

echo "## Engine: one transition from C and from Python"
echo
echo "CPU time of the calling thread per transition, \`tp_state_legal\` + \`tp_state_apply\` (C) and \`State.legal()\` + \`State.apply(k)\` (Python), replaying the static oracle's derivation of every sentence of $(basename "$DATA") in its class (the state's creation amortized); best of $PASSES passes after a warm-up (\`scripts/bench_engine.sh\`). Python / C: the binding's overhead as a ratio."
echo
echo "| system | transitions | C µs | Python µs | Python overhead µs | Python / C |"
echo "|---|---:|---:|---:|---:|---:|"
for s in $SYSTEMS; do
    c=$(bindings/c/bench/bench_engine -k -p "$PASSES" -s "$s" "$DATA")
    py=$(python3 scripts/bench_engine.py -k -p "$PASSES" -s "$s" "$DATA")
    awk -v s="$s" -v n="$(get transitions "$c")" -v c="$(get engine_c_ns "$c")" -v p="$(get engine_py_us "$py")" \
        'BEGIN { printf "| %s | %d | %.2f | %.2f | %.2f | %.1f× |\n", s, n, c / 1000, p, p - c / 1000, p * 1000 / c }'
done
