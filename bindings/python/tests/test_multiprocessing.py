"""Processes: the library's Go runtime does not survive fork(). With the
"spawn" and "forkserver" start methods, workers load the library and the
model themselves and parse like the parent; with "fork", every call in a
worker raises ForkError at once (no hang), and the parent is unaffected."""

import multiprocessing
import warnings

import pytest

import mp_worker
import transparse

SENTENCES = [
    "I saw her .",
    "The quick brown fox jumps over the lazy dog .",
    "What if Google Morphed Into GoogleOS ?",
    "In the beginning God created the heaven and the earth .",
    "They were n't sure whether to go , so they stayed home and watched TV .",
    "Yes",
]

TIMEOUT = 300  # seconds: a hang fails the test instead of blocking the suite


@pytest.mark.parametrize("method", ["spawn", "forkserver"])
def test_start_method_works(method, model, model_file):
    ctx = multiprocessing.get_context(method)
    sents = [s.split() for s in SENTENCES]
    expected = [model.parse(s).to_conllu() for s in sents]
    with ctx.Pool(2, initializer=mp_worker.init, initargs=(str(model_file),)) as pool:
        got = pool.map_async(mp_worker.parse_forms, sents * 2, chunksize=1).get(TIMEOUT)
        loaded = pool.apply_async(mp_worker.load_and_parse, (str(model_file), sents[1])).get(TIMEOUT)
    assert got == expected * 2
    assert loaded == expected[1]


def _fork_context():
    # Python 3.12+ warns that fork() in a process with threads (the Go
    # runtime's) may deadlock; that is what this test shows does not happen.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return multiprocessing.get_context("fork")


def test_fork_start_method_raises_fork_error(model, model_file):
    ctx = _fork_context()
    mp_worker.inherited = model
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            with ctx.Pool(1) as pool:
                loading = pool.apply_async(mp_worker.load_and_parse, (str(model_file), ["x"]))
                inherited = pool.apply_async(mp_worker.parse_with_inherited, (["x", "y"],))
                version = pool.apply_async(mp_worker.library_version)
                with pytest.raises(transparse.ForkError) as e1:
                    loading.get(TIMEOUT)
                with pytest.raises(transparse.ForkError) as e2:
                    inherited.get(TIMEOUT)
                assert version.get(TIMEOUT) == transparse.library_version()
    finally:
        mp_worker.inherited = None
    assert e1.value.message.startswith("tp_model_load: called in a child process created by fork()")
    assert e2.value.message.startswith("tp_parse: called in a child process created by fork()")
    for e in (e1.value, e2.value):
        assert e.code == transparse.ForkError.code
        assert '"spawn" or "forkserver"' in e.message
    # The parent is unaffected.
    assert model.parse(["still", "fine"]).heads.count(0) == 1
