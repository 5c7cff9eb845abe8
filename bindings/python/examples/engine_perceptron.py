#!/usr/bin/env python3
"""A greedy transition-based parser of one's own on the transparse engine:
an averaged perceptron in numpy scores the classes, the engine
(transparse.System, transparse.State) keeps every configuration, says
what is legal and applies every transition (docs/engine.md).

    engine_perceptron.py [--system arc-eager] [--epochs 3] [--max-sentences N]
                         [--bits 16] [--explore 0.9] [--seed 1] TRAIN DEV

Training follows the system's dynamic oracle where it has one (arc-eager,
arc-hybrid, covington-nonprojective: Goldberg & Nivre 2012): in every state
the best-scoring legal class is compared with the best-scoring class of
cost 0, the perceptron is updated when the first costs something, and from
the second epoch on the parser follows its own prediction with probability
--explore (error exploration). Other systems follow the static oracle's
sequence. Trees outside the system's class are left out of training.

Features are the forms and UPOS of the two top stack nodes and the two
first buffer nodes, a few of their pairs, the deprels of the leftmost and
rightmost dependents of the stack top and of the buffer front's leftmost,
and their distance, hashed (CRC-32) into 2^--bits rows of the weight
matrix (one column per class). Prints the training time and the dev UAS
and LAS (head and full deprel, every word).

EWT, the first 2,000 training sentences (a fraction of the treebank, so
that it runs in a few minutes on a shared machine):

    PYTHONPATH=bindings/python python3 bindings/python/examples/engine_perceptron.py \
        --max-sentences 2000 ../shared/data/ud/en_ewt-ud-train.conllu \
        ../shared/data/ud/en_ewt-ud-dev.conllu
"""

import argparse
import random
import sys
import time
import zlib

import numpy as np

import transparse


def read_conllu(path, limit=0):
    """Sentences of a CoNLL-U file as (forms, upos, heads, deprels) of its
    words (multiword tokens and empty nodes left out)."""
    sents, words = [], []
    with open(path, encoding="utf-8") as f:
        for line in list(f) + [""]:
            line = line.rstrip("\n")
            if not line:
                if words:
                    sents.append(tuple(list(c) for c in zip(*words)))
                    if limit and len(sents) == limit:
                        break
                words = []
            elif not line.startswith("#"):
                c = line.split("\t")
                if c[0].isdigit():
                    words.append((c[1].lower(), c[3], int(c[6]), c[7]))
    return sents


def features(st, forms, upos, bits):
    """The hashed feature rows of state st (see the module docstring)."""
    stack, buffer, heads, deprels = st.stack, st.buffer, st.heads, st.deprels
    s0, s1 = (stack[-1] if stack else -1), (stack[-2] if len(stack) > 1 else -1)
    b0, b1 = (buffer[0] if buffer else -1), (buffer[1] if len(buffer) > 1 else -1)

    def w(x):
        return "<none>" if x < 0 else "<root>" if x == 0 else forms[x - 1]

    def p(x):
        return "<none>" if x < 0 else "<root>" if x == 0 else upos[x - 1]

    def child(x, left):
        kids = [d for d, h in enumerate(heads, 1) if h == x and x > 0 and (d < x) == left]
        return str(deprels[(min if left else max)(kids) - 1]) if kids else "<none>"

    s0p, b0p = p(s0), p(b0)
    feats = (
        "bias", "s0w=" + w(s0), "s0p=" + s0p, "s1w=" + w(s1), "s1p=" + p(s1),
        "b0w=" + w(b0), "b0p=" + b0p, "b1w=" + w(b1), "b1p=" + p(b1),
        "s0p,b0p=" + s0p + "," + b0p, "s0w,b0p=" + w(s0) + "," + b0p, "s0p,b0w=" + s0p + "," + w(b0),
        "s1p,s0p=" + p(s1) + "," + s0p, "s0p,b0p,b1p=" + s0p + "," + b0p + "," + p(b1),
        "s1p,s0p,b0p=" + p(s1) + "," + s0p + "," + b0p,
        "s0d=" + str(deprels[s0 - 1] if s0 > 0 else None), "s0lc=" + child(s0, True),
        "s0rc=" + child(s0, False), "b0lc=" + child(b0, True),
        "dist=" + str(min(b0 - s0, 5) if s0 >= 0 and b0 >= 0 else -1),
    )
    mask = (1 << bits) - 1
    return np.fromiter((zlib.crc32(f.encode()) & mask for f in feats), dtype=np.int64, count=len(feats))


