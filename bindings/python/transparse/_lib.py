"""Loading libtransparse and declaring its functions for ctypes.

Private module: the public API is in :mod:`transparse`.

The library is searched, in order:

1. next to this package (``libtransparse.so.0`` or ``libtransparse.so``, as
   placed by ``build.sh`` or a wheel),
2. the path in the environment variable ``TRANSPARSE_LIBRARY``,
3. the system library path (``ctypes.util.find_library("transparse")``).

Every function gets ``argtypes`` and ``restype``, so that ctypes converts and
checks arguments instead of guessing. Pointers the library allocates are
declared as ``c_void_p`` (not ``c_char_p``), so that Python keeps the address
to hand back to the matching free function.
"""

import ctypes
import ctypes.util
import os
import pathlib

_HERE = pathlib.Path(__file__).resolve().parent
_LOCAL_NAMES = ("libtransparse.so.0", "libtransparse.so", "libtransparse.dylib")


def _load():
    tried = []
    for name in _LOCAL_NAMES:
        p = _HERE / name
        if p.exists():
            return ctypes.CDLL(str(p)), str(p)
        tried.append(str(p))
    env = os.environ.get("TRANSPARSE_LIBRARY")
    if env:
        try:
            return ctypes.CDLL(env), env
        except OSError as e:
            raise ImportError(f"transparse: cannot load TRANSPARSE_LIBRARY={env!r}: {e}") from e
    tried.append("$TRANSPARSE_LIBRARY (not set)")
    found = ctypes.util.find_library("transparse")
    if found:
        return ctypes.CDLL(found), found
    tried.append("find_library('transparse') (not found)")
    raise ImportError(
        "transparse: cannot find libtransparse; tried: " + ", ".join(tried)
        + ". Run ./build.sh in the repository, or set TRANSPARSE_LIBRARY to the .so path."
    )


lib, path = _load()

# ---- types -----------------------------------------------------------------

c_char_p_p = ctypes.POINTER(ctypes.c_char_p)
c_void_p_p = ctypes.POINTER(ctypes.c_void_p)
c_size_t_p = ctypes.POINTER(ctypes.c_size_t)


class tp_tags(ctypes.Structure):
    """struct tp_tags: four optional arrays of n_words C strings."""

    _fields_ = [
        ("upos", c_char_p_p),
        ("xpos", c_char_p_p),
        ("feats", c_char_p_p),
        ("lemma", c_char_p_p),
    ]


class tp_result(ctypes.Structure):
    """struct tp_result (library-allocated; free with tp_result_free)."""

    _fields_ = [
        ("n_words", ctypes.c_size_t),
        ("heads", ctypes.POINTER(ctypes.c_int32)),
        ("deprels", c_char_p_p),
        ("upos", c_char_p_p),
        ("xpos", c_char_p_p),
        ("lemma", c_char_p_p),
        ("feats", c_char_p_p),
        # Appended after feats (NULL and 0 unless tp_options asks for them).
        ("confidence", ctypes.POINTER(ctypes.c_double)),
        ("n_trees", ctypes.c_size_t),
        ("tree_heads", ctypes.POINTER(ctypes.c_int32)),
        ("tree_deprels", c_char_p_p),
        ("tree_scores", ctypes.POINTER(ctypes.c_double)),
    ]


class tp_options(ctypes.Structure):
    """struct tp_options: the options of every parse function (sentence
    members, then document members)."""

    _fields_ = [
        ("size", ctypes.c_size_t),
        ("beam", ctypes.c_int),
        ("kbest", ctypes.c_int),
        ("confidence", ctypes.c_int),
        ("temperature", ctypes.c_double),
        ("space_after", ctypes.POINTER(ctypes.c_ubyte)),
        ("input", ctypes.c_int),
        ("on_error", ctypes.c_int),
        ("no_tags", ctypes.c_int),
        ("threads", ctypes.c_int),
        # Document members of raw text, appended in 0.3.0.
        ("presegmented", ctypes.c_int),
        ("ranges", ctypes.c_int),
        ("tokenize_only", ctypes.c_int),
        # Sentence member, appended in 0.3.0.
        ("accurate", ctypes.c_int),
    ]


TP_INPUT_CONLLU = 0
TP_INPUT_TOKENS = 1
TP_INPUT_TEXT = 2
TP_RANGES_NONE = 0
TP_RANGES_BYTES = 1
TP_RANGES_CODEPOINTS = 2
TP_ON_ERROR_STOP = 0
TP_ON_ERROR_SKIP = 1

tp_result_p = ctypes.POINTER(tp_result)

# Opaque handles are passed as void*: tp_model*, tp_error*.
_model = ctypes.c_void_p
_err_out = c_void_p_p  # tp_error **err

# ---- status codes (enum tp_status) ------------------------------------------

TP_OK = 0
TP_ERR_ARGUMENT = 1
TP_ERR_INPUT = 2
TP_ERR_IO = 3
TP_ERR_MODEL_FORMAT = 4
TP_ERR_MODEL_VERSION = 5
TP_ERR_FORK = 6
TP_ERR_NOMEM = 7
TP_ERR_INTERNAL = 8
TP_ERR_CANCELED = 9

