"""The transition systems as an engine (transparse.System, State): the
static oracles' sequences equal the Go oracle's (the golden file that
parser/transition's TestOracleClassesGolden checks against Go), applying
them rebuilds the gold trees, and illegal moves and trees outside a
system's class get clear errors."""

import collections
import hashlib
import os
import pathlib
import re

import pytest

import transparse
from conftest import REPO

SLICE = REPO / "testdata" / "ud" / "en_ewt-dev-40.conllu"
GOLDEN = REPO / "testdata" / "engine" / "oracle-en_ewt-dev-40.txt"
DIGESTS = REPO / "testdata" / "engine" / "oracle-digests.tsv"
UD_DIR = pathlib.Path(os.environ.get("TRANSPARSE_UD_DIR") or REPO.parent / "shared" / "data" / "ud")


def read_trees(path, limit=None):
    """(heads, deprels) per sentence of a CoNLL-U file, words only."""
    trees, heads, deprels = [], [], []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line:
                if heads:
                    trees.append((heads, deprels))
                    if limit and len(trees) == limit:
                        return trees
                heads, deprels = [], []
            elif not line.startswith("#"):
                cols = line.split("\t")
                if "-" not in cols[0] and "." not in cols[0]:
                    heads.append(int(cols[6]))
                    deprels.append(cols[7])
    if heads:
        trees.append((heads, deprels))
    return trees


def deprels_of(trees):
    return sorted({d for _, ds in trees for d in ds} | {"root"})


def rebuild(system, seq, n):
    """Apply seq from the initial state, checking each class is legal."""
    st = system.state(n)
    for k in seq:
        assert not st.is_terminal
        assert k in st.legal()
        st.apply(k)
    assert st.is_terminal
    return st


def oracle_line(system, heads, labels):
    """The golden files' text of one tree: the class names of the static
    oracle's sequence, or "OUT-OF-CLASS h -> d" with the first arc outside
    the system's class that the error names."""
    try:
        seq = system.oracle(heads, labels)
    except transparse.InputError as e:
        m = re.search(r"outside the class of (\S+): its first arc outside it, in word order, is (\d+) -> (\d+) \((.*)\)$", str(e))
        if not m:
            assert "outside the class of " + system.name in str(e)
            return "OUT-OF-CLASS", None
        name, h, d, label = m.groups()
        assert name == system.name and heads[int(d) - 1] == int(h) and labels[int(d) - 1] == label
        return f"OUT-OF-CLASS {h} -> {d}", None
    return " ".join(system.classes[k] for k in seq), seq


def test_every_system_matches_the_go_oracle_and_rebuilds_the_slice():
    trees = read_trees(SLICE)
    golden = {}
    for line in GOLDEN.read_text(encoding="utf-8").splitlines():
        name, i, seq = line.split("\t")
        golden[name, int(i)] = seq
    names = transparse.systems()
    assert len(names) == 12 and {n for n, _ in golden} == set(names)
    deprels = deprels_of(trees)
    out_of_class = 0
    for name in names:
        system = transparse.System(name, deprels)
        for i, (heads, labels) in enumerate(trees):
            line, seq = oracle_line(system, heads, labels)
            assert line == golden[name, i], (name, i)
            if seq is None:
                out_of_class += 1
                continue
            st = rebuild(system, seq, len(heads))
            assert (st.heads, st.deprels) == (heads, labels), (name, i)
    assert out_of_class > 0


def read_digests():
    """testdata/engine/oracle-digests.tsv: per treebank file (name, SHA-256)
    and system, the Go oracle's trees, derived trees, transitions and the
    SHA-256 of its golden lines (parser/transition's TestOracleDigests)."""
    rows = {}
    for line in DIGESTS.read_text(encoding="utf-8").splitlines():
        file, file_sha, name, trees, derived, transitions, sha = line.split("\t")
        rows.setdefault((file, file_sha), {})[name] = (int(trees), int(derived), int(transitions), sha)
    return rows


def digest_files():
    """The treebank files of the digests that are in UD_DIR as recorded."""
    out = []
    for (file, file_sha), systems in sorted(read_digests().items()):
        path = UD_DIR / file
        if path.is_file() and hashlib.sha256(path.read_bytes()).hexdigest() == file_sha:
            out.append(pytest.param(path, systems, id=file))
    return out or [pytest.param(None, None, marks=pytest.mark.skip(reason=f"no shared UD treebanks as recorded in {DIGESTS.name} (in {UD_DIR})"))]


