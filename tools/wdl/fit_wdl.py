#!/usr/bin/python3
"""Fit Chariot's win/draw/loss model to its own self-play games.

The model is Stockfish's win-rate model. For a search score s (internal
units, side to move's view: a pawn is about 100) in a position of phase m,

    P(win)  = 1 / (1 + exp(-( s - a(m)) / b(m)))
    P(loss) = 1 / (1 + exp(-(-s - a(m)) / b(m)))
    P(draw) = 1 - P(win) - P(loss)

with a(m) and b(m) polynomials (cubic by default) in t = m / PhaseMax. The
phase m is the number of attacking pieces left on the board, both sides
together: rooks, horses, cannons and pawns (0..22; advisors, elephants and
kings do not count). Of the phase measures tried (weighted material with and
without the defenders, the piece count, the ply) it predicted the outcome
best. m is clamped to PHASE_MIN..PHASE_MAX (a position with no attacker
left is a dead draw and never searched in the data).

The fit maximises the likelihood of the game outcomes, from the side to
move's view, over the Quiet positions of `chariot datagen` data (searched,
not in check, best move quiet, score neither a mate nor a repetition
verdict). One game in ten (by its key) is held out to measure the fit; the
constants written are then fitted on all the games.

    /usr/bin/python3 tools/wdl/fit_wdl.py gen1-s1.data --games 12000 \
        --header include/chariot/wdl_model.h

--games N reads only the first N games (the data files are append-only, so
the same N gives the same data while a file is still growing). The header is
the only place the constants live; include/chariot/wdl_model.h says which
command and data produced it. tools/wdl/README.md has the numbers of the
current fit.
"""

import argparse
import os
import sys
import time

import numpy as np
import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "nnue"))
import data as chdata  # noqa: E402  (tools/nnue/data.py: the data file reader)

PHASE_MIN, PHASE_MAX = 1, 22
ATTACKERS = tuple(chdata.PIECE_LETTERS.index(p) for p in "NRCP")  # horse, rook, cannon, pawn
PAWN = 100.0  # the fit works in pawns; the header gets internal units


def is_attacker(code):
    return code != chdata.EMPTY and chdata.type_of(code) in ATTACKERS


def read_positions(paths, max_games, log):
    """Arrays (score, phase, outcome 0 loss / 1 draw / 2 win for the side to move, game key) of the Quiet positions."""
    scores, phases, outcomes, keys = [], [], [], []
    games = plies = 0
    sources = []
    for path in paths:
        if max_games is not None and games >= max_games:
            break
        with chdata.Reader(path) as reader:
            read_here = 0
            for game in reader:
                board, stm = chdata.parse_fen(game.start_fen)
                attackers = sum(1 for v in board if is_attacker(v))
                key = int(chdata.game_keys([game.seed], [game.index])[0])
                moves = game.plies["move"].tolist()
                ply_scores = game.plies["score"].tolist()
                flags = game.plies["flags"].tolist()
                for i, move in enumerate(moves):
                    if flags[i] & chdata.FLAG_QUIET:
                        scores.append(ply_scores[i])
                        phases.append(attackers)
                        # game.result: 0 black won, 1 draw, 2 red won.
                        outcomes.append(game.result if stm == chdata.RED else 2 - game.result)
                        keys.append(key)
                    frm, to = move % 90, move // 90
                    if is_attacker(board[to]):
                        attackers -= 1
                    board[to], board[frm] = board[frm], chdata.EMPTY
                    stm ^= 1
                plies += len(moves)
                games += 1
                read_here += 1
                if max_games is not None and games >= max_games:
                    break
            sources.append({"path": path, "games": read_here, "nodes": reader.nodes, "seed": reader.seed,
                            "bytes": reader.good_bytes, "sha256": reader.sha256})
            if reader.damage and (max_games is None or games < max_games):
                log(f"{path}: stopped at {reader.damage}")
    if max_games is not None and games < max_games:
        log(f"asked for {max_games} games, the files hold {games}")
    return (np.array(scores, np.float64), np.array(phases, np.int64), np.array(outcomes, np.int64),
            np.array(keys, np.uint64), games, plies, sources)


