"""Tests that need a real model (skipped, with the reason, when it is absent)."""
import os
import pathlib
from concurrent.futures import ThreadPoolExecutor

import pytest

import transparse
from udwords import read_words

SENTENCES = [
    "I saw her .",
    "The quick brown fox jumps over the lazy dog .",
    "What if Google Morphed Into GoogleOS ?",
    "He said that the company , which was founded in 1998 , would open a new office in Paris .",
    "Yes",
    "Please call me at 555-1234 or e-mail me at john@example.com !",
    "The Senate passed the bill , but the House has not voted on it yet .",
    "In the beginning God created the heaven and the earth .",
    "They were n't sure whether to go , so they stayed home and watched TV .",
    "My phone 's battery died after two hours ; I need a new one .",
]

UD_TEST = pathlib.Path(__file__).resolve().parents[4] / "shared" / "data" / "ud" / "en_ewt-ud-test.conllu"


def ud_sentences(limit):
    """Forms of the first limit sentences of the UD test file, if present."""
    if not UD_TEST.exists():
        return []
    return [[w[0] for w in s] for s in read_words(UD_TEST, limit)]


def assert_tree(sent):
    n = len(sent)
    assert [t.id for t in sent] == list(range(1, n + 1))
    assert sum(1 for t in sent if t.head == 0) == 1
    for t in sent:
        assert 0 <= t.head <= n and t.head != t.id
        seen, h = 0, t.head
        while h != 0:
            h = sent[h - 1].head
            seen += 1
            assert seen <= n, "cycle"


def word_lines(conllu):
    """The columns of the word lines (integer IDs) of a CoNLL-U document."""
    return [line.split("\t") for line in conllu.splitlines() if line.split("\t")[0].isdigit()]


def test_parse(model):
    words = "The quick brown fox jumps over the lazy dog .".split()
    s = model.parse(words)
    assert isinstance(s, transparse.Sentence) and len(s) == 10
    assert_tree(s)
    deprels, tags, xtags = set(model.deprels), set(model.upos_tags), set(model.xpos_tags)
    for t in s:
        assert t.deprel in deprels and t.upos in tags
        assert t.xpos in xtags  # predicted by the model's XPOS tagger
    root = [t for t in s if t.head == 0][0]
    assert root.deprel == "root"
    assert s.to_conllu().count("\n") == 11
    # LEMMA and FEATS (predicted, or "_" from a model without the
    # components) are those of the document the library writes.
    doc = word_lines(model.parse_document(" ".join(words) + "\n", input="tokens"))
    assert [(t.lemma, t.feats) for t in s] == [(c[2], c[5]) for c in doc]
    assert [t.to_conllu().split("\t") for t in s] == doc


def test_parse_with_tags(model):
    s = model.parse(["Dogs", "bark", "."], upos=["NOUN", None, "PUNCT"], xpos=["NNS", "VBP", "."],
                    lemma=["dog", "bark", "."])
    assert s[0].upos == "NOUN" and s[2].upos == "PUNCT" and s[1].upos in model.upos_tags
    assert s[0].xpos == "NNS" and [t.lemma for t in s] == ["dog", "bark", "."]
    assert_tree(s)


def test_lemma_and_feats(model):
    """Given LEMMA and FEATS are kept word by word; the others are what the
    library's document parse gives the same words (predicted or "_")."""
    words = ["The", "dogs", "bark", "at", "cafés", "."]
    lemma = ["the", None, "", "at", "café", "_"]
    feats = ["Definite=Def|PronType=Art", "_", None, "", "Number=Plur", "Foo"]
    s = model.parse(words, lemma=lemma, feats=feats)
    doc = "".join(f"{i}\t{w}\t{lemma[i - 1] or '_'}\t_\t_\t{feats[i - 1] or '_'}\t_\t_\t_\t_\n"
                  for i, w in enumerate(words, 1)) + "\n"
    want = word_lines(model.parse_document(doc))
    assert [t.to_conllu().split("\t") for t in s] == want
    assert [t.lemma for t in s][:5:4] == ["the", "café"] and s[3].lemma == "at"
    assert s[0].feats == "Definite=Def|PronType=Art" and s[5].feats == "Foo"
    assert all(t.lemma and t.feats for t in s)
    assert s[0].feats_dict == {"Definite": "Def", "PronType": "Art"}
    assert s[5].feats_dict == {"Foo": ""}
    many = model.parse_batch([{"words": words, "lemma": lemma, "feats": feats}, words])
    assert many[0] == s and many[1] == model.parse(words)


