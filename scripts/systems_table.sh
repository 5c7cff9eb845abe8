#!/usr/bin/env bash
# Trains one gold-tags-only model per transition system on EWT and on
# Hungarian Szeged (train, selected on dev), scores each on test with gold
# tags, and prints one Markdown table row per (treebank, system): test UAS/LAS,
# words/s (one thread, CLI, gold tags) and the oracle's transitions per word
# on the test trees it derives. The models go to $OUT (default
# models/systems, not committed).
#
#   scripts/systems_table.sh [SYSTEM...]      (default: every system)
#   UD=/path/to/ud EPOCHS=12 scripts/systems_table.sh arc-eager swap-lazy
#
# UD defaults to $TRANSPARSE_UD_DIR, else ../shared/data/ud (as for the tests).
set -euo pipefail
cd "$(dirname "$0")/.."
UD=${UD:-${TRANSPARSE_UD_DIR:-../shared/data/ud}}
OUT=${OUT:-models/systems}
EPOCHS=${EPOCHS:-12}
# EWT_MAX > 0 trains the EWT models on the first EWT_MAX sentences only.
EWT_MAX=${EWT_MAX:-0}
BIN=${BIN:-bin/transparse}
mkdir -p "$OUT"
[ -x "$BIN" ] || go build -o "$BIN" ./cmd/transparse
systems=("$@")
if [ ${#systems[@]} -eq 0 ]; then
  mapfile -t systems < <("$BIN" train --help | sed -n 's/.*available: \(.*\)\./\1/p' | tr ',' '\n' | tr -d ' ')
fi
echo "| treebank | system | options | test UAS | test LAS | words/s | transitions/word |"
echo "|---|---|---|---:|---:|---:|---:|"
for tb in ${TREEBANKS:-en_ewt hu_szeged}; do
  stats=$("$BIN" stats --format tsv "$UD/$tb-ud-test.conllu" 2>/dev/null || true)
  for spec in "${systems[@]}"; do
    sys=${spec%%+*}
    opts=()
    label=""
    if [[ $spec == *+pp-* ]]; then
      enc=${spec#*+pp-}
      opts+=(--pseudo-projective "$enc")
      label="pseudo-projective $enc"
    fi
    # Small treebanks: keep every feature (pruning is tuned for EWT).
    [ "$tb" = hu_szeged ] && opts+=(--min-abs -1 --min-updates -1)
    [ "$tb" = en_ewt ] && [ "$EWT_MAX" -gt 0 ] && opts+=(--max-sentences "$EWT_MAX")
    model="$OUT/$tb-${spec//+/_}.tpm"
    if [ ! -f "$model" ]; then
      "$BIN" train --system "$sys" --gold-only --epochs "$EPOCHS" "${opts[@]}" \
        --train "$UD/$tb-ud-train.conllu" --dev "$UD/$tb-ud-dev.conllu" \
        -o "$model" >"$model.log" 2>&1
    fi
    ev=$("$BIN" eval -m "$model" "$UD/$tb-ud-test.conllu")
    uas=$(awk '$1=="UAS"{print $7}' <<<"$ev")
    las=$(awk '$1=="LAS"{print $7}' <<<"$ev")
    wps=$(sed -n 's/.*(\([0-9]*\) words\/s).*/\1/p' <<<"$ev")
    tpw=$(awk -F'\t' -v s="$sys" '$2==s && $3=="transitions-per-word" {printf "%.2f", $4}' <<<"$stats")
    echo "| $tb | $sys | ${label:-} | $uas | $las | $wps | ${tpw:-} |"
  done
done