def powers(t, degree):
    return torch.stack([t ** i for i in range(degree + 1)], dim=1)


def probabilities(score, t, pa, pb):
    """(P(win), P(draw), P(loss)); score in pawns, t = phase / PHASE_MAX."""
    basis = powers(t, len(pa) - 1)
    a, b = basis @ pa, basis @ pb
    win = torch.sigmoid((score - a) / b)
    loss = torch.sigmoid((-score - a) / b)
    return win, 1 - win - loss, loss


def mean_log_loss(score, t, outcome, pa, pb):
    win, draw, loss = probabilities(score, t, pa, pb)
    p = torch.where(outcome == 2, win, torch.where(outcome == 0, loss, draw))
    return -torch.log(p.clamp_min(1e-12)).mean()


def fit(score, t, outcome, degree):
    """Maximum-likelihood a and b coefficients (pawns) of the given degree."""
    pa = torch.zeros(degree + 1, dtype=torch.float64)
    pb = torch.zeros(degree + 1, dtype=torch.float64)
    pa[0], pb[0] = 2.0, 1.5  # a start where a > 0 and b > 0 everywhere
    pa.requires_grad_()
    pb.requires_grad_()
    opt = torch.optim.LBFGS([pa, pb], max_iter=1000, line_search_fn="strong_wolfe", tolerance_grad=1e-10,
                            tolerance_change=1e-14, history_size=20)

    def closure():
        opt.zero_grad()
        value = mean_log_loss(score, t, outcome, pa, pb)
        value.backward()
        return value

    for _ in range(5):  # LBFGS may stop early on its iteration budget; a restart finishes the job
        opt.step(closure)
    return pa.detach(), pb.detach()


def polynomial(coeffs, t):
    return sum(float(c) * t ** i for i, c in enumerate(coeffs))


def tensors(score, phase, outcome, index):
    return (torch.tensor(score[index] / PAWN), torch.tensor(np.clip(phase[index], PHASE_MIN, PHASE_MAX) / PHASE_MAX),
            torch.tensor(outcome[index]))


def write_header(path, command, sources, games, positions, degree, pa, pb, quality):
    a = [float(c) * PAWN for c in pa]
    b = [float(c) * PAWN for c in pb]
    src = "".join(f"//   {os.path.basename(s['path'])}: the first {s['games']} games, {s['nodes']} nodes per move,\n"
                  f"//   sha256 of those {s['bytes']} bytes {s['sha256']}\n" for s in sources)
    fmt = lambda cs: ", ".join(f"{c:.4f}" for c in cs)  # noqa: E731
    text = f"""// Generated by tools/wdl/fit_wdl.py: do not edit by hand (rerun the command).
//   {command}
// Data:
{src}// {positions} Quiet positions of {games} self-play games (chariot datagen: one
// search thread per game, scores from the side to move's view).
// Held-out log-loss (one game in ten):
//   {quality}.
#pragma once

namespace chariot::wdl::model {{

// The phase: rooks, horses, cannons and pawns on the board, both sides,
// clamped to [PhaseMin, PhaseMax].
constexpr int PhaseMin = {PHASE_MIN};
constexpr int PhaseMax = {PHASE_MAX};
// a(t) and b(t), t = phase / PhaseMax, in internal units; coefficients of t^0..t^{degree}.
constexpr double A[{degree + 1}] = {{{fmt(a)}}};
constexpr double B[{degree + 1}] = {{{fmt(b)}}};

}}  // namespace chariot::wdl::model
"""
    with open(path, "w") as f:
        f.write(text)


