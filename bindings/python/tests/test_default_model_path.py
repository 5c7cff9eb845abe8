"""tp_default_model_path through ctypes: the environment as the host sets it
now wins; without it, the library finds the model of an installation
relative to its own file (symbolic links resolved)."""
import os
import shutil
import subprocess
import sys

from transparse import _lib


def test_env_read_at_each_call(monkeypatch):
    monkeypatch.setenv("TRANSPARSE_MODEL", "/nonexistent/first.tpm")
    assert _lib.tp_default_model_path() == b"/nonexistent/first.tpm"
    monkeypatch.setenv("TRANSPARSE_MODEL", "second.tpm")
    assert _lib.tp_default_model_path() == b"second.tpm"


# A process of its own: one process holds one copy of the Go runtime.
_PROBE = "import ctypes, sys\n" \
    "f = ctypes.CDLL(sys.argv[1]).tp_default_model_path\n" \
    "f.restype = ctypes.c_char_p\n" \
    "print((f() or b'').decode())\n"


def _probe(lib):
    env = {k: v for k, v in os.environ.items() if k != "TRANSPARSE_MODEL"}
    out = subprocess.run([sys.executable, "-c", _PROBE, str(lib)], env=env,
                         capture_output=True, text=True, check=True)
    return out.stdout.strip()


def test_installed_layout(tmp_path):
    lib = tmp_path / "prefix" / "lib" / "libtransparse.so.0"
    lib.parent.mkdir(parents=True)
    shutil.copy(_lib.path, lib)
    assert _probe(lib) == ""  # no model anywhere near it
    model = tmp_path / "prefix" / "share" / "transparse" / "models" / "en_ewt.tpm"
    model.parent.mkdir(parents=True)
    model.write_bytes(b"x")
    assert _probe(lib) == os.path.realpath(model)
    link = tmp_path / "elsewhere" / "libtransparse.so.0"
    link.parent.mkdir()
    link.symlink_to(lib)
    assert _probe(link) == os.path.realpath(model)
