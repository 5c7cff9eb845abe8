"""Tests that need no model: library loading, version, error classes."""
import os
import pathlib

import pytest

import transparse
from transparse import _lib


def loader_stub(exc):
    if isinstance(exc, transparse.InternalError) and "not implemented" in exc.message:
        pytest.skip("parser.Load is not implemented in this tree yet")


def test_library_found_next_to_package():
    assert pathlib.Path(transparse.library_path).parent == pathlib.Path(transparse.__file__).parent


def test_version():
    assert transparse.library_version() == transparse.__version__ == "0.3.0"
    assert _lib.tp_version_number() == 300


def test_every_function_declared():
    """Every function of include/transparse.h is declared with argtypes."""
    import pathlib
    import re
    header = (pathlib.Path(__file__).resolve().parents[3] / "include" / "transparse.h").read_text()
    names = set(re.findall(r"TP_API[^(;]*?\b(tp_\w+)\(", header))
    assert len(names) >= 21 and "tp_parse_batch" in names
    for name in sorted(names):
        f = getattr(_lib, name)
        assert f.argtypes is not None, name
        assert hasattr(f, "restype"), name


def test_status_names_match_classes():
    for cls in (transparse.ArgumentError, transparse.InputError, transparse.IoError,
                transparse.ModelFormatError, transparse.ModelVersionError, transparse.ForkError,
                transparse.NoMemoryError, transparse.InternalError):
        assert issubclass(cls, transparse.Error)
        assert _lib.tp_status_name(cls.code).decode().startswith("TP_ERR_")
    assert issubclass(transparse.ArgumentError, ValueError)
    assert issubclass(transparse.InputError, ValueError)
    assert issubclass(transparse.IoError, OSError)
    assert issubclass(transparse.NoMemoryError, MemoryError)


def test_load_missing_file():
    path = "/nonexistent-dir/no-such-model.tpm"
    try:
        transparse.Model.load(path)
    except transparse.Error as e:
        loader_stub(e)
        assert isinstance(e, transparse.IoError) and isinstance(e, OSError)
        assert e.code == _lib.TP_ERR_IO
        assert path in e.message and e.message.startswith("tp_model_load: ")
    else:
        pytest.fail("no error")


def test_load_not_a_model(tmp_path):
    p = tmp_path / "not-a-model.tpm"
    p.write_text("hello, I am text\n")
    try:
        transparse.Model.load(p)
    except transparse.Error as e:
        loader_stub(e)
        assert isinstance(e, transparse.ModelFormatError), e
        assert "not a transparse model" in str(e)
    else:
        pytest.fail("no error")
    with pytest.raises(transparse.ModelFormatError, match="tp_model_load_from_memory: "):
        transparse.Model.from_bytes(b"hello, I am text\n")
    with pytest.raises(transparse.ModelFormatError):
        transparse.Model.from_bytes(bytearray(b"\x00" * 64))
    with pytest.raises(transparse.ModelFormatError):
        transparse.Model.from_bytes(b"")


def test_load_argument_types():
    with pytest.raises(TypeError):
        transparse.Model.from_bytes(12345)
    with pytest.raises(TypeError):
        transparse.Model.load(None)
    with pytest.raises(transparse.ArgumentError, match="NUL"):
        transparse.Model.load("a\0b")
    with pytest.raises(TypeError):
        transparse.Model()


