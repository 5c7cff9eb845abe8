"""udpipe_bench.py -- UDPipe 1 (the ufal.udpipe binding) as the raw-text peer:
training with its defaults, and timed passes of its pipeline over raw text.
Run by scripts/udpipe/peer.sh inside the venv that holds ufal.udpipe.

    udpipe_bench.py train [--tokenizer O] [--tagger O] [--parser O] TRAIN DEV MODEL
        Trains "morphodita_parsito" on TRAIN, tuned on DEV (both CoNLL-U),
        with the tokenizer, tagger and parser options O (UDPipe's option
        strings, e.g. "epochs=20"; default "": UDPipe's defaults), writes
        MODEL and MODEL.training_seconds (the wall-clock seconds of the
        training call, an integer).
    udpipe_bench.py parse MODEL TEXT OUT [-p PASSES]
        Runs the whole pipeline (tokenizer, tagger, parser; CoNLL-U out) over
        the raw text TEXT in this process on one thread, PASSES times after
        one untimed pass, and writes the last pass's CoNLL-U to OUT.
    udpipe_bench.py tokenize MODEL TEXT [OUT] [-p PASSES]
        The same with the tokenizer alone (segmentation, CoNLL-U out). Its
        words have no heads; OUT gets each sentence as a flat tree (the
        first word the root, the others its "dep" dependents) so that the
        CoNLL 2018 scorer reads it: only its Tokens, Sentences and Words
        mean anything.

parse and tokenize print "key value" lines: words_per_s (the best pass;
words = the syntactic words of the output), words, sentences, seconds (of
that pass), load_ms (Model.load).
"""

import argparse
import os
import sys
import time

from ufal.udpipe import InputFormat, Model, Pipeline, ProcessingError, Sentence, Trainer


def read_conllu(path):
    """The sentences of a CoNLL-U file, read by UDPipe's own reader."""
    fmt = InputFormat.newConlluInputFormat()
    with open(path, encoding="utf-8") as f:
        fmt.setText(f.read())
    err = ProcessingError()
    out = []
    while True:
        s = Sentence()
        if not fmt.nextSentence(s, err):
            break
        out.append(s)
    if err.occurred():
        sys.exit(f"udpipe_bench.py: reading {path}: {err.message}")
    return out


def train(args):
    train_s, dev_s = read_conllu(args.train), read_conllu(args.dev)
    print(f"udpipe_bench.py: training on {len(train_s)} sentences, tuning on {len(dev_s)}", file=sys.stderr, flush=True)
    err = ProcessingError()
    start = time.monotonic()
    model = Trainer.train("morphodita_parsito", train_s, dev_s, args.tokenizer, args.tagger, args.parser, err)
    seconds = time.monotonic() - start
    if err.occurred():
        sys.exit(f"udpipe_bench.py: training failed: {err.message}")
    if isinstance(model, str):
        model = model.encode("utf-8", "surrogateescape")
    tmp = args.model + ".tmp"
    with open(tmp, "wb") as f:
        f.write(model)
    with open(args.model + ".training_seconds", "w") as f:
        f.write(f"{round(seconds)}\n")
    os.replace(tmp, args.model)
    print(f"udpipe_bench.py: trained in {seconds:.0f} s: {args.model}", file=sys.stderr)


def count(conllu):
    """(syntactic words, sentences) of CoNLL-U text."""
    words = sentences = 0
    for line in conllu.splitlines():
        if not line:
            sentences += 1
        elif line[0].isdigit():
            ident = line.split("\t", 1)[0]
            if ident.isdigit():
                words += 1
    return words, sentences


def flat_trees(conllu):
    """conllu with each sentence's words made a flat tree: word 1 the root,
    the others its "dep" dependents."""
    lines = []
    for line in conllu.split("\n"):
        cols = line.split("\t")
        if len(cols) == 10 and cols[0].isdigit():
            root = cols[0] == "1"
            cols[6], cols[7] = ("0", "root") if root else ("1", "dep")
            line = "\t".join(cols)
        lines.append(line)
    return "\n".join(lines)


def run(args, tagger, parser):
    start = time.monotonic()
    model = Model.load(args.model)
    load_ms = (time.monotonic() - start) * 1000
    if model is None:
        sys.exit(f"udpipe_bench.py: cannot load {args.model}")
    with open(args.text, encoding="utf-8") as f:
        text = f.read()
    pipeline = Pipeline(model, "tokenize", tagger, parser, "conllu")
    best = None
    for i in range(args.passes + 1):
        err = ProcessingError()
        start = time.monotonic()
        out = pipeline.process(text, err)
        seconds = time.monotonic() - start
        if err.occurred():
            sys.exit(f"udpipe_bench.py: {err.message}")
        if i > 0 and (best is None or seconds < best):
            best = seconds
    words, sentences = count(out)
    if tagger == Pipeline.NONE:
        out = flat_trees(out)
    if getattr(args, "out", None):
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(out)
    print(f"words_per_s {words / best:.0f}")
    print(f"words {words}")
    print(f"sentences {sentences}")
    print(f"seconds {best:.3f}")
    print(f"load_ms {load_ms:.0f}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    t = sub.add_parser("train")
    t.add_argument("--tokenizer", default="")
    t.add_argument("--tagger", default="")
    t.add_argument("--parser", default="")
    t.add_argument("train")
    t.add_argument("dev")
    t.add_argument("model")
    p = sub.add_parser("parse")
    p.add_argument("model")
    p.add_argument("text")
    p.add_argument("out")
    p.add_argument("-p", "--passes", type=int, default=3)
    k = sub.add_parser("tokenize")
    k.add_argument("model")
    k.add_argument("text")
    k.add_argument("out", nargs="?")
    k.add_argument("-p", "--passes", type=int, default=3)
    args = ap.parse_args()
    if args.cmd == "train":
        train(args)
    elif args.cmd == "parse":
        run(args, Pipeline.DEFAULT, Pipeline.DEFAULT)
    else:
        run(args, Pipeline.NONE, Pipeline.NONE)


if __name__ == "__main__":
    main()
