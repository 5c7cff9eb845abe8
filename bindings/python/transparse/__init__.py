"""transparse: a transition-based dependency parser (Python binding).

A pure-Python ctypes binding over ``libtransparse`` (no compiler needed).
From the repository root, with the bundled English model:

>>> import transparse
>>> with transparse.Model.load("models/en_ewt.tpm") as model:
...     sent = model.parse(["I", "saw", "her", "."])
>>> for tok in sent:
...     print(tok.id, tok.form, tok.upos, tok.xpos, tok.head, tok.deprel)
1 I PRON PRP 2 nsubj
2 saw VERB VBD 0 root
3 her PRON PRP 2 obj
4 . PUNCT . 2 punct

The parse is a copy that outlives the model; ``to_conllu`` gives its
CoNLL-U lines, tab-separated (aligned here for reading), with the LEMMA and
FEATS the model predicts (``_`` where a model has no lemmatizer and FEATS
tagger):

>>> print(sent.to_conllu())
1  I    I    PRON   PRP  Case=Nom|Number=Sing|Person=1|PronType=Prs              2  nsubj  _  _
2  saw  see  VERB   VBD  Mood=Ind|Number=Sing|Person=1|Tense=Past|VerbForm=Fin  0  root   _  _
3  her  she  PRON   PRP  Case=Acc|Gender=Fem|Number=Sing|Person=3|PronType=Prs   2  obj    _  _
4  .    .    PUNCT  .    _                                                      2  punct  _  _
<BLANKLINE>

Raw text is split into sentences, tokens and words by the model's
segmenter (models trained by this version have one) and parsed:
:meth:`Model.parse_text` gives each sentence with its tokens and their
offsets in the text, :meth:`Model.tokenize` the segmentation alone.

Tags given with the words are used as they are:

>>> with transparse.Model.load("models/en_ewt.tpm") as model:
...     sent = model.parse(["Dogs", "bark"], upos=["NOUN", "VERB"], xpos=["NNS", "VBP"])
>>> [(tok.form, tok.head, tok.deprel) for tok in sent]
[('Dogs', 2, 'nsubj'), ('bark', 0, 'root')]

Threads
    A :class:`Model` is immutable and may be used by any number of threads at
    once. ctypes releases the GIL for the duration of every call into the
    library, so threads parse in parallel on all cores. A per-sentence
    :meth:`Model.parse` spends much of its time building arguments and
    results under the GIL, so give each thread a batch
    (:meth:`Model.parse_batch`, :meth:`Model.parse_document`)::

        with ThreadPoolExecutor() as pool:
            parsed = [s for batch in pool.map(model.parse_batch, batches) for s in batch]

Processes
    The library contains a Go runtime, which does not survive ``fork()``. In a
    child created by ``os.fork()`` (or multiprocessing's "fork" start method)
    every call raises :class:`ForkError` at once (it does not hang). Use the
    "spawn" or "forkserver" start method and load the model in each worker,
    e.g. in the pool's ``initializer`` (and do not preload transparse in the
    forkserver)::

        ctx = multiprocessing.get_context("spawn")
        with ctx.Pool(4, initializer=load_model, initargs=(path,)) as pool:
            ...

Errors
    Every failure raises a subclass of :class:`Error` carrying the library's
    message (``err.message``) and status code (``err.code``). The message
    says what failed and where: the argument (``"tp_parse: forms[3] is
    empty"``), the CoNLL-U line (``"tp_parse_document: conllu: text:12:
    ..."``), the file and byte offset of a damaged model. Errors pickle (a
    multiprocessing worker's error reaches the parent as the same class).

Limits
    At most :data:`MAX_WORDS` words per sentence and :data:`MAX_TOKEN_BYTES`
    bytes (UTF-8) per word or tag.
"""

import collections
import collections.abc
import ctypes
import dataclasses
import json
import math
import os
import re
import threading
import warnings
import weakref

from . import _lib

__all__ = [
    "Model",
    "systems",
    "System",
    "State",
    "train",
    "TrainProgress",
    "default_model",
    "render_svg",
    "Sentence",
    "Token",
    "TextSentence",
    "TextToken",
    "DocumentStream",
    "SkippedSentencesWarning",
    "Error",
    "ArgumentError",
    "InputError",
    "IoError",
    "ModelFormatError",
    "ModelVersionError",
    "ForkError",
    "NoMemoryError",
    "InternalError",
    "CanceledError",
    "library_version",
    "library_path",
    "MAX_WORDS",
    "MAX_TOKEN_BYTES",
    "MAX_BATCH_WORDS",
    "MAX_BEAM",
]

__version__ = "0.3.0"

#: Maximum number of words in one sentence.
MAX_WORDS = _lib.MAX_WORDS
#: Maximum length of one word form or tag, in UTF-8 bytes.
MAX_TOKEN_BYTES = _lib.MAX_TOKEN_BYTES
#: Maximum number of words in one :meth:`Model.parse_batch` call.
MAX_BATCH_WORDS = _lib.MAX_BATCH_WORDS
#: Largest beam width of :meth:`Model.parse` (``beam=``).
MAX_BEAM = _lib.MAX_BEAM

#: File the shared library was loaded from.
library_path = _lib.path


def library_version():
    """Return the version of the loaded libtransparse, e.g. ``"0.3.0"``."""
    return _lib.tp_version().decode()


if library_version().split(".")[0] != __version__.split(".")[0]:
    raise ImportError(
        f"transparse: package {__version__} cannot use libtransparse {library_version()} "
        f"from {library_path} (different major version)"
    )

def default_model():
    """Return the path (str) of the default model, the English one trained
    on UD EWT, for :meth:`Model.load`.

    The lookup is the C library's, ``tp_default_model_path``, the one behind
    the command line too: the environment variable ``TRANSPARSE_MODEL`` when
    it is set (returned as it is, so that a wrong setting fails at load
    time), then ``models/en_ewt.tpm`` beside the library (the model a wheel
    bundles in this package), then a model installed with the library
    (``<libdir>/../share/transparse/models/en_ewt.tpm``), then the build
    tree's.

    Raises:
        IoError: no model was found; the message lists the places tried.
    """
    found = _lib.tp_default_model_path()
    if found:
        return os.fsdecode(found)
    bundled = os.path.join(os.path.dirname(os.path.abspath(__file__)), "models", "en_ewt.tpm")
    tried = ["$TRANSPARSE_MODEL (not set)", f"{bundled} (not bundled)",
             f"the lookup of {library_path} (tp_default_model_path: nothing found)"]
    raise IoError(
        "transparse: no default model found; tried: " + "; ".join(tried)
        + ". Install a wheel (it bundles the model) or the system package, or set "
        "TRANSPARSE_MODEL to a model file.",
        _lib.TP_ERR_IO,
    )


def systems():
    """Return the names of the transition systems the library implements,
    sorted (docs/systems.md gives their papers and oracles).

    >>> names = systems()
    >>> names == sorted(names) and "arc-eager" in names and "swap-lazy" in names
    True
    """
    out = ctypes.c_void_p()
    err = ctypes.c_void_p()
    _check(_lib.tp_systems(ctypes.byref(out), ctypes.byref(err)), err)
    try:
        text = ctypes.string_at(out.value).decode("utf-8")
    finally:
        _lib.tp_string_free(out)
    return text.split()


TrainProgress = collections.namedtuple(
    "TrainProgress", "phase epoch epochs done total epoch_end dev_uas dev_las best"
)
TrainProgress.__doc__ = """One report of training progress (struct tp_progress of transparse.h).

Attributes:
    phase: what is being trained: ``"tagger UPOS"``, ``"tagger XPOS"``,
        ``"jackknife"``, ``"parser (gold tags)"``, ``"parser (plain
        tokens)"`` or a fast classifier (``"parser (gold tags, fast)"``);
        the two parsers train at the same time, so their reports interleave.
    epoch, epochs: the 1-based epoch of a parser phase and their number
        (0 and 0 for taggers and jackknifing, whose counts span every epoch).
    done, total: units done of the phase's total: words (tagger), folds
        (jackknife), training sentences of the epoch, all runs (parser).
    epoch_end: True at the end of a parser epoch, whose development
        scores are ``dev_uas`` and ``dev_las`` (percent, CoNLL 2018);
        ``best`` is True when the epoch is the best so far.
"""


