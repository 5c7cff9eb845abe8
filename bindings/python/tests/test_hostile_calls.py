"""Hostile calls and hostile data at the Python boundary: a forked child
with calls in flight, non-blocking files, bytes that are not UTF-8 in
copied-through sentences, and argument errors with their proper types."""
import os
import subprocess
import sys
import textwrap

import pytest

import transparse

from conftest import HERE, REPO, model_path

PACKAGE = str(HERE.parent)
CLI = REPO / "bin" / "transparse"

# A malformed sentence (a word line of 3 columns) holding bytes that are not
# UTF-8, between two good ones: on_error="skip" copies it through.
DOC = (b"1\tHello\t_\t_\t_\t_\t_\t_\t_\t_\n\n"
       b"1\tbad\xff\xfe\tx\n\n"
       b"1\tBye\t_\t_\t_\t_\t_\t_\t_\t_\n\n")


def test_close_in_forked_child_with_call_in_flight_raises_at_once(model_file):
    # The child inherits the count of the parent's parse in flight but not
    # the thread that would end it; close() must refuse, not wait.
    script = textwrap.dedent("""\
        import os, signal, sys, threading, time
        sys.path.insert(0, sys.argv[1])
        import transparse
        m = transparse.Model.load(sys.argv[2])
        words = ["word"] * 200
        def work():
            while True:
                m.parse_batch([words] * 50)
        threading.Thread(target=work, daemon=True).start()
        while m._users == 0:
            time.sleep(0.0005)
        pid = os.fork()
        if pid == 0:
            signal.alarm(5)  # a hang ends the child (status: killed by SIGALRM)
            t0 = time.monotonic()
            try:
                m.close()
                os._exit(3)
            except transparse.ForkError:
                os._exit(0 if time.monotonic() - t0 < 1 else 4)
            except BaseException:
                os._exit(5)
        _, status = os.waitpid(pid, 0)
        print("STATUS", status)
        os._exit(0)
        """)
    proc = subprocess.run([sys.executable, "-c", script, PACKAGE, str(model_file)],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.split() == ["STATUS", "0"], proc.stdout


def test_stream_over_nonblocking_file_raises(model):
    r, w = os.pipe()
    try:
        os.set_blocking(r, False)
        with open(r, "rb", buffering=0, closefd=False) as f:
            assert f.read(10) is None  # what the stream's read() sees
            with pytest.raises(transparse.IoError, match="non-blocking"):
                list(model.stream(f))
    finally:
        os.close(r)
        os.close(w)


def test_stream_read_returning_int_is_type_error(model):
    class IntReader:
        def read(self, n):
            return 5

    with pytest.raises(TypeError, match=r"read\(\) returned int"):
        list(model.stream(IntReader()))


def test_skip_copies_bytes_that_are_not_utf8_unchanged(model, tmp_path):
    if not CLI.exists():
        pytest.skip(f"no CLI at {CLI}")
    src = tmp_path / "doc.conllu"
    src.write_bytes(DOC)
    want = subprocess.run([str(CLI), "parse", "--model", str(model_path()), "--on-error", "skip", "--threads", "1",
                           str(src)], capture_output=True, check=True, timeout=60).stdout
    assert b"bad\xff\xfe\tx" in want  # the C path copies the bytes through
    want = want.replace(os.fsencode(src) + b":", b"text:")  # the error comment names the input
    with pytest.warns(transparse.SkippedSentencesWarning):
        got = model.parse_document(DOC, on_error="skip")
    assert "\ufffd" not in got
    assert got.encode("utf-8", "surrogateescape") == want
    with model.stream(src, on_error="skip") as st:
        streamed = "".join(st)
    assert streamed.encode("utf-8", "surrogateescape") == want


@pytest.mark.parametrize("k", [0, -1])
def test_k_below_one_is_argument_error(model, k):
    with pytest.raises(transparse.ArgumentError, match="k"):
        model.parse(["a", "b"], k=k)
    with pytest.raises(transparse.ArgumentError, match="k"):
        model.parse_batch([["a", "b"]], k=k)


def test_render_svg_lone_surrogate_is_input_error():
    with pytest.raises(transparse.InputError):
        transparse.render_svg("1\t\ud800\t_\tX\t_\t_\t0\troot\t_\t_\n\n")
