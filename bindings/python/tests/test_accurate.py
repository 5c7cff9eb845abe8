"""The accurate mode through Python (accurate=True): the tree the command
line's ``transparse parse --accurate`` writes, from every entry point;
refused with k and for a model without classifiers trained for the beam."""

import subprocess

import pytest

import transparse
from conftest import REPO, need_file, train_small

DEV = REPO / "testdata" / "ud" / "en_ewt-dev-40.conllu"
CLI = REPO / "bin" / "transparse"


def _columns(doc):
    """(form, head, deprel) of every word line of a CoNLL-U document, by sentence."""
    sents = []
    for block in doc.strip("\n").split("\n\n"):
        rows = [c for c in (line.split("\t") for line in block.split("\n")) if len(c) == 10 and c[0].isdigit()]
        sents.append([(c[1], int(c[6]), c[7]) for c in rows])
    return sents


def _cli(model_file, *args):
    need_file(CLI)
    return subprocess.run([str(CLI), "parse", "-m", str(model_file), "-t", "1", "--accurate", *args],
                          capture_output=True, check=True).stdout.decode("utf-8")


def test_same_as_cli(model, model_file):
    dev = DEV.read_text(encoding="utf-8")
    cli = _cli(model_file, str(DEV))
    assert model.parse_document(dev, accurate=True) == cli
    assert "".join(model.stream(DEV, accurate=True)) == cli
    assert cli != model.parse_document(dev, beam=8), "the vote changes some trees"


def test_tokens_same_as_cli(model, model_file, tmp_path):
    """Tokens without tags, the input of parse: the CLI's trees, well-formed,
    with a confidence per word."""
    sents = [[f for f, _, _ in s] for s in _columns(DEV.read_text(encoding="utf-8"))]
    tokens = tmp_path / "dev.txt"
    tokens.write_text("".join(" ".join(s) + "\n" for s in sents), encoding="utf-8")
    cli = _cli(model_file, "--input", "tokens", str(tokens))
    assert model.parse_document(tokens.read_text(encoding="utf-8"), input="tokens", accurate=True) == cli
    got = model.parse_batch(sents, accurate=True, confidence=True)
    for want, s in zip(_columns(cli), got):
        assert [(t.form, t.head, t.deprel) for t in s] == want
        assert sorted(t.head for t in s).count(0) == 1
        assert all(0 <= t.confidence <= 1 for t in s)
        assert model.parse([t.form for t in s], accurate=True, confidence=True) == s


def test_refused(model, tmp_path):
    with pytest.raises(transparse.ArgumentError, match="accurate mode"):
        model.parse(["Dogs", "bark"], accurate=True, k=1)
    small = transparse.Model.load(train_small(tmp_path / "greedy.tpm"))
    try:
        for call in (lambda: small.parse(["Dogs", "bark"], accurate=True),
                     lambda: small.parse_document("Dogs bark\n", input="tokens", accurate=True)):
            with pytest.raises(transparse.ArgumentError, match="accurate mode: the model has no classifiers trained"):
                call()
        assert small.parse(["Dogs", "bark"], beam=1)
    finally:
        small.close()
