"""The same EWT test parse, byte for byte, from the command line, from C and
from Python: once from plain tokens (the model's taggers predict UPOS and XPOS) and
once from CoNLL-U with the gold UPOS/XPOS/FEATS/LEMMA given."""

import os
import pathlib
import subprocess

import pytest

from conftest import REPO

EWT_TEST = REPO.parent / "shared" / "data" / "ud" / "en_ewt-ud-test.conllu"
CLI = REPO / "bin" / "transparse"
C_EXAMPLE = REPO / "bindings" / "c" / "examples" / "parse"


def _need(path):
    if not path.exists():
        if os.environ.get("CI"):
            pytest.fail(f"{path} is missing (run ./build.sh first)")
        pytest.skip(f"{path} is missing (run ./build.sh first)")


def _sentences(text):
    """Yield the word forms of each sentence of a CoNLL-U document."""
    forms = []
    for line in text.split("\n"):
        if not line:
            if forms:
                yield forms
            forms = []
        elif not line.startswith("#"):
            cols = line.split("\t")
            if cols[0].isdigit():
                forms.append(cols[1])
    if forms:
        yield forms


def _run(cmd, stdin_path):
    with open(stdin_path, "rb") as f:
        return subprocess.run(cmd, stdin=f, capture_output=True, check=True).stdout


@pytest.fixture(scope="module")
def ewt_test():
    _need(EWT_TEST)
    _need(CLI)
    _need(C_EXAMPLE)
    return EWT_TEST.read_text(encoding="utf-8")


def test_plain_tokens_same_everywhere(model, model_file, ewt_test, tmp_path):
    sents = list(_sentences(ewt_test))
    tokens = tmp_path / "tokens.txt"
    tokens.write_text("".join(" ".join(s) + "\n" for s in sents), encoding="utf-8")

    cli = _run([str(CLI), "parse", "-m", str(model_file), "--format", "tokens"], tokens)
    c = _run([str(C_EXAMPLE), "-m", str(model_file)], tokens)
    out = []
    for i, forms in enumerate(sents, 1):
        out.append(f"# sent_id = {i}\n# text = {' '.join(forms)}\n")
        out.append(model.parse(forms).to_conllu())
    py = "".join(out).encode("utf-8")

    assert cli.count(b"\n\n") == len(sents)
    assert cli == c, "CLI and C differ"
    assert cli == py, "CLI and Python differ"


def test_gold_tags_conllu_same_everywhere(model, model_file, ewt_test):
    cli = _run([str(CLI), "parse", "-m", str(model_file), "--format", "conllu"], EWT_TEST)
    c = _run([str(C_EXAMPLE), "-m", str(model_file), "-c"], EWT_TEST)
    py = model.parse_conllu(ewt_test).encode("utf-8")

    assert cli.count(b"\n\n") == ewt_test.count("\n\n")
    assert cli == c, "CLI and C differ"
    assert cli == py, "CLI and Python differ"
