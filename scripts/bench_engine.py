#!/usr/bin/env python3
"""The cost of one transition of the engine through Python: the static
oracle's sequences of every sentence of a CoNLL-U file
(System.oracle_document) replayed from the initial state, each transition
one State.legal() and one State.apply(k) (State creation amortized), on
one thread, in CPU time of that thread; bindings/c/bench/bench_engine.c times the same replay through
the C API. Prints the best of PASSES timed passes after a warm-up, in µs
per transition.

    scripts/bench_engine.py [-s SYSTEM] [-p PASSES] [-k] CONLLU
"""
import argparse
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "bindings", "python"))
import transparse  # noqa: E402


def replay(system, doc):
    for i, in_class in enumerate(doc.in_class):
        if not in_class:
            continue
        st = system.state(doc.n_words[i])
        for k in doc.classes[doc.offsets[i]:doc.offsets[i + 1]]:
            st.legal()
            st.apply(k)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-s", "--system", default="arc-eager")
    ap.add_argument("-p", "--passes", type=int, default=3)
    ap.add_argument("-k", "--keys", action="store_true", help='print "key value" lines')
    ap.add_argument("conllu")
    a = ap.parse_args()
    text = open(a.conllu, encoding="utf-8").read()
    deprels = sorted({c[7] for c in (line.split("\t") for line in text.splitlines()) if len(c) == 10 and c[0].isdigit()} | {"root"})
    system = transparse.System(a.system, deprels)
    doc = system.oracle_document(text)
    doc = doc._replace(classes=[int(k) for k in doc.classes], offsets=[int(o) for o in doc.offsets],
                       n_words=[int(n) for n in doc.n_words])
    transitions = doc.offsets[-1]
    best = float("inf")
    for p in range(a.passes + 1):  # pass 0: the warm-up
        t0 = time.thread_time()
        replay(system, doc)
        if p:
            best = min(best, time.thread_time() - t0)
    us = best * 1e6 / transitions
    if a.keys:
        print(f"engine_py_us {us:.2f}\ntransitions {transitions}")
    else:
        print(f"{a.system}: {transitions} transitions, {us:.2f} µs per transition (legal + apply), best of {a.passes}")


if __name__ == "__main__":
    main()
