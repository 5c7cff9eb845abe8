"""The transition systems as an engine: states, legal moves, oracles.

Every transition system of the parser, with its exact static oracle and
(arc-eager, arc-hybrid, covington-nonprojective) its dynamic oracle, for a
scorer of the caller's own (see docs/engine.md)::

    >>> import transparse
    >>> sys = transparse.System("arc-eager", ["root", "nsubj", "obj"])
    >>> sys.classes
    ['SHIFT', 'REDUCE', 'LEFT-ARC:root', 'LEFT-ARC:nsubj', 'LEFT-ARC:obj', 'RIGHT-ARC:root', 'RIGHT-ARC:nsubj', 'RIGHT-ARC:obj']
    >>> seq = sys.oracle([2, 0, 2], ["nsubj", "root", "obj"])
    >>> [sys.classes[k] for k in seq]
    ['SHIFT', 'LEFT-ARC:nsubj', 'RIGHT-ARC:root', 'RIGHT-ARC:obj']
    >>> st = sys.state(3)
    >>> for k in seq:
    ...     st.apply(k)
    >>> st.is_terminal, st.heads, st.deprels
    (True, [2, 0, 2], ['nsubj', 'root', 'obj'])

Nodes are numbered as in CoNLL-U: 0 is the root, words 1..n. A class is an
index into ``System.classes``. Systems are read-only and may be shared by
threads; a State serializes calls on it.
"""

import collections
import ctypes
import itertools

from . import _check, _lib

try:
    import numpy as _np
except ImportError:  # numpy is optional: plain lists then
    _np = None

OracleDocument = collections.namedtuple("OracleDocument", "classes offsets n_words in_class")
OracleDocument.__doc__ = """The static oracle of every sentence of a document (System.oracle_document).

``classes``: the class sequences one after the other; sentence i's is
``classes[offsets[i]:offsets[i + 1]]`` (``offsets`` has one entry more than
there are sentences); ``n_words[i]``: its number of words; ``in_class[i]``:
whether its tree is in the system's class (its sequence is empty if not).
numpy arrays (int32, int64, int64, bool) when numpy is installed, lists
otherwise."""

def _err():
    return ctypes.c_void_p()


def _i32(values):
    return (ctypes.c_int32 * len(values))(*values)


