"""pytest configuration shared by the tests and the doctests of the package."""
import pathlib

import pytest

REPO = pathlib.Path(__file__).resolve().parent.parent.parent
BUNDLED_MODEL = REPO / "models" / "en_ewt.tpm"

# This file is configuration, not a module with doctests (and its name
# would clash with tests/conftest.py under --doctest-modules).
collect_ignore = ["conftest.py"]


@pytest.fixture(autouse=True)
def _doctest_from_repo_root(request, monkeypatch):
    """The docstrings' examples load models/en_ewt.tpm as a user in the
    repository root would; run them there (and skip them without it)."""
    if isinstance(request.node, pytest.DoctestItem):
        if not BUNDLED_MODEL.exists():
            pytest.skip(f"the docstring examples need the bundled model at {BUNDLED_MODEL}")
        monkeypatch.chdir(REPO)