@pytest.mark.parametrize("path,systems", digest_files())
def test_every_system_matches_the_go_oracle_on_the_shared_treebanks(path, systems):
    """Every tree of en_ewt, tr_imst and hu_szeged (train, dev, test), all
    twelve systems: the sequences from Python are the Go oracle's (same
    digest), applying each through State rebuilds the gold tree, and a tree
    outside a class gets the error naming its first arc outside it."""
    trees = read_trees(path)
    deprels = deprels_of(trees)
    for name in transparse.systems():
        system = transparse.System(name, deprels)
        sha, derived, transitions = hashlib.sha256(), 0, 0
        for i, (heads, labels) in enumerate(trees):
            line, seq = oracle_line(system, heads, labels)
            sha.update(f"{name}\t{i}\t{line}\n".encode())
            if seq is None:
                continue
            derived += 1
            transitions += len(seq)
            st = system.state(len(heads))
            for k in seq:
                st.apply(k)
            assert st.is_terminal and (st.heads, st.deprels) == (heads, labels), (path.name, name, i)
        assert (len(trees), derived, transitions, sha.hexdigest()) == systems[name], (path.name, name)


def test_state_view_copy_and_illegal_moves():
    system = transparse.System("arc-eager", ["root", "nsubj", "obj"])
    st = system.state(3)
    assert (st.stack, st.buffer, st.heads, st.deprels) == ([0], [1, 2, 3], [-1, -1, -1], [None] * 3)
    assert [system.classes[k] for k in st.legal()] == ["SHIFT", "RIGHT-ARC:root"]
    with pytest.raises(transparse.InputError, match="REDUCE.*not legal"):
        st.apply(system.classes.index("REDUCE"))
    with pytest.raises(transparse.ArgumentError, match="out of range"):
        st.apply(len(system.classes))
    st.apply(0)
    c = st.copy()
    c.apply(system.classes.index("LEFT-ARC:nsubj"))
    assert (st.stack, st.buffer) == ([0, 1], [2, 3])
    assert (c.stack, c.buffer, c.heads, c.deprels) == ([0], [2, 3], [2, -1, -1], ["nsubj", None, None])


def test_dynamic_oracle_cost():
    heads, labels = [2, 0, 2], ["nsubj", "root", "obj"]
    system = transparse.System("arc-hybrid", ["root", "nsubj", "obj"])
    seq = system.oracle(heads, labels)
    st = system.state(3)
    for k in seq:
        costs = {system.classes[j]: system.cost(st, j, heads, labels) for j in st.legal()}
        assert costs[system.classes[k]] == 0
        st.apply(k)
    st = system.state(3)
    st.apply(0)
    st.apply(0)
    # Stack 0 1 2, buffer 3: shifting 2 already lost 1 <- 2 and 0 -> 2 (2
    # can no longer reach 0), so SHIFT costs nothing more and every arc
    # move loses 2 -> 3 (or builds it with a wrong head for 2: LEFT-ARC).
    costs = {system.classes[j]: system.cost(st, j, heads, labels) for j in st.legal()}
    assert costs == {"SHIFT": 0, "LEFT-ARC:nsubj": 1, "LEFT-ARC:obj": 1, "RIGHT-ARC:nsubj": 1, "RIGHT-ARC:obj": 1}
    with pytest.raises(transparse.ArgumentError, match="no dynamic oracle"):
        s2 = transparse.System("arc-standard", ["root"])
        s2.cost(s2.state(1), 0, [0], ["root"])


def test_bad_trees_and_names():
    with pytest.raises(transparse.ArgumentError, match="unknown transition system"):
        transparse.System("arc-greedy", ["root"])
    with pytest.raises(transparse.ArgumentError, match="no \"root\""):
        transparse.System("arc-eager", ["nsubj"])
    system = transparse.System("arc-eager", ["root", "dep"])
    with pytest.raises(transparse.InputError, match="cycle"):
        system.oracle([2, 3, 1, 0], ["dep", "dep", "dep", "root"])
    with pytest.raises(transparse.InputError, match="word 1 has head 5"):
        system.oracle([5, 0], ["dep", "root"])


