#!/usr/bin/env bash
# fetch.sh -- English word clusters for the taggers and the parser
# templates over them (`transparse train --clusters`): the Brown clusters of spaCy's lookup tables, the PyPI
# package spacy-lookups-data (MIT licence), written as a Brown "paths"
# file of the WORDS most probable words (default 50000).
#
#   scripts/clusters/fetch.sh [WORDS]
#
# Prints the path of the file it made. The wheel and the file live in a
# cache outside the repository, $TRANSPARSE_CLUSTERS_CACHE (default
# ${XDG_CACHE_HOME:-$HOME/.cache}/transparse/clusters); later calls reuse
# them. Needs python3 with pip. docs/features.md ("Word clusters") says
# how the taggers use them.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
WORDS=${1:-50000}
VERSION=1.0.5
CACHE=${TRANSPARSE_CLUSTERS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/transparse/clusters}
OUT=$CACHE/en-spacy-$VERSION-$WORDS.paths
if [[ -s $OUT ]]; then
    echo "$OUT"
    exit 0
fi
mkdir -p "$CACHE"
WHEEL=$CACHE/spacy_lookups_data-$VERSION-py2.py3-none-any.whl
if [[ ! -s $WHEEL ]]; then
    python3 -m pip download --quiet --no-deps --only-binary :all: "spacy-lookups-data==$VERSION" -d "$CACHE" >&2
fi
python3 "$ROOT/scripts/clusters/paths.py" "$WHEEL" "$WORDS" > "$OUT.tmp"
mv "$OUT.tmp" "$OUT"
echo "$OUT"