# ---- function declarations ---------------------------------------------------


def _declare(name, restype, *argtypes):
    f = getattr(lib, name)
    f.restype = restype
    f.argtypes = list(argtypes)
    return f


tp_version = _declare("tp_version", ctypes.c_char_p)
tp_version_number = _declare("tp_version_number", ctypes.c_uint)
tp_status_name = _declare("tp_status_name", ctypes.c_char_p, ctypes.c_int)

tp_error_code = _declare("tp_error_code", ctypes.c_int, ctypes.c_void_p)
tp_error_message = _declare("tp_error_message", ctypes.c_char_p, ctypes.c_void_p)
tp_error_free = _declare("tp_error_free", None, ctypes.c_void_p)
tp_string_free = _declare("tp_string_free", None, ctypes.c_void_p)

tp_model_load = _declare("tp_model_load", ctypes.c_int, ctypes.c_char_p, c_void_p_p, _err_out)
tp_model_load_from_memory = _declare(
    "tp_model_load_from_memory", ctypes.c_int, ctypes.c_char_p, ctypes.c_size_t, c_void_p_p, _err_out
)
tp_model_free = _declare("tp_model_free", ctypes.c_int, _model)
tp_model_card_json = _declare("tp_model_card_json", ctypes.c_int, _model, c_void_p_p, _err_out)
tp_model_deprels = _declare(
    "tp_model_deprels", ctypes.c_int, _model, ctypes.POINTER(c_char_p_p), c_size_t_p, _err_out
)
tp_model_upos_tags = _declare(
    "tp_model_upos_tags", ctypes.c_int, _model, ctypes.POINTER(c_char_p_p), c_size_t_p, _err_out
)
tp_model_xpos_tags = _declare(
    "tp_model_xpos_tags", ctypes.c_int, _model, ctypes.POINTER(c_char_p_p), c_size_t_p, _err_out
)
tp_model_default_beam = _declare(
    "tp_model_default_beam", ctypes.c_int, _model, ctypes.POINTER(ctypes.c_int), _err_out
)

_options_p = ctypes.POINTER(tp_options)
tp_parse = _declare(
    "tp_parse", ctypes.c_int, _model, c_char_p_p, ctypes.c_size_t, ctypes.POINTER(tp_tags), _options_p,
    ctypes.POINTER(tp_result_p), _err_out,
)
tp_parse_batch = _declare(
    "tp_parse_batch", ctypes.c_int, _model, c_char_p_p, c_size_t_p, ctypes.c_size_t, ctypes.POINTER(tp_tags),
    _options_p, ctypes.POINTER(tp_result_p), _err_out,
)
tp_result_free = _declare("tp_result_free", None, tp_result_p)
tp_parse_document = _declare(
    "tp_parse_document", ctypes.c_int, _model, ctypes.c_char_p, ctypes.c_size_t, _options_p, c_void_p_p, c_size_t_p,
    c_size_t_p, _err_out,
)

# tp_read_fn: ptrdiff_t (*)(void *ctx, char *buf, size_t cap).
tp_read_fn = ctypes.CFUNCTYPE(ctypes.c_ssize_t, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t)

tp_stream_open = _declare(
    "tp_stream_open", ctypes.c_int, _model, tp_read_fn, ctypes.c_void_p, _options_p, c_void_p_p, _err_out,
)
tp_stream_next = _declare("tp_stream_next", ctypes.c_int, ctypes.c_void_p, c_void_p_p, c_size_t_p, _err_out)
tp_stream_stats = _declare("tp_stream_stats", ctypes.c_int, ctypes.c_void_p, c_size_t_p, c_size_t_p, _err_out)
tp_stream_free = _declare("tp_stream_free", ctypes.c_int, ctypes.c_void_p)
tp_systems = _declare("tp_systems", ctypes.c_int, c_void_p_p, _err_out)
tp_train = _declare("tp_train", ctypes.c_int, ctypes.c_char_p, c_void_p_p, _err_out)
tp_model_save = _declare("tp_model_save", ctypes.c_int, _model, ctypes.c_char_p, _err_out)
# The path is owned by the library (c_char_p copies it); None when none.
tp_default_model_path = _declare("tp_default_model_path", ctypes.c_char_p)


class tp_progress(ctypes.Structure):
    """struct tp_progress of transparse.h."""

    _fields_ = [
        ("phase", ctypes.c_char_p),
        ("epoch", ctypes.c_int),
        ("epochs", ctypes.c_int),
        ("done", ctypes.c_int64),
        ("total", ctypes.c_int64),
        ("epoch_end", ctypes.c_int),
        ("dev_uas", ctypes.c_double),
        ("dev_las", ctypes.c_double),
        ("best", ctypes.c_int),
    ]