class System:
    """A transition system over a list of deprels.

    ``name`` is one of :func:`transparse.systems`; ``deprels`` the labels (strings), one
    of them ``"root"``: arcs from node 0 take it and no other arc does.
    ``classes`` lists the class names (``"LEFT-ARC:nsubj"``), one per
    unlabeled move and one per labeled move and deprel; class k is
    ``classes[k]``. Raises ArgumentError for an unknown name or encoding
    (the message lists the known ones) or no "root".

    ``pseudo_projective`` (None, "baseline", "head", "path" or
    "head+path") adds a pseudo-projective encoding (Nivre & Nilsson 2005)
    by naming the system ``"SYSTEM/ENCODING"`` (``name`` may also be given
    so, with ``pseudo_projective`` None); ``self.name`` is the whole name,
    ``self.pseudo_projective`` the encoding or None. ``deprels`` then
    becomes the given ones followed by the encoded labels
    (``"advmod|nsubj"``), gold trees are given over the given ones and
    projectivized by the oracles when outside the system's class, and
    :meth:`decode` turns a derived tree back::

        >>> import transparse
        >>> sys = transparse.System("arc-eager", ["root", "nsubj", "obj", "advmod"], pseudo_projective="head")
        >>> heads, labels = [2, 0, 4, 2, 1], ["nsubj", "root", "advmod", "obj", "advmod"]
        >>> st = sys.state(5)
        >>> for k in sys.oracle(heads, labels):
        ...     st.apply(k)
        >>> st.heads, st.deprels[4]
        ([2, 0, 4, 2, 2], 'advmod|nsubj')
        >>> sys.decode(st.heads, st.deprels) == (heads, labels)
        True
    """

    def __init__(self, name, deprels, pseudo_projective=None):
        if pseudo_projective is not None:
            name = f"{name}/{pseudo_projective}"
        self.name = name
        self.pseudo_projective = name.partition("/")[2] or None
        given = [str(d) for d in deprels]
        arr = (ctypes.c_char_p * len(given))(*[d.encode() for d in given])
        h, err = ctypes.c_void_p(), _err()
        _check(_lib.tp_system_new(name.encode(), arr, len(given), ctypes.byref(h), ctypes.byref(err)), err)
        self._h = h
        out, err = ctypes.c_void_p(), _err()
        _check(_lib.tp_system_classes(self._h, ctypes.byref(out), ctypes.byref(err)), err)
        try:
            self.classes = ctypes.string_at(out.value).decode().splitlines()
        finally:
            _lib.tp_string_free(out)
        # The deprels in class order: the labels of the first labeled move.
        first = next((c.split(":", 1)[0] for c in self.classes if ":" in c), None)
        self.deprels = [c.split(":", 1)[1] for c in self.classes if c.split(":", 1)[0] == first] if first else given
        self._index = {d: i for i, d in enumerate(self.deprels)}

    def close(self):
        """Free the system (States made from it stay usable). Idempotent."""
        h, self._h = getattr(self, "_h", None), None
        if h:
            _lib.tp_system_free(h)

    def __del__(self):
        self.close()

    def __repr__(self):
        return f"System({self.name!r}, {len(self.deprels)} deprels, {len(self.classes)} classes)"

    def _tree(self, heads, deprels):
        if len(heads) != len(deprels):
            raise ValueError(f"{len(heads)} heads but {len(deprels)} deprels")
        labels = [d if isinstance(d, int) else self._index.get(d, -1) for d in deprels]
        return _i32(list(heads)), _i32(labels), len(heads)

    def max_transitions(self, n_words):
        """The bound on the length of any derivation of n_words words."""
        out, err = ctypes.c_size_t(), _err()
        _check(_lib.tp_system_max_transitions(self._h, n_words, ctypes.byref(out), ctypes.byref(err)), err)
        return out.value

    def oracle(self, heads, deprels):
        """The static oracle's class sequence for a gold tree.

        ``heads``: n ints, ``heads[i]`` the head of word i+1 (0 = root);
        ``deprels``: n deprel strings or indices into ``self.deprels``.
        Returns a list of class indices. Raises InputError when the tree is
        not a tree or is outside the system's class (the message names the
        system and the transition the oracle could not take).
        """
        h, l, n = self._tree(heads, deprels)
        cap = self.max_transitions(n)
        out, length, err = (ctypes.c_int32 * max(cap, 1))(), ctypes.c_size_t(), _err()
        _check(_lib.tp_system_oracle(self._h, h, l, n, out, cap, ctypes.byref(length), ctypes.byref(err)), err)
        return list(out[: length.value])

    def oracle_document(self, text):
        """The static oracle of every sentence of a CoNLL-U document, in one call.

        ``text``: the document (str or UTF-8 bytes). Returns an
        :class:`OracleDocument`; a tree outside the system's class is no
        error (``in_class`` False, empty sequence). Raises InputError for
        malformed CoNLL-U or a DEPREL not in ``self.deprels`` (the message
        gives the line and sentence number).
        """
        data = text.encode() if isinstance(text, str) else bytes(text)
        res, err = ctypes.POINTER(_lib.tp_oracle_doc)(), _err()
        _check(_lib.tp_system_oracle_document(self._h, data, len(data), ctypes.byref(res), ctypes.byref(err)), err)
        try:
            r = res.contents
            ns = r.n_sentences
            nc = r.offsets[ns]
            if _np is None:
                return OracleDocument(r.classes[:nc], r.offsets[: ns + 1], r.n_words[:ns], [bool(x) for x in r.in_class[:ns]])

            def arr(ptr, n, dtype):
                return _np.ctypeslib.as_array(ptr, (n,)).astype(dtype) if n else _np.zeros(0, dtype)

            return OracleDocument(
                arr(r.classes, nc, _np.int32), arr(r.offsets, ns + 1, _np.int64),
                arr(r.n_words, ns, _np.int64), arr(r.in_class, ns, bool),
            )
        finally:
            _lib.tp_oracle_doc_free(res)

    def decode(self, heads, deprels):
        """Undo the pseudo-projective encoding on a tree over ``self.deprels``
        (e.g. a terminal state's ``heads`` and ``deprels``): returns
        ``(heads, deprels)`` with the lifted arcs moved back and the labels
        stripped of their marks. ArgumentError without an encoding."""
        h, l, n = self._tree(heads, deprels)
        oh, ol, err = (ctypes.c_int32 * max(n, 1))(), (ctypes.c_int32 * max(n, 1))(), _err()
        _check(_lib.tp_system_decode(self._h, h, l, n, oh, ol, ctypes.byref(err)), err)
        return list(oh[:n]), [self.deprels[i] for i in ol[:n]]

    def state(self, n_words):
        """The initial State for n_words words."""
        return State(self, n_words)

    def cost(self, state, k, heads, deprels):
        """The dynamic oracle: the number of gold arcs (heads, deprels as for
        :meth:`oracle`) that class k makes unreachable from state, a right
        head with a wrong deprel counting as lost. arc-eager, arc-hybrid and
        covington-nonprojective only (ArgumentError otherwise); k must be
        legal (InputError otherwise)."""
        h, l, n = self._tree(heads, deprels)
        out, err = ctypes.c_int(), _err()
        _check(_lib.tp_state_cost(state._h, h, l, n, k, ctypes.byref(out), ctypes.byref(err)), err)
        return out.value


