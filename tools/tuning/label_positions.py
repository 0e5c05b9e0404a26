#!/usr/bin/env python3
"""Label training positions with a deeper search's score, for `chariot tune --labels`.

The scores come from Chariot's own search: the project takes no labels from
other engines (they are opponents, never teachers).

Two steps:

  score   reads `chariot tune --dump` output (game<TAB>result<TAB>FEN lines),
          has one or more copies of Chariot (UCCI or UCI) search each
          position to a fixed depth, and writes game<TAB>result<TAB>score<TAB>FEN
          with the score in centipawns from red's view (mates as +-3000).
          A book move comes with no score: turn the engine's book off.
          Positions are split into contiguous chunks, one per worker, so that a
          worker meets the positions of a game in order and its hash helps.
  blend   fits the scale K of 1 / (1 + 10^(-K score / 400)) to the game results,
          then writes game<TAB>label<TAB>FEN with
          label = w * sigmoid(score) + (1 - w) * result.

Example:
  chariot tune --dump pos.tsv --dump-every 8 games/*.pgn
  label_positions.py score --engine build/chariot --proto ucci --option usebook=false \\
      --depth 10 --jobs 2 pos.tsv scored.tsv
  label_positions.py blend --weight 0.5 scored.tsv labels.tsv
  chariot tune --labels labels.tsv --out eval_weights.h
"""
import argparse
import math
import multiprocessing
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from engine_client import EngineClient  # noqa: E402  (tools/engine_client.py)


def sigmoid(score, k):
    """The expected score of a centipawn value on scale K."""
    return 1.0 / (1.0 + 10.0 ** (-k * score / 400.0))


def fit_k(err, lo=0.05, hi=5.0):
    """The K in [lo, hi] minimising err(K), by golden-section search."""
    g = (math.sqrt(5) - 1) / 2
    for _ in range(40):
        m1, m2 = hi - g * (hi - lo), lo + g * (hi - lo)
        if err(m1) < err(m2):
            hi = m2
        else:
            lo = m1
    return (lo + hi) / 2


def score_chunk(args):
    lines, engine, proto, options, depth, worker, out_path = args
    e = EngineClient(engine, proto, options)
    start = time.time()
    with open(out_path, "w") as out:
        for n, line in enumerate(lines):
            game, result, fen = line.rstrip("\n").split("\t")
            s = e.score(fen, depth=depth)
            if s is None:
                continue
            if fen.split()[1] == "b":
                s = -s
            out.write(f"{game}\t{result}\t{s}\t{fen}\n")
            if worker == 0 and n % 5000 == 4999:
                rate = (n + 1) / (time.time() - start)
                print(f"  worker 0: {n + 1} of {len(lines)} positions, {rate:.0f}/s", flush=True)
    e.close()
    return out_path


def cmd_score(a):
    with open(a.input) as f:
        lines = [l for l in f if l.strip() and not l.startswith("#")]
    if a.limit:
        lines = lines[: a.limit]
    options = [tuple(o.split("=", 1)) for o in a.option]
    size = (len(lines) + a.jobs - 1) // a.jobs
    parts = [(lines[i * size:(i + 1) * size], a.engine, a.proto, options, a.depth, i, f"{a.output}.part{i}")
             for i in range(a.jobs)]
    start = time.time()
    with multiprocessing.Pool(a.jobs) as pool:
        paths = pool.map(score_chunk, parts)
    with open(a.output, "w") as out:
        for p in paths:
            with open(p) as f:
                out.write(f.read())
    print(f"scored {len(lines)} positions at depth {a.depth} in {time.time() - start:.0f} s -> {a.output}")


def cmd_blend(a):
    rows = []
    with open(a.input) as f:
        for line in f:
            game, result, score, fen = line.rstrip("\n").split("\t")
            rows.append((int(game), float(result), int(score), fen))
    if not rows:
        sys.exit("blend: no scored positions")

    def err(k):
        return sum((r - sigmoid(s, k)) ** 2 for _, r, s, _ in rows) / len(rows)

    k = a.k if a.k else fit_k(err)
    print(f"K = {k:.4f} (error of the engine's scores against the results {err(k):.6f}, {len(rows)} positions)")
    with open(a.output, "w") as out:
        for game, result, score, fen in rows:
            label = a.weight * sigmoid(score, k) + (1 - a.weight) * result
            out.write(f"{game}\t{label:.4f}\t{fen}\n")
    print(f"wrote {a.output} (label = {a.weight} x engine + {1 - a.weight:.2f} x result)")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("score", help="search every position to a fixed depth")
    s.add_argument("--engine", required=True)
    s.add_argument("--proto", choices=["uci", "ucci"], default="ucci")
    s.add_argument("--option", action="append", default=[], help="NAME=VALUE, may be repeated")
    s.add_argument("--depth", type=int, default=8)
    s.add_argument("--jobs", type=int, default=1)
    s.add_argument("--limit", type=int, default=0, help="only the first N positions")
    s.add_argument("input")
    s.add_argument("output")
    b = sub.add_parser("blend", help="turn scores into labels")
    b.add_argument("--weight", type=float, default=0.5, help="share of the engine's score in the label")
    b.add_argument("--k", type=float, default=0.0, help="use this K instead of fitting it")
    b.add_argument("input")
    b.add_argument("output")
    a = ap.parse_args()
    cmd_score(a) if a.cmd == "score" else cmd_blend(a)


if __name__ == "__main__":
    main()