@pytest.mark.parametrize("feats, want", [
    ("_", {}),
    ("Number=Sing", {"Number": "Sing"}),
    ("Case=Nom|Number=Sing|Person=3", {"Case": "Nom", "Number": "Sing", "Person": "3"}),
    ("Number[psor]=Plur|PronType=Int,Rel", {"Number[psor]": "Plur", "PronType": "Int,Rel"}),
])
def test_feats_dict(feats, want):
    t = transparse.Token(1, "x", "_", "X", "_", feats, 0, "root")
    assert t.feats_dict == want and list(t.feats_dict) == list(want)
    assert "|".join(f"{k}={v}" for k, v in t.feats_dict.items()) == (feats if want else "")


def test_bytes_and_str_give_the_same_tokens(model):
    words = ["The", "dogs", "bark", "."]
    lemma = ["the", None, "", "."]
    feats = ["Definite=Def", "_", None, ""]
    s = model.parse(words, upos=["DET", "NOUN", "VERB", "PUNCT"], lemma=lemma, feats=feats)
    assert [t.form for t in s] == words
    assert s[0].lemma == "the" and s[3].lemma == "." and s[0].feats == "Definite=Def"
    as_bytes = model.parse([w.encode() for w in words], upos=[b"DET", b"NOUN", b"VERB", b"PUNCT"],
                           lemma=[b"the", None, b"", bytearray(b".")],
                           feats=[memoryview(b"Definite=Def"), b"_", None, b""])
    assert as_bytes == s
    many = model.parse_batch([{"words": words, "upos": ["DET", "NOUN", "VERB", "PUNCT"], "lemma": lemma,
                              "feats": feats}, ["No", "tags"]])
    assert many[0] == s and many[1] == model.parse(["No", "tags"])
    # The tokens are those the constructor makes: equal, same hash and repr,
    # and frozen.
    t = s[0]
    made = transparse.Token(t.id, t.form, t.lemma, t.upos, t.xpos, t.feats, t.head, t.deprel)
    assert made == t and hash(made) == hash(t) and repr(made) == repr(t)
    with pytest.raises(AttributeError):
        t.head = 3


def test_deterministic_and_from_bytes(model, model_file):
    first = [model.parse(x.split()) for x in SENTENCES]
    assert first == [model.parse(x.split()) for x in SENTENCES]
    with transparse.Model.from_bytes(pathlib.Path(model_file).read_bytes()) as m2:
        assert first == [m2.parse(x.split()) for x in SENTENCES]


def test_thread_pool_equals_sequential(model):
    sents = [x.split() for x in SENTENCES] + ud_sentences(300)
    sequential = [model.parse(s) for s in sents]
    with ThreadPoolExecutor(max_workers=16) as pool:
        parallel = list(pool.map(model.parse, sents * 3))
    assert parallel == sequential * 3


def test_card(model):
    card = model.card
    assert isinstance(card, dict)
    for key in ("name", "treebank", "system", "options", "trained_at", "version", "scores", "notes"):
        assert key in card, key
    assert isinstance(card["scores"], dict)


def test_labels(model):
    assert "root" in model.deprels
    assert "NOUN" in model.upos_tags
    assert "NN" in model.xpos_tags and "_" not in model.xpos_tags
    assert all(isinstance(x, str) and x for x in model.deprels)


def test_parse_conllu(model):
    doc = (
        "# sent_id = a\n"
        "1\tI\t_\t_\t_\t_\t_\t_\t_\t_\n"
        "2\tsaw\t_\t_\t_\t_\t_\t_\t_\t_\n"
        "3\ther\t_\t_\t_\t_\t_\t_\t_\t_\n"
        "\n"
    )
    out = model.parse_document(doc)
    assert out.startswith("# sent_id = a\n")
    rows = [line.split("\t") for line in out.splitlines() if line and not line.startswith("#")]
    assert len(rows) == 3
    assert all(r[6].isdigit() and r[7] != "_" and r[3] != "_" for r in rows)
    with pytest.raises(transparse.InputError, match="tp_parse_document: "):
        model.parse_document("1\tonly\tthree\n\n")


def test_invalid_utf8_with_model(model):
    with pytest.raises(transparse.InputError, match=r"forms\[1\] is not valid UTF-8"):
        model.parse(["ok", b"\xe2\x82"])


def test_context_manager_closes(model_file):
    with transparse.Model.load(model_file) as m:
        assert len(m.parse(["Hello", "."])) == 2
    assert m.closed
    with pytest.raises(transparse.ArgumentError, match="closed"):
        m.parse(["Hello"])