def train(system, train, dev, progress=None, **options):
    """Train a model on CoNLL-U treebanks and return it (a :class:`Model`).

    Args:
        system: a name from :func:`systems`, e.g. ``"arc-eager"``.
        train: path of the training treebank (CoNLL-U).
        dev: path of the development treebank (selects the best epoch).
        progress: optional callable receiving a :class:`TrainProgress` as
            training goes on, on a thread of the library's, one call at a
            time. It must not use a transparse model. If it raises,
            training stops and ``train`` raises that exception.
        **options: the options of tp_train in transparse.h and of the
            ``transparse train --options`` file, with the same defaults
            and checks: ``test``, ``output`` (also save the model there),
            ``name``, ``clusters`` (path of a file of word clusters,
            Brown clustering's paths format), ``max_sentences``, ``seed``
            (default 1), ``pseudo_projective``, ``gold_only``,
            ``weight_bits``, ``jackknife_folds``, and the groups, each a
            dict: ``gold`` and ``plain`` (the gold-tag and the plain-token
            parser: ``epochs``, ``runs``, ``explore``,
            ``min_feature_updates``, ``drop_weights_below``,
            ``templates`` and ``fast_templates``, lists of feature
            templates such as ``["s0.w", "s0.p+n0.p"]``, syntax in
            docs/features.md, ``fast_max_loss``), ``taggers``
            (``epochs``, ``runs``: perceptrons averaged into each tagger,
            default 3, ``drop_weights_below``), ``morph`` (``skip``: no
            lemmatizer and FEATS tagger, ``lemma_rank_without_shape``),
            ``segment`` (``skip``: no segmenter, so that the model cannot
            read raw text, :meth:`Model.parse_text`) and ``beam`` (``width``: also train classifiers for
            ``Model.parse(..., beam=K)`` of that width, for both parsers;
            ``epochs``, ``runs``, ``default_width``: the model's default
            width, when not the trained one). E.g. ``train("arc-eager",
            t, d, gold={"epochs": 5}, beam={"width": 4})``.

    Blocks for the whole training (minutes on a full treebank) without
    holding the GIL (the progress callable takes it while it runs).
    Everything is checked before training starts.

    Raises:
        ArgumentError: an unknown system (the message lists the known ones)
            or option, or an option no training accepts, with the message
            of ``transparse train`` (e.g. ``"tp_train: train:
            jackknife_folds: 1: want 0 (the default, 4) or at least 2
            ..."``); an output path
            that is a directory or cannot be written.
        IoError: a treebank cannot be read.
        InputError: malformed CoNLL-U (the message has the file and line),
            or a treebank with nothing to learn or score.
    """
    opts = dict(options, system=system, train=os.fspath(train), dev=os.fspath(dev))
    for k in ("test", "output"):
        if opts.get(k) is not None:
            opts[k] = os.fspath(opts[k])
    h = ctypes.c_void_p()
    err = ctypes.c_void_p()
    js = json.dumps(opts).encode("utf-8")
    if progress is None:
        _check(_lib.tp_train(js, ctypes.byref(h), ctypes.byref(err)), err)
        return Model._new(h.value)
    raised = []

    def report(p, _user):
        try:
            c = p.contents
            progress(TrainProgress(c.phase.decode("utf-8", "replace"), c.epoch, c.epochs, c.done, c.total,
                                   bool(c.epoch_end), c.dev_uas, c.dev_las, bool(c.best)))
            return 0
        except BaseException as e:  # never let an exception cross into C
            raised.append(e)
            return 1

    fn = _lib.tp_progress_fn(report)  # kept alive by this frame during the call
    rc = _lib.tp_train_with_progress(js, fn, None, ctypes.byref(h), ctypes.byref(err))
    if raised:
        if rc == _lib.TP_OK:
            _lib.tp_model_free(h)
        else:
            _lib.tp_error_free(err)
        raise raised[0]
    _check(rc, err)
    return Model._new(h.value)


# ---- errors ------------------------------------------------------------------


class Error(Exception):
    """Base class of every transparse error.

    Attributes:
        message: the library's message, e.g.
            ``"tp_parse: forms[3] is not valid UTF-8"``.
        code: the library's status code (``TP_ERR_*`` value of transparse.h).
    """

    code = None

    def __init__(self, message, code=None):
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code

    def __str__(self):
        return self.message

    def __reduce__(self):
        # Keep the class, message and code across pickling (multiprocessing
        # sends a worker's exception to the parent this way).
        return (type(self), (self.message, self.code))


class ArgumentError(Error, ValueError):
    """A caller error: wrong argument, closed or freed model (TP_ERR_ARGUMENT)."""

    code = _lib.TP_ERR_ARGUMENT


class InputError(Error, ValueError):
    """Unacceptable input: empty or too long sentence, invalid UTF-8,
    malformed CoNLL-U (TP_ERR_INPUT)."""

    code = _lib.TP_ERR_INPUT


class IoError(Error, OSError):
    """A model file cannot be opened or read (TP_ERR_IO); also an OSError."""

    code = _lib.TP_ERR_IO


class ModelFormatError(Error):
    """Not a transparse model, or a truncated or corrupt one (TP_ERR_MODEL_FORMAT)."""

    code = _lib.TP_ERR_MODEL_FORMAT


class ModelVersionError(Error):
    """The model was written by a newer transparse (TP_ERR_MODEL_VERSION)."""

    code = _lib.TP_ERR_MODEL_VERSION


class ForkError(Error):
    """Called in a child process created by fork() without exec (TP_ERR_FORK)."""

    code = _lib.TP_ERR_FORK


class NoMemoryError(Error, MemoryError):
    """The library ran out of memory (TP_ERR_NOMEM)."""

    code = _lib.TP_ERR_NOMEM


class InternalError(Error):
    """A bug in transparse, reported instead of crashing (TP_ERR_INTERNAL)."""

    code = _lib.TP_ERR_INTERNAL


class CanceledError(Error):
    """The work was stopped by a progress callback (TP_ERR_CANCELED)."""

    code = _lib.TP_ERR_CANCELED


_ERRORS = {cls.code: cls for cls in (ArgumentError, InputError, IoError, ModelFormatError,
                                     ModelVersionError, ForkError, NoMemoryError, InternalError,
                                     CanceledError)}


def _raise(rc, err):
    """Raise the Error for status rc, taking ownership of the tp_error* err."""
    try:
        if err.value:
            code = _lib.tp_error_code(err)
            message = (_lib.tp_error_message(err) or b"").decode("utf-8", "replace")
        else:
            code, message = rc, _lib.tp_status_name(rc).decode()
    finally:
        _lib.tp_error_free(err)
    raise _ERRORS.get(code, Error)(message, code)


def _check(rc, err):
    if rc != _lib.TP_OK:
        _raise(rc, err)


# ---- results -----------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Token:
    """One parsed word.

    Attributes:
        id: 1-based position in the sentence.
        form: the word form as given.
        lemma: the LEMMA given to :meth:`Model.parse`, else the one
            predicted by the model's lemmatizer, else ``"_"`` (a model
            without one).
        upos: the UPOS tag given, or the one predicted by the model's
            tagger.
        xpos: the XPOS tag given, or the one predicted by the model's XPOS
            tagger (a model trained on a treebank with XPOS, as the bundled
            English one) or by its XPOS table (a treebank whose XPOS tag
            set is too large for a tagger: the XPOS seen in training with
            the word's form, UPOS and FEATS), or ``"_"`` when the model has
            neither.
        feats: the FEATS string, features ``Name=Value`` joined by ``|``
            (e.g. ``"Number=Sing|Person=3"``), or ``"_"`` for none: the one
            given, else the one predicted by the model's FEATS tagger when
            no word of the sentence was given FEATS (chosen again from the
            parsed tree by models that learnt to, e.g. the bundled one,
            a verb's Person and Number agreeing with its subject there),
            else ``"_"``. :attr:`feats_dict` is the same as a dict.
        head: ``id`` of the head word, ``0`` for the root.
        deprel: the dependency relation to the head, e.g. ``"nsubj"``.
        confidence: ``None`` unless the parse was asked for confidences
            (``Model.parse(..., confidence=True)``): then a float in
            [0, 1]: the estimated probability that the word's head and
            deprel are both right, fitted on development data at training
            time from the parser's confidence, the deprel and how sure
            the taggers were of predicted tags (``transparse calibrate``
            refits it); with a model
            without calibrators or a non-default ``temperature``, the raw
            number that ranks the arcs of one deprel. See the header's
            ``tp_options``.
        space_after: ``None`` unless the parse was given the spacing
            (``Model.parse(..., space_after=...)``): then whether
            whitespace follows the word in the text, as given;
            :meth:`to_conllu` writes ``False`` as ``SpaceAfter=No``.

    The values are those of the library's result (``tp_result``): given
    columns are kept as given, word by word, and the others predicted.
    """

    id: int
    form: str
    lemma: str
    upos: str
    xpos: str
    feats: str
    head: int
    deprel: str
    confidence: float = None
    space_after: bool = None

    @property
    def feats_dict(self):
        """FEATS as a new dict from feature name to value, both str, in
        the order of the string: ``{"Number": "Sing", "Person": "3"}`` for
        ``"Number=Sing|Person=3"``, ``{}`` for ``"_"``. A multi-valued
        feature keeps its values as one string (``"PronType": "Int,Rel"``),
        a layered one its layer in the name (``"Number[psor]"``). A pair
        without ``=`` (not valid CoNLL-U, but a caller may give it) maps to
        ``""``.

        >>> with Model.load("models/en_ewt.tpm") as model:
        ...     tok = model.parse(["Dogs", "bark"], feats=["Number=Plur", None])[0]
        >>> tok.feats, tok.feats_dict
        ('Number=Plur', {'Number': 'Plur'})
        """
        if self.feats in ("_", ""):
            return {}
        return dict(pair.partition("=")[::2] for pair in self.feats.split("|"))

    def to_conllu(self):
        """Return the CoNLL-U line of this token (ten tab-separated columns,
        no line terminator); MISC is ``SpaceAfter=No`` when
        :attr:`space_after` is False, then ``Confidence=0.931`` (three
        decimals, as the library writes it) when :attr:`confidence` is
        set, joined by ``|``, else ``_``."""
        items = []
        if self.space_after is False:
            items.append("SpaceAfter=No")
        if self.confidence is not None:
            items.append("Confidence=%.3f" % self.confidence)
        misc = "|".join(items) or "_"
        cols = (str(self.id), self.form, self.lemma, self.upos, self.xpos, self.feats,
                str(self.head), self.deprel, "_", misc)
        return "\t".join(c if c else "_" for c in cols)


