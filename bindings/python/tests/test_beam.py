"""Beam search, confidences and the k best trees through Python
(Model.parse(..., beam=, k=, confidence=), parse_document)."""

import pytest

import transparse
from conftest import REPO

FIXTURE = REPO / "testdata" / "ud" / "en_ewt-dev-40.conllu"


def _fixture_forms():
    sents, forms = [], []
    for line in FIXTURE.read_text(encoding="utf-8").split("\n"):
        cols = line.split("\t")
        if len(cols) == 10 and cols[0].isdigit():
            forms.append(cols[1])
        elif not line.strip() and forms:
            sents.append(forms)
            forms = []
    return sents


def _is_tree(heads):
    n = len(heads)
    if sorted(heads).count(0) != 1 or any(h < 0 or h > n for h in heads):
        return False
    for i in range(1, n + 1):
        seen, at = 0, i
        while at != 0 and seen <= n:
            at, seen = heads[at - 1], seen + 1
        if at != 0:
            return False
    return True


def test_k1_is_parse(model):
    for forms in _fixture_forms():
        greedy = model.parse(forms)
        assert all(t.confidence is None for t in greedy)
        s = model.parse(forms, beam=1, confidence=True)
        assert [(t.head, t.deprel, t.upos, t.lemma) for t in s] == [(t.head, t.deprel, t.upos, t.lemma) for t in greedy]
        assert all(0 <= t.confidence <= 1 for t in s)
        assert model.parse(forms, beam=0) == greedy  # the default width, 1 without beam classifiers
        trees = model.parse(forms, k=1)
        assert len(trees) == 1 and trees[0] == greedy and isinstance(trees[0].score, float)


def test_beam_trees(model):
    several = 0
    for forms in _fixture_forms():
        trees = model.parse(forms, beam=8, k=8, confidence=True)
        best = model.parse(forms, beam=8, confidence=True)
        assert 1 <= len(trees) <= 8 and trees[0] == best
        several += len(trees) > 1
        scores = [s.score for s in trees]
        assert scores == sorted(scores, reverse=True)
        assert len({(s.heads, s.deprels) for s in trees}) == len(trees), "the trees are distinct"
        for j, s in enumerate(trees):
            assert _is_tree(list(s.heads)), (forms, j)
            assert [t.form for t in s] == forms
            assert [t.upos for t in s] == [t.upos for t in best]
            assert all((t.confidence is None) == (j > 0) for t in s)
    assert several > 0


@pytest.mark.parametrize("kwargs, message", [
    ({"beam": transparse.MAX_BEAM + 1}, "beam width 65"),
    ({"beam": -3}, "beam width -3"),
    ({"beam": 2, "k": 3}, "kbest 3"),
    ({"k": 2}, "kbest 2"),
])
def test_bad_options(model, kwargs, message):
    with pytest.raises(transparse.ArgumentError, match=message) as e:
        model.parse(["Hi"], **kwargs)
    assert e.value.code == 1 and "tp_parse" in str(e.value)


def test_bad_option_types(model):
    with pytest.raises(TypeError):
        model.parse(["Hi"], beam="8")
    with pytest.raises(TypeError):
        model.parse(["Hi"], beam=True)
    with pytest.raises(transparse.ArgumentError, match="tp_parse_document: invalid parse options: beam width 99"):
        model.parse_document("1\tHi\t_\t_\t_\t_\t_\t_\t_\t_\n\n", on_error="skip", beam=99)


def test_documents(model):
    doc = "# sent_id = a\n1\tDogs\t_\t_\t_\t_\t_\t_\t_\tSpaceAfter=No\n2\tbark\t_\t_\t_\t_\t_\t_\t_\t_\n\n"
    assert model.parse_document(doc, beam=1) == model.parse_document(doc)
    out = model.parse_document(doc, beam=4, k=2, confidence=True)
    assert "\tSpaceAfter=No|Confidence=" in out
    s = model.parse(["Dogs", "bark"], confidence=True, beam=4)
    assert out.split("\n\n")[0].split("\n")[-1].endswith("Confidence=%.3f" % s[1].confidence)
    toks = model.parse_document("Dogs bark\n", beam=4, k=2, input="tokens")
    if "# kbest_rank = 2" in toks:
        assert "# sent_id = 1-kbest2\n" in toks
    assert toks.startswith(model.parse_document("Dogs bark\n", beam=4, input="tokens"))


def test_keep_going_and_stream(model, tmp_path):
    doc = ("# sent_id = a\n1\tDogs\tdog\tNOUN\tNNS\tNumber=Plur\t_\t_\t_\t_\n2\tbark\tbark\tVERB\tVBP\t_\t_\t_\t_\t_\n\n"
           "# sent_id = b\n1\tbad\n\n"
           "# sent_id = c\n1\tCats\t_\t_\t_\t_\t_\t_\t_\t_\n2\tsleep\t_\t_\t_\t_\t_\t_\t_\t_\n\n")
    with pytest.warns(transparse.SkippedSentencesWarning):
        out = model.parse_document(doc, on_error="skip", beam=4, k=2, confidence=True)
    assert "# transparse_error = " in out and "# sent_id = c-kbest2\n" in out and "\tConfidence=" in out
    path = tmp_path / "doc.conllu"
    path.write_text(doc, encoding="utf-8")
    with model.stream(path, on_error="skip", beam=4, k=2, confidence=True) as it:
        assert "".join(it) == out
    # no_tags: the model predicts the tags, then parses with the beam.
    with pytest.warns(transparse.SkippedSentencesWarning):
        blank = model.parse_document(doc, on_error="skip", no_tags=True, beam=4, confidence=True)
    assert blank.count("\tConfidence=") == 4
