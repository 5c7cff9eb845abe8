"""Reading the words of a CoNLL-U treebank, for the tests and the scripts
that feed them to the binding (scripts/bench_python.py, scripts/longrun.py).
No pytest here, so the scripts can import it."""


def _read(path, limit, row):
    """row(columns) of each word line of the sentences of a CoNLL-U file
    (the first limit sentences if limit is given), sentence by sentence.
    Multiword tokens and empty nodes are skipped."""
    sents, cur = [], []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line:
                if cur:
                    sents.append(cur)
                    cur = []
                    if limit is not None and len(sents) == limit:
                        return sents
            elif not line.startswith("#"):
                cols = line.split("\t")
                if cols[0].isdigit():
                    cur.append(row(cols))
    if cur:
        sents.append(cur)
    return sents


def read_words(path, limit=None):
    """The word lines of the sentences of a CoNLL-U file (the first limit
    sentences if limit is given): a list of sentences, each a list of
    (form, lemma, upos, xpos, feats) tuples. Multiword tokens and empty
    nodes are skipped."""
    return _read(path, limit, lambda c: (c[1], c[2], c[3], c[4], c[5]))


def read_spacing(path, limit=None):
    """The spacing of the words read_words reads, sentence by sentence: for
    each word, False where its MISC has SpaceAfter=No, else True (the
    space_after argument of Model.parse)."""
    return _read(path, limit, lambda c: "SpaceAfter=No" not in c[9].split("|"))
