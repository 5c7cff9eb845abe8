#!/usr/bin/env python3
"""Throughput of the Python binding: words/s parsing a CoNLL-U file's
sentences with Model.parse (one call per sentence), on one thread and on N
threads (concurrent.futures.ThreadPoolExecutor; ctypes releases the GIL
inside the library), with the file's gold tags and from forms only; with Model.parse_batch
(batches of 64 sentences with their gold tags, the batches shared among
the threads); and with Model.parse_document (one call per thread for its share of the
document: the batch entry point, where the GIL is released for the whole
share). Each measure: a warm-up pass on one thread and on N, then
PASSES timed passes of each, alternating; the best of each is reported.

    scripts/bench_python.py [-m MODEL] [-t THREADS] [-p PASSES] [-k] CONLLU
"""
import argparse
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "bindings", "python"))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "bindings", "python", "tests"))
import transparse  # noqa: E402
from udwords import read_words  # noqa: E402


def read_blocks(path):
    """The sentences of a CoNLL-U file as text blocks."""
    with open(path, encoding="utf-8") as f:
        return [b + "\n\n" for b in f.read().strip("\n").split("\n\n")]


def col(s, i):
    return [None if c[i] == "_" else c[i] for c in s]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-m", "--model", default=os.environ.get("TRANSPARSE_MODEL", "models/en_ewt.tpm"))
    ap.add_argument("-t", "--threads", type=int, default=os.cpu_count())
    ap.add_argument("-p", "--passes", type=int, default=3)
    ap.add_argument("-k", "--keys", action="store_true", help='print "key value" lines')
    ap.add_argument("conllu")
    a = ap.parse_args()
    sents = read_words(a.conllu)
    words = sum(len(s) for s in sents)
    gold = [dict(words=col(s, 0), upos=col(s, 2), xpos=col(s, 3), feats=col(s, 4), lemma=col(s, 1)) for s in sents]
    plain = [dict(words=col(s, 0)) for s in sents]
    results = {}
    with transparse.Model.load(a.model) as m:
        def run(fn, items, threads, chunksize=1):
            """Seconds for fn over items, on one thread or a pool."""
            t0 = time.perf_counter()
            if threads == 1:
                for x in items:
                    fn(x)
            else:
                with ThreadPoolExecutor(threads) as ex:
                    list(ex.map(fn, items, chunksize=chunksize))
            return time.perf_counter() - t0

        def best_rates(name, fn, items_of, chunksize=1):
            """Best words/s of fn on one thread and on a.threads threads:
            a warm-up of each, then a.passes passes of each, alternating, so
            that a change in the machine's speed during the run touches
            both figures alike."""
            counts = (1, a.threads)
            for threads in counts:
                run(fn, items_of(threads), threads, chunksize)
            best = {1: float("inf"), a.threads: float("inf")}
            for _ in range(a.passes):
                for threads in counts:
                    best[threads] = min(best[threads], run(fn, items_of(threads), threads, chunksize))
            results[f"{name}_1"] = words / best[1]
            results[f"{name}_n"] = words / best[a.threads]

        blocks = read_blocks(a.conllu)
        batches = [gold[i:i + 64] for i in range(0, len(gold), 64)]
        # parse_document: one call per thread's share of the document.
        shares = {t: ["".join(blocks[i::t]) for i in range(t)] for t in (1, a.threads)}
        best_rates("py_conllu", m.parse_document, shares.get)
        # parse_batch: batches of 64 sentences, shared among the threads.
        best_rates("py_many", m.parse_batch, lambda t: batches)
        for name, batch in (("gold", gold), ("tagged", plain)):
            best_rates(f"py_{name}", lambda kw: m.parse(**kw), lambda t: batch, chunksize=64)
    if a.keys:
        print(f"py_threads {a.threads}")
        for k, v in results.items():
            print(f"{k} {v:.0f}")
    else:
        print(f"Python binding, {len(sents)} sentences, {words} words, best of {a.passes}")
        for k, v in results.items():
            print(f"{k:16s} {v:10.0f} words/s")


if __name__ == "__main__":
    main()
