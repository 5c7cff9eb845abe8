"""Write the English Brown clusters of a spacy-lookups-data wheel as a
Brown "paths" file (path<TAB>word<TAB>count, one word a line).

    python3 paths.py WHEEL WORDS > en.paths

Keeps the WORDS words of highest probability (en_lexeme_prob) that have a
cluster and no whitespace. spaCy stores a word's path as an integer whose
binary digits, read from the lowest, are the path (its cluster 0 means
none); the count column is the probability's rank. Used by fetch.sh.
"""
import gzip
import json
import sys
import zipfile


def table(wheel, name):
    with zipfile.ZipFile(wheel) as z:
        with z.open("spacy_lookups_data/data/" + name) as f:
            return json.loads(gzip.decompress(f.read()))


def main():
    wheel, words = sys.argv[1], int(sys.argv[2])
    clusters = table(wheel, "en_lexeme_cluster.json.gz")
    prob = table(wheel, "en_lexeme_prob.json.gz")
    ranked = sorted(
        (w for w, c in clusters.items() if c > 0 and w and not any(ch.isspace() for ch in w)),
        key=lambda w: (-prob.get(w, -100.0), w),
    )
    out = sys.stdout
    for rank, w in enumerate(ranked[:words], 1):
        path = bin(clusters[w])[2:][::-1]
        out.write(f"{path}\t{w}\t{rank}\n")


if __name__ == "__main__":
    main()
