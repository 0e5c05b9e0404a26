#!/usr/bin/python3
"""How well nets' evaluations predict the results of games they never saw.

Reads positions with their game's result, one per line: game<TAB>red's result
(1, 0.5 or 0)<TAB>FEN, as `chariot tune --dump` writes them from PGN files (a
fourth field before the FEN, as tools/tuning/selfplay_scores.py writes it, is
ignored), evaluates every position with each net exactly as the engine does
(the integer reference, nnue_ref.py), and prints per net the mean squared
error of sigmoid(eval / K) against the result from the side to move's view,
at a fixed K and at the net's own best K; for each net after the first, its
difference from the first with a 95% interval from a bootstrap over games.

Besides nets, an input may be a file of any engine's scores of the same
positions, game<TAB>result<TAB>score<TAB>FEN with the score from red's view, as
tools/tuning/label_positions.py `score` writes it: then only the positions
that every such file scores are counted, for every input alike. `--by-ply`
adds each input's error by stage of the game (the ply from the FEN's move
number), each at its own best K.

The positions are a yardstick, never training data: the nets learn from
Chariot's own games only, and another engine's scores are measured here,
never learnt from. Master games are a yardstick that self-play cannot game,
as positions of the nets' own self-play are (docs/nnue.md):

    chariot tune --dump masters.tsv --dump-every 4 --skip-plies 10 masters.pgn
    predict_results.py masters.tsv nets/chariot-b5dde596b967.nnue runs/x/chariot-<hash>.nnue
    label_positions.py score --engine build/chariot --depth 1 masters.tsv chariot-d1.tsv
    predict_results.py --by-ply --own-k masters.tsv nets/chariot-b5dde596b967.nnue chariot-d1.tsv
"""
import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import data as D  # noqa: E402
import netfile as N  # noqa: E402
import nnue_ref as R  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tuning"))
from label_positions import fit_k  # noqa: E402


class InputError(Exception):
    pass


# Stages of the game for --by-ply: [first, last] plies of each band.
PlyBands = [(0, 19), (20, 29), (30, 39), (40, 59), (60, 79), (80, 99), (100, 139), (140, None)]


def ply_of_fen(fen):
    """Plies played before a FEN position, from its move number and side to move (0 without one)."""
    fields = fen.split()
    try:
        move = int(fields[5]) if len(fields) > 5 else 1
    except ValueError:
        move = 1
    return 2 * max(move - 1, 0) + (len(fields) > 1 and fields[1] == "b")


def read_positions(path):
    """(game ids [N], results from the side to move's view [N], red, black, stm, bucket, FENs [N])
    of a file."""
    games, results, boards, stms, fens = [], [], [], [], []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            fields = line.rstrip("\n").split("\t")
            if not line.strip():
                continue
            if len(fields) not in (3, 4):
                raise InputError(f"{path}:{number}: expected game<TAB>result<TAB>FEN")
            try:
                game, result = int(fields[0]), float(fields[1])
                board, stm = D.parse_fen(fields[-1])
            except (ValueError, D.DataError) as e:
                raise InputError(f"{path}:{number}: {e}") from None
            if result not in (0.0, 0.5, 1.0):
                raise InputError(f"{path}:{number}: result {fields[1]!r} is not 1, 0.5 or 0")
            games.append(game)
            results.append(result if stm == D.RED else 1.0 - result)
            boards.append(bytes(board))
            stms.append(stm)
            fens.append(fields[-1])
    if not games:
        raise InputError(f"{path}: no positions")
    red, black, bucket = D.features_of_boards(np.frombuffer(b"".join(boards), np.uint8))
    return np.array(games), np.array(results), red, black, np.array(stms, dtype=np.uint8), bucket, fens


def read_scores(path):
    """{(game, FEN): red's score} of a game<TAB>result<TAB>score<TAB>FEN file."""
    scores = {}
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if not line.strip():
                continue
            fields = line.rstrip("\n").split("\t")
            if len(fields) != 4:
                raise InputError(f"{path}:{number}: expected game<TAB>result<TAB>score<TAB>FEN")
            try:
                scores[(int(fields[0]), fields[3])] = float(fields[2])
            except ValueError as e:
                raise InputError(f"{path}:{number}: {e}") from None
    if not scores:
        raise InputError(f"{path}: no scores")
    return scores


def squared_errors(evals, results, k):
    return (1.0 / (1.0 + np.exp(-np.asarray(evals, dtype=np.float64) / k)) - results) ** 2


def best_k(evals, results, lo=50.0, hi=1000.0):
    """The K in [lo, hi] that minimises the mean squared error (label_positions.py's golden-section
    search; the error is unimodal in K for evaluations that mostly agree in sign with the results)."""
    return fit_k(lambda k: squared_errors(evals, results, k).mean(), lo, hi)


