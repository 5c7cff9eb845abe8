"""transparse.default_model() through the library's lookup: $TRANSPARSE_MODEL, then the model bundled in
the package, then an installed model or the build tree's, else a clear error."""

import os
import shutil
import subprocess
import sys

import pytest

import transparse
from conftest import REPO

PKG = REPO / "bindings" / "python" / "transparse"

SHOW = """
import transparse
try:
    print("found", transparse.default_model())
except transparse.IoError as e:
    print("error", e)
"""


def package_copy(tmp_path, model_file=None):
    """A copy of the package (with its library), with model_file bundled
    when given; returns the directory to put on sys.path."""
    if not (PKG / "libtransparse.so.0").exists():
        pytest.skip("the package has no library: run ./build.sh")
    root = tmp_path / "site"
    # The library copied, not linked: its own lookup starts from the
    # directory it is in (symbolic links resolved).
    shutil.copytree(PKG, root / "transparse",
                    ignore=shutil.ignore_patterns("models", "__pycache__"))
    if model_file is not None:
        (root / "transparse" / "models").mkdir()
        (root / "transparse" / "models" / "en_ewt.tpm").symlink_to(model_file)
    return root


def show(site, tmp_path, **env):
    e = {k: v for k, v in os.environ.items() if k not in ("TRANSPARSE_MODEL", "TRANSPARSE_LIBRARY")}
    e.update(env, PYTHONPATH=str(site))
    p = subprocess.run([sys.executable, "-c", SHOW], cwd=tmp_path, env=e, capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    return p.stdout.strip()


def test_environment_variable_first(model_file, monkeypatch):
    monkeypatch.setenv("TRANSPARSE_MODEL", str(model_file))
    assert transparse.default_model() == str(model_file)


def test_bundled_model(model_file, tmp_path):
    site = package_copy(tmp_path, model_file)
    assert show(site, tmp_path) == f"found {site / 'transparse' / 'models' / 'en_ewt.tpm'}"
    # $TRANSPARSE_MODEL comes first, and a wrong one is not passed over
    # (loading it then says what is wrong).
    gone = str(tmp_path / "gone.tpm")
    assert show(site, tmp_path, TRANSPARSE_MODEL=gone) == f"found {gone}"


def test_no_model_is_a_clear_error(tmp_path):
    site = package_copy(tmp_path)
    out = show(site, tmp_path)
    if out.startswith("found "):
        # The library's own lookup found a model installed on this machine.
        assert os.path.isfile(out[len("found "):]) and str(site) not in out, out
        return
    assert out.startswith("error transparse: no default model found; tried: "), out
    assert "TRANSPARSE_MODEL" in out and "not bundled" in out and str(site) in out
