"""Pictures of trees: Sentence.to_svg and its Jupyter reprs (drawn by the
library's tp_render_svg), and what a browser shows of them."""

import math
import os
import pathlib
import shutil
import subprocess
import tempfile
import xml.etree.ElementTree as ET

import pytest

import transparse
from conftest import EWT_TEST, REPO
from pngread import pixels

SVG_NS = "{http://www.w3.org/2000/svg}"
SAMPLE = REPO / "render" / "testdata" / "ewt-dev-sample.conllu"


def texts(svg):
    """The texts of the picture by role: forms, UPOS tags, DEPREL labels."""
    root = ET.fromstring(svg)
    assert root.tag == SVG_NS + "svg"
    out = {"form": [], "upos": [], "deprels": []}
    for g in root.iter(SVG_NS + "g"):
        if g.get("class") == "deprels":
            out["deprels"] = [t.text for t in g.iter(SVG_NS + "text")]
    for t in root.iter(SVG_NS + "text"):
        if t.get("class") in ("form", "upos"):
            out[t.get("class")].append(t.text)
    return out


def gold_sentences(path):
    """The sentences of a CoNLL-U file as text, one string each."""
    return [s + "\n\n" for s in path.read_text(encoding="utf-8").strip("\n").split("\n\n")]


def columns(conllu):
    rows = [line.split("\t") for line in conllu.splitlines() if line and line.split("\t")[0].isdigit()]
    return [r[1] for r in rows], [r[3] for r in rows], [r[7] for r in rows]


def test_to_svg_draws_every_word_tag_and_label(model):
    sent = model.parse("The quick brown fox jumps over the lazy dog .".split())
    t = texts(sent.to_svg())
    assert t["form"] == [tok.form for tok in sent]
    assert t["upos"] == [tok.upos for tok in sent]
    assert t["deprels"] == [tok.deprel for tok in sent]
    assert sent._repr_svg_() == sent.to_svg()
    html = sent._repr_html_()
    assert sent.to_svg() in html and html.startswith("<div")


def test_render_svg_of_gold_sentences():
    for text in gold_sentences(SAMPLE):
        forms, upos, deprels = columns(text)
        t = texts(transparse.render_svg(text))
        assert (t["form"], t["upos"], t["deprels"]) == (forms, upos, deprels)


def test_render_svg_escapes_markup():
    text = "1\t<b>&amp;\t_\tSYM\t_\t_\t0\troot\t_\t_\n2\t\"x\"\t_\tX\t_\t_\t1\tdep\t_\t_\n\n"
    assert texts(transparse.render_svg(text))["form"] == ["<b>&amp;", '"x"']


@pytest.mark.parametrize("text, message", [
    ("", "has no sentence"),
    ("1\ta\n", "text:1"),
    ("1\ta\t_\t_\t_\t_\t0\troot\t_\t_\n\n" * 2, "more than one sentence"),
])
def test_render_svg_errors(text, message):
    with pytest.raises(transparse.InputError) as e:
        transparse.render_svg(text)
    assert message in str(e.value) and str(e.value).startswith("tp_render_svg: ")


# ---- as a person sees it ------------------------------------------------------


def chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    if os.environ.get("CI"):
        pytest.fail("chromium is not installed (.ci/run installs it)")
    pytest.skip("needs chromium (apt-get install chromium)")


def screenshot(browser, svg_path, png_path, width, height):
    profile = tempfile.mkdtemp()
    try:
        return subprocess.Popen(
            [browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             "--hide-scrollbars", f"--user-data-dir={profile}", f"--screenshot={png_path}",
             f"--window-size={width},{height}", svg_path.as_uri()],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True), profile
    except OSError as e:
        shutil.rmtree(profile, ignore_errors=True)
        pytest.fail(f"cannot start {browser}: {e}")


def test_chromium_shows_the_trees(model, tmp_path):
    browser = chromium()
    # A gold non-projective tree, and the parser's tree of an EWT test
    # sentence (the treebank, when it is there; else a second gold tree).
    gold = gold_sentences(SAMPLE)
    cases = {"gold": gold[2]}
    if EWT_TEST.exists():
        cases["parsed"] = model.parse_document(gold_sentences(EWT_TEST)[4])
    else:
        cases["parsed"] = model.parse_document(gold[0])
    jobs = []
    for name, text in cases.items():
        svg = transparse.render_svg(text)
        root = ET.fromstring(svg)
        w, h = math.ceil(float(root.get("width"))), math.ceil(float(root.get("height")))
        svg_path, png_path = tmp_path / f"{name}.svg", tmp_path / f"{name}.png"
        svg_path.write_text(svg, encoding="utf-8")
        proc, profile = screenshot(browser, svg_path, png_path, w, h)
        jobs.append((name, text, svg, w, h, png_path, proc, profile))
    for name, text, svg, w, h, png_path, proc, profile in jobs:
        try:
            out, _ = proc.communicate(timeout=120)
        finally:
            shutil.rmtree(profile, ignore_errors=True)
        assert proc.returncode == 0 and png_path.exists(), f"{name}: chromium failed:\n{out}"

        # Every word, tag and label is text of the picture.
        forms, upos, deprels = columns(text)
        t = texts(svg)
        assert (t["form"], t["upos"], t["deprels"]) == (forms, upos, deprels), name

        # The picture is not blank: ink (dark: arcs and words), blue (the
        # DEPREL labels) and brown (the UPOS tags), spread over the width.
        n = ink = blue = brown = 0
        cols = set()
        for x, y, r, g, b in pixels(png_path):
            n += 1
            if r < 120 and g < 120 and b < 120:
                ink += 1
                cols.add(x * 10 // w)
            if b > r + 60 and b > g + 30:
                blue += 1
            if r > b + 60 and g > b + 20:
                brown += 1
        assert n == w * h, f"{name}: screenshot is not {w}x{h}"
        assert 0.005 * n < ink < 0.5 * n, f"{name}: {ink} dark pixels of {n}"
        assert blue > 20 * len(deprels) and brown > 20 * len(upos), f"{name}: {blue} blue, {brown} brown pixels"
        assert cols == set(range(10)), f"{name}: ink only in tenths {sorted(cols)} of the width"


def test_tp_render_svg_null_arguments():
    from transparse import _lib
    import ctypes

    def call(text, out):
        err = ctypes.c_void_p()
        rc = _lib.tp_render_svg(text, 0, out, None, ctypes.byref(err))
        msg = _lib.tp_error_message(err).decode()
        _lib.tp_error_free(err)
        return rc, msg

    out = ctypes.c_void_p()
    assert call(None, ctypes.byref(out)) == (_lib.TP_ERR_ARGUMENT, "tp_render_svg: text is NULL")
    assert out.value is None
    assert call(b"", None) == (_lib.TP_ERR_ARGUMENT, "tp_render_svg: out_svg is NULL")