def bootstrap_interval(games, diff, samples, seed):
    """95% interval of the mean of `diff` when whole games are resampled."""
    _, index = np.unique(games, return_inverse=True)
    sums, counts = np.bincount(index, weights=diff), np.bincount(index)
    rng = np.random.default_rng(seed)
    means = []
    for _ in range(samples):
        pick = rng.integers(0, len(sums), len(sums))
        means.append(sums[pick].sum() / counts[pick].sum())
    return np.percentile(means, 2.5), np.percentile(means, 97.5)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("positions", help="game<TAB>result<TAB>FEN lines (chariot tune --dump)")
    ap.add_argument("inputs", nargs="+", metavar="net|scores",
                    help=".nnue files, or files of an engine's scores (game<TAB>result<TAB>score<TAB>FEN, red's "
                         "view); the first is the one the others are compared with")
    ap.add_argument("--k", type=float, default=240.0, help="sigmoid scale K in internal units (default 240)")
    ap.add_argument("--bootstrap", type=int, default=400, help="bootstrap samples (default 400; 0: none)")
    ap.add_argument("--seed", type=int, default=1, help="bootstrap seed (default 1)")
    ap.add_argument("--own-k", action="store_true",
                    help="compare each input at its own best K (engines whose scores are on other scales)")
    ap.add_argument("--by-ply", action="store_true", help="each input's error by stage of the game, at its best K")
    args = ap.parse_args(argv)
    if args.k <= 0:
        ap.error("--k must be positive")
    if args.bootstrap < 0:
        ap.error("--bootstrap must be 0 or more")
    try:
        games, results, red, black, stm, bucket, fens = read_positions(args.positions)
        inputs = [(path, N.read_net(path) if path.endswith(".nnue") else read_scores(path)) for path in args.inputs]
    except (OSError, InputError, N.NetError) as e:
        print(f"predict_results: {e}", file=sys.stderr)
        return 2
    # Positions every score file scores (all of them when there is none).
    keep = np.ones(len(results), dtype=bool)
    for _, item in inputs:
        if isinstance(item, dict):
            keep &= np.array([(int(g), fen) in item for g, fen in zip(games, fens)])
    if not keep.any():
        print("predict_results: no position is scored by every score file", file=sys.stderr)
        return 2
    if not keep.all():
        games, results, red, black, stm, bucket = (a[keep] for a in (games, results, red, black, stm, bucket))
        fens = [fen for fen, k in zip(fens, keep) if k]
        print(f"{keep.sum()} of {len(keep)} positions are scored by every score file; only those count")
    plies = np.array([ply_of_fen(fen) for fen in fens])
    print(f"{len(results)} positions of {len(np.unique(games))} games; K {args.k:g}")
    print(f"{'input':<28} {'error at K':>11} {'best K':>7} {'error':>9}   difference from the first (95%)"
          + (", each at its best K" if args.own_k else ""))
    first = None
    staged = []
    for path, item in inputs:
        if isinstance(item, dict):
            red_view = np.array([item[(int(g), fen)] for g, fen in zip(games, fens)])
            evals = np.where(stm == D.RED, red_view, -red_view)
        else:
            evals, _ = R.int_eval_features(item, red, black, stm, bucket)
        errors = squared_errors(evals, results, args.k)
        k = best_k(evals, results)
        at_best = squared_errors(evals, results, k)
        staged.append((os.path.basename(path), at_best))
        line = f"{os.path.basename(path):<28} {errors.mean():>11.6f} {k:>7.1f} {at_best.mean():>9.6f}"
        if args.own_k:
            errors = at_best
        if first is None:
            first = errors
        else:
            diff = errors - first
            line += f"   {diff.mean():+.6f}"
            if args.bootstrap:
                lo, hi = bootstrap_interval(games, diff, args.bootstrap, args.seed)
                line += f" [{lo:+.6f}, {hi:+.6f}]"
        print(line, flush=True)
    if args.by_ply:
        print("\nerror at each input's best K by ply")
        print(f"{'plies':<9} {'positions':>9}" + "".join(f" {name[:16]:>16}" for name, _ in staged))
        for lo, hi in PlyBands:
            band = (plies >= lo) & (plies <= hi if hi is not None else True)
            label = f"{lo}-{hi}" if hi is not None else f"{lo}-"
            cells = "".join(f" {errs[band].mean():>16.6f}" if band.any() else f" {'-':>16}" for _, errs in staged)
            print(f"{label:<9} {band.sum():>9}" + cells)
    return 0


if __name__ == "__main__":
    sys.exit(main())
