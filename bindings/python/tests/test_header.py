"""The header is the one declaration of the C API: the ctypes table of
transparse._lib must declare every TP_API function of include/transparse.h,
and nothing else, with the same number of arguments and ctypes types that
match the C types; its structs have the header's members in the header's
order, and its constants the header's values."""

import ctypes
import re

from conftest import REPO
from transparse import _lib

HEADER = REPO / "include" / "transparse.h"

P = ctypes.POINTER
# The ctypes types _lib may declare for each C type of the header (after
# whitespace is normalised): pointers the library allocates are c_void_p so
# that Python keeps the address for the free function.
CTYPES = {
    "void": {None},
    "int": {ctypes.c_int},
    "unsigned": {ctypes.c_uint},
    "size_t": {ctypes.c_size_t},
    "const char *": {ctypes.c_char_p},
    "char *": {ctypes.c_void_p},
    "char **": {P(ctypes.c_void_p)},
    "const char **": {P(ctypes.c_void_p)},
    "const char *const *": {P(ctypes.c_char_p)},
    "const char *const **": {P(P(ctypes.c_char_p))},
    "void *": {ctypes.c_void_p},
    "const void *": {ctypes.c_char_p, ctypes.c_void_p},
    "int *": {P(ctypes.c_int)},
    "size_t *": {P(ctypes.c_size_t)},
    "const size_t *": {P(ctypes.c_size_t)},
    "tp_model *": {ctypes.c_void_p},
    "const tp_model *": {ctypes.c_void_p},
    "tp_model **": {P(ctypes.c_void_p)},
    "tp_stream *": {ctypes.c_void_p},
    "const tp_stream *": {ctypes.c_void_p},
    "tp_stream **": {P(ctypes.c_void_p)},
    "tp_error *": {ctypes.c_void_p},
    "const tp_error *": {ctypes.c_void_p},
    "tp_error **": {P(ctypes.c_void_p)},
    "tp_result *": {P(_lib.tp_result)},
    "tp_result **": {P(P(_lib.tp_result))},
    "const tp_tags *": {P(_lib.tp_tags)},
    "const tp_options *": {P(_lib.tp_options)},
    "tp_read_fn": {_lib.tp_read_fn},
    "tp_progress_fn": {_lib.tp_progress_fn},
    "int32_t *": {P(ctypes.c_int32)},
    "const int32_t *": {P(ctypes.c_int32)},
    "uint8_t *": {P(ctypes.c_uint8)},
    "tp_system *": {ctypes.c_void_p},
    "const tp_system *": {ctypes.c_void_p},
    "tp_system **": {P(ctypes.c_void_p)},
    "tp_state *": {ctypes.c_void_p},
    "const tp_state *": {ctypes.c_void_p},
    "tp_state **": {P(ctypes.c_void_p)},
}


def header_text():
    text = HEADER.read_text(encoding="utf-8")
    return re.sub(r"/\*.*?\*/", " ", text, flags=re.S)


def c_type(decl):
    """The type of a declaration "TYPE NAME" (or a bare type), normalised:
    "const char *const *names" -> "const char *const *"."""
    decl = " ".join(decl.split())
    m = re.match(r"^(.*?)([A-Za-z_][A-Za-z_0-9]*)?$", decl)
    typ, name = m.group(1).strip(), m.group(2)
    if not typ or (name and typ.endswith("const")):  # a bare type such as "size_t"
        typ = decl
    return re.sub(r"\s*\*\s*", " *", typ).replace(" *const", " *const").replace("* *", "**").strip()


def prototypes():
    """name -> (return type, [argument types]) of every TP_API function."""
    out = {}
    for m in re.finditer(r"TP_API\s+([^;(]*?)\b(tp_[a-z_0-9]+)\s*\(([^)]*)\)\s*;", header_text()):
        args = [a for a in (x.strip() for x in m.group(3).split(",")) if a]
        if args == ["void"]:
            args = []
        out[m.group(2)] = (c_type(m.group(1)), [c_type(a) for a in args])
    return out


def declared():
    """name -> ctypes function of _lib's table."""
    return {name: f for name, f in vars(_lib).items()
            if name.startswith("tp_") and isinstance(f, ctypes._CFuncPtr)}


def test_c_type():
    assert c_type("const char *const *forms") == "const char *const *"
    assert c_type("const char *const **labels") == "const char *const **"
    assert c_type("size_t n_words") == "size_t"
    assert c_type("tp_error **err") == "tp_error **"
    assert c_type("const tp_options *options") == "const tp_options *"
    assert c_type("tp_read_fn read") == "tp_read_fn"


def test_every_function_declared_with_the_header_types():
    protos, table = prototypes(), declared()
    assert len(protos) >= 20, protos  # the parse above found the API
    assert sorted(protos) == sorted(table), "header and _lib.py declare different functions"
    for name, (ret, args) in protos.items():
        f = table[name]
        assert ret in CTYPES, f"{name}: unknown C type {ret!r}"
        assert f.restype in CTYPES[ret], f"{name}: returns {ret}, _lib says {f.restype}"
        assert len(f.argtypes) == len(args), f"{name}: {len(args)} arguments, _lib has {len(f.argtypes)}"
        for i, (c, py) in enumerate(zip(args, f.argtypes)):
            assert c in CTYPES, f"{name}: argument {i}: unknown C type {c!r}"
            assert py in CTYPES[c], f"{name}: argument {i} is {c}, _lib says {py}"


def struct_members(name):
    m = re.search(r"typedef struct %s \{(.*?)\} %s;" % (name, name), header_text(), re.S)
    assert m, name
    members = []
    for decl in m.group(1).split(";"):
        decl = decl.strip()
        if decl:
            # "int epoch, epochs" declares two members.
            first, *more = [d.strip() for d in decl.split(",")]
            members.append(re.search(r"([A-Za-z_0-9]+)$", first).group(1))
            members.extend(more)
    return members


def test_structs_have_the_header_members():
    for name in ("tp_tags", "tp_result", "tp_options", "tp_progress"):
        cls = getattr(_lib, name)
        assert [f[0] for f in cls._fields_] == struct_members(name), name


def test_constants_have_the_header_values():
    text = header_text()
    for name in ("TP_INPUT_CONLLU", "TP_INPUT_TOKENS", "TP_INPUT_TEXT", "TP_ON_ERROR_STOP", "TP_ON_ERROR_SKIP",
                 "TP_RANGES_NONE", "TP_RANGES_BYTES", "TP_RANGES_CODEPOINTS"):
        m = re.search(r"#define %s (\d+)" % name, text)
        assert m and int(m.group(1)) == getattr(_lib, name), name
    for name, value in re.findall(r"\b(TP_(?:OK|ERR_[A-Z_]+)) = (\d+)", text):
        assert getattr(_lib, name) == int(value), name
    for name, lib_name in (("TP_MAX_WORDS", "MAX_WORDS"), ("TP_MAX_TOKEN_BYTES", "MAX_TOKEN_BYTES"),
                           ("TP_MAX_BATCH_WORDS", "MAX_BATCH_WORDS"), ("TP_MAX_BEAM", "MAX_BEAM")):
        assert int(re.search(r"#define %s (\d+)" % name, text).group(1)) == getattr(_lib, lib_name), name
