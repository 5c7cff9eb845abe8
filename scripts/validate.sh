#!/usr/bin/env bash
# validate.sh -- check CoNLL-U files with UD's official validator
# (validate.py of the UD tools, published on PyPI as the package udtools).
#
#   scripts/validate.sh [--setup] [--lang LANG] [--level N] [FILE...]
#
#   --lang LANG  the language whose lists the validator uses (ISO 639 code,
#                e.g. en; default ud: the universal part of the guidelines
#                only)
#   --level N    1: the CoNLL-U backbone; 2 (default): the UD format;
#                3: UD contents; 4, 5: language-specific labels, contents
#   --setup      install the validator into the cache and stop
#   FILE         CoNLL-U files, or "-" (the default) for standard input
#
# The exit status is the validator's: 0 when every file passes, 1 when one
# does not (its errors and a summary go to standard error).
#
# Everything fetched lives in a cache outside the repository,
# $TRANSPARSE_UDTOOLS_CACHE (default ${XDG_CACHE_HOME:-$HOME/.cache}/transparse/udtools):
#   venv/   a Python virtual environment holding udtools (pinned below) and
#           its dependencies, installed by pip from PyPI; it also holds the
#           official scorer of the CoNLL 2018 shared task as venv/bin/udeval,
#           which the parser/eval tests compare `transparse eval` with.
# The first call installs it (seconds); later calls reuse it.
#
# Example: the EWT test set parsed from plain tokens, at level 2:
#   bin/transparse parse --no-tags -m models/en_ewt.tpm en_ewt-ud-test.conllu |
#       scripts/validate.sh --lang en --level 2
set -euo pipefail

UDTOOLS_VERSION=0.2.9
CACHE=${TRANSPARSE_UDTOOLS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/transparse/udtools}
PYTHON=${PYTHON:-python3}

lang=ud
level=2
setup_only=0
while [[ $# -gt 0 ]]; do
    case $1 in
    --setup) setup_only=1 ;;
    --lang) lang=${2:?--lang needs a value}; shift ;;
    --level) level=${2:?--level needs a value}; shift ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    --) shift; break ;;
    -?*) echo "validate.sh: unknown option $1" >&2; exit 2 ;;
    *) break ;;
    esac
    shift
done

die() { echo "validate.sh: $*" >&2; exit 1; }

venv=$CACHE/venv
have=$("$venv/bin/python" -c 'import importlib.metadata as m; print(m.version("udtools"))' 2>/dev/null || true)
if [[ $have != "$UDTOOLS_VERSION" ]]; then
    echo "validate.sh: installing udtools $UDTOOLS_VERSION into $venv" >&2
    mkdir -p "$CACHE"
    [[ -x $venv/bin/python ]] || "$PYTHON" -m venv "$venv" || die "cannot create a virtual environment with $PYTHON (python3-venv)"
    "$venv/bin/python" -m pip install -q --disable-pip-version-check "udtools==$UDTOOLS_VERSION" ||
        die "pip could not install udtools $UDTOOLS_VERSION"
fi
[[ $setup_only == 1 ]] && { echo "$venv"; exit 0; }

[[ $# -gt 0 ]] || set -- -
exec "$venv/bin/udvalidate" --lang "$lang" --level "$level" "$@"