_SCORERS = {"gold": _lib.TP_SCORER_GOLD, "gold-fast": _lib.TP_SCORER_GOLD_FAST, "greedy": _lib.TP_SCORER_GREEDY}
_TAG_COLUMNS = ("upos", "xpos", "feats", "lemma")  # tp_tags order


def _words(sentence):
    """The C arguments (forms, tags or None, n) of a sentence: a sequence
    of str forms, or of tokens with ``form`` and the tag attributes
    (:class:`transparse.Token`, a :class:`transparse.Sentence`); "_", ""
    and None mark a value absent."""
    items = list(sentence)
    n = len(items)
    if all(isinstance(t, str) for t in items):
        return (ctypes.c_char_p * n)(*[t.encode() for t in items]), None, n
    forms = (ctypes.c_char_p * n)(*[t.form.encode() for t in items])
    cols = []
    for name in _TAG_COLUMNS:
        values = [getattr(t, name, None) for t in items]
        cols.append((ctypes.c_char_p * n)(*[None if v in (None, "", "_") else v.encode() for v in values]))
    return forms, _lib.tp_tags(*cols), n


class State:
    """A configuration of a System for n words (``System.state(n)``)."""

    def __init__(self, system, n_words, _handle=None):
        self.system = system
        self.n_words = n_words
        if _handle is None:
            _handle, err = ctypes.c_void_p(), _err()
            _check(_lib.tp_state_new(system._h, n_words, ctypes.byref(_handle), ctypes.byref(err)), err)
        self._h = _handle
        self._mask = (ctypes.c_uint8 * len(system.classes))()
        self._classes = range(len(system.classes))

    def close(self):
        """Free the state. Idempotent."""
        h, self._h = getattr(self, "_h", None), None
        if h:
            _lib.tp_state_free(h)

    def __del__(self):
        self.close()

    def copy(self):
        """An independent copy (for search)."""
        h, err = ctypes.c_void_p(), _err()
        _check(_lib.tp_state_copy(self._h, ctypes.byref(h), ctypes.byref(err)), err)
        return State(self.system, self.n_words, h)

    def legal(self):
        """The legal classes, as a list of indices in increasing order."""
        err = _err()
        _check(_lib.tp_state_legal(self._h, self._mask, len(self._mask), ctypes.byref(err)), err)
        return list(itertools.compress(self._classes, bytes(self._mask)))

    def apply(self, k):
        """Apply class k; InputError (state unchanged) if k is not legal."""
        err = _err()
        _check(_lib.tp_state_apply(self._h, k, ctypes.byref(err)), err)

    @property
    def is_terminal(self):
        """Whether the state is terminal."""
        out, err = ctypes.c_int(), _err()
        _check(_lib.tp_state_is_terminal(self._h, ctypes.byref(out), ctypes.byref(err)), err)
        return bool(out.value)

    def apply_deprel(self, k, deprel):
        """Apply class k whose move adds an arc without a deprel of its own
        (arc-eager's REDUCE of a headless node once the buffer is empty)
        with ``deprel`` (a string or index) on that arc; see
        ``tp_state_apply_deprel``."""
        d = deprel if isinstance(deprel, int) else self.system._index.get(deprel, len(self.system.deprels))
        err = _err()
        _check(_lib.tp_state_apply_deprel(self._h, k, d, ctypes.byref(err)), err)

    def _words(self, sentence):
        # The C arrays of the sentence, kept for the next call with it.
        cached = getattr(self, "_words_of", None)
        if cached is None or cached[0] is not sentence:
            cached = self._words_of = (sentence, _words(sentence))
        return cached[1]

    def features(self, model, sentence, scorer="gold"):
        """The hashed feature ids (ints, one per template, in template
        order) that a model's classifier extracts in this state.

        ``model``: a :class:`transparse.Model` whose system and deprels
        are this state's (``System(model's system, model.deprels)``).
        ``sentence``: the n words, str forms or tokens with ``form``,
        ``upos``, ``xpos``, ``feats``, ``lemma`` (a
        :class:`transparse.Sentence` read from CoNLL-U), read as the
        gold-tag parser reads them (UPOS needed on every word; absent
        LEMMA or FEATS completed by the model's taggers). ``scorer``:
        "gold" or "gold-fast" (its fast classifier). Raises ArgumentError
        (another system or length, no fast classifier), InputError (bad
        words).
        """
        forms, tags, n = self._words(sentence)
        cap = 1024
        out, length, err = (ctypes.c_uint64 * cap)(), ctypes.c_size_t(), _err()
        h = model._acquire()
        try:
            _check(_lib.tp_state_features(h, _SCORERS[scorer], self._h, forms, tags, n, out, cap, ctypes.byref(length),
                                          ctypes.byref(err)), err)
        finally:
            model._release()
        return list(out[: length.value])

    def scores(self, model, sentence, scorer="greedy"):
        """The scores of every class in this state by a model's
        classifier (a numpy float32 array when numpy is installed, a list
        otherwise); arguments as for :meth:`features`. "greedy" gives the
        scores the greedy parser decides on: its next move is the legal
        class with the highest score."""
        forms, tags, n = self._words(sentence)
        nc = len(self.system.classes)
        out, err = (ctypes.c_float * nc)(), _err()
        h = model._acquire()
        try:
            _check(_lib.tp_state_scores(h, _SCORERS[scorer], self._h, forms, tags, n, out, nc, ctypes.byref(err)), err)
        finally:
            model._release()
        return _np.array(out, dtype=_np.float32) if _np is not None else list(out)

    def _view(self, which, cap):
        # One buffer of n + 1 nodes per state serves every view.
        if getattr(self, "_viewbuf", None) is None:
            self._viewbuf, self._viewlen = (ctypes.c_int32 * (self.n_words + 1))(), ctypes.c_size_t()
        err = _err()
        _check(_lib.tp_state_view(self._h, which, self._viewbuf, cap, ctypes.byref(self._viewlen), ctypes.byref(err)), err)
        return self._viewbuf[: self._viewlen.value]

    @property
    def stack(self):
        """The stack as node numbers, bottom first (Covington: λ1)."""
        return self._view(_lib.TP_VIEW_STACK, self.n_words + 1)

    @property
    def buffer(self):
        """The buffer as node numbers, front first."""
        return self._view(_lib.TP_VIEW_BUFFER, self.n_words + 1)

    @property
    def heads(self):
        """n ints: the head of word i+1 so far, -1 if none."""
        return self._view(_lib.TP_VIEW_HEADS, self.n_words)

    @property
    def deprels(self):
        """n deprel strings so far, None where a word has no head yet."""
        return [self.system.deprels[i] if i >= 0 else None for i in self._view(_lib.TP_VIEW_DEPRELS, self.n_words)]
