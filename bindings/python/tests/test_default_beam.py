"""The model's default beam width: a model trained with a beam of K parses
at width K when the caller does not choose one, from Python (beam=None),
from C (tp_options.beam 0, through the C example) and from the
command line (parse without --beam); a model without beam classifiers
parses greedily (the bundled one)."""

import subprocess

import pytest

import transparse
from conftest import REPO, need_file

FIXTURES = REPO / "testdata" / "ud"
CLI = REPO / "bin" / "transparse"
C_EXAMPLE = REPO / "bindings" / "c" / "examples" / "parse"


@pytest.fixture(scope="module")
def beam_model(tmp_path_factory):
    """A small model trained with beam classifiers of width 4, and its file."""
    path = tmp_path_factory.mktemp("beam") / "beam.tpm"
    m = transparse.train("arc-eager", FIXTURES / "en_ewt-train-150.conllu", FIXTURES / "en_ewt-dev-40.conllu",
                         gold={"epochs": 1}, plain={"epochs": 1}, taggers={"epochs": 1}, jackknife_folds=2,
                         beam={"width": 4, "epochs": 2}, output=path)
    yield m, path
    m.close()


def _dev():
    return (FIXTURES / "en_ewt-dev-40.conllu").read_text(encoding="utf-8")


def _forms(doc):
    sents = []
    for block in doc.split("\n\n"):
        forms = [c[1] for c in (line.split("\t") for line in block.split("\n")) if len(c) == 10 and c[0].isdigit()]
        if forms:
            sents.append(forms)
    return sents


def test_default_width(beam_model, model):
    m, _ = beam_model
    assert m.default_beam == 4
    assert m.card["options"]["default_beam"] == "4"
    assert model.default_beam == 1


def test_python_default_is_the_models_width(beam_model):
    m, _ = beam_model
    sents = _forms(_dev())
    default = [m.parse(s, confidence=True) for s in sents]
    assert default == [m.parse(s, beam=4, confidence=True) for s in sents]
    assert default == [m.parse(s, beam=0, confidence=True) for s in sents]
    greedy = [m.parse(s, beam=1, confidence=True) for s in sents]
    assert default != greedy, "the default parse is the greedy one"
    # Without options the default too, one sentence and in a batch.
    assert [m.parse(s) for s in sents] == [m.parse(s, beam=4) for s in sents]
    assert m.parse_batch(sents) == [m.parse(s, beam=4) for s in sents]
    assert m.parse_batch(sents, confidence=True) == default
    # k is bounded by the default width.
    assert all(1 <= len(trees) <= 4 for trees in m.parse_batch(sents, k=4))
    with pytest.raises(transparse.ArgumentError, match="tp_parse_batch: invalid parse options: kbest 5"):
        m.parse_batch(sents, k=5)
    with pytest.raises(transparse.ArgumentError, match="tp_parse: invalid parse options: kbest 5"):
        m.parse(sents[0], k=5)


def test_same_default_everywhere(beam_model, model, model_file, tmp_path):
    need_file(CLI)
    need_file(C_EXAMPLE)
    m, path = beam_model
    doc = _dev()
    dev = FIXTURES / "en_ewt-dev-40.conllu"
    tokens = tmp_path / "tokens.txt"
    tokens.write_text("".join(" ".join(s) + "\n" for s in _forms(doc)), encoding="utf-8")

    def run(cmd, stdin):
        with open(stdin, "rb") as f:
            return subprocess.run(cmd, stdin=f, capture_output=True, check=True).stdout.decode("utf-8")

    for p, mod, width in ((path, m, 4), (model_file, model, 1)):
        cli = run([str(CLI), "parse", "-m", str(p), "--input", "conllu", "--confidence"], dev)
        c = run([str(C_EXAMPLE), "-m", str(p), "-c", "-C"], dev)  # tp_options.beam 0
        assert cli == c, "CLI and C differ"
        assert cli == mod.parse_document(doc, confidence=True), "CLI and Python differ"
        assert cli == mod.parse_document(doc, beam=width, confidence=True)
        kb = min(2, width)  # the trees come from the default beam
        cli = run([str(CLI), "parse", "-m", str(p), "--input", "tokens", "--kbest", str(kb)], tokens)
        c = run([str(C_EXAMPLE), "-m", str(p), "-k", str(kb)], tokens)
        assert cli == c, "CLI and C differ (tokens)"
        assert cli == mod.parse_document(tokens.read_text(encoding="utf-8"), k=kb, input="tokens"), "CLI and Python differ (tokens)"
        assert ("# kbest_rank = 2\n" in cli) == (width > 1)
    # The greedy parse of the beam model is not its default parse.
    assert run([str(CLI), "parse", "-m", str(path), "--beam", "1"], dev) != run([str(CLI), "parse", "-m", str(path)], dev)
