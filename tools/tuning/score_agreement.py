#!/usr/bin/env python3
"""How well engines' scores of positions agree with reference scores.

Both inputs are `label_positions.py score` outputs (game<TAB>result<TAB>score
<TAB>FEN, scores in centipawns from red's view) of the same positions in the
same order: the reference (say Chariot's own search at depth 14) and one
file per engine, evaluation and depth to compare. For each file this prints

  - Spearman's rank correlation with the reference scores (scale-free), and
  - the mean squared error between sigmoid(K x score) and
    sigmoid(Kref x reference), with the compared file's K fitted (its
    centipawns need not be the reference's).

sigmoid(x) = 1 / (1 + 10^(-x/400)), shared with label_positions.py.
Example: how close the handcrafted evaluation's and the net's depth-6
searches come to a depth-14 search of the same positions:

    python3 tools/tuning/selfplay_scores.py --every 50 --max-positions 3000 games.data --out sample.tsv
    cut -f1,2,4 sample.tsv > pos.tsv
    python3 tools/tuning/label_positions.py score --engine build/chariot --proto ucci \\
        --option usebook=false --depth 14 --jobs 2 pos.tsv ref.tsv
    python3 tools/tuning/label_positions.py blend --weight 1.0 ref.tsv /dev/null   # prints the reference's K
    python3 tools/tuning/label_positions.py score --engine build/chariot --proto ucci \\
        --option usebook=false --option usennue=false --depth 6 --jobs 2 pos.tsv hce6.tsv
    python3 tools/tuning/label_positions.py score --engine build/chariot --proto ucci \\
        --option usebook=false --depth 6 --jobs 2 pos.tsv nnue6.tsv
    python3 tools/tuning/score_agreement.py --kref K ref.tsv hce6.tsv nnue6.tsv
"""
import argparse
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from label_positions import fit_k, sigmoid  # noqa: E402


def scores(path):
    out = []
    with open(path) as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if len(parts) < 4:
                sys.exit(f"{path}: expected game, result, score, FEN per line")
            out.append((int(parts[2]), parts[3]))
    return out


def ranks(values):
    order = sorted(range(len(values)), key=lambda i: values[i])
    r = [0.0] * len(values)
    i = 0
    while i < len(order):  # ties share their mean rank
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2.0
        i = j + 1
    return r


def spearman(a, b):
    ra, rb = ranks(a), ranks(b)
    n = len(a)
    ma, mb = sum(ra) / n, sum(rb) / n
    cov = sum((x - ma) * (y - mb) for x, y in zip(ra, rb))
    va = sum((x - ma) ** 2 for x in ra)
    vb = sum((y - mb) ** 2 for y in rb)
    return cov / math.sqrt(va * vb) if va > 0 and vb > 0 else float("nan")


def best_k(values, targets):
    def err(k):
        return sum((sigmoid(v, k) - t) ** 2 for v, t in zip(values, targets)) / len(values)
    k = fit_k(err)
    return err(k), k


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("reference")
    ap.add_argument("scored", nargs="+")
    ap.add_argument("--kref", type=float, default=0.9528,
                    help="the reference scores' sigmoid scale, fitted to the game results by "
                         "label_positions.py blend (default 0.9528)")
    a = ap.parse_args()
    ref = scores(a.reference)
    targets = [sigmoid(s, a.kref) for s, _ in ref]
    print(f"{'file':40} {'spearman':>9} {'mse':>9} {'K':>6}")
    for path in a.scored:
        got = scores(path)
        if len(got) != len(ref) or any(g[1].split()[:2] != r[1].split()[:2] for g, r in zip(got, ref)):
            sys.exit(f"{path}: not the reference's positions in the reference's order")
        values = [s for s, _ in got]
        mse, k = best_k(values, targets)
        print(f"{path:40} {spearman(values, [s for s, _ in ref]):9.4f} {mse:9.5f} {k:6.3f}")


if __name__ == "__main__":
    main()
