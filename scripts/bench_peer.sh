#!/usr/bin/env bash
# bench_peer.sh -- a quick side-by-side check against the peer: transparse's
# C API on one thread (gold tags, and with the model's own tagging) and
# MaltParser 1.9.2 warm in-process (scripts/malt/peer.sh), in alternating
# rounds, each figure also as a ratio to MaltParser's.
#
#   scripts/bench_peer.sh [CONLLU]
#   ROUNDS=3 PASSES=3 TRANSPARSE_MODEL=... scripts/bench_peer.sh
#
# CONLLU defaults to en_ewt-ud-test.conllu in $TRANSPARSE_UD_DIR (else
# ../shared/data/ud beside the repository); the model is $TRANSPARSE_MODEL,
# else models/en_ewt.tpm. Each round runs bindings/c/bench/bench -t 1 and then
# the peer (which goes first alternates), each with PASSES timed passes
# (default 3). Each round's ratios come from figures measured a minute apart,
# so that both sides see the same stretch of the machine's speed; the table
# gives the best words/s of ROUNDS rounds (default 3) and the median of the
# rounds' ratios. The first call also fetches and trains MaltParser
# (see scripts/malt/peer.sh), which takes several minutes.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DATA=${1:-${DATA:-${TRANSPARSE_UD_DIR:-$ROOT/../shared/data/ud}/en_ewt-ud-test.conllu}}
[[ -f $DATA ]] || { echo "bench_peer.sh: no CoNLL-U file at $DATA" >&2; exit 1; }
DATA=$(realpath "$DATA")
cd "$ROOT"
MODEL=${TRANSPARSE_MODEL:-$ROOT/models/en_ewt.tpm}
[[ -f $MODEL ]] || { echo "bench_peer.sh: no model at $MODEL (set TRANSPARSE_MODEL)" >&2; exit 1; }
PASSES=${PASSES:-3}
ROUNDS=${ROUNDS:-3}

[[ -f lib/libtransparse.so.0 && -f lib/pkgconfig/transparse.pc && -x bin/transparse ]] || ./build.sh >/dev/null
export PKG_CONFIG_PATH="$ROOT/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
# shellcheck disable=SC2046
${CC:-cc} -std=c11 -O2 -Wall -Wextra $(pkg-config --cflags transparse) bindings/c/bench/bench.c \
    -o bindings/c/bench/bench $(pkg-config --libs transparse) -lpthread
scripts/malt/peer.sh --setup

get() { awk -v k="$1" '$1==k{print $2}' <<<"$2"; }
max() { awk -v a="${1:-0}" -v b="${2:-0}" 'BEGIN { print (a > b ? a : b) }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }
gflag=()
[[ $(bin/transparse inspect "$MODEL" | awk '$1=="gold_only" && $2=="=" {print $3}') == true ]] && gflag=(-g)

gold=0 tagged=0 malt=0 las="" uas="" gold_r=() tagged_r=()
for ((r = 1; r <= ROUNDS; r++)); do
    # The side that goes first alternates between rounds.
    if ((r % 2)); then
        c=$(bindings/c/bench/bench -k -t 1 -p "$PASSES" "${gflag[@]}" -m "$MODEL" "$DATA")
        p=$(scripts/malt/peer.sh -p "$PASSES" "$DATA")
    else
        p=$(scripts/malt/peer.sh -p "$PASSES" "$DATA")
        c=$(bindings/c/bench/bench -k -t 1 -p "$PASSES" "${gflag[@]}" -m "$MODEL" "$DATA")
    fi
    m=$(get malt_words_per_s "$p")
    gold_r+=("$(ratio "$(get gold_1 "$c")" "$m")")
    line="round $r: MaltParser $m words/s; transparse gold tags $(get gold_1 "$c") (${gold_r[-1]}×)"
    if [[ ${#gflag[@]} -eq 0 ]]; then
        tagged_r+=("$(ratio "$(get tagged_1 "$c")" "$m")")
        line+=", tagging + parsing $(get tagged_1 "$c") (${tagged_r[-1]}×)"
    fi
    echo "$line" >&2
    gold=$(max "$gold" "$(get gold_1 "$c")")
    tagged=$(max "$tagged" "$(get tagged_1 "$c")")
    malt=$(max "$malt" "$m")
    las=$(get malt_las "$p") uas=$(get malt_uas "$p")
done

echo "Data: $(basename "$DATA"); model: $(basename "$MODEL"); one thread; words/s: the best of $ROUNDS rounds of $PASSES passes; × MaltParser: the median over the rounds of each round's ratio."
echo
echo "| parser | words/s | × MaltParser |"
echo "|---|---:|---:|"
echo "| transparse C API, gold tags | $gold | $(median "${gold_r[@]}") |"
if [[ ${#gflag[@]} -eq 0 ]]; then
    echo "| transparse C API, tagging + parsing | $tagged | $(median "${tagged_r[@]}") |"
fi
echo "| MaltParser 1.9.2 stacklazy, gold tags (LAS $las, UAS $uas) | $malt | 1.00 |"
