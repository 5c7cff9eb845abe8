"""transparse.spark and examples/spark_parse.py in Spark local mode: the
parse of a treebank split over partitions and two worker processes is byte
for byte the single-process parse."""

import os
import shutil
import subprocess
import sys

import pytest

import transparse
from conftest import EWT_TEST, REPO, need_file

EXAMPLE = REPO / "bindings" / "python" / "examples" / "spark_parse.py"


def need_spark():
    missing = []
    try:
        import pyspark  # noqa: F401
    except ImportError:
        missing.append("pyspark (pip install pyspark)")
    if shutil.which("java") is None:
        missing.append("java (a JRE 17 or newer)")
    if missing:
        if os.environ.get("CI"):
            pytest.fail("needs " + " and ".join(missing) + " (.ci/run installs them)")
        pytest.skip("needs " + " and ".join(missing))


def spark_parse(tmp_path, model_file, inputs, *args):
    out = tmp_path / "out"
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO / "bindings" / "python") + os.pathsep + env.get("PYTHONPATH", "")
    env["PYSPARK_PYTHON"] = env["PYSPARK_DRIVER_PYTHON"] = sys.executable
    p = subprocess.run(
        [sys.executable, str(EXAMPLE), "--master", "local[2]", "-m", str(model_file), "-o", str(out),
         *args, *map(str, inputs)],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, f"spark_parse.py failed:\n{p.stdout}\n{p.stderr[-5000:]}"
    parts = sorted(out.glob("part-*"))
    assert (out / "_SUCCESS").exists()
    return parts, b"".join(part.read_bytes() for part in parts)


def test_spark_parse_of_ewt_test_is_the_single_process_parse(model, model_file, tmp_path):
    need_spark()
    ewt = need_file(EWT_TEST)
    want = model.parse_document(ewt.read_text(encoding="utf-8")).encode("utf-8")
    # Partitions of about a sixth of the file: several tasks on two workers,
    # the file cut at blank lines.
    split_mb = ewt.stat().st_size / 6 / 2**20
    parts, got = spark_parse(tmp_path, model_file, [ewt], "--split-mb", f"{split_mb:.3f}")
    assert len(parts) >= 4, parts
    assert got == want


def test_spark_parse_forwards_the_parse_options(model, model_file, tmp_path):
    """--accurate, --confidence and --no-tags reach every executor's
    parse_document: the output is the single-process parse with them."""
    need_spark()
    ewt = need_file(EWT_TEST)
    doc = "".join(s + "\n\n" for s in ewt.read_text(encoding="utf-8").split("\n\n")[:150] if s.strip())
    part = tmp_path / "part.conllu"
    part.write_text(doc, encoding="utf-8")
    want = model.parse_document(doc, no_tags=True, accurate=True, confidence=True).encode("utf-8")
    assert want != model.parse_document(doc, no_tags=True, confidence=True).encode("utf-8")
    split_mb = part.stat().st_size / 3 / 2**20
    parts, got = spark_parse(tmp_path, model_file, [part], "--accurate", "--confidence", "--no-tags",
                             "--split-mb", f"{split_mb:.3f}")
    assert len(parts) >= 2, parts
    assert got == want


def test_spark_parse_of_tokens_numbers_sentences_over_all_inputs(model, model_file, tmp_path):
    need_spark()
    ewt = need_file(EWT_TEST)
    sents = [line for line in ewt.read_text(encoding="utf-8").splitlines() if line.startswith("# text = ")]
    lines = [s[len("# text = "):] for s in sents[:120]]
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text("\n".join(lines[:70]) + "\n\n", encoding="utf-8")  # a blank line is no sentence
    b.write_text("\n".join(lines[70:]) + "\n", encoding="utf-8")
    want = model.parse_document("\n".join(lines) + "\n", input="tokens").encode("utf-8")
    _, got = spark_parse(tmp_path, model_file, [a, b], "--input", "tokens")
    assert got == want


def test_spark_parse_of_text_is_the_cli_parse(text_model, tmp_path):
    """Raw text files parsed on Spark are what ``transparse parse`` writes
    for them, sentences numbered across the files; a file without a
    sentence gives nothing."""
    need_spark()
    model_file = tmp_path / "text.tpm"
    text_model.save(model_file)
    a, empty, b = tmp_path / "a.txt", tmp_path / "b.txt", tmp_path / "c.txt"
    a.write_text("I don't like it. She left.\n\nA second paragraph.\n", encoding="utf-8")
    empty.write_text("\n\n", encoding="utf-8")
    b.write_text("Café owners 😀 said no. Zoë left!", encoding="utf-8")
    cli = subprocess.run([str(REPO / "bin" / "transparse"), "parse", "-m", str(model_file), str(a), str(empty), str(b)],
                         capture_output=True, timeout=120)
    assert cli.returncode == 0, cli.stderr
    assert cli.stdout.count(b"# newdoc") == 2
    _, got = spark_parse(tmp_path, model_file, [a, empty, b], "--input", "text")
    assert got == cli.stdout


def test_broadcast_model_checks_the_file_on_the_driver(tmp_path):
    import transparse.spark as tps  # needs no pyspark until a context is used

    class FakeContext:  # broadcast is not reached: the model is checked first
        def broadcast(self, value):
            raise AssertionError("broadcast of a bad model")

    bad = tmp_path / "bad.tpm"
    bad.write_bytes(b"not a model")
    with pytest.raises(transparse.ModelFormatError):
        tps.broadcast_model(FakeContext(), bad)
    with pytest.raises(OSError):
        tps.broadcast_model(FakeContext(), tmp_path / "missing.tpm")