class Sentence(collections.abc.Sequence):
    """A parsed sentence: an immutable sequence of :class:`Token`.

    ``sentence[i]`` is the token with ``id == i + 1``. Owns no library memory.
    """

    __slots__ = ("_tokens", "_score")

    def __init__(self, tokens, score=None):
        self._tokens = tuple(tokens)
        self._score = score

    @property
    def score(self):
        """The tree's score when the sentence is one of the k best trees of
        ``Model.parse(..., k=...)`` (the sum of its transitions' scores,
        comparable between the trees of one sentence only), else None."""
        return self._score

    def __getitem__(self, i):
        return self._tokens[i]

    def __len__(self):
        return len(self._tokens)

    def __eq__(self, other):
        if isinstance(other, Sentence):
            return self._tokens == other._tokens
        return NotImplemented

    def __hash__(self):
        return hash(self._tokens)

    def __repr__(self):
        return "Sentence(%r)" % (list(self._tokens),)

    @property
    def heads(self):
        """Tuple of the heads (0 = root, else a 1-based token id)."""
        return tuple(t.head for t in self._tokens)

    @property
    def deprels(self):
        """Tuple of the dependency relations."""
        return tuple(t.deprel for t in self._tokens)

    def to_conllu(self):
        """Return the sentence as CoNLL-U: one line per token, each ending
        with a newline, then the blank line that ends a sentence."""
        return "".join(t.to_conllu() + "\n" for t in self._tokens) + "\n"

    def to_svg(self):
        """Return a picture of the tree as an SVG document (str): the words
        left to right with their UPOS under them, and above them one arc per
        dependency from the head to the dependent, labelled with its deprel.
        Drawn by the library (``tp_render_svg``), as ``transparse render``
        draws it.

        Raises:
            InputError: the sentence has no tokens or a form the CoNLL-U
                format cannot hold (a tab or newline in it).
        """
        return render_svg(self.to_conllu())

    def _repr_svg_(self):
        # Jupyter and IPython show a Sentence as its picture.
        return self.to_svg()

    def _repr_html_(self):
        return '<div class="transparse-tree">' + self.to_svg() + "</div>"


@dataclasses.dataclass(frozen=True)
class TextToken:
    """One token of raw text (see :meth:`Model.parse_text`): a span of the
    text between whitespace, or part of one ("it" and "." of "it.").

    Attributes:
        form: the token as it is in the text.
        start, end: its offsets in the text given, in code points (indices
            of the str, as the library computes them): ``text[start:end]``
            is the token; end is exclusive.
        words: the syntactic words (:class:`Token`) of the token, one for
            most, two or more for a multiword token ("don't": "do", "n't").
    """

    form: str
    start: int
    end: int
    words: tuple


class TextSentence(Sentence):
    """A sentence of raw text (see :meth:`Model.parse_text`): a
    :class:`Sentence` of its syntactic words, with the text and tokens it
    came from.

    Attributes:
        text: the sentence's text (``# text``: each run of whitespace
            between its tokens written as one space).
        tokens: tuple of :class:`TextToken`.
        comments: the comment lines of its CoNLL-U (``# sent_id = 3``, ...).
        error: None, or with ``on_error="skip"`` the message of the error
            that left the sentence unparsed.
    """

    __slots__ = ("text", "tokens", "comments", "error", "_conllu")

    def __init__(self, words, score, text, tokens, comments, error, conllu):
        super().__init__(words, score)
        self.text, self.tokens, self.comments, self.error, self._conllu = text, tokens, comments, error, conllu

    def __repr__(self):
        return "TextSentence(%r)" % (self.text,)

    def to_conllu(self):
        """Return the sentence as the library wrote it: its comments,
        multiword tokens and MISC included (the spacing, TokenRange in code
        points), then the blank line that ends it."""
        return self._conllu


def render_svg(conllu):
    """Return the picture of the tree of one CoNLL-U sentence (str) as an
    SVG document; see :meth:`Sentence.to_svg`. The HEAD, DEPREL and UPOS
    columns are drawn as given.

    Raises:
        InputError: malformed CoNLL-U (the message gives the line), no
            sentence, or more than one sentence.
    """
    data = _text_bytes("render_svg", conllu)  # a lone surrogate: the library's InputError
    out = ctypes.c_void_p()
    n = ctypes.c_size_t()
    err = ctypes.c_void_p()
    _check(_lib.tp_render_svg(data, len(data), ctypes.byref(out), ctypes.byref(n), ctypes.byref(err)), err)
    try:
        return ctypes.string_at(out.value, n.value).decode("utf-8")
    finally:
        _lib.tp_string_free(out)


# ---- models ------------------------------------------------------------------


def _encode(name, i, value):
    if isinstance(value, str):
        b = value.encode("utf-8", "surrogatepass")  # the library reports bad UTF-8
    elif isinstance(value, (bytes, bytearray, memoryview)):
        b = bytes(value)
    else:
        raise TypeError(f"transparse: {name}[{i}] is {type(value).__name__}, not str")
    if b"\0" in b:
        raise InputError(f"parse: {name}[{i}] contains a NUL character", _lib.TP_ERR_INPUT)
    return b


def _encode_all(name, values, none_ok=False):
    """The UTF-8 bytes of every value, checked by _encode; None stays None
    where none_ok. All str (the common case) are encoded without a call per
    value and checked for NUL at once; anything else takes _encode's path,
    which gives the error."""
    try:
        if none_ok:
            out = [None if v is None else v.encode("utf-8", "surrogatepass") for v in values]
            joined = b"".join([b for b in out if b is not None])
        else:
            out = [v.encode("utf-8", "surrogatepass") for v in values]
            joined = b"".join(out)
    except AttributeError:  # bytes-like values, or not strings at all
        out, joined = None, b"\0"
    if b"\0" in joined:
        return [None if v is None and none_ok else _encode(name, i, v) for i, v in enumerate(values)]
    return out


def _column(name, values):
    """A checked column (None, or a list from _column_list) as a C array of
    its strings (kept alive by the array), or None. The array goes into a
    tp_tags field as it is: ctypes.cast would make a reference cycle that
    only the cyclic collector frees, and the resident memory of a long run
    would creep up between its collections."""
    if values is None:
        return None
    return (ctypes.c_char_p * len(values))(*_encode_all(name, values, none_ok=True))


def _column_list(where, name, values, n):
    """values (a sequence of n strings) as a list, checked; where ("parse",
    "parse_batch: sentence 3") starts the error messages."""
    if isinstance(values, (str, bytes)):
        raise TypeError(f"transparse: {where}: {name} must be a sequence of strings, not {type(values).__name__}")
    values = list(values)
    if len(values) != n:
        raise ArgumentError(f"{where}: {name} has {len(values)} items for {n} words", _lib.TP_ERR_ARGUMENT)
    return values


def _tags(cols):
    """The tp_tags argument for the columns (C arrays or None: UPOS, XPOS,
    FEATS, LEMMA): a pointer to a struct that keeps them alive, or None when
    no column is given."""
    if all(c is None for c in cols):
        return None
    return ctypes.byref(_lib.tp_tags(*cols))


