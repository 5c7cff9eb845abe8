#!/usr/bin/env bash
# bench_text.sh -- the raw-text section of the benchmark results: transparse
# through the C API from raw text and from the same sentences pre-tokenized
# (scripts/textbench.c), and the raw-text peer UDPipe 1
# (scripts/udpipe/peer.sh), all on one thread, scored with the CoNLL 2018
# shared task's scorer. Prints a Markdown section ("## Raw text");
# scripts/bench.sh includes it in docs/bench-results.md.
#
#   scripts/bench_text.sh [CONLLU]
#   PASSES=3 MALT_WORDS_PER_S=... UDPIPE=0 TRANSPARSE_MODEL=... scripts/bench_text.sh
#
# CONLLU defaults to en_ewt-ud-test.conllu in $TRANSPARSE_UD_DIR (else
# ../shared/data/ud beside the repository): its raw text is made by
# scripts/ud_text.py, its pre-tokenized form from its words (one sentence a
# line, the FORMs of the syntactic words separated by spaces). The model is
# $TRANSPARSE_MODEL, else models/en_ewt.tpm; raw text needs one with a
# segmenter. Ratios (N×) are to MaltParser's words/s with gold tags
# (MALT_WORDS_PER_S, else measured here by scripts/malt/peer.sh; PEER=0: no
# ratios). UDPIPE=0 leaves UDPipe out (its first run installs and trains it,
# hours with UDPipe's defaults). A library or model that cannot parse raw text gives rows
# that say so instead of figures.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DATA=${1:-${DATA:-${TRANSPARSE_UD_DIR:-$ROOT/../shared/data/ud}/en_ewt-ud-test.conllu}}
[[ -f $DATA ]] || { echo "bench_text.sh: no CoNLL-U file at $DATA" >&2; exit 1; }
DATA=$(realpath "$DATA")
cd "$ROOT"
MODEL=${TRANSPARSE_MODEL:-$ROOT/models/en_ewt.tpm}
[[ -f $MODEL ]] || { echo "bench_text.sh: no model at $MODEL (set TRANSPARSE_MODEL)" >&2; exit 1; }
PASSES=${PASSES:-3}
# transparse's passes take under a second each; the best of four times
# PASSES keeps the raw / pre-tokenized ratio steady on a noisy machine.
TP_PASSES=$((PASSES * 4))
PEER=${PEER:-1}
UDPIPE=${UDPIPE:-1}

[[ -f lib/libtransparse.so.0 && -f lib/pkgconfig/transparse.pc ]] || ./build.sh >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export PKG_CONFIG_PATH="$ROOT/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
# shellcheck disable=SC2046
${CC:-cc} -std=c11 -O2 -Wall -Wextra $(pkg-config --cflags transparse) scripts/textbench.c \
    -o "$work/textbench" $(pkg-config --libs transparse)
python3 scripts/ud_text.py "$DATA" >"$work/test.txt"
awk -F'\t' 'NF == 10 && $1 ~ /^[0-9]+$/ { printf "%s%s", (n++ ? " " : ""), $2 }
    /^$/ && n { print ""; n = 0 }' "$DATA" >"$work/test.tokens"

get() { awk -v k="$1" '$1==k{print $2}' <<<"$2"; }
malt=${MALT_WORDS_PER_S:-}
if [[ -z $malt && $PEER == 1 ]]; then
    malt=$(get malt_words_per_s "$(scripts/malt/peer.sh -p "$PASSES" "$DATA")")
fi
# r FIGURE: a words/s figure with its ratio to MaltParser's.
r() { awk -v a="$1" -v b="$malt" 'BEGIN { if (a == "" || a == "-" || b == "") print a; else printf "%s (%.2f×)", a, a / b }'; }
# scores CONLLU: "Tokens | Sentences | Words | UPOS | LAS" F1 of the scorer.
udeval=$(scripts/validate.sh --setup)/bin/udeval
scores() {
    "$udeval" -v "$DATA" "$1" | awk -F'|' '
        { gsub(/ /, "", $1); gsub(/ /, "", $4); f[$1] = $4 }
        END { printf "%s | %s | %s | %s | %s", f["Tokens"], f["Sentences"], f["Words"], f["UPOS"], f["LAS"] }'
}

