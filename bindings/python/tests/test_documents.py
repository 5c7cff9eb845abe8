"""Whole documents: NUL bytes, DEPS, the keep-going mode and streaming."""

import io
import warnings

import pytest

import transparse
from conftest import EWT_TEST, need_file


def word(i, form, head="_", deprel="_"):
    return f"{i}\t{form}\t_\tX\t_\t_\t{head}\t{deprel}\t_\t_\n"


GOOD = "# sent_id = g\n" + word(1, "Hi") + word(2, "!") + "\n"
BAD = "# sent_id = bad\n1\tHi\t_\n\n"


def test_nul_bytes_refused_with_position(model):
    with pytest.raises(transparse.InputError, match=r"conllu: text:3: line contains a NUL byte at byte 4"):
        model.parse_document(word(1, "Hi") + "\n" + word(1, "H\0i"))
    with pytest.raises(transparse.InputError, match=r"text:2: line contains a NUL byte at byte 2"):
        model.parse_document("a b\nc\0d\n", input="tokens")
    with pytest.raises(transparse.InputError, match=r"NUL byte"):
        list(model.stream(io.BytesIO(b"1\ta\0\t_\t_\t_\t_\t_\t_\t_\t_\n")))


def test_output_has_no_gold_annotation(model):
    doc = ("# sent_id = a\n"
           "1\tI\tI\tPRON\tPRP\tCase=Nom\t2\tnsubj\t2:nsubj\tSpaceAfter=No\n"
           "2\tsee\tsee\tVERB\tVBP\t_\t0\troot\t0:root\tGloss=x\n"
           "2.1\tsee\tsee\tVERB\tVB\t_\t_\t_\t0:root\tCopyOf=2\n\n")

    def words(out):
        return [line.split("\t") for line in out.splitlines() if line.split("\t")[0].isdigit()]

    given = [w[2:6] for w in words(doc)]
    plain = [w[2:6] for w in words(model.parse_document("I see\n", input="tokens"))]
    for out, tags in ((model.parse_document(doc), given), (model.parse_document(doc, no_tags=True), plain),
                      ("".join(model.stream(io.StringIO(doc), no_tags=True)), plain)):
        assert [w[8] for w in words(out)] == ["_", "_"]
        assert [w[9] for w in words(out)] == ["SpaceAfter=No", "Gloss=x"]
        assert [w[2:6] for w in words(out)] == tags
        assert out.startswith("# sent_id = a\n")
        assert "2.1\t" not in out and "CopyOf" not in out  # empty nodes: of the enhanced graph only


def test_on_error_skip(model):
    doc = GOOD + BAD + GOOD
    with pytest.raises(transparse.InputError, match=r"text:6: line has 3 columns"):
        model.parse_document(doc)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        out = model.parse_document(doc, on_error="skip")
    assert [x.message.count for x in w if isinstance(x.message, transparse.SkippedSentencesWarning)] == [1]
    assert ("# transparse_error = conllu: text:6: line has 3 columns, want 10 (separated by tabs)\n"
            "# sent_id = bad\n1\tHi\t_\n\n") in out
    assert out.count("\t0\troot\t") == 2
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        tokens = model.parse_document("a b\n" + "w " * (transparse.MAX_WORDS + 1) + "\nc .\n", on_error="skip", input="tokens")
    assert len(w) == 1 and "# sent_id = 2\n# text = w w" in tokens and "sentence has 10001 words" in tokens
    with pytest.raises(transparse.ArgumentError, match="on_error"):
        model.parse_document(doc, on_error="ignore")
    it = model.stream(io.BytesIO(doc.encode()), on_error="skip")
    assert "".join(it) == out and it.skipped == 1 and it.sentences == 3


def test_iter_stops_at_the_error_after_the_sentences_before(model):
    it = model.stream(io.StringIO(GOOD + BAD + GOOD))
    first = next(it)
    assert first.startswith("# sent_id = g\n") and "\t0\troot\t" in first
    with pytest.raises(transparse.InputError, match=r"text:6:"):
        next(it)
    it.close()


def test_iter_reports_read_errors(model):
    class Broken(io.RawIOBase):
        def read(self, n=-1):
            raise OSError("disk on fire")

    with pytest.raises(OSError, match="disk on fire"):
        list(model.stream(Broken()))
    with pytest.raises(TypeError):
        model.stream(42)


def test_stream_matches_parse_document_on_ewt(model, tmp_path):
    path = need_file(EWT_TEST)
    text = path.read_text(encoding="utf-8")[:200000]
    text = text[: text.rindex("\n\n") + 2]
    small = tmp_path / "ewt.conllu"
    small.write_text(text, encoding="utf-8")
    with model.stream(small) as it:
        streamed = "".join(it)
    assert streamed == model.parse_document(text)
    assert it.sentences == text.count("\n\n")


def test_one_method_per_job_tokens(model):
    """parse_document and stream take the same input kinds and options."""
    text = "Dogs bark .\nI saw her .\n"
    whole = model.parse_document(text, input="tokens")
    assert whole.count("# sent_id = ") == 2
    with model.stream(io.StringIO(text), input="tokens") as it:
        assert "".join(it) == whole and it.sentences == 2
    with pytest.raises(transparse.ArgumentError, match="parse_document: input is 'xml': want 'conllu' or 'tokens'"):
        model.parse_document(text, input="xml")
    with pytest.raises(transparse.ArgumentError, match="stream: on_error is 'ignore'"):
        model.stream(io.StringIO(text), on_error="ignore")
