"""Systems, training and saving through the binding (tp_systems, tp_train,
tp_model_save): the same library calls as C."""
import json
import os
import subprocess
import sys

import pytest

import transparse
from conftest import EWT_TEST, REPO, c_test_program, need_file

# The committed slices of UD English EWT (testdata/ud/README.md).
FIX_TRAIN = REPO / "testdata" / "ud" / "en_ewt-train-150.conllu"
FIX_DEV = REPO / "testdata" / "ud" / "en_ewt-dev-40.conllu"

ALL = ["2-planar", "3-planar", "arc-eager", "arc-hybrid", "arc-standard", "covington-nonprojective",
       "covington-projective", "planar", "swap-eager", "swap-lazy", "two-registers", "two-registers-literal"]


def test_systems():
    assert transparse.systems() == ALL


def test_train_errors(tmp_path):
    with pytest.raises(transparse.ArgumentError) as e:
        transparse.train("arc-wobbly", "a.conllu", "b.conllu")
    assert "arc-wobbly" in str(e.value) and "covington-nonprojective" in str(e.value)
    with pytest.raises(transparse.ArgumentError) as e:
        transparse.train("arc-eager", "a.conllu", "b.conllu", colour=1)
    assert "colour" in str(e.value)
    with pytest.raises(transparse.IoError) as e:
        transparse.train("arc-eager", tmp_path / "missing.conllu", tmp_path / "missing.conllu")
    assert "missing.conllu" in str(e.value)
    # Templates and weight bits are checked before any file is read.
    with pytest.raises(transparse.ArgumentError) as e:
        transparse.train("arc-eager", tmp_path / "missing.conllu", tmp_path / "missing.conllu",
                         gold={"templates": ["s0.w", "s0.zz"]})
    assert "gold.templates[1]" in str(e.value) and "s0.zz" in str(e.value)
    with pytest.raises(transparse.ArgumentError) as e:
        transparse.train("arc-eager", tmp_path / "missing.conllu", tmp_path / "missing.conllu", plain={"templates": []})
    assert "plain.templates: the list is empty" in str(e.value)
    with pytest.raises(transparse.ArgumentError) as e:
        transparse.train("arc-eager", tmp_path / "missing.conllu", tmp_path / "missing.conllu", weight_bits=20)
    assert "train: weight_bits: 20" in str(e.value)
    bad = tmp_path / "bad.conllu"
    bad.write_text("1\tonly\tthree\n\n")
    with pytest.raises(transparse.InputError) as e:
        transparse.train("arc-eager", bad, bad)
    assert "bad.conllu:1" in str(e.value)


@pytest.mark.parametrize("system", ["covington-nonprojective", "two-registers"])
def test_train_save_load(tmp_path, system):
    ewt = need_file(EWT_TEST)
    out = tmp_path / "m.tpm"
    m = transparse.train(system, ewt, ewt, gold_only=True, gold={"epochs": 1}, max_sentences=60,
                         pseudo_projective="head", output=out, name="py-test")
    assert m.card["system"] == system and m.card["name"] == "py-test"
    saved = tmp_path / "again.tpm"
    m.save(saved)
    words = ["They", "saw", "it", "."]
    tags = dict(upos=["PRON", "VERB", "PRON", "PUNCT"], xpos=["PRP", "VBD", "PRP", "."])
    want = m.parse(words, **tags)
    for p in (out, saved):
        with transparse.Model.load(p) as m2:
            assert m2.card["system"] == system
            assert m2.parse(words, **tags) == want
    assert sum(t.head == 0 for t in want) == 1
    with pytest.raises(transparse.InputError):
        m.parse(words)  # gold-only: no tagger
    with pytest.raises(transparse.IoError):
        m.save(tmp_path / "no-such-dir" / "x.tpm")
    m.close()


def test_beam_needs_beam_classifiers(tmp_path):
    """A model trained without a beam refuses a width above 1 in parse,
    parse_batch and parse_document (ArgumentError, naming why) and parses
    at width 1 and at its default width, 1."""
    ewt = need_file(EWT_TEST)
    m = transparse.train("arc-eager", ewt, ewt, gold_only=True, gold={"epochs": 1}, max_sentences=60)
    words = ["They", "saw", "it", "."]
    tags = dict(upos=["PRON", "VERB", "PRON", "PUNCT"], xpos=["PRP", "VBD", "PRP", "."])
    assert m.default_beam == 1
    for k in (2, 8, transparse.MAX_BEAM):
        with pytest.raises(transparse.ArgumentError, match="no classifiers trained for the beam"):
            m.parse(words, beam=k, **tags)
    with pytest.raises(transparse.ArgumentError, match="no classifiers trained for the beam"):
        m.parse_batch([words], beam=4)
    doc = "1\tThey\t_\tPRON\tPRP\t_\t_\t_\t_\t_\n2\tleft\t_\tVERB\tVBD\t_\t_\t_\t_\t_\n\n"
    with pytest.raises(transparse.ArgumentError, match="no classifiers trained for the beam"):
        m.parse_document(doc, beam=8)
    assert m.parse(words, beam=1, **tags) == m.parse(words, **tags)
    assert m.parse_document(doc, beam=1) == m.parse_document(doc)
    m.close()


