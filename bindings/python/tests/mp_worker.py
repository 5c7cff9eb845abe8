"""Worker functions for test_multiprocessing.py. They live in their own module
so that a child started with "spawn" or "forkserver" imports only this (and
transparse), not the test module."""

import transparse

_model = None
#: A model loaded by the parent before forking (the "fork" start method).
inherited = None


def init(path):
    """Pool initializer: load the model in the worker."""
    global _model
    _model = transparse.Model.load(path)


def parse_forms(forms):
    """Parse with the worker's model; the result as CoNLL-U text."""
    return _model.parse(forms).to_conllu()


def load_and_parse(path, forms):
    """Load a model and parse: what a worker without an initializer does."""
    with transparse.Model.load(path) as m:
        return m.parse(forms).to_conllu()


def parse_with_inherited(forms):
    """Parse with the model the parent loaded before the fork."""
    return inherited.parse(forms).to_conllu()


def library_version():
    """Pure C: works in any child."""
    return transparse.library_version()