@pytest.mark.parametrize("with_numpy", [False, True], ids=["lists", "numpy"])
def test_oracle_document_is_the_oracle_of_every_sentence(with_numpy, monkeypatch):
    """System.oracle_document gives, sentence by sentence, what System.oracle
    gives, in numpy arrays when numpy is installed and lists otherwise."""
    from transparse import engine

    if with_numpy:
        np = pytest.importorskip("numpy")
    else:
        monkeypatch.setattr(engine, "_np", None)
    text = SLICE.read_text(encoding="utf-8")
    trees = read_trees(SLICE)
    for name in transparse.systems():
        system = transparse.System(name, deprels_of(trees))
        doc = system.oracle_document(text)
        if with_numpy:
            assert [a.dtype for a in doc] == [np.int32, np.int64, np.int64, np.bool_]
        else:
            assert all(isinstance(a, list) for a in doc)
        assert len(doc.n_words) == len(doc.in_class) == len(trees) == len(doc.offsets) - 1
        for i, (heads, labels) in enumerate(trees):
            line, seq = oracle_line(system, heads, labels)
            assert doc.n_words[i] == len(heads)
            assert doc.in_class[i] == (seq is not None), (name, i, line)
            assert list(doc.classes[doc.offsets[i] : doc.offsets[i + 1]]) == (seq or []), (name, i)


def test_oracle_document_errors():
    system = transparse.System("arc-eager", ["root", "nsubj"])
    with pytest.raises(transparse.InputError, match=r"text:3: sentence 2: word 2 has deprel \"obj\", not one of the system's"):
        system.oracle_document("1\tI\t_\t_\t_\t_\t0\troot\t_\t_\n\n1\tI\t_\t_\t_\t_\t0\troot\t_\t_\n2\tx\t_\t_\t_\t_\t1\tobj\t_\t_\n\n")
    with pytest.raises(transparse.InputError, match="text:1"):
        system.oracle_document("1\tI\n")
    doc = system.oracle_document("")
    assert (list(doc.classes), list(doc.offsets), list(doc.n_words)) == ([], [0], [])


def crossing(heads):
    """Whether two arcs of the tree cross (node 0 at position 0)."""
    arcs = [tuple(sorted((h, d))) for d, h in enumerate(heads, 1)]
    return any(a < c < b < e for a, b in arcs for c, e in arcs)


@pytest.mark.parametrize("encoding", ["baseline", "head", "path", "head+path"])
def test_pseudo_projective_oracle_and_decode(encoding):
    """With a pseudo-projective encoding, arc-eager derives every tree of
    the slice: the projective ones as they are, the others projectivized
    (lifted arcs, encoded labels); decode gives back the gold tree (the
    slice's non-projective trees are all recovered by the three encodings
    that record the lifts; baseline only strips marks)."""
    trees = read_trees(SLICE)
    plain = transparse.System("arc-eager", deprels_of(trees))
    system = transparse.System("arc-eager", deprels_of(trees), pseudo_projective=encoding)
    assert system.deprels[: len(plain.deprels)] == plain.deprels
    assert len(system.deprels) > len(plain.deprels) or encoding == "baseline"
    lifted = 0
    for heads, labels in trees:
        st = rebuild(system, system.oracle(heads, labels), len(heads))
        assert not crossing(st.heads)
        if not crossing(heads):
            assert (st.heads, st.deprels) == (heads, labels)
            assert system.decode(st.heads, st.deprels) == (heads, labels)
            continue
        lifted += 1
        assert st.heads != heads
        decoded = system.decode(st.heads, st.deprels)
        if encoding == "baseline":
            assert decoded == (st.heads, labels)
        else:
            assert decoded == (heads, labels)
            assert any("|" in d for d in st.deprels)
    assert lifted == 2
    doc = system.oracle_document(SLICE.read_text(encoding="utf-8"))
    assert all(doc.in_class)
    for i, (heads, labels) in enumerate(trees):
        assert list(doc.classes[doc.offsets[i] : doc.offsets[i + 1]]) == system.oracle(heads, labels)
    with pytest.raises(transparse.ArgumentError, match="no pseudo-projective encoding"):
        plain.decode([0], ["root"])
    assert (system.name, system.pseudo_projective) == (f"arc-eager/{encoding}", encoding)
    assert repr(system).startswith(f"System('arc-eager/{encoding}', ")
    by_name = transparse.System(f"arc-eager/{encoding}", deprels_of(trees))
    assert (by_name.pseudo_projective, by_name.classes) == (encoding, system.classes)
    assert (plain.name, plain.pseudo_projective) == ("arc-eager", None)
    with pytest.raises(transparse.ArgumentError, match=r'unknown encoding "lift" \(known: baseline, head, path, head\+path\)'):
        transparse.System("arc-eager", ["root"], pseudo_projective="lift")