def test_parse_tokens_matches_cli_format(model):
    text = "The quick brown fox jumps .\n\nI saw her .\n"
    out = model.parse_document(text, input="tokens")
    blocks = out.strip("\n").split("\n\n")
    assert len(blocks) == 2
    assert blocks[0].startswith("# sent_id = 1\n# text = The quick brown fox jumps .\n1\tThe\t")
    assert blocks[1].startswith("# sent_id = 2\n# text = I saw her .\n")
    # the same parse as one sentence through Model.parse
    words = ["I", "saw", "her", "."]
    heads = [int(line.split("\t")[6]) for line in blocks[1].split("\n")[2:]]
    assert heads == [t.head for t in model.parse(words)]
    with pytest.raises(transparse.InputError) as e:
        model.parse_document("ok\n\xff".encode("latin-1"), input="tokens")
    assert "2" in str(e.value)


def test_train_templates_and_weight_bits(tmp_path):
    """gold templates and weight_bits reach the trainer: the card records
    them, and fewer templates give a smaller model than the system's
    (without a segmenter, which would be the same in both)."""
    ewt = need_file(EWT_TEST)
    tpls = ["s0.w", "s0.p", "n0.w", "n0.p", "s0.p+n0.p"]
    few = transparse.train("arc-eager", ewt, ewt, gold_only=True, max_sentences=60, segment={"skip": True},
                           gold={"epochs": 1, "templates": tpls}, weight_bits=8, output=tmp_path / "few.tpm")
    full = transparse.train("arc-eager", ewt, ewt, gold_only=True, gold={"epochs": 1}, max_sentences=60,
                            segment={"skip": True}, output=tmp_path / "full.tpm")
    assert few.card["options"]["gold.templates"] == "5 given"
    assert few.card["options"]["weight_bits"] == "8"
    assert full.card["options"]["gold.templates"] == "the system's"
    assert (tmp_path / "few.tpm").stat().st_size < (tmp_path / "full.tpm").stat().st_size / 4
    words = ["They", "saw", "it", "."]
    tags = dict(upos=["PRON", "VERB", "PRON", "PUNCT"], xpos=["PRP", "VBD", "PRP", "."])
    assert sum(t.head == 0 for t in few.parse(words, **tags)) == 1
    few.close()
    full.close()


# ---- the same options everywhere ---------------------------------------------


def _front_ends(tmp_path):
    """The three ways to train: the CLI, C (bindings/c/tests/train_options.c,
    compiled here) and Python, each run as a command with JSON options, in
    a fresh process (SOURCE_DATE_EPOCH must be set before the library
    starts)."""
    prog, cli = c_test_program(tmp_path, "train_options")

    def options_file(opts):
        path = tmp_path / "options.json"
        path.write_text(json.dumps(opts))
        return ["--options", str(path)]

    py = ("import json, sys, transparse\n"
          "try:\n"
          "    transparse.train(**json.loads(sys.argv[1]))\n"
          "except transparse.Error as e:\n"
          "    print(type(e).__name__, e.message); sys.exit(1)\n")
    return {
        "cli": lambda o: [str(cli), "train", "--progress", "never"] + options_file(o),
        "c": lambda o: [str(prog), json.dumps(o)],
        "python": lambda o: [sys.executable, "-c", py, json.dumps(o)],
    }


def _run(cmd):
    env = dict(os.environ, SOURCE_DATE_EPOCH="1700000000",
               PYTHONPATH=str(REPO / "bindings" / "python") + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=300)