class Perceptron:
    """An averaged perceptron: one weight row per hashed feature, one column
    per class (the averaging trick of Daumé 2006)."""

    def __init__(self, bits, n_classes):
        self.w = np.zeros((1 << bits, n_classes), dtype=np.float32)
        self.u = np.zeros_like(self.w)  # updates weighted by their time
        self.t = 1

    def scores(self, rows):
        return self.w[rows].sum(axis=0)

    def update(self, rows, good, bad):
        for k, d in ((good, 1.0), (bad, -1.0)):
            np.add.at(self.w[:, k], rows, d)
            np.add.at(self.u[:, k], rows, d * self.t)

    def average(self):
        self.w -= self.u / self.t


def best(legal, scores):
    """The legal class with the highest score (the first among equal ones)."""
    return max(legal, key=scores.__getitem__)


def train_sentence(system, model, sent, bits, explore, rng, dynamic):
    """One pass of the perceptron over one gold tree."""
    forms, upos, heads, deprels = sent
    labels = [system.deprels.index(d) for d in deprels]
    seq = iter(system.oracle(heads, labels))
    st = system.state(len(forms))
    while not st.is_terminal:
        legal = st.legal()
        rows = features(st, forms, upos, bits)
        scores = model.scores(rows)
        p = best(legal, scores)
        if dynamic:
            good = p
            if system.cost(st, p, heads, labels) > 0:
                # the best-scoring class of cost 0, trying the best first
                good = next(k for k in sorted(legal, key=lambda k: -scores[k]) if system.cost(st, k, heads, labels) == 0)
            follow = p if rng.random() < explore else good
        else:
            good = follow = next(seq)
        if p != good:
            model.update(rows, good, p)
        model.t += 1
        st.apply(follow)


def parse(system, model, forms, upos, bits):
    """Greedy parse: heads and deprels (None where the engine gave none)."""
    st = system.state(len(forms))
    while not st.is_terminal:
        legal = st.legal()
        if not legal:
            break
        st.apply(best(legal, model.scores(features(st, forms, upos, bits))))
    heads, deprels = st.heads, st.deprels
    root = heads.index(0) + 1 if 0 in heads else 0
    for i, h in enumerate(heads):  # words left headless: as the parser does
        if h == -1:
            heads[i], deprels[i] = (0, "root") if root == 0 else (root, "dep")
            root = root or i + 1
    return heads, deprels


def in_class(system, sent):
    try:
        system.oracle(sent[2], sent[3])
        return True
    except transparse.InputError:
        return False


def run(system_name, train_path, dev_path, epochs=3, max_sentences=0, bits=16, explore=0.9, seed=1, out=sys.stdout):
    """Train on train_path and score dev_path; returns (UAS, LAS, seconds
    of training, wall clock)."""
    train = read_conllu(train_path, max_sentences)
    dev = read_conllu(dev_path)
    deprels = sorted({d for s in train + dev for d in s[3]} | {"root"})
    system = transparse.System(system_name, deprels)
    dynamic = system_name in ("arc-eager", "arc-hybrid", "covington-nonprojective")
    usable = [s for s in train if in_class(system, s)]
    model = Perceptron(bits, len(system.classes))
    rng = random.Random(seed)
    t0, c0 = time.perf_counter(), time.process_time()
    for epoch in range(epochs):
        rng.shuffle(usable)
        for sent in usable:
            train_sentence(system, model, sent, bits, explore if epoch > 0 else 0.0, rng, dynamic)
        print(f"epoch {epoch + 1}: {time.perf_counter() - t0:.1f} s", file=out)
    model.average()
    seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
    words = heads_ok = both_ok = 0
    for forms, upos, heads, labels in dev:
        h, d = parse(system, model, forms, upos, bits)
        words += len(forms)
        heads_ok += sum(a == b for a, b in zip(h, heads))
        both_ok += sum(a == b and x == y for a, b, x, y in zip(h, heads, d, labels))
    uas, las = 100 * heads_ok / words, 100 * both_ok / words
    print(f"{system_name}: {len(usable)} of {len(train)} training trees in the class, {epochs} epochs, "
          f"{'dynamic' if dynamic else 'static'} oracle, training {seconds:.1f} s ({cpu:.1f} s CPU); "
          f"dev {len(dev)} sentences: UAS {uas:.2f}, LAS {las:.2f}", file=out)
    return uas, las, seconds


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--system", default="arc-eager")
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--max-sentences", type=int, default=0, help="train on the first N sentences (0: all)")
    ap.add_argument("--bits", type=int, default=16, help="2^bits hashed feature rows")
    ap.add_argument("--explore", type=float, default=0.9)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("train")
    ap.add_argument("dev")
    a = ap.parse_args()
    run(a.system, a.train, a.dev, a.epochs, a.max_sentences, a.bits, a.explore, a.seed)


if __name__ == "__main__":
    main()