def test_parse_bad_input(bogus_model):
    m = bogus_model
    with pytest.raises(transparse.InputError, match=r"^tp_parse: n_words is 0$"):
        m.parse([])
    with pytest.raises(transparse.InputError, match=r"tp_parse: forms\[1\] is not valid UTF-8"):
        m.parse(["ok", b"\xff\xfe"])
    with pytest.raises(transparse.InputError, match=r"tp_parse: forms\[0\] is not valid UTF-8"):
        m.parse(["\udcff"])  # lone surrogate
    with pytest.raises(transparse.InputError, match=r"words\[1\] contains a NUL"):
        m.parse(["a", "b\0c"])
    with pytest.raises(transparse.InputError, match=r"upos\[2\] contains a NUL"):
        m.parse(["a", "b", "c"], upos=["NOUN", None, "X\0"])
    with pytest.raises(transparse.InputError, match="TP_MAX_TOKEN_BYTES"):
        m.parse(["x" * (transparse.MAX_TOKEN_BYTES + 1)])
    with pytest.raises(transparse.InputError, match="TP_MAX_WORDS"):
        m.parse(["x"] * (transparse.MAX_WORDS + 1))
    with pytest.raises(transparse.InputError, match=r"tags->upos\[2\] is not valid UTF-8"):
        m.parse(["a", "b", "c"], upos=["NOUN", None, b"\x80"])
    with pytest.raises(transparse.ArgumentError, match="upos has 2 items for 3 words"):
        m.parse(["a", "b", "c"], upos=["NOUN", "VERB"])
    with pytest.raises(TypeError):
        m.parse("a sentence as one string")
    with pytest.raises(TypeError):
        m.parse(["a", 3])
    with pytest.raises(TypeError):
        m.parse(["a"], lemma="a")


def test_freed_handle(bogus_model):
    m = bogus_model
    with pytest.raises(transparse.ArgumentError, match="tp_parse: model handle was freed or is invalid"):
        m.parse(["I", "saw", "her"])
    with pytest.raises(transparse.ArgumentError, match="tp_parse_document: model handle was freed"):
        m.parse_document("")
    with pytest.raises(transparse.ArgumentError, match="tp_model_card_json: model handle was freed"):
        m.card
    with pytest.raises(transparse.ArgumentError, match="tp_model_deprels: model handle was freed"):
        m.deprels
    with pytest.raises(transparse.ArgumentError, match="tp_model_upos_tags: model handle was freed"):
        m.upos_tags
    with pytest.raises(transparse.ArgumentError, match="tp_model_xpos_tags: model handle was freed"):
        m.xpos_tags


def test_close_and_context_manager(bogus_model):
    m = bogus_model
    assert not m.closed
    with pytest.raises(transparse.ArgumentError, match="freed or is invalid"):
        with m:
            pass  # __exit__ closes: the library does not know this handle
    assert m.closed
    m.close()  # idempotent
    with pytest.raises(transparse.ArgumentError, match="closed"):
        m.parse(["x"])
    with pytest.raises(transparse.ArgumentError, match="closed"):
        m.parse_batch([["x"]])
    with pytest.raises(transparse.ArgumentError, match="closed"):
        m.card
    assert "closed" in repr(m)


def test_fork_child_refused():
    pid = os.fork()
    if pid == 0:  # child: any call that needs the Go runtime must refuse
        status = 0
        try:
            transparse.Model.load("/nonexistent.tpm")
            status = 1
        except transparse.ForkError as e:
            if "fork" not in e.message or not e.message.startswith("tp_model_load: "):
                status = 2
        except BaseException:
            status = 3
        try:
            if transparse.library_version() != transparse.__version__:  # pure C: works
                status = 4
        except BaseException:
            status = 5
        os._exit(status)
    _, status = os.waitpid(pid, 0)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, f"child status {status}"


def test_sentence_and_token():
    t1 = transparse.Token(1, "I", "_", "PRON", "_", "_", 2, "nsubj")
    t2 = transparse.Token(2, "run", "run", "VERB", "VBP", "_", 0, "root")
    s = transparse.Sentence([t1, t2])
    assert len(s) == 2 and s[1] is t2 and list(s) == [t1, t2]
    assert s.heads == (2, 0) and s.deprels == ("nsubj", "root")
    assert t1.to_conllu() == "1\tI\t_\tPRON\t_\t_\t2\tnsubj\t_\t_"
    assert s.to_conllu() == t1.to_conllu() + "\n" + t2.to_conllu() + "\n\n"
    assert s == transparse.Sentence([t1, t2])
