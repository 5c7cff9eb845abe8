"""The Python package as users install it: the wheel of ./build.sh wheel in a
fresh virtual environment without network, pip install of a source tree
that has no built library, and pip install in a fresh git clone.

These tests build wheels and virtual environments (pip fetches setuptools
for the build from the package index, as for any pyproject build; the wheel
itself is installed with --no-index). They take about a minute.
"""

import os
import pathlib
import re
import shutil
import subprocess
import sys
import zipfile

import pytest

from conftest import REPO

PYPKG = REPO / "bindings" / "python"

# Run in a clean environment: nothing may find the in-repo package, library
# or model by accident.
_CLEAN_ENV = {k: v for k, v in os.environ.items()
              if k not in ("PYTHONPATH", "TRANSPARSE_MODEL", "TRANSPARSE_LIBRARY", "PYTHONHOME")}

PARSE = """
import transparse, sys
path = transparse.default_model()
with transparse.Model.load(path) as m:
    s = m.parse("The cat sat on the mat .".split())
print(transparse.library_path)
print(path)
print(s.to_conllu(), end="")
"""


def run(args, cwd=None, env=None, check=True):
    p = subprocess.run([str(a) for a in args], cwd=cwd, env=env or _CLEAN_ENV,
                       capture_output=True, text=True, timeout=600)
    if check and p.returncode != 0:
        pytest.fail(f"{args} failed ({p.returncode}):\n{p.stdout}\n{p.stderr}")
    return p


def venv(path):
    """A fresh virtual environment (without pip of its own: pip() runs this
    interpreter's pip for it)."""
    run([sys.executable, "-m", "venv", "--without-pip", path])
    return pathlib.Path(path) / "bin" / "python"


def pip(py, *args, check=True):
    return run([sys.executable, "-m", "pip", "--python", py, "--disable-pip-version-check", *args], check=check)


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    if shutil.which("go") is None:
        pytest.skip("needs Go to build the library")
    out = tmp_path_factory.mktemp("dist")
    run(["bash", REPO / "build.sh", "wheel", out], env=dict(_CLEAN_ENV))
    wheels = list(out.glob("transparse-*.whl"))
    assert len(wheels) == 1, wheels
    return wheels[0]


def test_wheel_is_a_platform_wheel(wheel):
    # name-version-python-abi-platform.whl (PEP 427); the library is native
    # code for this machine, so the platform cannot be "any".
    m = re.fullmatch(r"transparse-([0-9.]+)-py3-none-([a-z0-9_.]+)\.whl", wheel.name)
    assert m, wheel.name
    plat = m.group(2)
    assert plat != "any"
    assert re.fullmatch(r"(linux|manylinux_2_[0-9]+|manylinux[0-9]+)_x86_64|(linux|manylinux_2_[0-9]+)_aarch64", plat), plat
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        info = z.read(next(n for n in names if n.endswith(".dist-info/WHEEL"))).decode()
    assert "transparse/libtransparse.so.0" in names
    assert "transparse/models/en_ewt.tpm" in names
    assert "Root-Is-Purelib: false" in info
    assert f"Tag: py3-none-{plat}" in info


def test_wheel_installs_offline_and_parses(wheel, tmp_path):
    py = venv(tmp_path / "venv")
    pip(py, "install", "--no-index", wheel)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    out = run([py, "-c", PARSE], cwd=elsewhere).stdout.splitlines()
    check_parse(out, tmp_path / "venv")


def check_parse(out, venv_dir):
    """out: PARSE's lines; the library and the model came from venv_dir."""
    site = str(venv_dir)
    assert out[0].startswith(site), f"library loaded from {out[0]}, not from the venv"
    assert out[1].startswith(site) and out[1].endswith("models/en_ewt.tpm"), out[1]
    rows = [line.split("\t") for line in out[2:] if line]
    assert [r[1] for r in rows] == "The cat sat on the mat .".split()
    heads = [int(r[6]) for r in rows]
    assert heads.count(0) == 1 and all(0 <= h <= len(rows) for h in heads)


def copy_package(dest):
    """bindings/python as a user's copy of the source has it: no built
    library, no model, no build leftovers."""
    shutil.copytree(PYPKG, dest, ignore=shutil.ignore_patterns(
        "libtransparse.so*", "models", "build", "dist", "*.egg-info", "__pycache__", "tests"))
    assert not list(pathlib.Path(dest).rglob("libtransparse*"))
    return dest


def test_unbuilt_tree_outside_a_clone_stops_with_a_clear_message(tmp_path):
    src = copy_package(tmp_path / "python")
    py = venv(tmp_path / "venv")
    p = pip(py, "install", src, check=False)
    assert p.returncode != 0, "pip install of a tree without the library succeeded:\n" + p.stdout
    err = p.stdout + p.stderr
    assert "transparse: cannot build the Python package" in err, err
    assert "./build.sh" in err, err
    # Nothing half-installed: the package is absent, not unimportable.
    imp = run([py, "-c", "import transparse"], cwd=tmp_path, check=False)
    assert "No module named 'transparse'" in imp.stderr, imp.stderr


def test_pip_install_in_a_fresh_clone_builds_the_library_with_go(tmp_path):
    # What a user does without ./build.sh: git clone, a venv, pip install
    # ./bindings/python. The clone is of the committed HEAD, with every file
    # the build reads (packaging/'s version script among them); setup.py
    # builds the library with Go and bundles the model.
    if shutil.which("go") is None or shutil.which("git") is None:
        pytest.skip("needs Go and git")
    if not (REPO / ".git").exists():
        pytest.skip(f"{REPO} is not a git checkout, so it cannot be cloned")
    run(["git", "clone", "--quiet", REPO, tmp_path / "clone"])
    clone = tmp_path / "clone"
    assert not list((clone / "bindings" / "python").rglob("libtransparse*"))
    run([sys.executable, "-m", "venv", "v"], cwd=clone)
    py = clone / "v" / "bin" / "python"
    p = run([clone / "v" / "bin" / "pip", "install", "--disable-pip-version-check", "-v",
             "./bindings/python"], cwd=clone)
    assert "building the library" in p.stdout + p.stderr
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    out = run([py, "-c", PARSE], cwd=elsewhere).stdout.splitlines()
    check_parse(out, clone / "v")