def _decode_all(bs):
    """The strings of a result column (bytes or NULL, which shows as "_")."""
    return [b.decode("utf-8", "replace") if b is not None else "_" for b in bs]


_new = object.__new__


def _token(id, form, lemma, upos, xpos, feats, head, deprel, confidence=None, space_after=None):
    """Token(...) without the frozen dataclass's __init__, which sets each
    field through object.__setattr__ (about half the cost of building a
    result); the instance is the same."""
    t = _new(Token)
    t.__dict__.update(id=id, form=form, lemma=lemma, upos=upos, xpos=xpos, feats=feats, head=head, deprel=deprel,
                      confidence=confidence, space_after=space_after)
    return t


def _sentence(forms, heads, deprels, upos, xpos, lemma, feats, start, end, conf=None, score=None, space=None):
    """The Sentence of words start..end-1 of a parse: the forms as str and
    the result's lists (see Model._call), the confidences (a list, or
    None) and tree score of tp_parse, and the spacing given (a C byte
    array aligned with the forms, or None); heads are 1-based within the
    sentence."""
    if space is not None:
        return Sentence([
            _token(i - start + 1, forms[i], lemma[i], upos[i], xpos[i], feats[i], heads[i], deprels[i],
                   None if conf is None else conf[i], space[i] != 0)
            for i in range(start, end)
        ], score)
    # A list, not a generator: tuple() of a generator over-allocates and
    # shrinks, which leaves the freed tuples on free lists of sizes that
    # are never asked for again: the resident memory of a long run creeps
    # up by a few MB (scripts/longrun.sh).
    if conf is None:
        return Sentence([
            _token(i - start + 1, forms[i], lemma[i], upos[i], xpos[i], feats[i], heads[i], deprels[i])
            for i in range(start, end)
        ], score)
    return Sentence([
        _token(i - start + 1, forms[i], lemma[i], upos[i], xpos[i], feats[i], heads[i], deprels[i], conf[i])
        for i in range(start, end)
    ], score)


_INPUT = {"conllu": _lib.TP_INPUT_CONLLU, "tokens": _lib.TP_INPUT_TOKENS, "text": _lib.TP_INPUT_TEXT}
_ON_ERROR = {"stop": _lib.TP_ON_ERROR_STOP, "skip": _lib.TP_ON_ERROR_SKIP}
_RANGES = {None: _lib.TP_RANGES_NONE, "bytes": _lib.TP_RANGES_BYTES, "codepoints": _lib.TP_RANGES_CODEPOINTS}


def _options(name, beam=None, k=None, confidence=False, space_after=None, input="conllu", on_error="stop",
             no_tags=False, presegmented=False, ranges=None, tokenize_only=False, accurate=False):
    """The tp_options of a method's keyword arguments (beam None: 0, the
    model's default width; space_after: a C byte array or None), or None
    (NULL: the defaults) when every argument is its default. The library
    checks the parse values and which members go with which input
    (ArgumentError); name starts the messages of the checks made here."""
    if (beam is None and k is None and not confidence and space_after is None and input == "conllu"
            and on_error == "stop" and not no_tags and not presegmented and ranges is None and not tokenize_only
            and not accurate):
        return None
    for arg, v in (("beam", beam), ("k", k)):
        if v is not None and (type(v) is bool or not isinstance(v, int)):
            raise TypeError(f"transparse: {arg} must be an int, not {type(v).__name__}")
    if k is not None and k < 1 and name in ("parse", "parse_batch"):  # k=None asks for one tree, not a list
        raise ArgumentError(f"{name}: k is {k}: want 1 or more (None for the best tree only)", _lib.TP_ERR_ARGUMENT)
    for arg, v, known in (("input", input, _INPUT), ("on_error", on_error, _ON_ERROR), ("ranges", ranges, _RANGES)):
        if v not in known:
            want = " or ".join(repr(x) for x in known)
            raise ArgumentError(f"{name}: {arg} is {v!r}: want {want}", _lib.TP_ERR_ARGUMENT)
    o = _lib.tp_options()
    o.size = ctypes.sizeof(_lib.tp_options)
    o.beam = 0 if beam is None else max(min(beam, 2**31 - 1), -(2**31))  # the C int; the library names the value
    o.kbest = 0 if k is None else max(min(k, 2**31 - 1), -(2**31))
    o.confidence = 1 if confidence else 0
    if space_after is not None:
        o.space_after = ctypes.cast(space_after, ctypes.POINTER(ctypes.c_ubyte))
    o.input = _INPUT[input]
    o.on_error = _ON_ERROR[on_error]
    o.no_tags = 1 if no_tags else 0
    o.presegmented = 1 if presegmented else 0
    o.ranges = _RANGES[ranges]
    o.tokenize_only = 1 if tokenize_only else 0
    o.accurate = 1 if accurate else 0
    return o


def _byref(opts):
    """The options argument of a tp_ function: NULL for None."""
    return None if opts is None else ctypes.byref(opts)


def _spacing(where, values, n):
    """The space_after argument (a sequence of n truth values: whitespace
    after the word) as the bytes of tp_options.space_after (a list
    of n 0s and 1s), checked; None stays None."""
    if values is None:
        return None
    if isinstance(values, (str, bytes)):
        raise TypeError(f"transparse: {where}: space_after must be a sequence of bools, not {type(values).__name__}")
    values = [1 if v else 0 for v in values]
    if len(values) != n:
        raise ArgumentError(f"{where}: space_after has {len(values)} items for {n} words", _lib.TP_ERR_ARGUMENT)
    return values


def _kbest(forms, out, conf, trees, j, start, end, space=None):
    """The k best trees of sentence j (words start..end-1) of a parse with
    options: out, conf and space as for _sentence, trees as Model._call
    gives them; a sentence with fewer trees than the result has scores
    -inf for the missing ones (tp_parse_batch)."""
    best = _sentence(forms, *out, start, end, conf, trees[0][2][j], space)
    return [best] + [_sentence(forms, heads, deprels, *out[2:], start, end, None, scores[j], space)
                     for heads, deprels, scores in trees[1:] if scores[j] != -math.inf]


def _forms(words, encoded):
    """The forms as a result shows them: the words themselves when all
    are str, else the decoded bytes."""
    if all(type(w) is str for w in words):
        return words
    return [b.decode("utf-8", "replace") for b in encoded]


def _comment(comments, key):
    """The value of the comment "# key = value" among comments, or None."""
    prefix = "# " + key + " = "
    for c in comments:
        if c.startswith(prefix):
            return c[len(prefix):]
    return None


def _text_sentence(block):
    """The TextSentence of one CoNLL-U sentence of raw text (block: its
    lines with the blank line that ends it). TokenRange is in code points."""
    comments, words, tokens, mwt = [], [], [], None  # mwt: [form, start, end, last id, words]
    for line in block.split("\n"):
        if not line:
            continue
        if line[0] == "#":
            comments.append(line)
            continue
        cols = line.split("\t")
        rng = next((a[len("TokenRange="):] for a in cols[9].split("|") if a.startswith("TokenRange=")), None)
        start, end = (int(x) for x in rng.split(":")) if rng else (None, None)
        if "-" in cols[0]:
            mwt = [cols[1], start, end, int(cols[0].split("-")[1]), []]
            continue
        conf = next((float(a[len("Confidence="):]) for a in cols[9].split("|") if a.startswith("Confidence=")), None)
        w = _token(int(cols[0]), cols[1], cols[2], cols[3], cols[4], cols[5],
                   None if cols[6] == "_" else int(cols[6]), cols[7], conf)
        words.append(w)
        if mwt is None:
            tokens.append(TextToken(w.form, start, end, (w,)))
        else:
            mwt[4].append(w)
            if w.id == mwt[3]:
                tokens.append(TextToken(mwt[0], mwt[1], mwt[2], tuple(mwt[4])))
                mwt = None
    score = _comment(comments, "kbest_score")
    return TextSentence(words, None if score is None else float(score), _comment(comments, "text"), tuple(tokens),
                        tuple(comments), _comment(comments, "transparse_error"), block)


def _text_sentences(out, kbest):
    """The TextSentences of the CoNLL-U out of raw text; with kbest, grouped
    into lists: a sentence and the trees after it (``# kbest_rank``)."""
    sents = [_text_sentence(b + "\n\n") for b in out.split("\n\n") if b.strip("\n")]
    if not kbest:
        return sents
    groups = []
    for st in sents:
        if _comment(st.comments, "kbest_rank") is None:
            groups.append([st])
        else:
            groups[-1].append(st)
    return groups


