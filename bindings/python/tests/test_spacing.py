"""Model.parse(space_after=...) and parse_batch's "space_after": tokens with
the spacing of their text get the tags and tree that parse_document gives the
same words with SpaceAfter=No in MISC (tp_options.space_after)."""

import pytest

import transparse
from conftest import EWT_TEST, need_file
from udwords import read_spacing, read_words

HYPHENATED = ["I", "found", "the", "office", "to", "be", "very", "clean", "and", "professional", "-", "looking", "."]
HYPHENATED_SPACING = [True] * 9 + [False, False, False, True]


def conllu(sentences):
    """CoNLL-U of (words, space_after) pairs: forms and MISC only."""
    out = []
    for words, spacing in sentences:
        for i, (w, sp) in enumerate(zip(words, spacing)):
            out.append(f"{i + 1}\t{w}\t_\t_\t_\t_\t_\t_\t_\t{'_' if sp else 'SpaceAfter=No'}\n")
        out.append("\n")
    return "".join(out)


def rows(text):
    """(LEMMA, UPOS, XPOS, FEATS, HEAD, DEPREL) of each word line."""
    out = []
    for line in text.splitlines():
        if line and not line.startswith("#"):
            c = line.split("\t")
            if c[0].isdigit():
                out.append((c[2], c[3], c[4], c[5], int(c[6]), c[7]))
    return out


def token_rows(sentences):
    return [(t.lemma, t.upos, t.xpos, t.feats, t.head, t.deprel) for s in sentences for t in s]


def test_same_as_conllu_on_ewt(model):
    path = need_file(EWT_TEST)
    words = [[w[0] for w in s] for s in read_words(path, limit=600)]
    spacing = read_spacing(path, limit=600)
    want = rows(model.parse_document(conllu(zip(words, spacing))))
    one = [model.parse(w, space_after=sp) for w, sp in zip(words, spacing)]
    assert token_rows(one) == want
    many = model.parse_batch([{"words": w, "space_after": sp} for w, sp in zip(words, spacing)])
    assert token_rows(many) == want
    # The bundled model's XPOS tagger reads spacing: some words tag
    # otherwise from the tokens alone.
    plain = model.parse_batch(words)
    if model.card["options"].get("no_xpos_spacing") == "false":
        assert [t.xpos for s in plain for t in s] != [r[2] for r in want]


def test_hyphen(model):
    s = model.parse(HYPHENATED, space_after=HYPHENATED_SPACING)
    assert token_rows([s]) == rows(model.parse_document(conllu([(HYPHENATED, HYPHENATED_SPACING)])))
    if model.card["options"].get("no_xpos_spacing") == "false":
        assert s[10].xpos == "HYPH"


def test_tokens_keep_the_spacing(model):
    s = model.parse(HYPHENATED, space_after=HYPHENATED_SPACING, confidence=True)
    assert [t.space_after for t in s] == HYPHENATED_SPACING
    misc = [line.split("\t")[9] for line in s.to_conllu().splitlines() if line]
    assert [m.startswith("SpaceAfter=No|Confidence=") for m in misc] == [not sp for sp in HYPHENATED_SPACING]
    assert all(m.startswith("Confidence=") for m, sp in zip(misc, HYPHENATED_SPACING) if sp)
    assert all(t.space_after is None for t in model.parse(HYPHENATED))
    best = model.parse(HYPHENATED, space_after=HYPHENATED_SPACING, beam=2, k=2)
    assert all([t.space_after for t in tree] == HYPHENATED_SPACING for tree in best)


def test_batch_mixes_sentences_with_and_without(model):
    batch = [["Hi", "!"], {"words": HYPHENATED, "space_after": HYPHENATED_SPACING}, {"words": ["Go", "."]}]
    got = model.parse_batch(batch, confidence=True)
    one = [model.parse(["Hi", "!"]), model.parse(HYPHENATED, space_after=HYPHENATED_SPACING), model.parse(["Go", "."])]
    assert token_rows(got) == token_rows(one)
    assert all(t.confidence is not None for s in got for t in s)
    assert [[t.space_after for t in s] for s in got] == [[None, None], HYPHENATED_SPACING, [None, None]]


def test_errors(model):
    with pytest.raises(transparse.ArgumentError, match="parse: space_after has 2 items for 3 words"):
        model.parse(["a", "b", "c"], space_after=[True, False])
    with pytest.raises(transparse.ArgumentError, match="parse_batch: sentence 1: space_after has 1 items for 2 words"):
        model.parse_batch([["a"], {"words": ["b", "c"], "space_after": [True]}])
    with pytest.raises(TypeError, match="space_after must be a sequence"):
        model.parse(["a"], space_after="x")
