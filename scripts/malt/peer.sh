#!/usr/bin/env bash
# peer.sh -- the benchmark peer: MaltParser 1.9.2 (stacklazy, liblinear,
# default features) trained once on UD English EWT train, then parsing DATA
# warm in-process through its concurrent API on one thread
# (scripts/malt/MaltBench.java). docs/benchmarks.md describes the setup.
#
#   scripts/malt/peer.sh [--setup] [-p PASSES] [DATA]
#
# Everything fetched or made lives in a cache outside the repository,
# $TRANSPARSE_MALT_CACHE (default ${XDG_CACHE_HOME:-$HOME/.cache}/transparse/maltparser):
#   lib/       the MaltParser jar and its dependencies (Maven, `mvn dependency:copy`)
#   m2/        Maven's local repository for them
#   classes/   MaltBench compiled with javac against lib/
#   TRAIN-stacklazy-HASH.mco   the trained model, named after the training
#              file and its contents (HASH), so that another release trains anew
# The first call fetches and trains (several minutes); later calls reuse the
# cache. --setup stops after that.
#
# DATA defaults to en_ewt-ud-test.conllu and the training file to
# en_ewt-ud-train.conllu (MALT_TRAIN), both in $TRANSPARSE_UD_DIR (else
# ../shared/data/ud beside the repository). Prints "key value" lines:
#   malt_words_per_s  best of PASSES timed passes after the JIT warm-up passes
#   malt_las          LAS of the last pass against DATA (`transparse eval`)
#   malt_extra_roots  words moved off the root so that eval accepts the parse
#                     (scripts/malt/MaltBench.java says how)
#   malt_uas, malt_words, malt_load_ms (initializeParserModel in the fresh
#   JVM), malt_model_mb (the .mco file), malt_training_s (when this cache
#   trained it)
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

MALT_VERSION=1.9.2
# MaltParser and the dependencies its POM names, with their versions.
ARTIFACTS=(
    "org.maltparser:maltparser:$MALT_VERSION"
    "log4j:log4j:1.2.16"
    "tw.edu.ntu.csie:libsvm:3.1"
    "de.bwaldvogel:liblinear:1.8"
)
CACHE=${TRANSPARSE_MALT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/transparse/maltparser}
UD=${TRANSPARSE_UD_DIR:-$ROOT/../shared/data/ud}
TRAIN=${MALT_TRAIN:-$UD/en_ewt-ud-train.conllu}
# JAVA_OPTS is split into words where used.
PASSES=${PASSES:-3}
WARMUP=${MALT_WARMUP:-5}
JAVA_OPTS=${MALT_JAVA_OPTS:--Xmx4g}

setup_only=0
while [[ $# -gt 0 ]]; do
    case $1 in
    --setup) setup_only=1 ;;
    -p) PASSES=$2; shift ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) echo "peer.sh: unknown option $1" >&2; exit 2 ;;
    *) break ;;
    esac
    shift
done
DATA=${1:-${DATA:-$UD/en_ewt-ud-test.conllu}}
[[ -f $DATA ]] && DATA=$(realpath "$DATA")
[[ -f $TRAIN ]] && TRAIN=$(realpath "$TRAIN")
cd "$ROOT"

die() { echo "peer.sh: $*" >&2; exit 1; }
for tool in mvn java javac; do
    command -v "$tool" >/dev/null || die "needs $tool (Maven and a JDK) on PATH"
done
[[ -f $TRAIN ]] || die "no training file at $TRAIN (set TRANSPARSE_UD_DIR or MALT_TRAIN)"
[[ $setup_only == 1 || -f $DATA ]] || die "no CoNLL-U file at $DATA"
mkdir -p "$CACHE/lib"

# 1. The jars, from Maven Central through Maven.
cp=""
for a in "${ARTIFACTS[@]}"; do
    IFS=: read -r _ art ver <<<"$a"
    jar=$CACHE/lib/$art-$ver.jar
    if [[ ! -f $jar ]]; then
        echo "peer.sh: fetching $a" >&2
        log=$(mvn -q -B --strict-checksums -Dmaven.repo.local="$CACHE/m2" dependency:copy \
            -Dartifact="$a" -DoutputDirectory="$CACHE/lib" 2>&1) ||
            { echo "$log" >&2; die "mvn could not fetch $a"; }
    fi
    cp+=${cp:+:}$jar
done

# 2. The model, trained once per training file.
hash=$(sha256sum "$TRAIN" | cut -c1-12)
name=$(basename "$TRAIN" .conllu)-stacklazy-$hash
mco=$CACHE/$name.mco
if [[ ! -f $mco ]]; then
    echo "peer.sh: training MaltParser $MALT_VERSION (stacklazy, liblinear) on $TRAIN; this takes several minutes" >&2
    work=$(mktemp -d "$CACHE/train.XXXXXX")
    trap 'rm -rf "$work"' EXIT
    # MaltParser reads words only: drop comments, multiword-token and
    # empty-node lines; DEPS and MISC are not used.
    awk -F'\t' 'BEGIN { OFS = "\t" }
        /^#/ { next }
        NF == 10 { if ($1 !~ /^[0-9]+$/) next; $9 = "_"; $10 = "_" }
        { print }' "$TRAIN" >"$work/train.conllu"
    # -grl root: the label of words left on the root, as UD names it.
    start=$SECONDS
    # shellcheck disable=SC2086
    (cd "$work" && java $JAVA_OPTS -cp "$cp" org.maltparser.Malt -w "$work" -c "$name" -m learn \
        -i "$work/train.conllu" -if conllu -a stacklazy -l liblinear -grl root) >"$work/learn.log" 2>&1 ||
        { tail -20 "$work/learn.log" >&2; die "MaltParser training failed"; }
    echo $((SECONDS - start)) >"$CACHE/$name.training_seconds"
    mv "$work/$name.mco" "$mco.tmp" && mv "$mco.tmp" "$mco"
    rm -rf "$work"
    trap - EXIT
fi

# 3. The harness, compiled against the fetched jars.
src=$ROOT/scripts/malt/MaltBench.java
cls=$CACHE/classes
if [[ ! -f $cls/MaltBench.class || $src -nt $cls/MaltBench.class ]]; then
    mkdir -p "$cls"
    javac -d "$cls" -cp "$cp" "$src" >&2
fi
[[ $setup_only == 1 ]] && exit 0

# 4. Parse DATA and check the parse against it.
[[ -x bin/transparse ]] || ./build.sh >/dev/null
out=$(mktemp --suffix=.conllu)
trap 'rm -f "$out"' EXIT
# MaltParser's own messages go to $CACHE/parse.log.
# shellcheck disable=SC2086
res=$(cd "$CACHE" && java $JAVA_OPTS -cp "$cp:$cls" MaltBench -m "$mco" -p "$PASSES" -w "$WARMUP" \
    -o "$out" "$DATA" 2>"$CACHE/parse.log") ||
    { tail -20 "$CACHE/parse.log" >&2; die "MaltBench failed (log: $CACHE/parse.log)"; }
scores=$(bin/transparse eval --json "$DATA" "$out")
awk '{ print "malt_" $1, $2 }' <<<"$res"
echo "malt_model_mb $(awk -v b="$(stat -c %s "$mco")" 'BEGIN { printf "%.2f", b / 1e6 }')"
echo "malt_training_s $(cat "$CACHE/$name.training_seconds" 2>/dev/null || echo -)"
python3 -c 'import json, sys
s = json.load(sys.stdin)["scores"]
print("malt_uas %.2f\nmalt_las %.2f" % (s["UAS"]["f1"], s["LAS"]["f1"]))' <<<"$scores"