def main(argv=None):
    ap = argparse.ArgumentParser(description="Fit the win/draw/loss model to chariot datagen games.")
    ap.add_argument("files", nargs="+", help="chariot datagen data files")
    ap.add_argument("--games", type=int, help="use only the first N games (over the files in order)")
    ap.add_argument("--degree", type=int, default=3, help="degree of a(m) and b(m) (default 3)")
    ap.add_argument("--header", help="write the fitted constants into this C++ header")
    args = ap.parse_args(argv)
    log = lambda m: print(m, file=sys.stderr, flush=True)  # noqa: E731
    torch.set_num_threads(max(1, min(4, os.cpu_count() or 1)))

    start = time.monotonic()
    score, phase, outcome, keys, games, plies, sources = read_positions(args.files, args.games, log)
    if len(score) == 0:
        log("no Quiet positions: nothing to fit")
        return 1
    print(f"read {games} games, {plies} positions, {len(score)} Quiet in {time.monotonic() - start:.1f} s")
    freq = np.bincount(outcome, minlength=3) / len(outcome)
    print(f"outcomes for the side to move: win {freq[2]:.3f} draw {freq[1]:.3f} loss {freq[0]:.3f}")

    held = (keys % np.uint64(10)) == 0
    train, test = ~held, held
    tr, te = tensors(score, phase, outcome, train), tensors(score, phase, outcome, test)
    print(f"held out: {int(test.sum())} positions of {len(np.unique(keys[test]))} games")

    base = np.bincount(outcome[train], minlength=3) / train.sum()
    base_loss = float(-np.log(base[outcome[test]]).mean())
    pa0, pb0 = fit(*tr, 0)
    flat = float(mean_log_loss(*te, pa0, pb0))
    pa, pb = fit(*tr, args.degree)
    phased = float(mean_log_loss(*te, pa, pb))
    print(f"held-out log-loss: outcome frequencies {base_loss:.4f}, score only (a, b constant) {flat:.4f}, "
          f"score and phase (degree {args.degree}) {phased:.4f}")
    print(f"  score only: a = {float(pa0[0]) * PAWN:.1f}, b = {float(pb0[0]) * PAWN:.1f}")

    everything = tensors(score, phase, outcome, slice(None))
    pa, pb = fit(*everything, args.degree)
    print(f"all games: log-loss {float(mean_log_loss(*everything, pa, pb)):.4f}; "
          f"a = {[round(float(c) * PAWN, 4) for c in pa]}, b = {[round(float(c) * PAWN, 4) for c in pb]}")
    print("phase  positions    a(m)   b(m)   wdl at +100, +300 (per mille, from the model)")
    counts = np.bincount(np.clip(phase, PHASE_MIN, PHASE_MAX), minlength=PHASE_MAX + 1)
    for m in range(PHASE_MIN, PHASE_MAX + 1):
        t = m / PHASE_MAX
        a, b = polynomial(pa, t) * PAWN, polynomial(pb, t) * PAWN
        if a <= 0 or b <= 0:
            log(f"phase {m}: a = {a:.1f}, b = {b:.1f}: the model needs a > 0 and b > 0")
            return 1
        cells = []
        for s in (100, 300):
            w, lo = 1 / (1 + np.exp(-(s - a) / b)), 1 / (1 + np.exp(-(-s - a) / b))
            cells.append(f"{round(w * 1000)}/{1000 - round(w * 1000) - round(lo * 1000)}/{round(lo * 1000)}")
        print(f"{m:5d} {counts[m]:10d} {a:7.1f} {b:6.1f}   {'  '.join(cells)}")

    # Calibration on the held-out games: predicted against observed, by decile of predicted win.
    win, draw, loss = (x.numpy() for x in probabilities(*te[:2], pa, pb))
    ot = outcome[test]
    order = np.argsort(win)
    print("held-out calibration (deciles of predicted win): predicted W/D/L vs observed")
    for part in np.array_split(order, 10):
        print(f"  {win[part].mean():.3f}/{draw[part].mean():.3f}/{loss[part].mean():.3f}  vs  "
              f"{np.mean(ot[part] == 2):.3f}/{np.mean(ot[part] == 1):.3f}/{np.mean(ot[part] == 0):.3f}")

    if args.header:
        # The data files on the first line, the options on the second (no
        # backslash: it would continue the C++ comment).
        options = [a for a in (argv if argv is not None else sys.argv[1:]) if a not in args.files]
        command = (f"/usr/bin/python3 tools/wdl/fit_wdl.py {' '.join(args.files)}" +
                   (f"\n//       {' '.join(options)}" if options else ""))
        quality = (f"outcome frequencies {base_loss:.4f}, score only {flat:.4f}, "
                   f"score and phase {phased:.4f}")
        write_header(args.header, command, sources, games, len(score), args.degree, pa, pb, quality)
        print(f"wrote {args.header}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