def test_fork_child_refused_with_model(model):
    pid = os.fork()
    if pid == 0:
        try:
            model.parse(["x"])
            os._exit(1)
        except transparse.ForkError:
            os._exit(0)
        except BaseException:
            os._exit(2)
    _, status = os.waitpid(pid, 0)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
    assert len(model.parse(["still", "works"])) == 2  # the parent is unaffected


def test_finalizer_frees(model_file):
    import gc

    m = transparse.Model.load(model_file)
    handle = m._handle
    del m
    gc.collect()
    ghost = transparse.Model._from_handle(handle)
    ghost._finalizer.detach()
    with pytest.raises(transparse.ArgumentError, match="freed or is invalid"):
        ghost.parse(["x"])


def test_close_while_other_threads_parse(model_file):
    import threading

    m = transparse.Model.load(model_file)
    errors, counts = [], []

    def work():
        n = 0
        while True:
            try:
                m.parse(["The", "model", "closes", "under", "me", "."])
                n += 1
            except transparse.ArgumentError as e:  # closed (or freed): the expected end
                counts.append(n)
                if "closed" not in e.message and "freed" not in e.message:
                    errors.append(e)
                return
            except BaseException as e:
                errors.append(e)
                return

    threads = [threading.Thread(target=work) for _ in range(8)]
    for t in threads:
        t.start()
    import time

    time.sleep(0.05)  # let the threads get going
    m.close()  # waits for calls in flight
    for t in threads:
        t.join()
    assert not errors and len(counts) == 8


def ud_gold(limit=None):
    """The sentences of the UD test file as parse keyword arguments with
    their gold UPOS, XPOS, FEATS and LEMMA ("_" marks absent), if present."""
    if not UD_TEST.exists():
        if os.environ.get("CI"):
            pytest.fail(f"{UD_TEST} is missing (needed in CI)")
        pytest.skip(f"{UD_TEST} is missing")
    return [dict(words=[w[0] for w in s], lemma=[w[1] for w in s], upos=[w[2] for w in s],
                 xpos=[w[3] for w in s], feats=[w[4] for w in s]) for s in read_words(UD_TEST, limit)]


def test_parse_batch_equals_parse(model):
    """parse_batch gives every sentence of EWT test what parse gives it, from
    plain tokens and with gold tags, in one batch and in batches of 37."""
    gold = ud_gold()
    plain = [s["words"] for s in gold]
    for batch in (gold, plain):
        want = [model.parse(**s) if isinstance(s, dict) else model.parse(s) for s in batch]
        assert model.parse_batch(batch) == want
        got = []
        for i in range(0, len(batch), 37):
            got.extend(model.parse_batch(iter(batch[i:i + 37])))
        assert got == want
    # Mixed: sentences with and without tags in one batch choose their
    # classifier each on its own.
    mixed = [gold[i] if i % 2 else plain[i] for i in range(200)]
    assert model.parse_batch(mixed) == [model.parse(**s) if isinstance(s, dict) else model.parse(s) for s in mixed]


def test_parse_batch_threads(model):
    """Threads, each with batches of its own, get the sequential result."""
    sents = ud_sentences(600)
    if not sents:
        pytest.skip("no UD test file")
    want = model.parse_batch(sents)
    batches = [sents[i:i + 50] for i in range(0, len(sents), 50)]
    with ThreadPoolExecutor(max_workers=4) as pool:
        got = [s for b in pool.map(model.parse_batch, batches * 2) for s in b]
    assert got == want * 2


def test_parse_batch_errors(model):
    assert model.parse_batch([]) == []
    ok = "I saw her .".split()
    with pytest.raises(transparse.InputError, match=r"tp_parse_batch: forms\[5\] is not valid UTF-8 \(sentence 1, word 2\)"):
        model.parse_batch([ok, [b"a", b"\xff", b"c"]])
    with pytest.raises(transparse.InputError, match=r"sentence 1 has 0 words"):
        model.parse_batch([ok, [], ok])
    with pytest.raises(transparse.ArgumentError, match=r"parse_batch: sentence 1: upos has 1 items for 3 words"):
        model.parse_batch([ok, {"words": ["a", "b", "c"], "upos": ["NOUN"]}])
    with pytest.raises(TypeError, match="sentence 0"):
        model.parse_batch(["a string is not a sentence"])
    with pytest.raises(TypeError):
        model.parse_batch([["a", 3]])
