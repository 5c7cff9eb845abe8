"""Raw text in: Model.parse_text, Model.tokenize, parse_document and stream
with input="text", on a small model with a segmenter trained here on the
committed EWT slices (or $TRANSPARSE_TEXT_MODEL), and the bundled model when
it has a segmenter. The CLI, the C API and Python give the same CoNLL-U."""

import io
import os
import subprocess
import time
import warnings

import pytest

import transparse
from conftest import REPO, c_test_program, model_path

FIX_TRAIN = REPO / "testdata" / "ud" / "en_ewt-train-150.conllu"
FIX_DEV = REPO / "testdata" / "ud" / "en_ewt-dev-40.conllu"

TEXT = ("I don't like it. Dr. Smith arrived at 5 p.m.\nyesterday, didn't he?\n\n"
        "Café owners 😀 said: “naïve résumés” cost 5 €!  Zoë left.\n")


def has_segmenter(m):
    try:
        m.tokenize("a")
    except transparse.ArgumentError as e:
        if "segmenter" in e.message:
            return False
        raise
    return True


@pytest.fixture(scope="session")
def text_model(tmp_path_factory):
    """A model with a segmenter: $TRANSPARSE_TEXT_MODEL, else one trained
    on the 150 training and 40 dev sentences of testdata/ud (a few seconds;
    training learns the segmenter with the rest)."""
    path = os.environ.get("TRANSPARSE_TEXT_MODEL")
    if not path:
        path = tmp_path_factory.mktemp("text") / "text.tpm"
        transparse.train("arc-eager", FIX_TRAIN, FIX_DEV, gold={"epochs": 1}, plain={"epochs": 1, "runs": 1},
                         taggers={"epochs": 1, "runs": 1}, jackknife_folds=2, morph={"skip": True},
                         output=path).close()
    m = transparse.Model.load(path)
    if not has_segmenter(m):
        m.close()
        pytest.skip(f"{path} has no segmenter: training does not learn one yet")
    yield m
    m.close()


def check_tokens(text, sents):
    """Every token of sents is its span of text, the spans in order and
    apart by whitespace only; a token's words spell it unless it is a
    multiword token."""
    end = 0
    for s in sents:
        assert s.tokens and len(s) == sum(len(t.words) for t in s.tokens)
        for tok in s.tokens:
            assert text[tok.start:tok.end] == tok.form, (tok, text[tok.start:tok.end])
            assert tok.start >= end and text[end:tok.start].strip() == "", (end, tok)
            end = tok.end
            if len(tok.words) == 1:
                assert tok.words[0].form == tok.form
    assert text[end:].strip() == ""


def test_parse_text_offsets_in_code_points(text_model):
    sents = text_model.parse_text(TEXT)
    check_tokens(TEXT, sents)
    assert len(sents) >= 4
    assert sents[0].text == "I don't like it."
    dont = sents[0].tokens[1]
    assert (dont.form, dont.start, dont.end, [w.form for w in dont.words]) == ("don't", 2, 7, ["do", "n't"])
    emoji = [t for s in sents for t in s.tokens if t.form == "😀"]
    assert len(emoji) == 1 and emoji[0].end == emoji[0].start + 1  # one code point, 4 bytes
    for s in sents:
        n = len(s)
        assert [w.id for w in s] == list(range(1, n + 1))
        assert all(0 <= h <= n for h in s.heads) and s.heads.count(0) >= 1
        assert all(w.upos != "_" and w.deprel != "_" for w in s)
        assert s.error is None and s.score is None


def test_parse_text_is_parse_document(text_model):
    """The sentences' CoNLL-U is what parse_document writes for the text,
    with TokenRange in code points; stream gives it too."""
    want = text_model.parse_document(TEXT, input="text", ranges="codepoints")
    assert "".join(s.to_conllu() for s in text_model.parse_text(TEXT)) == want
    assert want.startswith("# newdoc\n# newpar\n# sent_id = 1\n# text = I don't like it.\n")
    assert "".join(text_model.stream(io.BytesIO(TEXT.encode()), input="text", ranges="codepoints")) == want
    plain = text_model.parse_document(TEXT, input="text")
    assert "TokenRange" not in plain and "\tSpacesAfter=\\n\\n\n" in plain


def test_tokenize(text_model):
    sents = text_model.tokenize(TEXT)
    check_tokens(TEXT, sents)
    parsed = text_model.parse_text(TEXT)
    assert [[(t.form, t.start, t.end) for t in s.tokens] for s in sents] == \
        [[(t.form, t.start, t.end) for t in s.tokens] for s in parsed]
    for s in sents:
        assert all(w.head is None and w.upos == w.lemma == w.deprel == "_" for w in s)


