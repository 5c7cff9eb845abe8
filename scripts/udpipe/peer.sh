#!/usr/bin/env bash
# peer.sh -- the raw-text benchmark peer: UDPipe 1 (the ufal.udpipe binding
# from PyPI), method morphodita_parsito with its default tokenizer, tagger
# and parser options, trained once on UD English EWT train (tuned on dev),
# then running its whole pipeline (tokenizer, tagger, parser) over the raw
# text of TEST in-process on one thread (scripts/udpipe/udpipe_bench.py).
# docs/benchmarks.md describes the setup.
#
#   scripts/udpipe/peer.sh [--setup] [--train-bg] [-p PASSES] [TEST]
#
# Everything fetched or made lives in a cache outside the repository,
# $TRANSPARSE_UDPIPE_CACHE (default ${XDG_CACHE_HOME:-$HOME/.cache}/transparse/udpipe):
#   venv/   a Python virtual environment holding ufal.udpipe (pinned below),
#           installed by pip
#   TRAIN-morphodita_parsito-HASH.udpipe   the trained model, named after the
#           training file and the contents of train and dev (HASH), so that
#           another release trains anew; .training_seconds beside it holds
#           the wall-clock seconds of the training call, .train.log its log
# The first call installs and trains (hours on one core: each of the
# tokenizer's 100 epochs takes about 8 CPU seconds, each of the tagger's 20
# iterations about 3 CPU minutes, then the parser's 10 iterations);
# later calls reuse the cache. UDPIPE_TOKENIZER_OPTIONS, UDPIPE_TAGGER_OPTIONS
# and UDPIPE_PARSER_OPTIONS (UDPipe's option strings, e.g. "epochs=20";
# default empty: UDPipe's defaults) change the training; the options are
# part of HASH. --setup stops after that. --train-bg starts the training niced in
# the background (log in the cache) and returns at once; a call made while
# it runs waits for it.
#
# With UDPIPE_TAGGER_OPTIONS=none and UDPIPE_PARSER_OPTIONS=none, UDPipe
# trains its tokenizer alone (minutes) and only the segmentation is timed
# and scored: udpipe_tokens, udpipe_sentences and udpipe_words then come
# from the tokenizer's output, and the full pipeline's lines are left out.
# This is how the segmentation of another treebank is compared, e.g.
#   UDPIPE_TRAIN=$UD/tr_imst-ud-train.conllu UDPIPE_DEV=$UD/tr_imst-ud-dev.conllu \
#   UDPIPE_TAGGER_OPTIONS=none UDPIPE_PARSER_OPTIONS=none \
#   scripts/udpipe/peer.sh $UD/tr_imst-ud-test.conllu
#
# TEST defaults to en_ewt-ud-test.conllu, the training files to
# en_ewt-ud-train.conllu and en_ewt-ud-dev.conllu (UDPIPE_TRAIN, UDPIPE_DEV),
# all in $TRANSPARSE_UD_DIR (else ../shared/data/ud beside the repository).
# The raw text is made from TEST by scripts/ud_text.py and the output scored
# against TEST with the CoNLL 2018 shared task's scorer (udeval of UD's tools,
# scripts/validate.sh --setup). Prints "key value" lines:
#   udpipe_words_per_s     raw text -> CoNLL-U (tokenizer, tagger, parser):
#                          the best of PASSES timed passes after one untimed
#                          pass; words: the syntactic words of the output
#   udpipe_tokenize_words_per_s   the tokenizer alone (segmentation only),
#                          timed the same way
#   udpipe_tokens, udpipe_sentences, udpipe_words, udpipe_upos, udpipe_uas,
#   udpipe_las             the scorer's F1 of the full pipeline's output
#   udpipe_load_ms (Model.load), udpipe_model_mb (the model file),
#   udpipe_training_s (when this cache trained it), udpipe_options (the
#   training options: "default", or the three option strings)
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

UDPIPE_VERSION=1.4.0.1
CACHE=${TRANSPARSE_UDPIPE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/transparse/udpipe}
UD=${TRANSPARSE_UD_DIR:-$ROOT/../shared/data/ud}
TRAIN=${UDPIPE_TRAIN:-$UD/en_ewt-ud-train.conllu}
DEV=${UDPIPE_DEV:-$UD/en_ewt-ud-dev.conllu}
OPTS=("${UDPIPE_TOKENIZER_OPTIONS:-}" "${UDPIPE_TAGGER_OPTIONS:-}" "${UDPIPE_PARSER_OPTIONS:-}")
all_opts=${OPTS[0]}${OPTS[1]}${OPTS[2]}
PASSES=${PASSES:-3}
PYTHON=${PYTHON:-python3}

setup_only=0 background=0
while [[ $# -gt 0 ]]; do
    case $1 in
    --setup) setup_only=1 ;;
    --train-bg) setup_only=1 background=1 ;;
    -p) PASSES=$2; shift ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) echo "peer.sh: unknown option $1" >&2; exit 2 ;;
    *) break ;;
    esac
    shift