Word = collections.namedtuple("Word", "form lemma upos xpos feats head deprel")


def read_words(path):
    """The words of every sentence of a CoNLL-U file, as Word tuples."""
    sents, words = [], []
    for line in path.read_text(encoding="utf-8").splitlines() + [""]:
        if not line:
            if words:
                sents.append(words)
            words = []
        elif not line.startswith("#"):
            c = line.split("\t")
            if c[0].isdigit():
                words.append(Word(c[1], c[2], c[3], c[4], c[5], int(c[6]), c[7]))
    return sents


def greedy_parse(model, system, words):
    """Parse words through the engine as the greedy parser does: the
    "greedy" scores, the best legal class (the first among equal scores),
    arc-eager's end-of-sentence REDUCE of a headless node labelled like the
    arc move in its direction, and the words left headless attached to the
    root word ("dep") or to node 0 ("root")."""
    n = len(words)
    st = system.state(n)
    root = system.deprels.index("root")
    while not st.is_terminal:
        scores = st.scores(model, words)
        legal = st.legal()
        if not legal:
            break
        k = max(legal, key=lambda j: scores[j])
        stack, heads = st.stack, st.heads
        if system.name == "arc-eager" and system.classes[k] == "REDUCE" and heads[stack[-1] - 1] == -1:
            d, h = stack[-1], stack[-2]
            if h == 0 and 0 in heads:
                h = heads.index(0) + 1
            move = "LEFT-ARC:" if d < h else "RIGHT-ARC:"
            base = next(j for j, c in enumerate(system.classes) if c.startswith(move))
            label = max((lab for lab in range(len(system.deprels)) if (h == 0) == (lab == root)),
                        key=lambda lab: scores[base + lab])
            st.apply_deprel(k, label)
        else:
            st.apply(k)
    heads, deprels = st.heads, st.deprels
    root_word = heads.index(0) + 1 if 0 in heads else 0  # the root rule: at most one
    for i in range(n):
        if heads[i] == -1:
            heads[i], deprels[i] = (0, "root") if root_word == 0 else (root_word, "dep")
            root_word = root_word or i + 1
    return heads, deprels


def test_the_model_parses_through_the_engine_as_it_parses(model):
    """Driving the bundled model's system through the engine with its
    "greedy" scores gives the trees Model.parse gives with the same gold
    tags, on every sentence of the slice; features are one id per template
    and depend on the state."""
    system = transparse.System(model.card["system"], model.deprels)
    sents = read_words(SLICE)
    for words in sents:
        heads, deprels = greedy_parse(model, system, words)
        cols = {c: [getattr(w, c) for w in words] for c in ("upos", "xpos", "feats", "lemma")}
        want = model.parse([w.form for w in words], **cols)
        assert (heads, deprels) == ([t.head for t in want], [t.deprel for t in want])
    words = sents[0]
    st = system.state(len(words))
    before = st.features(model, words)
    st.apply(system.classes.index("SHIFT"))
    after = st.features(model, words)
    assert len(before) == len(after) > 10 and before != after
    assert 0 < len(st.features(model, words, scorer="gold-fast")) < len(after)
    assert len(st.scores(model, words, scorer="gold")) == len(system.classes)
    with pytest.raises(transparse.ArgumentError, match="the state has"):
        st.features(model, words[:-1])
    with pytest.raises(transparse.ArgumentError, match="not of the model's system"):
        transparse.System("arc-hybrid", model.deprels).state(len(words)).features(model, words)
    with pytest.raises(transparse.InputError, match="UPOS of every word"):
        st.features(model, [w.form for w in words])