def _free_model(handle):
    # Finalizer: never raises; a failure (e.g. TP_ERR_FORK in a forked child)
    # leaves the model to the process that owns it.
    _lib.tp_model_free(handle)


class Model:
    """A loaded parser model.

    Create with :meth:`load` or :meth:`from_bytes`. The model owns library
    memory, released by :meth:`close`, by leaving a ``with`` block, or when
    the object is garbage-collected. After closing, every method raises
    :class:`ArgumentError`.

    Thread-safety: every method may be called from many threads at once;
    calls into the library release the GIL and run in parallel. :meth:`close`
    waits for calls in flight in other threads.
    """

    def __init__(self, *args, **kwargs):
        raise TypeError("use transparse.Model.load(path) or transparse.Model.from_bytes(data)")

    @classmethod
    def _from_handle(cls, handle):
        self = object.__new__(cls)
        self._handle = handle
        self._lock = threading.Lock()
        self._idle = threading.Condition(self._lock)
        self._users = 0
        self._pid = os.getpid()  # a forked child must not wait for the parent's calls in flight
        self._finalizer = weakref.finalize(self, _free_model, handle)
        # Not at interpreter exit: daemon threads may still be parsing with
        # the model (and reading its strings); the OS reclaims the memory.
        self._finalizer.atexit = False
        return self

    @classmethod
    def _new(cls, handle):
        """The Model of a handle the library just gave out."""
        return cls._from_handle(handle)

    @classmethod
    def load(cls, path):
        """Load a model file.

        The file may also be a pipe or a device (``/dev/stdin``): it is read
        as a stream, its first 12 bytes are checked before anything else is
        read, and no more is read than its header declares. A damaged or
        hostile file costs at most 64 times its size plus 1 MiB of memory.

        Args:
            path: str, bytes or os.PathLike.

        Raises:
            IoError: the file cannot be read (the message has the path).
            ModelFormatError: not a transparse model, a truncated one
                ("truncated: N of M bytes of document") or a damaged one.
            ModelVersionError: written by a newer transparse.
        """
        p = os.fsencode(path)
        if b"\0" in p:
            raise ArgumentError("tp_model_load: path contains a NUL character", _lib.TP_ERR_ARGUMENT)
        h = ctypes.c_void_p()
        err = ctypes.c_void_p()
        _check(_lib.tp_model_load(p, ctypes.byref(h), ctypes.byref(err)), err)
        return cls._new(h.value)

    @classmethod
    def from_bytes(cls, data):
        """Load a model from the bytes of a model file (bytes-like; not
        retained after the call).

        Raises:
            TypeError: data is not bytes-like.
            ModelFormatError, ModelVersionError: as for :meth:`load`.
        """
        if not isinstance(data, bytes):
            try:
                data = bytes(memoryview(data))
            except TypeError:
                raise TypeError(f"transparse: from_bytes needs bytes, not {type(data).__name__}") from None
        h = ctypes.c_void_p()
        err = ctypes.c_void_p()
        _check(_lib.tp_model_load_from_memory(data, len(data), ctypes.byref(h), ctypes.byref(err)), err)
        return cls._new(h.value)

    # -- lifetime --

    def _acquire(self):
        with self._lock:
            if self._handle is None:
                raise ArgumentError("transparse: the model is closed", _lib.TP_ERR_ARGUMENT)
            self._users += 1
            return self._handle

    def _release(self):
        with self._lock:
            self._users -= 1
            if self._users == 0:
                self._idle.notify_all()

    def close(self):
        """Free the model's library memory. Idempotent. Waits for calls in
        flight in other threads.

        Raises:
            ArgumentError: the library no longer knew the handle.
            ForkError: called in a forked child (the parent still owns the
                model; nothing is freed).
        """
        if os.getpid() != self._pid:
            # The counts of calls in flight came from the parent's threads,
            # which do not exist here: waiting for them would never end.
            raise ForkError("tp_model_free: called in a forked child", _lib.TP_ERR_FORK)
        with self._lock:
            h = self._handle
            if h is None:
                return
            self._handle = None
            while self._users:
                self._idle.wait()
        self._finalizer.detach()
        rc = _lib.tp_model_free(h)
        if rc != _lib.TP_OK:
            msg = "tp_model_free: " + (
                "called in a forked child" if rc == _lib.TP_ERR_FORK else "model handle was freed or is invalid"
            )
            raise _ERRORS.get(rc, Error)(msg, rc)

    @property
    def closed(self):
        """True once :meth:`close` has been called."""
        return self._handle is None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def __repr__(self):
        return f"<transparse.Model {'closed' if self.closed else 'handle=%#x' % self._handle}>"

    def save(self, path):
        """Write the model file to ``path`` (atomically: a temporary file
        in the same directory, renamed over the old one).

        ``path`` must be a regular file, a new path, or a symbolic link to
        one of these: a link is written through (the file it names is
        replaced, the link stays). A directory, device, FIFO or socket at
        ``path`` is refused and left as it is.

        Raises:
            IoError: the file cannot be written, or ``path`` is not a
                regular file ("... is a FIFO, not a regular file"); the
                message has the path.
        """
        p = os.fsencode(path)
        if b"\0" in p:
            raise ArgumentError("tp_model_save: path contains a NUL character", _lib.TP_ERR_ARGUMENT)
        h = self._acquire()
        try:
            err = ctypes.c_void_p()
            _check(_lib.tp_model_save(h, p, ctypes.byref(err)), err)
        finally:
            self._release()

    # -- queries --

    @property
    def card(self):
        """The model card as a dict: ``name``, ``treebank``, ``system``,
        ``options``, ``trained_at``, ``version``, ``scores`` (e.g.
        ``{"dev/gold/LAS": 88.1}``) and ``notes``."""
        h = self._acquire()
        try:
            out = ctypes.c_void_p()
            err = ctypes.c_void_p()
            _check(_lib.tp_model_card_json(h, ctypes.byref(out), ctypes.byref(err)), err)
            try:
                text = ctypes.string_at(out.value).decode("utf-8")
            finally:
                _lib.tp_string_free(out)
        finally:
            self._release()
        return json.loads(text)

    def _strings(self, fn):
        h = self._acquire()
        try:
            arr = _lib.c_char_p_p()
            n = ctypes.c_size_t()
            err = ctypes.c_void_p()
            _check(fn(h, ctypes.byref(arr), ctypes.byref(n), ctypes.byref(err)), err)
            return tuple(arr[i].decode("utf-8", "replace") for i in range(n.value))
        finally:
            self._release()

    @property
    def deprels(self):
        """Tuple of the dependency relations the model can assign."""
        return self._strings(_lib.tp_model_deprels)

    @property
    def upos_tags(self):
        """Tuple of the UPOS tags the model's tagger can assign."""
        return self._strings(_lib.tp_model_upos_tags)

    @property
    def xpos_tags(self):
        """Tuple of the XPOS tags the model can assign (``tp_model_xpos_tags``):
        its XPOS tagger's, or its XPOS table's for a model trained on a
        treebank whose XPOS tag set is too large for a tagger; empty when
        the model predicts no XPOS."""
        return self._strings(_lib.tp_model_xpos_tags)

    @property
    def default_beam(self):
        """The model's default beam width (``tp_model_default_beam``): the
        width of every parse given ``beam=None`` (the default): the card's
        option ``"default_beam"`` for a model trained with a beam
        (``train(..., beam={"width": K})``, where it is K unless
        ``beam={"default_width": ...}`` says otherwise; 1 for the bundled
        model), 1 (the greedy parser) for every other model."""
        h = self._acquire()
        try:
            width = ctypes.c_int()
            err = ctypes.c_void_p()
            _check(_lib.tp_model_default_beam(h, ctypes.byref(width), ctypes.byref(err)), err)
            return width.value
        finally:
            self._release()

    # -- parsing --

    def parse(self, words, upos=None, xpos=None, feats=None, lemma=None, *, space_after=None, beam=None, k=None,
              confidence=False, accurate=False):
        """Parse one tokenized sentence.

        Args:
            words: sequence of n word forms (str; bytes are passed as is).
            upos, xpos, feats, lemma: None (absent), or a sequence of n
                strings where None, "" or "_" marks one word's value absent.
                A column is predicted where absent when the model has the
                component for it (see :class:`Token`), else it is ``"_"``;
                FEATS are predicted only for a sentence given none (where
                some word has FEATS, ``"_"`` means no features). With a
                model that predicts LEMMA or FEATS, UPOS given for every
                word selects the gold-tag classifier (the other columns
                completed first), anything less the plain-token one; the
                header's ``tp_tags`` gives the full rule.
            space_after: None (spacing unknown), or a sequence of n truth
                values: whether whitespace follows each word in the text
                it was tokenized from (spaCy's ``bool(token.whitespace_)``;
                False is CoNLL-U's ``SpaceAfter=No``). A model whose XPOS
                tagger reads spacing (the bundled one) then tags and
                parses the sentence as it does the same sentence given as
                CoNLL-U with that MISC (``tp_options.space_after``):
                a hyphen joining two words is ``HYPH``.
            beam: the beam width K (``tp_options.beam``), 1 to
                :data:`MAX_BEAM`; 1: the greedy parser; None (or 0): the
                model's :attr:`default_beam` (1 for the bundled model).
                A wider beam keeps the K best configurations at every
                step: slower (about K times), with the classifiers the
                model has trained for the beam (``train(..., beam={"width":
                K})``; the bundled model has them). A model without them
                refuses K > 1 (:class:`ArgumentError`, "the model has no
                classifiers trained for the beam"): over greedily trained
                classifiers a wider beam parses worse
                (docs/beam-search.md). A loaded model decodes those
                classifiers at its first parse with K > 1 or
                ``accurate`` (greedy parsing never spends their time and
                memory); a damaged one raises :class:`ModelFormatError`
                naming it there, and greedy parses go on.
            k: None, or the number of trees wanted, 1 to the beam width:
                the distinct trees of the final beam, best first.
            confidence: True: every :class:`Token` of the best tree gets
                its ``confidence`` (else None).
            accurate: True: the accurate mode (``tp_options.accurate``).
                The sentence, tagged once, is parsed by the beam (width
                ``beam`` if above 1, else the width the model's beam
                classifiers were trained at) and by the greedy parser, and
                the tree is their revote (Sagae & Lavie 2006, "Parser
                combination by reparsing"): each parser's arc weighs 0.5
                plus its confidence, and the tree is the maximum spanning
                tree of these arcs with one word attached to the root
                (Chu-Liu-Edmonds), each word's deprel that of the heavier
                voter of its arc. More accurate than either parser, at
                about the beam's time plus a greedy parse
                (docs/beam-search.md). A word's ``confidence`` is then the
                beam's if its voted head and deprel are the beam's, else
                the greedy parser's if they are its, else 0. Not with
                ``k``; a model without classifiers trained for the beam
                refuses it (:class:`ArgumentError`, "accurate mode: the
                model has no classifiers trained for the beam").

        Returns:
            A :class:`Sentence` of n :class:`Token` (with ``k``: a list of up
            to ``k`` Sentences, best first, each with its tree's
            :attr:`Sentence.score`; the first is the one returned without
            ``k``, the others differ in heads and deprels only and carry no
            confidences). It is a copy: it owns no library memory and
            outlives the model.

        Raises:
            InputError: no words, more than MAX_WORDS, an empty word, a word
                or tag longer than MAX_TOKEN_BYTES, invalid UTF-8, a tab or
                line break (the message names it, e.g. ``"tp_parse:
                forms[3] is not valid UTF-8"``), a NUL character; a sentence
                without tags for a model without a tagger.
            ArgumentError: a tag or space_after list of the wrong length;
                closed model; a beam or k out of range (``"tp_parse: invalid parse
                options: beam width 65: want 1 to 64 (0: the model's
                default, 1)"``); a beam above 1 or ``accurate`` for a
                model without classifiers trained for the beam;
                ``accurate`` with ``k``.
            TypeError: a word that is not a string; a beam or k that is not
                an int.

        A dash with spaces around it ("Great service - high class!") is
        punctuation of its own; tokens alone do not tell it from a hyphen:

        >>> words = ["Great", "service", "-", "high", "class", "!"]
        >>> with Model.load("models/en_ewt.tpm") as model:
        ...     plain = model.parse(words)
        ...     spaced = model.parse(words, space_after=[True, True, True, True, False, True])
        >>> plain[2].xpos, spaced[2].xpos, spaced[4].space_after
        ('HYPH', ',', False)
        """
        if isinstance(words, (str, bytes)):
            raise TypeError("transparse: parse needs a sequence of words, not a single string")
        words = list(words)
        n = len(words)
        spacing = _spacing("parse", space_after, n)
        if spacing is not None:
            spacing = (ctypes.c_ubyte * n)(*spacing)
        opts = _options("parse", beam, k, confidence, spacing, accurate=accurate)
        encoded = _encode_all("words", words)
        forms = (ctypes.c_char_p * n)(*encoded)
        given = [None if v is None else _column_list("parse", k, v, n)
                 for k, v in (("upos", upos), ("xpos", xpos), ("feats", feats), ("lemma", lemma))]
        cols = [_column(k, v) for k, v in zip(("upos", "xpos", "feats", "lemma"), given)]
        tags = _tags(cols)
        extra = []
        out = self._call(lambda h, res, err: _lib.tp_parse(h, forms, n, tags, _byref(opts), res, err), n, extra)
        conf, trees = extra
        forms_s = _forms(words, encoded)
        if k is None:
            return _sentence(forms_s, *out, 0, n, conf, None, spacing)
        return _kbest(forms_s, out, conf, trees, 0, 0, n, spacing)

    def _call(self, fn, n, extra, n_sentences=1):
        """Call fn(handle, result, err) (tp_parse or tp_parse_batch with
        its other arguments bound) and return the heads, deprels, UPOS,
        XPOS, LEMMA and FEATS of the n words of its result, which it frees;
        also append to the list extra the confidences (a list, or None)
        and the trees (a list of (heads, deprels, scores), scores a list of
        one per sentence)."""
        h = self._acquire()
        try:
            res = _lib.tp_result_p()
            err = ctypes.c_void_p()
            _check(fn(h, ctypes.byref(res), ctypes.byref(err)), err)
            try:
                r = res.contents
                extra.append(r.confidence[:n] if r.confidence else None)
                extra.append([(r.tree_heads[t * n:(t + 1) * n], _decode_all(r.tree_deprels[t * n:(t + 1) * n]),
                               r.tree_scores[t * n_sentences:(t + 1) * n_sentences]) for t in range(r.n_trees)])
                return (r.heads[:n], _decode_all(r.deprels[:n]), _decode_all(r.upos[:n]), _decode_all(r.xpos[:n]),
                        _decode_all(r.lemma[:n]), _decode_all(r.feats[:n]))
            finally:
                _lib.tp_result_free(res)
        finally:
            self._release()

    def parse_batch(self, sentences, *, beam=None, k=None, confidence=False, accurate=False):
        """Parse many tokenized sentences in one library call
        (``tp_parse_batch``): the arguments are checked and the GIL
        released once for the whole batch, so this is the fast way to parse
        a list of sentences, and several threads calling it each with a
        batch of their own use several cores.

        Args:
            sentences: an iterable of sentences, each either a sequence of
                word forms (as for :meth:`parse`) or a mapping with the key
                ``"words"`` and optionally ``"upos"``, ``"xpos"``,
                ``"feats"``, ``"lemma"``, ``"space_after"`` (the keyword
                arguments of :meth:`parse`).
            beam, k, confidence, accurate: as for :meth:`parse`, for every
                sentence.

        Returns:
            A list with one item per input sentence, each what
            :meth:`parse` gives it with the same keyword arguments: a
            :class:`Sentence`, or with ``k`` a list of up to ``k``
            Sentences, best first. An empty iterable gives ``[]``.

        Raises:
            InputError: as :meth:`parse`, or more than :data:`MAX_BATCH_WORDS`
                words in all; the message names the word by its
                index in the batch and its place (``"tp_parse_batch:
                forms[17] is not valid UTF-8 (sentence 3, word 2)"``,
                sentences counted from 0), or the sentence.
            ArgumentError: a tag or space_after list of the wrong length
                (naming the sentence); closed model; a beam or k out of
                range, as for :meth:`parse` (``"tp_parse_batch: ..."``).
            TypeError: a sentence that is a string, or a word that is not;
                a beam or k that is not an int.
        """
        words, given, offsets = [], [], [0]  # given: each sentence's tag mapping
        for j, s in enumerate(sentences):
            if isinstance(s, collections.abc.Mapping):
                ws, tags = s.get("words"), s
            else:
                ws, tags = s, {}
            if ws is None or isinstance(ws, (str, bytes)):
                raise TypeError(f"transparse: parse_batch: sentence {j} needs a sequence of words")
            words.extend(ws)
            given.append(tags)
            offsets.append(len(words))
        if len(offsets) == 1:
            _options("parse_batch", beam, k, confidence, accurate=accurate)  # the type checks
            return []
        total = len(words)
        encoded = _encode_all("words", words)
        forms = (ctypes.c_char_p * total)(*encoded)
        # A column only where some sentence gives it, the others' words absent.
        cols = []
        for name in ("upos", "xpos", "feats", "lemma"):
            if all(t.get(name) is None for t in given):
                cols.append(None)
                continue
            col = []
            for j, t in enumerate(given):
                n = offsets[j + 1] - offsets[j]
                v = t.get(name)
                if v is None:
                    col.extend([None] * n)
                else:
                    col.extend(_column_list(f"parse_batch: sentence {j}", name, v, n))
            cols.append(_column(name, col))
        tags = _tags(cols)
        # Spacing where some sentence gives it; a sentence without it is
        # all spaced, which tags as unknown spacing does.
        spacing = None
        if any(t.get("space_after") is not None for t in given):
            flat = []
            for j, t in enumerate(given):
                n = offsets[j + 1] - offsets[j]
                sp = _spacing(f"parse_batch: sentence {j}", t.get("space_after"), n)
                flat.extend([1] * n if sp is None else sp)
            spacing = (ctypes.c_ubyte * total)(*flat)
        opts = _options("parse_batch", beam, k, confidence, spacing, accurate=accurate)
        offs = (ctypes.c_size_t * len(offsets))(*offsets)
        ns = len(offsets) - 1
        extra = []
        out = self._call(lambda h, res, err: _lib.tp_parse_batch(
            h, forms, offs, ns, tags, _byref(opts), res, err), total, extra, ns)
        conf, trees = extra
        forms_s = _forms(words, encoded)

        def space(j):  # the spacing of sentence j's tokens, if given
            return spacing if spacing is not None and given[j].get("space_after") is not None else None

        if k is None:
            return [_sentence(forms_s, *out, offsets[j], offsets[j + 1], conf, None, space(j)) for j in range(ns)]
        return [_kbest(forms_s, out, conf, trees, j, offsets[j], offsets[j + 1], space(j)) for j in range(ns)]

    def parse_document(self, text, *, input="conllu", on_error="stop", no_tags=False, beam=None, k=None,
                       confidence=False, presegmented=False, ranges=None, accurate=False):
        """Parse every sentence of a document (``tp_parse_document``; one
        library call, the GIL released throughout).

        Args:
            text: the document (str, or UTF-8 bytes).
            input: ``"conllu"`` (CoNLL-U), ``"tokens"`` (pre-tokenized
                text: one sentence per line, tokens separated by spaces or
                tabs, blank lines ignored) or ``"text"`` (raw text, split
                into sentences, tokens and multiword tokens by the model's
                segmenter; see :meth:`parse_text` for the same as objects).
            presegmented: with ``input="text"``: every line is one
                sentence (the segmenter still finds the tokens).
            ranges: with ``input="text"``: None, ``"bytes"`` or
                ``"codepoints"``: each token gets ``TokenRange=START:END``
                in MISC, its offsets in the whole text (END exclusive) in
                UTF-8 bytes or in code points (indices of the str).
            on_error: ``"stop"`` (raise at the first sentence that cannot be
                parsed) or ``"skip"`` (copy it through unparsed, after a
                ``# transparse_error = ...`` comment naming the error and
                its line, and go on; a :class:`SkippedSentencesWarning`
                gives the count). Errors that end the input (a line over
                1 MiB) raise either way. In raw text, ``"skip"`` replaces
                each byte of invalid UTF-8 by U+FFFD and parses on; the
                sentence gets a ``# transparse_replaced = ...`` comment
                listing the bytes and their byte offsets in the input.
            no_tags: blank LEMMA, UPOS, XPOS and FEATS of CoNLL-U input
                (of words and empty nodes) before parsing, so that the
                model predicts them, as from plain tokens.
            beam, k, confidence, accurate: as for :meth:`parse`: a confidence goes
                in MISC as ``Confidence=0.931``, after the attributes
                given; with ``k`` above 1 each sentence is followed by its
                other trees as sentences of their own, with ``# kbest_rank
                = N`` and ``# kbest_score = S`` comments and the sent_id
                suffixed ``-kbestN``.

        Returns:
            CoNLL-U (str). A sentence copied through by ``on_error="skip"``
            keeps its bytes: those that are not UTF-8 are in the str as the
            lone surrogates U+DC80 to U+DCFF of Python's
            ``surrogateescape`` handler, so
            ``result.encode("utf-8", "surrogateescape")`` is byte for byte
            the library's output. From CoNLL-U: the document with HEAD and DEPREL
            filled in, LEMMA, UPOS, XPOS and FEATS as :meth:`parse` gives
            them (given ones kept, absent ones predicted or ``"_"``) and
            DEPS ``_`` on every word; comments, MISC and multiword tokens
            are kept, empty nodes (nodes of the enhanced graph only) left
            out of the parsed sentences. From tokens: each sentence with
            ``# sent_id = N`` and ``# text``, its words with the predicted
            LEMMA, UPOS, XPOS and FEATS (``_`` for a column the model has
            no component for), HEAD and DEPREL. From text: the same, with
            ``# newdoc`` and ``# newpar`` comments, multiword tokens and
            the spacing in MISC (``SpaceAfter=No``, ``SpacesAfter``,
            ``SpacesBefore``: the text is rebuilt from them byte for byte;
            see ``tp_parse_document`` in transparse.h):

            >>> with Model.load("models/en_ewt.tpm") as model:
            ...     print(model.parse_document("She left .\\n", input="tokens"), end="")
            # sent_id = 1
            # text = She left .
            1  She   she    PRON   PRP  Case=Nom|Gender=Fem|Number=Sing|Person=3|PronType=Prs  2  nsubj  _  _
            2  left  leave  VERB   VBD  Mood=Ind|Number=Sing|Person=3|Tense=Past|VerbForm=Fin  0  root   _  _
            3  .     .      PUNCT  .    _                                                     2  punct  _  _
            <BLANKLINE>

        Raises:
            InputError: malformed input (a NUL byte included; text that is
                not valid UTF-8, the message giving the byte offset) or a
                sentence the parser rejects (the message gives the line).
            ArgumentError: an unknown ``input``, ``on_error`` or
                ``ranges``; bad parse options; ``input="text"`` with a
                model without a segmenter (the message says how to get
                one); ``presegmented`` or ``ranges`` with another input.
        """
        opts = _options("parse_document", beam, k, confidence, None, input, on_error, no_tags, presegmented, ranges,
                        accurate=accurate)
        return self._document("parse_document", text, opts)

    def _document(self, name, text, opts):
        """tp_parse_document of text (str or bytes) with the options opts:
        the CoNLL-U as str; warns SkippedSentencesWarning."""
        data = _text_bytes(name, text)
        skipped = ctypes.c_size_t()
        h = self._acquire()
        try:
            out = ctypes.c_void_p()
            n = ctypes.c_size_t()
            err = ctypes.c_void_p()
            _check(_lib.tp_parse_document(h, data, len(data), _byref(opts), ctypes.byref(out), ctypes.byref(n),
                                          ctypes.byref(skipped), ctypes.byref(err)), err)
            try:
                result = ctypes.string_at(out.value, n.value)
            finally:
                _lib.tp_string_free(out)
        finally:
            self._release()
        if skipped.value:
            warnings.warn(SkippedSentencesWarning(skipped.value), stacklevel=3)
        return result.decode("utf-8", "surrogateescape")

    def parse_text(self, text, *, presegmented=False, beam=None, k=None, confidence=False, on_error="stop",
                   accurate=False):
        """Split raw text into sentences, tokens and words with the model's
        segmenter, then tag and parse every sentence (one library call,
        ``tp_parse_document`` with ``TP_INPUT_TEXT``; the GIL released
        throughout).

        Args:
            text: the text (str; UTF-8 bytes are read as the str they
                decode to).
            presegmented: True: every line is one sentence (the segmenter
                still finds the tokens); False: the segmenter decides where
                sentences end. A blank line always ends a paragraph and its
                sentence.
            beam, k, confidence, accurate: as for :meth:`parse`.
            on_error: ``"stop"`` or ``"skip"``, as for
                :meth:`parse_document`: a sentence the parser rejects is
                then returned unparsed (its words' ``head`` None, ``deprel``
                ``"_"``) with :attr:`TextSentence.error` set, and each
                byte of invalid UTF-8 is read as U+FFFD (one code point in
                ``start`` and ``end``, as the str that
                ``bytes.decode("utf-8", "surrogateescape")`` gives; a lone
                surrogate of a str outside U+DC80 to U+DCFF is three such
                bytes, so it counts as three code points).

        Returns:
            A list of :class:`TextSentence`, in the order of the text (with
            ``k``: a list with one list per sentence of up to ``k``
            TextSentences, best first, as :meth:`parse` gives them; only
            the trees after the best have a :attr:`Sentence.score`). Each
            is a :class:`Sentence` of its syntactic words (:class:`Token`,
            with their predicted LEMMA, UPOS, XPOS, FEATS, HEAD and DEPREL)
            and has :attr:`~TextSentence.text` and
            :attr:`~TextSentence.tokens`: the :class:`TextToken` of the
            text, each with its ``start`` and ``end`` in code points,
            ``text[tok.start:tok.end]`` being the token.

        Raises:
            ArgumentError: the model has no segmenter (the message says
                how to get one); bad parse options; closed model.
            InputError: with ``on_error="stop"``, text that is not valid
                UTF-8 (a lone surrogate in a str; the message gives the
                byte offset) or a sentence the parser rejects.

        >>> with Model.load("models/en_ewt.tpm") as model:
        ...     sents = model.parse_text("I don't like it. She left.")
        >>> [[tok.form for tok in s.tokens] for s in sents]
        [['I', "don't", 'like', 'it', '.'], ['She', 'left', '.']]
        >>> [w.form for w in sents[0]], sents[0].tokens[1].start
        (['I', 'do', "n't", 'like', 'it', '.'], 2)
        """
        opts = _options("parse_text", beam, k, confidence, None, "text", on_error, False, presegmented,
                        "codepoints", accurate=accurate)
        return _text_sentences(self._document("parse_text", text, opts), k is not None)

    def tokenize(self, text, *, presegmented=False, on_error="stop"):
        """Split raw text into sentences, tokens and words with the model's
        segmenter, without tagging or parsing (``tp_options.tokenize_only``).

        Args:
            text, presegmented: as for :meth:`parse_text`.
            on_error: ``"stop"`` (raise at invalid UTF-8) or ``"skip"``
                (read each byte of invalid UTF-8 as U+FFFD), as for
                :meth:`parse_text`.

        Returns:
            A list of :class:`TextSentence`, as :meth:`parse_text` gives
            them, whose words have only ``id`` and ``form``: LEMMA, UPOS,
            XPOS, FEATS and DEPREL are ``"_"`` and ``head`` is None.

        Raises:
            ArgumentError, InputError: as for :meth:`parse_text`.
        """
        opts = _options("tokenize", None, None, False, None, "text", on_error, False, presegmented, "codepoints", True)
        return _text_sentences(self._document("tokenize", text, opts), False)

    def stream(self, file, *, input="conllu", on_error="stop", no_tags=False, beam=None, k=None, confidence=False,
               presegmented=False, ranges=None, accurate=False):
        """Parse a document sentence by sentence, reading it as it goes
        (``tp_stream_open``): memory does not grow with the document.

        Args:
            file: a path (str or os.PathLike), or a file object whose
                ``read(n)`` returns bytes (UTF-8) or str.
            input, on_error, no_tags, beam, k, confidence, presegmented,
                ranges, accurate: as for :meth:`parse_document`. Raw text
                (``input="text"``) is segmented as it is read: memory
                stays bounded whatever the text holds.

        Returns:
            A :class:`DocumentStream`: an iterator of the parsed sentences,
            each a str of CoNLL-U ending with its blank line (joined, they
            are what :meth:`parse_document` returns; with ``k``, a sentence
            and its other trees of the k best; bytes that are not UTF-8
            decoded with ``surrogateescape`` as by :meth:`parse_document`),
            with ``skipped`` and
            ``sentences`` counts. Errors are raised by the ``next`` that
            meets them, after the sentences before them: ``IoError`` when
            ``read`` returns None (a non-blocking file with no data
            ready), ``TypeError`` when it returns anything but bytes or
            str.
        """
        return DocumentStream(self, file, _options("stream", beam, k, confidence, None, input, on_error, no_tags,
                                                   presegmented, ranges, accurate=accurate))


