"""The same EWT test parse, byte for byte, from the command line, from C and
from Python: once from plain tokens (the model predicts LEMMA, UPOS, XPOS and
FEATS as far as it has the components), once from CoNLL-U with the gold
UPOS/XPOS/FEATS/LEMMA given, and once with only the gold LEMMA and FEATS
given (kept as given; UPOS and XPOS predicted), through the documents and
through tp_parse_batch's results; and with a beam, confidences in MISC and
the k best trees, from plain tokens and with the gold tags, one sentence
at a time and in a batch (tp_parse_batch)."""

import os
import pathlib
import subprocess

import pytest

from conftest import REPO

EWT_TEST = REPO.parent / "shared" / "data" / "ud" / "en_ewt-ud-test.conllu"
CLI = REPO / "bin" / "transparse"
C_EXAMPLE = REPO / "bindings" / "c" / "examples" / "parse"


def _need(path, how):
    """Skip the test (fail it in CI) when path is missing; how says how to
    get it."""
    if not path.exists():
        msg = f"{path} is missing ({how})"
        if os.environ.get("CI"):
            pytest.fail(msg)
        pytest.skip(msg)


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
    _need(EWT_TEST, "the UD English EWT treebank: copy en_ewt-ud-test.conllu of UD_English-EWT, from universaldependencies.org, there")
    _need(CLI, "the command line: ./build.sh builds it")
    _need(C_EXAMPLE, "the C example: ./build.sh builds it")
    return EWT_TEST.read_text(encoding="utf-8")


def test_plain_tokens_same_everywhere(model, model_file, ewt_test, tmp_path):
    sents = list(_sentences(ewt_test))
    tokens = tmp_path / "tokens.txt"
    tokens.write_text("".join(" ".join(s) + "\n" for s in sents), encoding="utf-8")

    cli = _run([str(CLI), "parse", "-m", str(model_file), "--input", "tokens"], tokens)
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
    cli = _run([str(CLI), "parse", "-m", str(model_file), "--input", "conllu"], EWT_TEST)
    c = _run([str(C_EXAMPLE), "-m", str(model_file), "-c"], EWT_TEST)
    py = model.parse_document(ewt_test).encode("utf-8")

    assert cli.count(b"\n\n") == ewt_test.count("\n\n")
    assert cli == c, "CLI and C differ"
    assert cli == py, "CLI and Python differ"


def test_given_lemma_feats_same_everywhere(model, model_file, ewt_test, tmp_path):
    # The gold LEMMA and FEATS given, UPOS and XPOS blanked; bare_lines
    # the same without MISC.
    lines, bare_lines = [], []
    for line in ewt_test.split("\n"):
        cols = line.split("\t")
        if len(cols) == 10 and cols[0].isdigit():
            cols[3] = cols[4] = "_"
            bare_lines.append("\t".join(cols[:9] + ["_"]))
        else:
            bare_lines.append(line)
        lines.append("\t".join(cols))
    doc = "\n".join(lines)
    path = tmp_path / "lemma-feats.conllu"
    path.write_text(doc, encoding="utf-8")

    cli = _run([str(CLI), "parse", "-m", str(model_file), "--input", "conllu"], path)
    c = _run([str(C_EXAMPLE), "-m", str(model_file), "-c"], path)
    py = model.parse_document(doc).encode("utf-8")
    assert cli == c, "CLI and C differ"
    assert cli == py, "CLI and Python differ"

    # The per-word results (tp_parse_batch) give columns 1-8 of the
    # document parsed without MISC: words passed as lists carry no
    # SpaceAfter=No, which the XPOS tagger reads from a document.
    gold = [[line.split("\t") for line in block.split("\n") if line.split("\t")[0].isdigit()]
            for block in doc.split("\n\n") if block.strip()]
    parsed = model.parse_batch([{"words": [w[1] for w in s], "lemma": [w[2] for w in s],
                                "feats": [w[5] for w in s]} for s in gold])
    bare = tmp_path / "lemma-feats-no-misc.conllu"
    bare.write_text("\n".join(bare_lines), encoding="utf-8")
    cli_bare = _run([str(CLI), "parse", "-m", str(model_file), "--input", "conllu"], bare)

    def columns(out):
        return [line.split("\t")[:8] for line in out.decode("utf-8").split("\n") if line.split("\t")[0].isdigit()]

    words = columns(cli_bare)
    assert words != columns(cli), "MISC SpaceAfter=No changed no tag of EWT test"
    got = [t.to_conllu().split("\t")[:8] for s in parsed for t in s]
    assert len(got) == len(words) == sum(len(s) for s in gold)
    bad = next((i for i, (a, b) in enumerate(zip(got, words)) if a != b), None)
    assert bad is None, f"word {bad}: tp_parse_batch gives {got[bad]}, the CLI {words[bad]}"
    # Given values are kept (the others, "_" in gold, may be predicted).
    pairs = [(t, w) for s, g in zip(parsed, gold) for t, w in zip(s, g)]
    assert all(t.lemma == w[2] for t, w in pairs if w[2] != "_")
    assert all(t.feats == w[5] for t, w in pairs if w[5] != "_")


