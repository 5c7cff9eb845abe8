#!/usr/bin/env python3
"""Cut the UD EWT test fixture from the released dev file.

    python3 testdata/ud/cut.py SRC/en_ewt-ud-dev.conllu > testdata/ud/en_ewt-dev-slice.conllu

Keeps the first FIRST sentences of the file, then the first EXTRA
non-projective sentences after them, each unchanged (comments, multiword
tokens and empty nodes included), in file order.
"""
import sys

FIRST, EXTRA = 160, 12


def sentences(path):
    block = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                block.append(line)
            elif block:
                yield block
                block = []
    if block:
        yield block


def projective(block):
    arcs = []
    for line in block:
        cols = line.split("\t")
        if line.startswith("#") or not cols[0].isdigit():
            continue
        d, h = int(cols[0]), int(cols[6])
        arcs.append((min(d, h), max(d, h)))
    for a, b in arcs:
        for c, d in arcs:
            if a < c < b < d:
                return False
    return True


def main():
    extra = 0
    for k, block in enumerate(sentences(sys.argv[1])):
        if k < FIRST or (extra < EXTRA and not projective(block)):
            if k >= FIRST:
                extra += 1
            sys.stdout.write("".join(block) + "\n")
        elif k >= FIRST and extra >= EXTRA:
            break


if __name__ == "__main__":
    main()
