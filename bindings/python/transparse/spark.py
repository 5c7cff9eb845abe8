"""Parsing a large corpus on Apache Spark through PySpark.

The corpus is an RDD of sentences, one record each; ``parse`` maps its
partitions through the parser in the executors' Python workers. The model
travels once per executor as the bytes of its file (a Spark broadcast
variable) and is loaded with :meth:`transparse.Model.from_bytes` once per
Python worker process, which keeps it for every later task (Spark reuses its
Python workers by default). Output records come in input order: saved with
:func:`save_conllu`, the part files, concatenated in order, are byte for byte
what :meth:`transparse.Model.parse_document` or ``transparse parse`` writes for
the whole input::

    from pyspark.sql import SparkSession
    import transparse, transparse.spark as tps

    sc = SparkSession.builder.master("local[4]").getOrCreate().sparkContext
    model = tps.broadcast_model(sc)                     # the default model
    sents = tps.read_conllu(sc, "corpus/*.conllu")      # one sentence a record
    tps.save_conllu(tps.parse(sents, model), "parsed")  # parsed/part-00000, ...

For pre-tokenized text, :func:`read_tokens` makes one record per line (one
sentence per line, as ``transparse parse --input tokens`` reads it) and
:func:`parse` with ``fmt="tokens"`` numbers the sentences (``# sent_id``)
across the whole input. For raw text, :func:`read_text` makes one record per
file and :func:`parse` with ``fmt="text"`` segments, tags and parses each
file as ``transparse parse --input text`` does, numbering the sentences
across the whole input (the model needs a segmenter).
``bindings/python/examples/spark_parse.py`` is a command-line example.

Records are str: a CoNLL-U sentence ends with its blank line ("...\\n\\n"),
a tokens record is one line without its newline, a text record is a file's
text and its parse the CoNLL-U of all its sentences. The executors need this
package (with its library) installed, or shipped with ``--py-files``; the
driver needs the model file.

Spark's Python workers are forked from a daemon process. This module loads
the library only inside the workers (after the fork), which is what the
library needs: it cannot be used in a process forked after it was loaded
(:class:`transparse.ForkError`).

Requires PySpark (not a dependency of the package).
"""

import uuid

import transparse

__all__ = ["ModelBroadcast", "broadcast_model", "read_conllu", "read_tokens", "read_text", "parse", "save_conllu"]

#: Sentences per library call inside a partition.
BATCH = 256

# Per Python worker process: ModelBroadcast token -> Model.
_models = {}


class ModelBroadcast:
    """A model shipped to the executors: the bytes of a model file in a
    Spark broadcast variable, loaded once per Python worker process.
    Picklable (it is part of the tasks); create with :func:`broadcast_model`."""

    def __init__(self, broadcast):
        self.broadcast = broadcast
        self.token = uuid.uuid4().hex

    def model(self):
        """The loaded :class:`transparse.Model` (in an executor: loaded from
        the broadcast bytes at the first call of this process, then kept)."""
        m = _models.get(self.token)
        if m is None:
            m = transparse.Model.from_bytes(self.broadcast.value)
            _models[self.token] = m
        return m

    def unpersist(self):
        """Drop the executors' copies of the bytes (a later task fetches
        them again)."""
        self.broadcast.unpersist()


def broadcast_model(sc, path=None):
    """Read the model file at path (default: :func:`transparse.default_model`)
    on the driver and broadcast its bytes to the executors.

    The file is checked on the driver first (loaded once), so that a bad
    path or a damaged model fails here and not in every task.

    Returns:
        a :class:`ModelBroadcast` for :func:`parse`.
    Raises:
        OSError: the file cannot be read.
        transparse.ModelFormatError, transparse.ModelVersionError: not a
            model this library reads.
    """
    if path is None:
        path = transparse.default_model()
    with open(path, "rb") as f:
        data = f.read()
    transparse.Model.from_bytes(data).close()
    return ModelBroadcast(sc.broadcast(data))


def read_conllu(sc, path, split_bytes=None):
    """An RDD of the CoNLL-U sentences of the files at path (a file, a
    directory or a glob, as for ``SparkContext.textFile``), one sentence a
    record, in file order. Lines must end with "\\n" (not "\\r\\n").

    A file is split into partitions of about split_bytes bytes (default:
    Hadoop's, the file system's block size), cut at blank lines, so that one
    large file is parsed in parallel too.
    """
    conf = {"textinputformat.record.delimiter": "\n\n"}
    if split_bytes:
        conf["mapreduce.input.fileinputformat.split.maxsize"] = str(int(split_bytes))
    rdd = sc.newAPIHadoopFile(
        path,
        "org.apache.hadoop.mapreduce.lib.input.TextInputFormat",
        "org.apache.hadoop.io.LongWritable",
        "org.apache.hadoop.io.Text",
        conf=conf,
    ).values()
    return rdd.map(lambda s: s.strip("\n")).filter(bool).map(lambda s: s + "\n\n")


def read_tokens(sc, path, min_partitions=None):
    """An RDD of the non-blank lines of the text files at path, one
    pre-tokenized sentence a record, in file order."""
    return sc.textFile(path, min_partitions).filter(lambda line: line.strip() != "")


