"""A short version of scripts/longrun.sh (long runs do not leak): three passes
over the EWT test set through the Python binding (Model.parse per sentence,
and Model.parse_batch in batches), in a fresh process, leave the resident
memory less than 5 % above what it was after the first pass."""

import re
import subprocess
import sys

import pytest

from conftest import EWT_TEST, REPO, need_file


@pytest.mark.parametrize("mode", [[], ["--many"]], ids=["parse", "parse_batch"])
def test_three_passes_keep_memory_flat(model_file, mode):
    need_file(EWT_TEST)
    proc = subprocess.run(
        [sys.executable, str(REPO / "scripts" / "longrun.py"), "--passes", "3", "--gold", *mode,
         str(model_file), str(EWT_TEST)],
        capture_output=True, text=True, timeout=600)
    print(proc.stdout)
    m = re.search(r"RSS after pass 1: (\d+) KiB; after pass 3: (\d+) KiB; growth (-?[\d.]+) %", proc.stdout)
    assert m, proc.stdout + proc.stderr
    assert "0 errors" in proc.stdout
    assert float(m.group(3)) < 5.0
    assert proc.returncode == 0, proc.stderr
