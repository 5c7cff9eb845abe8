#!/usr/bin/env python3
"""The raw text of a CoNLL-U treebank, as UD's own .txt files are made.

usage: ud_text.py FILE.conllu [FILE.conllu ...] > FILE.txt
       ud_text.py < FILE.conllu > FILE.txt

This follows conllu_to_text.pl of UD's tools (the script that makes the
raw text of the CoNLL 2018 shared task and of UD releases), for languages
that separate words with spaces:

  - each sentence contributes its "# text =" line; a sentence without one
    contributes its tokens' FORMs (a multiword token's FORM, not its words'),
    separated by a space unless the token has SpaceAfter=No in MISC;
  - the sentences of a paragraph are joined by one space;
  - a "# newpar" or "# newdoc" comment starts a new paragraph: a blank line
    separates paragraphs. A treebank with neither is one paragraph;
  - a paragraph is broken into lines of at most 80 characters at the last
    whitespace before the limit (a longer word gets a line of its own).

Paragraph starts inside a sentence (NewPar=Yes in MISC) are not marked: the
"# text" line is the sentence's text. The output is UTF-8 and ends with a
newline. With the whitespace removed it is the concatenation of the FORMs
of the tokens, which is what the CoNLL 2018 scorer compares.
"""

import re
import sys

LIMIT = 80
TEXT = re.compile(r"^#\s*text\s*=\s*(.+)$")
NEWPAR = re.compile(r"^#\s*newpar(\s|$)", re.I)
NEWDOC = re.compile(r"^#\s*newdoc(\s|$)", re.I)


def sentences(lines):
    """Yields (text, starts a paragraph) for each sentence of lines."""
    text, newpar, forms, mwt_last = None, False, [], 0
    for line in lines:
        line = line.rstrip("\r\n")
        if not line.strip():
            if forms or text is not None:
                yield (text if text is not None else "".join(forms).rstrip()), newpar
            text, newpar, forms, mwt_last = None, False, [], 0
            continue
        if line.startswith("#"):
            m = TEXT.match(line)
            if m:
                text = m.group(1)
            elif NEWPAR.match(line) or NEWDOC.match(line):
                newpar = True
            continue
        cols = line.split("\t")
        if len(cols) < 10 or "." in cols[0]:
            continue
        first, _, last = cols[0].partition("-")
        if not first.isdigit() or (last and not last.isdigit()):
            continue
        if last:
            mwt_last = int(last)
        elif int(first) <= mwt_last:
            continue
        space = "" if "SpaceAfter=No" in cols[9].split("|") else " "
        forms.append(cols[1] + space)
    if forms or text is not None:
        yield (text if text is not None else "".join(forms).rstrip()), newpar


def wrap(buffer, out):
    """Writes the complete lines of buffer and returns the rest."""
    while len(buffer) >= LIMIT:
        last_space = None
        for i, c in enumerate(buffer):
            if i > LIMIT and last_space is not None:
                break
            if c.isspace():
                last_space = i
        if last_space:
            out.write(buffer[:last_space] + "\n")
            buffer = buffer[last_space + 1:]
        else:
            out.write(buffer + "\n")
            buffer = ""
    return buffer


def convert(lines, out):
    """Writes the text of the CoNLL-U lines to out."""
    buffer, start = "", True
    for text, newpar in sentences(lines):
        if newpar and not start:
            if buffer:
                out.write(buffer + "\n")
                buffer = ""
            out.write("\n")
        buffer = (buffer + " " if buffer else "") + text
        buffer = wrap(buffer, out)
        start = False
    if buffer:
        out.write(buffer + "\n")


def main(argv):
    if any(a in ("-h", "--help") for a in argv[1:]):
        print(__doc__.strip())
        return 0
    sys.stdout.reconfigure(encoding="utf-8", newline="\n")
    if len(argv) == 1:
        sys.stdin.reconfigure(encoding="utf-8")
        convert(sys.stdin, sys.stdout)
        return 0
    lines = []
    for path in argv[1:]:
        try:
            with open(path, encoding="utf-8") as f:
                lines.extend(f)
        except OSError as e:
            print(f"ud_text.py: {e}", file=sys.stderr)
            return 1
        lines.append("\n")
    convert(lines, sys.stdout)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv))
    except BrokenPipeError:
        sys.stderr.close()  # the reader stopped early, as head does
        sys.exit(1)
