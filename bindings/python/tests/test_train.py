"""Systems, training and saving through the binding (tp_systems, tp_train,
tp_model_save): the same library calls as C."""
import pytest

import transparse
from conftest import EWT_TEST, need_file

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
                         gold_templates=["s0.w", "s0.zz"])
    assert "gold templates[1]" in str(e.value) and "s0.zz" in str(e.value)
    with pytest.raises(transparse.ArgumentError) as e:
        transparse.train("arc-eager", tmp_path / "missing.conllu", tmp_path / "missing.conllu", plain_templates=[])
    assert "plain templates: the list is empty" in str(e.value)
    with pytest.raises(transparse.ArgumentError) as e:
        transparse.train("arc-eager", tmp_path / "missing.conllu", tmp_path / "missing.conllu", weight_bits=20)
    assert "weight bits 20" in str(e.value)
    bad = tmp_path / "bad.conllu"
    bad.write_text("1\tonly\tthree\n\n")
    with pytest.raises(transparse.InputError) as e:
        transparse.train("arc-eager", bad, bad)
    assert "bad.conllu:1" in str(e.value)


@pytest.mark.parametrize("system", ["covington-nonprojective", "two-registers"])
def test_train_save_load(tmp_path, system):
    ewt = need_file(EWT_TEST)
    out = tmp_path / "m.tpm"
    m = transparse.train(system, ewt, ewt, gold_only=True, epochs=1, max_sentences=60,
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


def test_parse_tokens_matches_cli_format(model):
    text = "The quick brown fox jumps .\n\nI saw her .\n"
    out = model.parse_tokens(text)
    blocks = out.strip("\n").split("\n\n")
    assert len(blocks) == 2
    assert blocks[0].startswith("# sent_id = 1\n# text = The quick brown fox jumps .\n1\tThe\t")
    assert blocks[1].startswith("# sent_id = 2\n# text = I saw her .\n")
    # the same parse as one sentence through Model.parse
    words = ["I", "saw", "her", "."]
    heads = [int(line.split("\t")[6]) for line in blocks[1].split("\n")[2:]]
    assert heads == [t.head for t in model.parse(words)]
    with pytest.raises(transparse.InputError) as e:
        model.parse_tokens("ok\n\xff".encode("latin-1"))
    assert "2" in str(e.value)


def test_train_templates_and_weight_bits(tmp_path):
    """gold_templates and weight_bits reach the trainer: the card records
    them, and fewer templates give a smaller model than the system's."""
    ewt = need_file(EWT_TEST)
    tpls = ["s0.w", "s0.p", "n0.w", "n0.p", "s0.p+n0.p"]
    few = transparse.train("arc-eager", ewt, ewt, gold_only=True, epochs=1, max_sentences=60,
                           gold_templates=tpls, weight_bits=8, output=tmp_path / "few.tpm")
    full = transparse.train("arc-eager", ewt, ewt, gold_only=True, epochs=1, max_sentences=60,
                            output=tmp_path / "full.tpm")
    assert few.card["options"]["gold_templates"] == "5 given"
    assert few.card["options"]["weight_bits"] == "8"
    assert full.card["options"]["gold_templates"] == "the system's"
    assert (tmp_path / "few.tpm").stat().st_size < (tmp_path / "full.tpm").stat().st_size / 4
    words = ["They", "saw", "it", "."]
    tags = dict(upos=["PRON", "VERB", "PRON", "PUNCT"], xpos=["PRP", "VBD", "PRP", "."])
    assert sum(t.head == 0 for t in few.parse(words, **tags)) == 1
    few.close()
    full.close()