rc=0
tp=$("$work/textbench" -m "$MODEL" -p "$TP_PASSES" -o "$work/text.conllu" "$work/test.txt" "$work/test.tokens" 2>"$work/err") || rc=$?
((rc == 0 || rc == 3)) || { cat "$work/err" >&2; exit 1; }
udp=""
[[ $UDPIPE == 1 ]] && udp=$(scripts/udpipe/peer.sh -p "$PASSES" "$DATA")

ratios=""
[[ -n $malt ]] && ratios="; (N×): the ratio to MaltParser's words/s with gold tags ($malt)"
echo "## Raw text"
echo
echo "Model: $(basename "$MODEL"). Data: the raw text of $(basename "$DATA") ($(stat -c %s "$work/test.txt") bytes, \`scripts/ud_text.py\`) and the same sentences pre-tokenized (the FORMs of their words, one sentence a line). One thread, in-process, best of $TP_PASSES passes (transparse, raw text and pre-tokenized alternating) and of $PASSES (UDPipe) after an untimed one; words: the syntactic words of each output. Scores: F1 of the CoNLL 2018 shared task's scorer (\`udeval\`) against $(basename "$DATA")$ratios."
echo
echo "| system | input → output | words/s | Tokens | Sentences | Words | UPOS | LAS |"
echo "|---|---|---:|---:|---:|---:|---:|---:|"
if ((rc == 3)); then
    why=$(sed 's/^textbench: //; s/|/\\|/g' "$work/err" | head -1)
    echo "| transparse C API, \`TP_INPUT_TEXT\` | raw text → CoNLL-U | skipped: $why | | | | | |"
    echo "| transparse C API, \`TP_INPUT_TOKENS\` | pre-tokenized → CoNLL-U | skipped | | | | | |"
else
    echo "| transparse C API, \`TP_INPUT_TEXT\` | raw text → CoNLL-U | $(r "$(get text_words_per_s "$tp")") | $(scores "$work/text.conllu") |"
    echo "| transparse C API, \`TP_INPUT_TEXT\`, \`tokenize_only\` | raw text → segmentation | $(get tokenize_words_per_s "$tp") | | | | | |"
    echo "| transparse C API, \`TP_INPUT_TOKENS\` | pre-tokenized → CoNLL-U | $(r "$(get tokens_words_per_s "$tp")") | | | | | |"
fi
if [[ -n $udp ]]; then
    echo "| UDPipe 1.4.0 (peer), morphodita_parsito, options: $(sed -n 's/^udpipe_options //p' <<<"$udp") | raw text → CoNLL-U | $(r "$(get udpipe_words_per_s "$udp")") | $(get udpipe_tokens "$udp") | $(get udpipe_sentences "$udp") | $(get udpipe_words "$udp") | $(get udpipe_upos "$udp") | $(get udpipe_las "$udp") |"
    echo "| UDPipe 1.4.0 (peer), tokenizer alone | raw text → segmentation | $(get udpipe_tokenize_words_per_s "$udp") | | | | | |"
fi
echo
if ((rc == 0)); then
    echo "transparse, raw text / pre-tokenized words/s: $(awk -v a="$(get text_words_per_s "$tp")" -v b="$(get tokens_words_per_s "$tp")" 'BEGIN { printf "%.2f", a / b }') (bar: at least 0.85)."
fi
if [[ -n $udp ]]; then
    echo "UDPipe: trained in $(get udpipe_training_s "$udp") s (wall clock, niced, on this shared machine), model $(get udpipe_model_mb "$udp") MB, loads in $(get udpipe_load_ms "$udp") ms (\`scripts/udpipe/peer.sh\`)."
fi
