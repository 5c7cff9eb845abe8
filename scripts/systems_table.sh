#!/usr/bin/env bash
# Trains one gold-tags-only model per transition system on EWT and on
# Hungarian Szeged (train, selected on dev), with the classifier for beam
# search of width $BEAM beside the greedy one, scores each on test with gold
# tags, and prints one Markdown table row per (treebank, system): dev LAS
# (greedy, from the card), test UAS/LAS and words/s (one thread, CLI, gold
# tags) of the greedy parser, test LAS and words/s at beam width $BEAM, the
# oracle's transitions per word on the test trees it derives, and the
# training seconds of the greedy and the beam classifier. The models go to
# $OUT (default models/systems, not committed); an existing model file is
# scored, not trained again.
#
#   scripts/systems_table.sh [SYSTEM...]      (default: every system)
#   UD=/path/to/ud EPOCHS=12 scripts/systems_table.sh arc-eager swap-lazy
#   TREEBANKS=hu_szeged EPOCHS=20 scripts/systems_table.sh arc-eager+pp-path
#
# A SYSTEM+pp-ENC argument trains SYSTEM with --pseudo-projective ENC.
# UD defaults to $TRANSPARSE_UD_DIR, else ../shared/data/ud (as for the tests).
# BEAM (default 8) is the beam width K, BEAM_EPOCHS (default 10) the epochs of
# global training of its classifier, BEAM_RUNS (default 1, the table in
# docs/systems.md) the runs averaged into it (beam.runs); BEAM=0 trains
# and scores the greedy parser only. TRAIN=0 trains nothing: missing models get "—" rows.
set -euo pipefail
cd "$(dirname "$0")/.."
UD=${UD:-${TRANSPARSE_UD_DIR:-../shared/data/ud}}
OUT=${OUT:-models/systems}
EPOCHS=${EPOCHS:-12}
BEAM=${BEAM:-8}
BEAM_EPOCHS=${BEAM_EPOCHS:-10}
BEAM_RUNS=${BEAM_RUNS:-1}
TRAIN=${TRAIN:-1}
# EWT_MAX > 0 trains the EWT models on the first EWT_MAX sentences only.
EWT_MAX=${EWT_MAX:-0}
BIN=${BIN:-bin/transparse}
mkdir -p "$OUT"
[ -x "$BIN" ] || go build -o "$BIN" ./cmd/transparse
systems=("$@")
if [ ${#systems[@]} -eq 0 ]; then
  mapfile -t systems < <("$BIN" train --help | sed -n 's/.*available: \(.*\)\./\1/p' | tr ',' '\n' | tr -d ' ')
fi
# The training options beyond the flags (train --options): the beam's, and
# for small treebanks every feature kept (pruning is tuned for EWT).
beamjson=""
[ "$BEAM" -gt 0 ] && beamjson="\"beam\": {\"width\": $BEAM, \"epochs\": $BEAM_EPOCHS, \"runs\": $BEAM_RUNS}"
keepall='"gold": {"drop_weights_below": -1, "min_feature_updates": -1}'

# score MODEL TESTFILE [EVAL FLAG...] prints "UAS LAS words/s" of eval.
score() {
  local ev
  ev=$("$BIN" eval -m "$1" "${@:3}" "$2")
  awk '$1=="UAS"{u=$7} $1=="LAS"{l=$7} /words\/s\)/{w=$0; sub(/.*\(/, "", w); sub(/ words.*/, "", w)}
       END{print u, l, w}' <<<"$ev"
}

echo "| treebank | system | pseudo-projective | dev LAS | test UAS | test LAS | words/s | test LAS, beam $BEAM | words/s, beam $BEAM | transitions/word (oracle, test) | training (greedy + beam) |"
echo "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"
for tb in ${TREEBANKS:-en_ewt hu_szeged}; do
  stats=$("$BIN" stats --format tsv "$UD/$tb-ud-test.conllu" 2>/dev/null || true)
  for spec in "${systems[@]}"; do
    sys=${spec%%+*}
    opts=()
    label=""
    if [[ $spec == *+pp-* ]]; then
      enc=${spec#*+pp-}
      opts+=(--pseudo-projective "$enc")
      label=$enc
    fi
    json=$beamjson
    [ "$tb" = hu_szeged ] && json+="${json:+, }$keepall"
    printf '{%s}\n' "$json" >"$OUT/options.json"
    opts+=(--options "$OUT/options.json")
    [ "$tb" = en_ewt ] && [ "$EWT_MAX" -gt 0 ] && opts+=(--max-sentences "$EWT_MAX")
    model="$OUT/$tb-${spec//+/_}.tpm"
    tpw=$(awk -F'\t' -v s="$sys" '$2==s && $3=="transitions-per-word" {printf "%.2f", $4}' <<<"$stats")
    if [ ! -f "$model" ] && [ "$TRAIN" = 0 ]; then
      echo "| $tb | $sys | $label | — | — | — | — | — | — | ${tpw:-} | — |"
      continue
    fi
    if [ ! -f "$model" ]; then
      "$BIN" train --system "$sys" --gold-only --epochs "$EPOCHS" "${opts[@]}" \
        --train "$UD/$tb-ud-train.conllu" --dev "$UD/$tb-ud-dev.conllu" \
        -o "$model" >"$model.log" 2>&1
    fi
    card=$("$BIN" inspect --json "$model")
    dev=$(jq -r '.scores["dev/gold/LAS"] // empty' <<<"$card" | awk '{printf "%.2f", $1}')
    secs=$(jq -r '.options.training_seconds // empty' <<<"$card")
    # --beam 1: the greedy parser, also for a model whose default width is
    # its beam classifier's.
    read -r uas las wps < <(score "$model" "$UD/$tb-ud-test.conllu" --beam 1)
    blas="—" bwps="—" training="$secs s"
    if [ "$BEAM" -gt 0 ] && [ "$(jq -r '.options.beam // "0"' <<<"$card")" != 0 ]; then
      read -r _ blas bwps < <(score "$model" "$UD/$tb-ud-test.conllu" --beam "$BEAM")
      # The greedy classifier's seconds: the last greedy epoch's in the
      # training log ("... [N s]"), the rest is the beam classifier's.
      greedy=$(sed -n 's/^parser (gold tags) epoch .*\[\([0-9]*\) s\]$/\1/p' "$model.log" 2>/dev/null | tail -1)
      [ -n "$greedy" ] && [ -n "$secs" ] && training="$greedy + $((secs - greedy)) s"
    fi
    echo "| $tb | $sys | $label | $dev | $uas | $las | $wps | $blas | $bwps | ${tpw:-} | $training |"
  done
done
