"""The library boundary from Python: every failure raises the
specific transparse.Error subclass, whose message says what failed and where
(the argument, the CoNLL-U line, the model byte offset or section, the file);
the limits hold; errors survive pickling."""

import pickle
import re
import struct

import pytest

import transparse
from transparse import _lib

MAGIC = b"\x89TPM\r\n\x1a\n"


def header(version, doc_len):
    return MAGIC + struct.pack("<IQ", version, doc_len)


def check_error(exc, cls, *parts):
    """exc is a cls with cls's code and a message containing every part."""
    assert type(exc) is cls, exc
    assert isinstance(exc, transparse.Error)
    assert exc.code == cls.code and str(exc) == exc.message
    for p in parts:
        assert p in exc.message, (p, exc.message)
    back = pickle.loads(pickle.dumps(exc))
    assert type(back) is cls and back.message == exc.message and back.code == exc.code


def test_model_errors_without_a_model(tmp_path):
    cases = [
        (header(3, 0), transparse.ModelVersionError,
         "made by a newer transparse (format version 3; this library reads versions up to 2)"),
        (header(0, 0), transparse.ModelFormatError, "corrupt at byte 8 (format version 0 does not exist)"),
        (header(1, 5), transparse.ModelFormatError, "truncated: 0 of 5 bytes of document (the input ends early)"),
        (MAGIC[:5], transparse.ModelFormatError, "truncated: input ends after 5 bytes, inside the magic"),
        (b"\x7fELF\x02\x01\x01\x00rest", transparse.ModelFormatError,
         "not a transparse model (first bytes 7f454c4602010100...; looks like an ELF executable or library)"),
        (b"", transparse.ModelFormatError, "not a transparse model (empty input)"),
    ]
    for i, (data, cls, part) in enumerate(cases):
        with pytest.raises(cls) as e:
            transparse.Model.from_bytes(data)
        check_error(e.value, cls, "tp_model_load_from_memory: ", part)
        path = tmp_path / f"case{i}.tpm"
        path.write_bytes(data)
        with pytest.raises(cls) as e:
            transparse.Model.load(path)
        check_error(e.value, cls, "tp_model_load: ", str(path), part)


def test_io_errors(tmp_path):
    with pytest.raises(transparse.IoError) as e:
        transparse.Model.load(tmp_path)  # a directory
    check_error(e.value, transparse.IoError, "tp_model_load: ", str(tmp_path))
    missing = tmp_path / "missing.tpm"
    with pytest.raises(transparse.IoError) as e:
        transparse.Model.load(missing)
    check_error(e.value, transparse.IoError, str(missing), "no such file or directory")


