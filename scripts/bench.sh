#!/usr/bin/env bash
# bench.sh -- the benchmark suite: one table for the default model and for
# each transition system's EWT model found in models/systems/ (made by
# scripts/systems_table.sh), written to docs/bench-results.md and printed.
#
#   ./build.sh bench            (= scripts/bench.sh)
#   DATA=... PASSES=3 scripts/bench.sh
#
# Columns: words/s through the C API on one thread and on all cores (gold
# tags, and with the model's own tagging), through the Python binding on one
# and N threads (per-sentence Model.parse; and parse_conllu, one call per
# thread's share), model load time (cold file, warm file, memory), file
# size, peak RSS, training time (from the model card). Then the Go
# benchmarks of the hot paths with allocations.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
DATA=${DATA:-$(cd "$ROOT/.." && pwd)/shared/data/ud/en_ewt-ud-test.conllu}
PASSES=${PASSES:-3}
OUT=${OUT:-docs/bench-results.md}
[[ -f $DATA ]] || { echo "bench.sh: no CoNLL-U file at $DATA" >&2; exit 1; }
[[ -f lib/libtransparse.so.0 && -x bin/transparse ]] || ./build.sh >/dev/null
export PKG_CONFIG_PATH="$ROOT/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
# shellcheck disable=SC2046
${CC:-cc} -std=c11 -O2 -Wall -Wextra $(pkg-config --cflags transparse) bindings/c/bench/bench.c \
    -o bindings/c/bench/bench $(pkg-config --libs transparse) -lpthread

get() { awk -v k="$1" '$1==k{print $2}' <<<"$2"; }
card() { bin/transparse inspect "$1" | awk -v k="$2" '$1==k && $2=="=" {print $3}'; }

tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
{
echo "# Benchmark results"
echo
echo "One run of \`scripts/bench.sh\` ($(date -u +%Y-%m-%d), $(nproc) cores: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'))."
echo "Data: $(basename "$DATA") ($(grep -c . "$DATA" >/dev/null; awk -F'\t' 'NF==10 && $1 ~ /^[0-9]+$/' "$DATA" | wc -l) words). Best of $PASSES passes after a warm-up."
echo "words/s: C API \`tp_parse\` per sentence; Python \`Model.parse\` per sentence, \`Model.parse_many\` (batches of 64 sentences with gold tags) and \`Model.parse_conllu\` (CoNLL-U with gold tags, one call per thread's share)."
echo
echo "| model | system | C 1 thread gold | C 1 thread tagging | C all cores gold | C all cores tagging | Python 1 thread gold | Python N threads gold | Python parse_many 1 / N threads | Python parse_conllu 1 / N threads | load cold | load file | load memory | file | peak RSS | RSS after parsing | training |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
models=(models/en_ewt.tpm)
for m in models/systems/en_ewt-*.tpm; do [[ -f $m ]] && models+=("$m"); done
for m in "${models[@]}"; do
    sys=$(bin/transparse inspect "$m" | awk '$1=="System:"{print $2}')
    gflag=()
    [[ $(card "$m" gold_only) == true ]] && gflag=(-g)
    c=$(bindings/c/bench/bench -k -p "$PASSES" "${gflag[@]}" -m "$m" "$DATA")
    py=""
    if [[ $m == models/en_ewt.tpm ]]; then
        py=$(python3 scripts/bench_python.py -k -p "$PASSES" -m "$m" "$DATA")
    fi
    tag1=$(get tagged_1 "$c"); tagn=$(get tagged_n "$c")
    echo "| $(basename "$m") | $sys | $(get gold_1 "$c") | ${tag1:--} | $(get gold_n "$c") | ${tagn:--} | $(get py_gold_1 "$py") | $(get py_gold_n "$py") | $(get py_many_1 "$py") / $(get py_many_n "$py") | $(get py_conllu_1 "$py") / $(get py_conllu_n "$py") | $(get load_cold_ms "$c") ms | $(get load_file_ms "$c") ms | $(get load_memory_ms "$c") ms | $(get model_mb "$c") MB | $(get peak_rss_mb "$c") MB | $(get rss_end_mb "$c") MB | $(card "$m" training_seconds) s |"
done
echo
echo "Threads: $(nproc) (C: one model shared by pthreads; Python: ThreadPoolExecutor)."
echo
echo "## Go benchmarks (hot paths, allocations)"
echo
echo '```'
go test -run '^$' -bench . -benchmem -benchtime 2x ./parser/ 2>&1 | grep -E '^Benchmark|^ok' || true
go test -run '^$' -bench . -benchmem ./parser/conllu/ ./parser/feature/ ./parser/transition/ 2>&1 | grep -E '^Benchmark' || true
echo '```'
} | tee "$tmp"
cp "$tmp" "$OUT"
echo "written to $OUT" >&2
