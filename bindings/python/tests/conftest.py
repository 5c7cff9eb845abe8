import os
import pathlib
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
