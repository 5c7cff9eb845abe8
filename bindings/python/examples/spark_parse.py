#!/usr/bin/env python3
"""Parse CoNLL-U, raw text or pre-tokenized text on Apache Spark, writing CoNLL-U.

    spark_parse.py [--master local[4]] [-m MODEL] [--input conllu|text|tokens]
                   [--beam K | --accurate] [--confidence] [--no-tags]
                   [--split-mb N] -o OUTDIR INPUT [INPUT...]

INPUT is a file, a directory or a glob (any path Spark reads: local,
hdfs://, s3a://, ...). OUTDIR is written as Spark writes text: part files
(OUTDIR/part-00000, ...) whose concatenation in name order is the parsed
document, the same bytes ``transparse parse`` writes for the inputs given
one after the other:

    cat OUTDIR/part-* > parsed.conllu

--input conllu (default): CoNLL-U input, its tags used, comments and
multiword tokens kept. --input text: raw text, each file split into
sentences and tokens by the model's segmenter, then tagged and parsed.
--input tokens: one pre-tokenized sentence per line (tokens separated by
spaces), the model tags the words. With text and tokens, sentences are
numbered (# sent_id) across all the inputs.

Run it with spark-submit on a cluster (the executors need the transparse
package installed) or directly with the pyspark package, which runs Spark
in this process (--master local[N], the default local[*]).
"""

import argparse
import sys
import time

from pyspark.sql import SparkSession

import transparse
import transparse.spark as tps


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("inputs", nargs="+", metavar="INPUT")
    ap.add_argument("-o", "--out", required=True, help="output directory (must not exist)")
    ap.add_argument("-m", "--model", help="model file (default: transparse.default_model())")
    ap.add_argument("--input", choices=("conllu", "text", "tokens"), default="conllu")
    ap.add_argument("--beam", type=int, metavar="K", help="beam width (the model needs beam classifiers)")
    ap.add_argument("--accurate", action="store_true", help="the beam and the greedy parser revoted")
    ap.add_argument("--confidence", action="store_true", help="each word's Confidence in MISC")
    ap.add_argument("--no-tags", action="store_true", help="CoNLL-U input: predict the tags instead of using them")
    ap.add_argument("--master", help="Spark master (default: spark-submit's, else local[*])")
    ap.add_argument("--split-mb", type=float, help="split input files into partitions of about this many MB")
    args = ap.parse_args(argv)

    builder = SparkSession.builder.appName("transparse-parse")
    if args.master:
        builder = builder.master(args.master)
    spark = builder.getOrCreate()
    sc = spark.sparkContext
    try:
        model = tps.broadcast_model(sc, args.model)
        path = ",".join(args.inputs)
        split = int(args.split_mb * 2**20) if args.split_mb else None
        if args.input == "conllu":
            sents = tps.read_conllu(sc, path, split_bytes=split)
        elif args.input == "text":
            sents = tps.read_text(sc, path)
        else:
            sents = tps.read_tokens(sc, path)
        start = time.perf_counter()
        parsed = tps.parse(sents, model, fmt=args.input, beam=args.beam, confidence=args.confidence,
                           accurate=args.accurate, no_tags=args.no_tags).cache()
        tps.save_conllu(parsed, args.out)
        words = parsed.map(lambda s: sum(1 for line in s.split("\n") if line[:1].isdigit()
                                         and line.split("\t", 1)[0].isdigit())).sum()
        secs = time.perf_counter() - start
        print(f"spark_parse: {parsed.count()} records, {words} words in {secs:.1f} s "
              f"({words / secs:,.0f} words/s) -> {args.out}", file=sys.stderr)
    finally:
        spark.stop()


if __name__ == "__main__":
    main()