def read_text(sc, path, min_partitions=None):
    """An RDD of the raw text of the files at path, one file's whole text a
    record (``SparkContext.wholeTextFiles``, decoded as UTF-8), in the order
    Spark lists the files."""
    return sc.wholeTextFiles(path, min_partitions).values()


def _batches(it, n):
    batch = []
    for x in it:
        batch.append(x)
        if len(batch) == n:
            yield batch
            batch = []
    if batch:
        yield batch


def _split(out, want, where):
    sents = out.split("\n\n")
    if sents[-1] != "" or len(sents) - 1 != want:
        raise transparse.InternalError(f"transparse.spark: {where}: {want} sentences in, {len(sents) - 1} out")
    return [s + "\n\n" for s in sents[:-1]]


def parse(rdd, model, fmt="conllu", batch=BATCH, presegmented=False, *, beam=None, confidence=False,
          accurate=False, no_tags=False):
    """Parse the sentences of rdd with model (a :class:`ModelBroadcast`)
    in the executors; return the RDD of the parsed sentences as CoNLL-U,
    one record per input record, in order.

    Args:
        rdd: records as :func:`read_conllu` (``fmt="conllu"``),
            :func:`read_tokens` (``fmt="tokens"``) or :func:`read_text`
            (``fmt="text"``) makes them.
        fmt: "conllu" (the given tags are used, comments and multiword
            tokens kept), "tokens" (the model tags the words; each
            sentence gets ``# sent_id = N``, N counting from 1 over the
            whole RDD, and ``# text``) or "text" (each record, a document
            of raw text, is split into sentences and tokens by the
            model's segmenter, tagged and parsed, as
            :meth:`transparse.Model.parse_document` with ``input="text"``
            does; its output record is the CoNLL-U of all its sentences,
            ``# sent_id`` counting over the whole RDD; the RDD is computed
            once and cached to count them, and records without a sentence
            are left out).
        batch: sentences per library call (records per call for "text":
            one).
        presegmented: with ``fmt="text"``, every line is one sentence.
        beam, confidence, accurate: as for
            :meth:`transparse.Model.parse_document` (one tree per
            sentence: no k-best).
        no_tags: with ``fmt="conllu"``, the given LEMMA, UPOS, XPOS and
            FEATS are blanked and predicted, as from plain tokens.

    Errors (:class:`transparse.InputError` for malformed input, naming the
    sentence; :class:`transparse.ArgumentError` for options the model
    cannot honour, such as a beam without beam classifiers) fail the Spark
    job, as any exception in a task does.
    """
    opts = dict(beam=beam, confidence=confidence, accurate=accurate)
    if no_tags and fmt != "conllu":
        raise ValueError("transparse.spark.parse: no_tags is for fmt='conllu'")
    if fmt == "conllu":
        def run(it):
            m = model.model()
            for b in _batches(it, batch):
                yield from _split(m.parse_document("".join(b), no_tags=no_tags, **opts), len(b), "parse_document")
        return rdd.mapPartitions(run, preservesPartitioning=True)
    if fmt == "tokens":
        def run_tokens(it):
            m = model.model()
            for b in _batches(it, batch):
                first = b[0][1]
                text = "".join(line + "\n" for line, _ in b)
                out = _split(m.parse_document(text, input="tokens", **opts), len(b), "parse_document")
                for k, s in enumerate(out):
                    # parse_document numbers the sentences of each call from
                    # 1: renumber over the whole input.
                    head, rest = s.split("\n", 1)
                    if head != f"# sent_id = {k + 1}":
                        raise transparse.InternalError(f"transparse.spark: parse_document wrote {head!r}")
                    yield f"# sent_id = {first + k + 1}\n" + rest
        return rdd.zipWithIndex().mapPartitions(run_tokens, preservesPartitioning=True)
    if fmt == "text":
        return _parse_text(rdd, model, presegmented, opts)
    raise ValueError(f"transparse.spark.parse: fmt must be 'conllu', 'tokens' or 'text', not {fmt!r}")


def _sent_ids(doc):
    """The number of sentences of the CoNLL-U doc (one ``# sent_id`` each)."""
    return sum(1 for line in doc.split("\n") if line.startswith("# sent_id = "))


def _renumber(doc, first):
    """doc with each ``# sent_id = N`` made N + first."""
    return "\n".join(f"# sent_id = {int(line[12:]) + first}" if line.startswith("# sent_id = ") else line
                     for line in doc.split("\n"))


def _parse_text(rdd, model, presegmented, opts):
    def run(it):
        m = model.model()
        for doc in it:
            yield m.parse_document(doc, input="text", presegmented=presegmented, **opts)
    parsed = rdd.mapPartitions(run, preservesPartitioning=True).cache()
    # parse_document numbers the sentences of each document from 1:
    # renumber over the whole input.
    first = [0]
    for n in parsed.map(_sent_ids).collect():
        first.append(first[-1] + n)
    return parsed.zipWithIndex().map(lambda d: _renumber(d[0], first[d[1]])).filter(bool)


def save_conllu(rdd, path):
    """Write the CoNLL-U sentences of rdd (records ending with their blank
    line) as a directory of part files (``path/part-00000``, ...), whose
    concatenation in name order is the CoNLL-U document."""
    # saveAsTextFile ends every record with a newline of its own.
    rdd.map(lambda s: s[:-1]).saveAsTextFile(path)