def test_presegmented(text_model):
    text = "One sentence here. Still the same line\nSecond line.\n"
    sents = text_model.parse_text(text, presegmented=True)
    assert [s.text for s in sents] == ["One sentence here. Still the same line", "Second line."]
    check_tokens(text, sents)
    with pytest.raises(transparse.ArgumentError, match="Presegmented needs InputText"):
        text_model.parse_document("a b\n", input="tokens", presegmented=True)
    with pytest.raises(transparse.ArgumentError, match="ranges"):
        text_model.parse_document("a b\n", input="text", ranges="words")


def test_beam_k_and_confidence(text_model):
    best = text_model.parse_text(TEXT, confidence=True)
    groups = text_model.parse_text(TEXT, beam=4, k=2)
    assert len(groups) == len(best)
    for g in groups:
        assert 1 <= len(g) <= 2 and g[0].score is None
        spans = [(t.form, t.start, t.end) for t in g[0].tokens]
        assert all(s.score is not None and [(t.form, t.start, t.end) for t in s.tokens] == spans for s in g[1:])
        assert all((s.heads, s.deprels) != (g[0].heads, g[0].deprels) for s in g[1:])
    assert all(0 <= w.confidence <= 1 for s in best for w in s)


def test_hostile_text(text_model):
    with pytest.raises(transparse.InputError, match="invalid UTF-8 at byte offset 5"):
        text_model.parse_text(b"Good \xff text.")
    with pytest.raises(transparse.InputError, match="invalid UTF-8 at byte offset 2"):
        text_model.parse_text("ab\udc80")  # a lone surrogate is no UTF-8
    with pytest.raises(transparse.InputError, match="NUL byte at byte offset 4"):
        text_model.tokenize("Oh. \x00")
    assert text_model.parse_text("\n" * 100000) == []
    assert text_model.parse_text("") == []
    # 10 MB without whitespace, read as a stream: sentences cut at the
    # segmenter's limit of tokens, each refused by the parser (forms over
    # the limit) and copied through with on_error="skip".
    size = 10 << 20
    chunks = io.BytesIO(b"a" * size)
    start = time.monotonic()
    out = list(text_model.stream(chunks, input="text", on_error="skip"))
    assert time.monotonic() - start < 120
    assert len(out) >= 1 and "# transparse_cut" in "".join(out)
    with pytest.raises(transparse.InputError):
        text_model.parse_text("x" * size)


def test_model_without_segmenter():
    path = model_path()
    if not path.exists():
        pytest.skip(f"no model at {path}")
    with transparse.Model.load(path) as m:
        if has_segmenter(m):
            pytest.skip(f"{path} has a segmenter")
        for call in (lambda: m.parse_text("Hi."), lambda: m.tokenize("Hi."),
                     lambda: m.parse_document("Hi.", input="text")):
            with pytest.raises(transparse.ArgumentError, match="no segmenter.*InputTokens"):
                call()


def test_bundled_model_parses_text():
    path = model_path()
    if not path.exists():
        pytest.skip(f"no model at {path}")
    with transparse.Model.load(path) as m:
        if not has_segmenter(m):
            pytest.skip(f"{path} has no segmenter yet (it runs once the bundled model is trained with one)")
        text = "I don't like it. Dr. Smith arrived at 5 p.m.\nyesterday, didn't he?\n"
        sents = m.parse_text(text)
        check_tokens(text, sents)
        assert [s.text for s in sents] == ["I don't like it.", "Dr. Smith arrived at 5 p.m. yesterday, didn't he?"]
        assert [w.form for w in sents[0]] == ["I", "do", "n't", "like", "it", "."]


def test_same_conllu_from_cli_c_and_python(text_model, tmp_path):
    """The command line (Go), the C API (bindings/c/tests/parse_text.c,
    compiled here) and Python parse the same text to the same bytes."""
    prog, cli = c_test_program(tmp_path, "parse_text")
    model_file = tmp_path / "text.tpm"
    text_model.save(model_file)
    data = TEXT.encode()
    c = subprocess.run([str(prog), str(model_file)], input=data, capture_output=True, timeout=120)
    go = subprocess.run([str(cli), "parse", "-m", str(model_file), "--ranges", "bytes"], input=data,
                        capture_output=True, timeout=120)
    assert c.returncode == 0, c.stdout + c.stderr
    assert go.returncode == 0, go.stderr
    py = text_model.parse_document(TEXT, input="text", ranges="bytes").encode()
    assert c.stdout == go.stdout == py
    assert b"TokenRange=" in py and py.count(b"# sent_id = ") >= 4


def test_options_validated_in_python(text_model):
    with pytest.raises(transparse.ArgumentError, match="input is 'raw'"):
        text_model.parse_document("x", input="raw")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert text_model.parse_text("Fine.") != []
