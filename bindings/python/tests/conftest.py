import os
import pathlib
import shutil
import subprocess
import sys

import pytest

HERE = pathlib.Path(__file__).resolve().parent
REPO = HERE.parent.parent.parent
sys.path.insert(0, str(HERE.parent))  # the in-repo package first

import transparse  # noqa: E402
from udwords import read_words  # noqa: E402,F401  (for the tests)


EWT_TEST = REPO.parent / "shared" / "data" / "ud" / "en_ewt-ud-test.conllu"


def need_file(path):
    """Skip the test when path is missing; fail it in CI."""
    if not pathlib.Path(path).exists():
        if os.environ.get("CI"):
            pytest.fail(f"{path} is missing (needed in CI)")
        pytest.skip(f"{path} is missing")
    return pathlib.Path(path)


def c_test_program(tmp_path, name):
    """Compile bindings/c/tests/NAME.c against the library the package
    loaded, into tmp_path; return its path and bin/transparse's. Skip the
    test without a C compiler or bin/transparse (./build.sh)."""
    cli = REPO / "bin" / "transparse"
    lib = pathlib.Path(transparse.library_path).parent
    cc = shutil.which(os.environ.get("CC", "cc"))
    if not cli.exists() or cc is None:
        pytest.skip("needs bin/transparse (./build.sh) and a C compiler")
    prog = tmp_path / name
    subprocess.run([cc, "-std=c11", "-Wall", "-Wextra", "-Werror", f"-I{REPO / 'include'}",
                    str(REPO / "bindings" / "c" / "tests" / (name + ".c")), "-o", str(prog),
                    f"-L{lib}", f"-Wl,-rpath,{lib}", "-l:libtransparse.so.0"], check=True)
    return prog, cli


def model_path():
    return pathlib.Path(os.environ.get("TRANSPARSE_MODEL") or REPO / "models" / "en_ewt.tpm")


@pytest.fixture(scope="session")
def model_file():
    p = model_path()
    if not p.exists():
        pytest.skip(f"needs a model: no model at {p} (set TRANSPARSE_MODEL)")
    return p


@pytest.fixture(scope="session")
def model(model_file):
    m = transparse.Model.load(model_file)
    yield m
    m.close()


@pytest.fixture
def bogus_model():
    """A Model whose handle the library never gave out: argument checks come
    before the handle lookup, so error paths can be tested without a model."""
    m = transparse.Model._from_handle(0x7FFE1234)
    m._finalizer.detach()
    return m