def test_same_options_same_model_everywhere(tmp_path):
    """The CLI, C and Python given the same options (word clusters
    included) write the same model file, byte for byte; jackknife_folds=1 is refused
    by all three with one message."""
    runs = _front_ends(tmp_path)
    clusters = tmp_path / "en.paths"
    clusters.write_text("00\tthe\t9\n01\ta\t8\n100\tis\t7\n101\twas\t6\n")
    base = dict(system="arc-eager", train=str(FIX_TRAIN), dev=str(FIX_DEV), gold={"epochs": 2},
                plain={"epochs": 2, "runs": 1}, taggers={"epochs": 1}, jackknife_folds=2, max_sentences=120, name="same", clusters=str(clusters))
    files = {}
    for name, cmd in runs.items():
        out = tmp_path / f"{name}.tpm"
        r = _run(cmd(dict(base, output=str(out))))
        assert r.returncode == 0, (name, r.stdout, r.stderr)
        files[name] = out.read_bytes()
    assert files["cli"] == files["c"] == files["python"]
    with transparse.Model.load(tmp_path / "python.tpm") as m:
        assert m.card["options"]["seed"] == "1" and m.card["trained_at"] == "2023-11-14T22:13:20Z"
        assert m.card["options"]["clusters"] == "en.paths, 4 words"

    messages = {}
    for name, cmd in runs.items():
        r = _run(cmd(dict(base, jackknife_folds=1, output=str(tmp_path / "never.tpm"))))
        assert r.returncode != 0, name
        text = (r.stderr if name == "cli" else r.stdout).strip().splitlines()[0]
        i = text.index("train: jackknife_folds: ")
        messages[name] = text[i:]
        assert not (tmp_path / "never.tpm").exists()
    assert messages["cli"] == messages["c"] == messages["python"], messages
    assert messages["c"].startswith("train: jackknife_folds: 1: want 0 (the default, 4) or at least 2")
    r = _run(runs["c"](dict(base, jackknife_folds=1)))
    assert r.stdout.startswith("TP_ERR_ARGUMENT tp_train_with_progress: train: jackknife_folds: 1")
    r = _run(runs["python"](dict(base, jackknife_folds=1)))
    assert r.stdout.startswith("ArgumentError tp_train: train: jackknife_folds: 1")


@pytest.mark.parametrize("option, value, message", [
    ("gold", {"epochs": -1}, "train: gold.epochs: -1: want 0 (the default) or more"),
    ("jackknife_folds", -2, "train: jackknife_folds: -2"),
    ("jackknife_folds", 1, "train: jackknife_folds: 1: want 0 (the default, 4) or at least 2"),
    ("plain", {"explore": 5}, "train: plain.explore: 5: a probability, at most 1"),
    ("plain", {"runs": -1}, "train: plain.runs: -1"),
    ("taggers", {"runs": -1}, "train: taggers.runs: -1"),
    ("beam", {"runs": -1}, "train: beam.runs: -1"),
    ("taggers", {"drop_weights_below": -0.5}, "train: taggers.drop_weights_below: -0.5: want 0"),
    ("weight_bits", 1, "train: weight_bits: 1: want 2..16"),
])
def test_bad_options_are_argument_errors(tmp_path, option, value, message):
    """Options no training accepts are ArgumentErrors with the CLI's message,
    found before the treebanks are read (they do not exist here)."""
    with pytest.raises(transparse.ArgumentError) as e:
        transparse.train("arc-eager", tmp_path / "t.conllu", tmp_path / "d.conllu", **{option: value})
    assert e.value.message.startswith("tp_train: " + message)


def test_checks_before_training(tmp_path):
    """A bad output path or test file is found before training starts: the
    progress callable hears nothing."""
    heard = []
    bad = tmp_path / "bad.conllu"
    bad.write_text("1\tthe\tthe\tDET\tDT\t_\t0\troot\t_\t_\n2\tdog\n\n")
    with pytest.raises(transparse.ArgumentError, match="train: output: .* is a directory"):
        transparse.train("arc-eager", FIX_TRAIN, FIX_DEV, progress=heard.append, output=tmp_path)
    with pytest.raises(transparse.InputError, match="bad.conllu:2"):
        transparse.train("arc-eager", FIX_TRAIN, FIX_DEV, progress=heard.append, test=bad,
                         output=tmp_path / "m.tpm")
    assert heard == [] and not (tmp_path / "m.tpm").exists()


def test_train_progress(tmp_path):
    """progress receives TrainProgress reports through C; an exception it
    raises stops the training and comes out of train() as it is."""
    reports = []
    m = transparse.train("arc-eager", FIX_TRAIN, FIX_DEV, progress=reports.append,
                         gold={"epochs": 2}, plain={"epochs": 2, "runs": 1}, taggers={"epochs": 1},
                         jackknife_folds=2, max_sentences=80)
    m.close()
    phases = {p.phase for p in reports}
    assert {"tagger UPOS", "jackknife", "parser (gold tags)", "parser (plain tokens)"} <= phases
    ends = [p for p in reports if p.epoch_end]
    assert len(ends) == 4 and all(0 < p.dev_las <= p.dev_uas <= 100 and p.epochs == 2 for p in ends)
    assert all(0 <= p.done <= p.total for p in reports)

    class Stop(Exception):
        pass

    def stop(p):
        if p.phase.startswith("parser"):
            raise Stop(p.phase)

    with pytest.raises(Stop):
        transparse.train("arc-eager", FIX_TRAIN, FIX_DEV, progress=stop,
                         gold={"epochs": 5}, plain={"epochs": 5, "runs": 1}, taggers={"epochs": 1},
                         jackknife_folds=2, output=tmp_path / "m.tpm")
    assert not (tmp_path / "m.tpm").exists()
