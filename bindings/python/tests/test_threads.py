"""Threads: one model, a ThreadPoolExecutor of 16 workers, the whole EWT test
set — parsed from plain tokens and with the gold tags, and through
parse_document — gives output byte-identical to a single-threaded run."""

import random
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from conftest import EWT_TEST, need_file, read_words

N_THREADS = 16


def _parse(model, sent, gold):
    forms = [w[0] for w in sent]
    if not gold:
        return model.parse(forms)
    return model.parse(forms, lemma=[w[1] for w in sent], upos=[w[2] for w in sent],
                       xpos=[w[3] for w in sent], feats=[w[4] for w in sent])


def test_thread_pool_parses_ewt_like_one_thread(model):
    sents = read_words(need_file(EWT_TEST))
    jobs = [(gold, i) for gold in (False, True) for i in range(len(sents))]
    single = [_parse(model, sents[i], gold).to_conllu() for gold, i in jobs]

    order = list(range(len(jobs)))
    random.Random(4).shuffle(order)  # neighbouring sentences on different threads
    threads = set()

    def work(k):
        threads.add(threading.get_ident())
        gold, i = jobs[k]
        return k, _parse(model, sents[i], gold).to_conllu()

    start = time.perf_counter()
    with ThreadPoolExecutor(max_workers=N_THREADS) as pool:
        got = dict(pool.map(work, order))
    took = time.perf_counter() - start
    words = sum(len(s) for s in sents)
    print(f"{N_THREADS} threads: {len(jobs)} parses ({2 * words} words) in {took:.1f} s")

    assert len(threads) > 1
    assert len(got) == len(jobs)
    parallel = "".join(got[k] for k in range(len(jobs))).encode()
    assert parallel == "".join(single).encode()


def test_thread_pool_parse_document_like_one_thread(model):
    text = need_file(EWT_TEST).read_text(encoding="utf-8")
    whole = model.parse_document(text)
    # The document cut into 64 pieces at sentence boundaries.
    sents = text.split("\n\n")
    pieces = ["\n\n".join(sents[i::64]) + "\n\n" for i in range(64)]
    pieces = [p for p in pieces if p.strip()]
    with ThreadPoolExecutor(max_workers=N_THREADS) as pool:
        parsed = list(pool.map(model.parse_document, pieces * 2))
    # Each piece parses as it does alone...
    alone = [model.parse_document(p) for p in pieces]
    assert parsed == alone * 2
    # ...and its sentences as they do in the whole document.
    out_sents = whole.split("\n\n")
    for i, p in enumerate(parsed[: len(pieces)]):
        assert p.split("\n\n")[:-1] == out_sents[i::64][: p.count("\n\n")]