done
TEST=${1:-${DATA:-$UD/en_ewt-ud-test.conllu}}
[[ -f $TEST ]] && TEST=$(realpath "$TEST")
[[ -f $TRAIN ]] && TRAIN=$(realpath "$TRAIN")
[[ -f $DEV ]] && DEV=$(realpath "$DEV")
cd "$ROOT"

die() { echo "peer.sh: $*" >&2; exit 1; }
[[ -f $TRAIN && -f $DEV ]] || die "no training files at $TRAIN and $DEV (set TRANSPARSE_UD_DIR, UDPIPE_TRAIN, UDPIPE_DEV)"
[[ $setup_only == 1 || -f $TEST ]] || die "no CoNLL-U file at $TEST"
mkdir -p "$CACHE"

# 1. ufal.udpipe, from PyPI through pip.
venv=$CACHE/venv
have=$("$venv/bin/python" -c 'import importlib.metadata as m; print(m.version("ufal.udpipe"))' 2>/dev/null || true)
if [[ $have != "$UDPIPE_VERSION" ]]; then
    echo "peer.sh: installing ufal.udpipe $UDPIPE_VERSION into $venv" >&2
    [[ -x $venv/bin/python ]] || "$PYTHON" -m venv "$venv" || die "cannot create a virtual environment with $PYTHON (python3-venv)"
    "$venv/bin/python" -m pip install -q --disable-pip-version-check "ufal.udpipe==$UDPIPE_VERSION" ||
        die "pip could not install ufal.udpipe $UDPIPE_VERSION"
fi
helper=("$venv/bin/python" "$ROOT/scripts/udpipe/udpipe_bench.py")

# 2. The model, trained once per training data. A lock keeps a second call
# from training the same model again; it waits for the first instead.
hash=$( (cat "$TRAIN" "$DEV"; [[ -z $all_opts ]] || printf '%s\n' "${OPTS[@]}") | sha256sum | cut -c1-12)
name=$(basename "$TRAIN" .conllu)-morphodita_parsito-$hash
model=$CACHE/$name.udpipe
# options: the training options, for people.
options() {
    if [[ -z $all_opts ]]; then
        echo default
    else
        echo "tokenizer ${OPTS[0]:-default}; tagger ${OPTS[1]:-default}; parser ${OPTS[2]:-default}"
    fi
}
train() {
    exec 9>"$CACHE/$name.lock"
    flock 9
    [[ -f $model ]] && return 0
    echo "peer.sh: training UDPipe $UDPIPE_VERSION (morphodita_parsito, options: $(options)) on $TRAIN; hours with the defaults; log: $CACHE/$name.train.log" >&2
    nice -n 19 "${helper[@]}" train --tokenizer "${OPTS[0]}" --tagger "${OPTS[1]}" --parser "${OPTS[2]}" \
        "$TRAIN" "$DEV" "$model" >"$CACHE/$name.train.log" 2>&1 ||
        { tail -20 "$CACHE/$name.train.log" >&2; die "UDPipe training failed"; }
}
if [[ ! -f $model ]]; then
    if [[ $background == 1 ]]; then
        (train) </dev/null >/dev/null 2>&1 &
        echo "peer.sh: training in the background; log: $CACHE/$name.train.log" >&2
        exit 0
    fi
    (train)
fi
[[ $setup_only == 1 ]] && exit 0

# 3. The scorer.
udeval=$(scripts/validate.sh --setup)/bin/udeval

# 4. Tokenize, tag and parse TEST's raw text; score the output against TEST.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$PYTHON" scripts/ud_text.py "$TEST" >"$work/test.txt"
get() { awk -v k="$1" '$1==k{print $2}' <<<"$2"; }
if [[ ${OPTS[1]} == none && ${OPTS[2]} == none ]]; then
    tok=$("${helper[@]}" tokenize -p "$PASSES" "$model" "$work/test.txt" "$work/out.conllu")
    metrics='Tokens|Sentences|Words'
    echo "udpipe_tokenize_words_per_s $(get words_per_s "$tok")"
    echo "udpipe_load_ms $(get load_ms "$tok")"
else
    full=$("${helper[@]}" parse -p "$PASSES" "$model" "$work/test.txt" "$work/out.conllu")
    tok=$("${helper[@]}" tokenize -p "$PASSES" "$model" "$work/test.txt")
    metrics='Tokens|Sentences|Words|UPOS|UAS|LAS'
    echo "udpipe_words_per_s $(get words_per_s "$full")"
    echo "udpipe_tokenize_words_per_s $(get words_per_s "$tok")"
    echo "udpipe_load_ms $(get load_ms "$full")"
fi
echo "udpipe_model_mb $(awk -v b="$(stat -c %s "$model")" 'BEGIN { printf "%.2f", b / 1e6 }')"
echo "udpipe_training_s $(cat "$CACHE/$name.udpipe.training_seconds" 2>/dev/null || echo -)"
echo "udpipe_options $(options)"
# The scorer's table: "Metric | Precision | Recall | F1 Score | AligndAcc".
"$udeval" -v "$TEST" "$work/out.conllu" | awk -F'|' -v m="^($metrics)$" '
    { gsub(/ /, "", $1); gsub(/ /, "", $4) }
    $1 ~ m { printf "udpipe_%s %.2f\n", tolower($1), $4 }'
