"""Reading the words of a CoNLL-U treebank, for the tests and the scripts
that feed them to the binding (scripts/bench_python.py, scripts/longrun.py).
No pytest here, so the scripts can import it."""


def read_words(path, limit=None):
    """The word lines of the sentences of a CoNLL-U file (the first limit
    sentences if limit is given): a list of sentences, each a list of
    (form, lemma, upos, xpos, feats) tuples. Multiword tokens and empty
    nodes are skipped."""
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
                    cur.append((cols[1], cols[2], cols[3], cols[4], cols[5]))
    if cur:
        sents.append(cur)
    return sents