tp_progress_fn = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(tp_progress), ctypes.c_void_p)
tp_train_with_progress = _declare(
    "tp_train_with_progress", ctypes.c_int, ctypes.c_char_p, tp_progress_fn, ctypes.c_void_p, c_void_p_p, _err_out
)


tp_render_svg = _declare(
    "tp_render_svg", ctypes.c_int, ctypes.c_char_p, ctypes.c_size_t, c_void_p_p, c_size_t_p, _err_out
)

# Limits (TP_MAX_WORDS, TP_MAX_TOKEN_BYTES, TP_MAX_BATCH_WORDS, TP_MAX_BEAM in
# transparse.h).
MAX_WORDS = 10000
MAX_TOKEN_BYTES = 1024
MAX_BATCH_WORDS = 1000000
MAX_BEAM = 64  # TP_MAX_BEAM

# ---- the transition systems as an engine -------------------------------------

_system = ctypes.c_void_p  # tp_system*
_state = ctypes.c_void_p  # tp_state*
_i32_p = ctypes.POINTER(ctypes.c_int32)
tp_system_new = _declare(
    "tp_system_new", ctypes.c_int, ctypes.c_char_p, c_char_p_p, ctypes.c_size_t, c_void_p_p, _err_out
)
tp_system_free = _declare("tp_system_free", ctypes.c_int, _system)
tp_system_classes = _declare("tp_system_classes", ctypes.c_int, _system, c_void_p_p, _err_out)
tp_system_max_transitions = _declare(
    "tp_system_max_transitions", ctypes.c_int, _system, ctypes.c_size_t, c_size_t_p, _err_out
)
tp_system_oracle = _declare(
    "tp_system_oracle", ctypes.c_int, _system, _i32_p, _i32_p, ctypes.c_size_t, _i32_p, ctypes.c_size_t,
    c_size_t_p, _err_out,
)


class tp_oracle_doc(ctypes.Structure):
    _fields_ = [
        ("n_sentences", ctypes.c_size_t),
        ("n_words", c_size_t_p),
        ("in_class", ctypes.POINTER(ctypes.c_uint8)),
        ("offsets", c_size_t_p),
        ("classes", _i32_p),
    ]


tp_system_oracle_document = _declare(
    "tp_system_oracle_document", ctypes.c_int, _system, ctypes.c_char_p, ctypes.c_size_t,
    ctypes.POINTER(ctypes.POINTER(tp_oracle_doc)), _err_out,
)
tp_oracle_doc_free = _declare("tp_oracle_doc_free", None, ctypes.POINTER(tp_oracle_doc))
tp_system_decode = _declare(
    "tp_system_decode", ctypes.c_int, _system, _i32_p, _i32_p, ctypes.c_size_t, _i32_p, _i32_p, _err_out
)
tp_state_new = _declare("tp_state_new", ctypes.c_int, _system, ctypes.c_size_t, c_void_p_p, _err_out)
tp_state_copy = _declare("tp_state_copy", ctypes.c_int, _state, c_void_p_p, _err_out)
tp_state_free = _declare("tp_state_free", ctypes.c_int, _state)
tp_state_legal = _declare(
    "tp_state_legal", ctypes.c_int, _state, ctypes.POINTER(ctypes.c_uint8), ctypes.c_size_t, _err_out
)
tp_state_apply = _declare("tp_state_apply", ctypes.c_int, _state, ctypes.c_size_t, _err_out)
tp_state_is_terminal = _declare("tp_state_is_terminal", ctypes.c_int, _state, ctypes.POINTER(ctypes.c_int), _err_out)
tp_state_view = _declare(
    "tp_state_view", ctypes.c_int, _state, ctypes.c_int, _i32_p, ctypes.c_size_t, c_size_t_p, _err_out
)
tp_state_cost = _declare(
    "tp_state_cost", ctypes.c_int, _state, _i32_p, _i32_p, ctypes.c_size_t, ctypes.c_size_t,
    ctypes.POINTER(ctypes.c_int), _err_out,
)
tp_state_apply_deprel = _declare("tp_state_apply_deprel", ctypes.c_int, _state, ctypes.c_size_t, ctypes.c_int32, _err_out)
tp_state_features = _declare(
    "tp_state_features", ctypes.c_int, ctypes.c_void_p, ctypes.c_int, _state, c_char_p_p, ctypes.POINTER(tp_tags),
    ctypes.c_size_t, ctypes.POINTER(ctypes.c_uint64), ctypes.c_size_t, c_size_t_p, _err_out,
)
tp_state_scores = _declare(
    "tp_state_scores", ctypes.c_int, ctypes.c_void_p, ctypes.c_int, _state, c_char_p_p, ctypes.POINTER(tp_tags),
    ctypes.c_size_t, ctypes.POINTER(ctypes.c_float), ctypes.c_size_t, _err_out,
)
TP_SCORER_GOLD = 0
TP_SCORER_GOLD_FAST = 1
TP_SCORER_GREEDY = 2
TP_VIEW_STACK = 0
TP_VIEW_BUFFER = 1
TP_VIEW_HEADS = 2
TP_VIEW_DEPRELS = 3