# Lone surrogates other than U+DC80 to U+DCFF (which surrogateescape
# makes of the bytes that are not UTF-8).
_OTHER_SURROGATE = re.compile("([\ud800-\udc7f\udd00-\udfff])")


def _text_bytes(name, text):
    if isinstance(text, str):
        try:  # U+DC80 to U+DCFF back to the bytes that surrogateescape decoded
            return text.encode("utf-8", "surrogateescape")
        except UnicodeEncodeError:  # another lone surrogate: bytes the library reports as not UTF-8
            parts = _OTHER_SURROGATE.split(text)
            return b"".join(p.encode("utf-8", "surrogatepass" if i % 2 else "surrogateescape")
                            for i, p in enumerate(parts))
    if isinstance(text, (bytes, bytearray, memoryview)):
        return bytes(text)
    raise TypeError(f"transparse: {name} needs str, not {type(text).__name__}")


class SkippedSentencesWarning(UserWarning):
    """Warned by :meth:`Model.parse_document` with ``on_error="skip"`` when
    sentences were copied through unparsed; ``count`` is their number."""

    def __init__(self, count):
        super().__init__(f"transparse: {count} sentence(s) copied through unparsed (on_error='skip')")
        self.count = count


class DocumentStream:
    """The sentences of a document parsed one at a time (see
    :meth:`Model.stream`), through the library's stream
    (``tp_stream_next``): one sentence and a 64 KiB read buffer in memory.

    Iterate it once. ``sentences`` and ``skipped`` count what it has
    yielded. Use it from one thread at a time. ``close()`` (or the end of
    the iteration, or leaving a ``with`` block) frees the stream and closes
    a file it opened itself; the model must stay open while iterating.
    """

    def __init__(self, model, file, opts=None):
        self._own = None
        if isinstance(file, (str, bytes, os.PathLike)):
            file = self._own = open(file, "rb")
        if not callable(getattr(file, "read", None)):
            raise TypeError(f"transparse: stream needs a path or a file, not {type(file).__name__}")
        self._file = file
        self._pending = b""
        self._exc = None
        self._model = model
        self._stream = None
        self.sentences = 0
        self.skipped = 0
        self._read = _lib.tp_read_fn(self._fill)  # kept alive with the stream
        h = model._acquire()
        try:
            st = ctypes.c_void_p()
            err = ctypes.c_void_p()
            rc = _lib.tp_stream_open(h, self._read, None, _byref(opts), ctypes.byref(st), ctypes.byref(err))
            _check(rc, err)
            self._stream = st.value
        except BaseException:
            self._close_file()
            raise
        finally:
            model._release()

    def _fill(self, ctx, buf, cap):
        """tp_read_fn: copy at most cap bytes of the file into buf."""
        try:
            data = self._pending
            if not data:
                data = self._file.read(cap)
                if isinstance(data, str):
                    data = data.encode("utf-8", "surrogatepass")
                elif data is None:
                    # A non-blocking file with no data ready, not the end.
                    raise IoError("stream: read() returned None (a non-blocking file with no data ready): "
                                  "give a blocking file", _lib.TP_ERR_IO)
                elif isinstance(data, (bytes, bytearray, memoryview)):
                    data = bytes(data)
                else:
                    raise TypeError(f"transparse: stream: read() returned {type(data).__name__}, "
                                    "not bytes or str")
            n = min(len(data), cap)
            ctypes.memmove(buf, data, n)
            self._pending = data[n:]
            return n
        except BaseException as e:  # reported by __next__
            self._exc = e
            return -1

    def __iter__(self):
        return self

    def __next__(self):
        if self._stream is None:
            raise StopIteration
        h = self._model._acquire()
        try:
            out = ctypes.c_void_p()
            n = ctypes.c_size_t()
            err = ctypes.c_void_p()
            rc = _lib.tp_stream_next(self._stream, ctypes.byref(out), ctypes.byref(n), ctypes.byref(err))
            if rc != _lib.TP_OK:
                exc, self._exc = self._exc, None
                if exc is not None:
                    _lib.tp_error_free(err)
                    raise exc
                _raise(rc, err)
            if not out.value:
                self.close()
                raise StopIteration
            text = ctypes.string_at(out.value, n.value).decode("utf-8", "surrogateescape")
            tot, sk = ctypes.c_size_t(), ctypes.c_size_t()
            _lib.tp_stream_stats(self._stream, ctypes.byref(tot), ctypes.byref(sk), None)
            self.sentences, self.skipped = tot.value, sk.value
            return text
        finally:
            self._model._release()

    def _close_file(self):
        if self._own is not None:
            self._own.close()
            self._own = None

    def close(self):
        """Free the stream (idempotent)."""
        if self._stream is not None:
            _lib.tp_stream_free(self._stream)
            self._stream = None
        self._close_file()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass


from .engine import System, State  # noqa: E402  (the engine needs _check above)
