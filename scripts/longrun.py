#!/usr/bin/env python3
"""longrun.py -- parse a treebank many times through the Python binding and
watch the resident memory of the process: long runs must not leak.

    scripts/longrun.py [--passes N] [--gold] [--threads T] [--many] [--conllu] MODEL CONLLU

Each pass parses every sentence of CONLLU with Model.parse (from plain
tokens, or with the gold tags given with --gold; spread over T threads of a
ThreadPoolExecutor with --threads), with Model.parse_batch in batches of 64
sentences (--many), or the whole file with Model.parse_document (--conllu). After each pass it prints the resident set
size (VmRSS of /proc/self/status); at the end

    RSS after pass 1: X KiB; after pass N: Y KiB; growth Z %

The exit status is 0 if every parse succeeded and the growth is below 5 %
(--max-growth), 1 otherwise. scripts/longrun.sh runs it after the C driver.

    scripts/longrun.py --text [--cli BIN] MODEL TEXT

streams the raw text TEXT once instead, through Model.stream(file,
input="text") (with --cli: through the command-line program BIN, as
``BIN parse --input text -m MODEL TEXT``, its output read from a pipe), and
watches the peak resident set size (VmHWM of the process that parses):

    peak RSS after the first sentence: X MB; at the end: Y MB; growth Z MB

(MB: 10^6 bytes.)
The exit status is 0 if the stream succeeded and the growth is below
--max-growth-mb (default 50), 1 otherwise; 3 when raw text cannot be parsed
(a binding, program or model without raw-text input), with the reason.
"""

import argparse
import os
import pathlib
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bindings" / "python"))
sys.path.insert(0, str(ROOT / "bindings" / "python" / "tests"))

import transparse  # noqa: E402
from udwords import read_words  # noqa: E402


def rss_kib():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return -1


def hwm_kib(pid="self"):
    """The peak resident set size (VmHWM) of a process, in KiB."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return -1


def count_words(sentence):
    """The syntactic words (integer IDs) of a sentence of CoNLL-U."""
    return sum(1 for line in sentence.splitlines() if line.split("\t", 1)[0].isdigit())


def stream_binding(args):
    """Streams args.conllu (raw text) through Model.stream: (base, peak, sentences, words)."""
    model = transparse.Model.load(args.model)
    base, sentences, words = -1, 0, 0
    try:
        stream = model.stream(args.conllu, input="text")
        for sent in stream:
            sentences += 1
            words += count_words(sent)
            if base < 0:
                base = hwm_kib()
    except (ValueError, transparse.Error) as e:
        if sentences == 0:
            print(f"longrun.py: raw text refused: {e}", file=sys.stderr)
            sys.exit(3)
        raise
    return base, hwm_kib(), sentences, words


def stream_cli(args):
    """Streams args.conllu (raw text) through BIN parse --input text: (base, peak, sentences, words)."""
    cmd = [args.cli, "parse", "--input", "text", "-m", args.model, args.conllu]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    base, sentences, words = -1, 0, 0
    for line in proc.stdout:
        if line == "\n":
            sentences += 1
            if base < 0:
                base = hwm_kib(proc.pid)
        elif line.split("\t", 1)[0].isdigit():
            words += 1
    err = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        print(f"longrun.py: {' '.join(cmd)}: exit {proc.returncode}: {err.strip()}", file=sys.stderr)
        sys.exit(3 if sentences == 0 else 1)
    return base, usage.ru_maxrss, sentences, words


def text_main(args):
    size = os.path.getsize(args.conllu)
    start = time.perf_counter()
    base, peak, sentences, words = (stream_cli if args.cli else stream_binding)(args)
    took = time.perf_counter() - start
    growth = (peak - base) * 1024 / 1e6
    print(f"{'CLI' if args.cli else 'Python'}: {size} bytes of raw text, {sentences} sentences, {words} words "
          f"in {took:.1f} s ({words / took:.0f} words/s)")
    print(f"peak RSS after the first sentence: {base * 1024 / 1e6:.1f} MB; at the end: {peak * 1024 / 1e6:.1f} MB; "
          f"growth {growth:.1f} MB")
    return 0 if growth < args.max_growth_mb else 1


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("model")
    ap.add_argument("conllu")
    ap.add_argument("--passes", type=int, default=40)
    ap.add_argument("--gold", action="store_true", help="give the gold UPOS/XPOS/FEATS/LEMMA")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--many", action="store_true", help="parse batches of 64 sentences with parse_batch")
    ap.add_argument("--conllu", dest="whole", action="store_true", help="parse the whole file with parse_document")
    ap.add_argument("--max-growth", type=float, default=5.0, help="the largest RSS growth in %% that passes")
    ap.add_argument("--text", action="store_true", help="stream the raw text file given as CONLLU once (Model.stream)")
    ap.add_argument("--cli", metavar="BIN", help="with --text: stream through BIN parse --input text instead")
    ap.add_argument("--max-growth-mb", type=float, default=50.0, help="with --text: the largest peak RSS growth "
                    "in MB (10^6 bytes) that passes")
    args = ap.parse_args(argv)
    if args.text:
        return text_main(args)

    sents = read_words(args.conllu)
    text = pathlib.Path(args.conllu).read_text(encoding="utf-8")
    n_words = sum(len(s) for s in sents)
    model = transparse.Model.load(args.model)
    mode = "parse_document" if args.whole else ("gold tags" if args.gold else "plain tokens")
    if args.many and not args.whole:
        mode += ", parse_batch"
    print(f"Python: {args.passes} passes over {len(sents)} sentences ({n_words} words), {mode}, "
          f"{args.threads} thread{'s' if args.threads != 1 else ''}; RSS after loading: {rss_kib()} KiB",
          flush=True)

    def kwargs(s):
        forms = [w[0] for w in s]
        if args.gold:
            return dict(words=forms, lemma=[w[1] for w in s], upos=[w[2] for w in s],
                        xpos=[w[3] for w in s], feats=[w[4] for w in s])
        return dict(words=forms)

    def parse(s):
        return model.parse(**kwargs(s))

    def parse_many(batch):
        return model.parse_batch([kwargs(s) for s in batch])

    batches = [sents[i:i + 64] for i in range(0, len(sents), 64)]

    pool = ThreadPoolExecutor(args.threads) if args.threads > 1 else None
    errors = 0
    first = last = 0
    start = time.perf_counter()
    for p in range(1, args.passes + 1):
        try:
            if args.whole:
                model.parse_document(text)
            elif args.many:
                for _ in (pool.map(parse_many, batches) if pool else map(parse_many, batches)):
                    pass
            elif pool:
                for _ in pool.map(parse, sents):
                    pass
            else:
                for s in sents:
                    parse(s)
        except transparse.Error as e:
            errors += 1
            print(f"pass {p}: {e}", file=sys.stderr)
        last = rss_kib()
        if p == 1:
            first = last
        print(f"pass {p:2d}: {p * n_words:8d} words, RSS {last} KiB", flush=True)
    took = time.perf_counter() - start
    if pool:
        pool.shutdown()
    model.close()
    growth = 100.0 * (last - first) / first
    words = args.passes * n_words
    print(f"Python: {words} words in {took:.1f} s ({words / took:.0f} words/s), {errors} errors")
    print(f"RSS after pass 1: {first} KiB; after pass {args.passes}: {last} KiB; growth {growth:.2f} %")
    return 0 if errors == 0 and growth < args.max_growth else 1


if __name__ == "__main__":
    sys.exit(main())