def test_damaged_model_names_the_place(model_file, tmp_path):
    data = model_file.read_bytes()
    flipped = bytearray(data)
    flipped[len(data) // 2] ^= 0x40
    with pytest.raises(transparse.ModelFormatError) as e:
        transparse.Model.from_bytes(bytes(flipped))
    check_error(e.value, transparse.ModelFormatError, "tp_model_load_from_memory: modelfmt: corrupt at byte ")
    path = tmp_path / "truncated.tpm"
    path.write_bytes(data[: len(data) // 3])
    with pytest.raises(transparse.ModelFormatError) as e:
        transparse.Model.load(path)
    check_error(e.value, transparse.ModelFormatError, str(path), "truncated: ", " bytes of document (the input ends early)")
    # A truncated model is called truncated, with how much of it arrived.
    doc_len = int.from_bytes(data[12:20], "little")
    assert re.search(rf"truncated: \d+ of {doc_len} bytes of document", e.value.message), e.value.message


def test_argument_errors_name_the_argument(bogus_model):
    m = bogus_model
    cases = [
        (lambda: m.parse(["a", ""]), transparse.InputError, "tp_parse: forms[1] is empty"),
        (lambda: m.parse(["a\tb"]), transparse.InputError, "tp_parse: forms[0] contains a tab or line break"),
        (lambda: m.parse(["a", "b\n"]), transparse.InputError, "tp_parse: forms[1] contains a tab or line break"),
        (lambda: m.parse(["a", "b"], xpos=["NN", "V\tB"]), transparse.InputError,
         "tp_parse: tags->xpos[1] contains a tab or line break"),
        (lambda: m.parse(["a"], feats=[b"\xc3"]), transparse.InputError, "tp_parse: tags->feats[0] is not valid UTF-8"),
        (lambda: m.parse(["a"], lemma=["l" * (transparse.MAX_TOKEN_BYTES + 1)]), transparse.InputError,
         "tp_parse: tags->lemma[0] is longer than TP_MAX_TOKEN_BYTES (1024 bytes)"),
        (lambda: m.parse(["x"] * (transparse.MAX_WORDS + 1)), transparse.InputError,
         "tp_parse: n_words is 10001, more than TP_MAX_WORDS (10000)"),
        (lambda: m.parse(["a", "b"], feats=["X=Y"]), transparse.ArgumentError, "parse: feats has 1 items for 2 words"),
        (lambda: m.parse(["a"]), transparse.ArgumentError, "tp_parse: model handle was freed or is invalid"),
    ]
    for call, cls, part in cases:
        with pytest.raises(cls) as e:
            call()
        check_error(e.value, cls, part)


def test_conllu_errors_name_the_line(model):
    bad = "# sent_id = a\n1\tok\t_\t_\t_\t_\t_\t_\t_\t_\n2\tb\xffd\t_\t_\t_\t_\t_\t_\t_\t_\n\n"
    with pytest.raises(transparse.InputError) as e:
        model.parse_document(bad.encode("latin-1"))
    check_error(e.value, transparse.InputError, "tp_parse_document: conllu: text:3: invalid UTF-8")
    with pytest.raises(transparse.InputError) as e:
        model.parse_document("1\tok\t_\t_\t_\t_\t_\t_\t_\t_\n\n1\tonly\tthree\n\n")
    check_error(e.value, transparse.InputError, "tp_parse_document: conllu: text:3: ")


def test_limits(model):
    words = ["dogs", "bark", "."] * (transparse.MAX_WORDS // 3) + ["ok"]
    assert len(words) == transparse.MAX_WORDS
    s = model.parse(words)
    assert len(s) == transparse.MAX_WORDS and s.heads.count(0) == 1
    long_word = "a" * transparse.MAX_TOKEN_BYTES
    assert model.parse(["A", long_word])[1].form == long_word
    # "" and "_" tags mean absent: the tagger fills them in.
    s = model.parse(["Dogs", "bark"], upos=["", "_"], xpos=["", None])
    assert all(t.upos in model.upos_tags for t in s)


def test_status_codes_are_the_headers():
    names = {cls: _lib.tp_status_name(cls.code).decode() for cls in (
        transparse.ArgumentError, transparse.InputError, transparse.IoError, transparse.ModelFormatError,
        transparse.ModelVersionError, transparse.ForkError, transparse.NoMemoryError, transparse.InternalError)}
    assert names == {
        transparse.ArgumentError: "TP_ERR_ARGUMENT", transparse.InputError: "TP_ERR_INPUT",
        transparse.IoError: "TP_ERR_IO", transparse.ModelFormatError: "TP_ERR_MODEL_FORMAT",
        transparse.ModelVersionError: "TP_ERR_MODEL_VERSION", transparse.ForkError: "TP_ERR_FORK",
        transparse.NoMemoryError: "TP_ERR_NOMEM", transparse.InternalError: "TP_ERR_INTERNAL",
    }


def test_limits_match_the_header():
    """The binding's limits are the #defines of include/transparse.h."""
    import pathlib
    import re
    header = (pathlib.Path(__file__).resolve().parents[3] / "include" / "transparse.h").read_text()
    defines = dict(re.findall(r"#define (TP_MAX_\w+) (\d+)", header))
    # The document and picture limits (TP_MAX_DOC_*, TP_MAX_SVG_WORDS) are
    # not in the binding; capi checks them against Go's when it compiles.
    assert {"TP_MAX_DOC_COMMENTS", "TP_MAX_DOC_COMMENT_BYTES", "TP_MAX_DOC_SENTENCE_BYTES",
            "TP_MAX_SVG_WORDS"} <= defines.keys()
    defines = {k: v for k, v in defines.items() if not k.startswith(("TP_MAX_DOC_", "TP_MAX_SVG_"))}
    assert {k: int(v) for k, v in defines.items()} == {
        "TP_MAX_WORDS": transparse.MAX_WORDS,
        "TP_MAX_TOKEN_BYTES": transparse.MAX_TOKEN_BYTES,
        "TP_MAX_BATCH_WORDS": transparse.MAX_BATCH_WORDS,
        "TP_MAX_BEAM": transparse.MAX_BEAM,
    }