@pytest.mark.parametrize("beam, kbest", [(1, 1), (4, 3), (8, 0)])
def test_beam_same_everywhere(model, model_file, ewt_test, tmp_path, beam, kbest):
    sents = list(_sentences(ewt_test))
    tokens = tmp_path / "tokens.txt"
    tokens.write_text("".join(" ".join(s) + "\n" for s in sents), encoding="utf-8")
    flags = ["--beam", str(beam), "--kbest", str(kbest), "--confidence"]
    cflags = ["-b", str(beam), "-k", str(kbest), "-C"]

    cli = _run([str(CLI), "parse", "-m", str(model_file), "--input", "tokens"] + flags, tokens)
    c = _run([str(C_EXAMPLE), "-m", str(model_file)] + cflags, tokens)
    out, singles = [], []
    for i, forms in enumerate(sents, 1):
        text = " ".join(forms)
        trees = model.parse(forms, beam=beam, k=kbest or None, confidence=True)
        singles.append(trees)
        if not kbest:
            trees = [trees]
        out.append(f"# sent_id = {i}\n# text = {text}\n" + trees[0].to_conllu())
        for rank, s in enumerate(trees[1:], 2):
            out.append(f"# sent_id = {i}-kbest{rank}\n# text = {text}\n# kbest_rank = {rank}\n"
                       f"# kbest_score = {s.score:.4f}\n" + s.to_conllu())
    py = "".join(out).encode("utf-8")
    assert cli.count(b"\tConfidence=") == sum(len(s) for s in sents)
    assert cli == c, "CLI and C differ"
    assert cli == py, "CLI and Python differ"
    # The batch (tp_parse_batch) gives each sentence what the
    # single-sentence call gives it (trees, scores and confidences), so the
    # CLI's output too.
    batch = model.parse_batch(sents, beam=beam, k=kbest or None, confidence=True)
    assert batch == singles
    if kbest:
        assert [[s.score for s in trees] for trees in batch] == [[s.score for s in trees] for trees in singles]
        assert any(len(trees) < kbest for trees in batch) or kbest == 1, "no sentence with fewer trees than k"

    cli = _run([str(CLI), "parse", "-m", str(model_file), "--input", "conllu"] + flags, EWT_TEST)
    c = _run([str(C_EXAMPLE), "-m", str(model_file), "-c"] + cflags, EWT_TEST)
    py = model.parse_document(ewt_test, beam=beam, k=kbest, confidence=True).encode("utf-8")
    assert cli == c, "CLI and C differ (CoNLL-U)"
    assert cli == py, "CLI and Python differ (CoNLL-U)"
    if kbest > 1:
        assert b"# kbest_rank = 2\n" in cli
