"""Raw text in: Model.parse_text, Model.tokenize, parse_document and stream
with input="text", on a small model with a segmenter trained here on the
committed EWT slices, and the bundled model when
it has a segmenter. The CLI, the C API and Python give the same CoNLL-U."""

import io
import subprocess
import time
import warnings

import pytest

import transparse
from conftest import c_test_program, has_segmenter, model_path, train_small

TEXT = ("I don't like it. Dr. Smith arrived at 5 p.m.\nyesterday, didn't he?\n\n"
        "Café owners 😀 said: “naïve résumés” cost 5 €!  Zoë left.\n")


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


def test_beam_k_and_confidence(model):
    # the bundled model: a segmenter and classifiers trained for the beam
    best = model.parse_text(TEXT, confidence=True)
    groups = model.parse_text(TEXT, beam=4, k=2)
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


def test_on_error_skip(text_model):
    """A sentence the parser rejects (a token over MAX_TOKEN_BYTES) comes
    back unparsed, with its error, between parsed ones."""
    text = "Fine words here. " + "x" * 2000 + " is long. Fine again."
    with pytest.raises(transparse.InputError, match="limit"):
        text_model.parse_text(text)
    with pytest.warns(transparse.SkippedSentencesWarning):
        sents = text_model.parse_text(text, on_error="skip")
    check_tokens(text, sents)
    bad = [s for s in sents if s.error is not None]
    assert len(bad) == 1 and "x" * 2000 in bad[0].text and all(w.head is None for w in bad[0])
    assert all(s.error is None and None not in s.heads for s in sents if s is not bad[0])


def test_invalid_utf8_replaced_with_skip(text_model):
    """With on_error="skip" each invalid byte of raw text is read as
    U+FFFD, one code point, so that offsets index the text decoded with
    surrogateescape (a str made so gives its bytes back); parse_document
    lists the bytes and their offsets in a comment."""
    data = b"Good \xff text. Caf\xc3 au lait, \xe2\x82 please.\n"
    shown = data.decode("utf-8", "surrogateescape")
    fixed = "".join("\ufffd" if "\udc80" <= c <= "\udcff" else c for c in shown)
    for text in (data, shown):
        sents = text_model.parse_text(text, on_error="skip")
        check_tokens(fixed, sents)
        assert all(s.error is None and None not in s.heads for s in sents)
        assert "\ufffd" in sents[0].text
        toks = text_model.tokenize(text, on_error="skip")
        check_tokens(fixed, toks)
        assert [t.form for s in toks for t in s.tokens] == [t.form for s in sents for t in s.tokens]
    out = text_model.parse_document(data, input="text", on_error="skip", ranges="bytes")
    comments = [line for line in out.splitlines() if line.startswith("# transparse_replaced = ")]
    listed = ", ".join(c.split(": ", 1)[1] for c in comments)
    assert listed == "0xff at byte offset 5, 0xc3 at byte offset 16, 0xe2 at byte offset 27, 0x82 at byte offset 28"
    assert "TokenRange=16:17" in out  # the byte's offset in the input, not after U+FFFD
    # Another lone surrogate is three bytes that are not UTF-8; the bytes
    # surrogateescape decoded are still one each.
    sents = text_model.tokenize("ab \ud800 cd. x\udcff y.", on_error="skip")
    check_tokens("ab \ufffd\ufffd\ufffd cd. x\ufffd y.", sents)


def test_model_without_segmenter(tmp_path):
    with transparse.Model.load(train_small(tmp_path / "plain.tpm", segment={"skip": True})) as m:
        assert not has_segmenter(m)
        for call in (lambda: m.parse_text("Hi."), lambda: m.tokenize("Hi."),
                     lambda: m.parse_document("Hi.", input="text")):
            with pytest.raises(transparse.ArgumentError, match="no segmenter.*InputTokens"):
                call()


def test_bundled_model_parses_text():
    path = model_path()
    if not path.exists():
        pytest.skip(f"no model at {path}")
    with transparse.Model.load(path) as m:
        assert has_segmenter(m), f"{path} has no segmenter"
        text = "I don't like it. Dr. Smith arrived at 5 p.m.\nyesterday, didn't he?\n"
        sents = m.parse_text(text)
        check_tokens(text, sents)
        # "5 p.m." may end a sentence (EWT splits a final "p.m." into "p.m" and ".")
        assert [s.text for s in sents][0] == "I don't like it."
        assert "".join(s.text for s in sents).replace(" ", "") == text.replace(" ", "").replace("\n", "")
        assert 2 <= len(sents) <= 3 and sents[1].tokens[0].form == "Dr."
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
