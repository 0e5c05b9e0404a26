#!/usr/bin/env python3
"""Positions one random move away from game positions, for `chariot tune --dump`.

The evaluation is fitted to positions from games, yet the search evaluates
mostly positions that no game reaches: those after a poor move. This script
samples every Nth position of each game (a random phase per game, after the
first --skip plies, not in check), plays one uniformly random legal move
there, and writes the result (when it does not give check) as a move-less PGN
game whose FEN tag is that position and whose Result is the game's.
`chariot tune --dump OUT --skip-plies 0 perturbed.pgn` then writes their
quiescence leaves for `label_positions.py score`; the game result says little
about a perturbed position, so blend its score with `--weight 1.0`.

Needs ../shared/tools/xqrules.py (the referee's move generator) beside the
repository, or its folder in --rules.

Example:
  perturb_positions.py --every 8 --seed 27 perturbed.pgn games/*.pgn
"""
import argparse
import os
import random
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "matches"))  # review_games.py
from review_games import parse_pgn  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("output")
    ap.add_argument("pgn", nargs="+")
    ap.add_argument("--every", type=int, default=8, help="sample every Nth position of a game")
    ap.add_argument("--skip", type=int, default=10, help="opening plies not sampled")
    ap.add_argument("--seed", type=int, default=27)
    ap.add_argument("--rules", default=os.path.join(here, "..", "..", "..", "shared", "tools"),
                    help="folder holding xqrules.py")
    a = ap.parse_args()
    if a.every < 1:
        ap.error("--every must be at least 1")
    sys.path.insert(0, a.rules)
    try:
        import xqrules as X
    except ImportError:
        sys.exit(f"perturb_positions: no xqrules.py in {a.rules} (give --rules)")

    rng = random.Random(a.seed)
    written = 0
    with open(a.output, "w", encoding="utf-8") as out:
        for path in a.pgn:
            with open(path, encoding="utf-8") as f:
                games = parse_pgn(f.read())
            for tags, moves in games:
                result = tags.get("Result")
                if result not in ("1-0", "0-1", "1/2-1/2"):
                    continue
                try:
                    pos = X.Position.from_fen(tags.get("FEN", X.START_FEN))
                except X.FenError:
                    continue
                phase = rng.randrange(a.every)
                for ply in range(len(moves) + 1):
                    if ply >= a.skip and (ply - phase) % a.every == 0 and not pos.in_check():
                        legal = pos.legal_moves()
                        if legal:
                            child = pos.copy()
                            child.play(rng.choice(legal))
                            if not child.in_check():
                                out.write(f'[Event "perturbed"]\n[FEN "{child.fen()}"]\n[Result "{result}"]\n\n{result}\n\n')
                                written += 1
                    if ply == len(moves):
                        break
                    move = X.parse_move(moves[ply])
                    if move is None or not pos.is_legal(move):
                        break  # the rest of the game cannot be replayed
                    pos.play(move)
    print(f"wrote {written} perturbed positions to {a.output}", file=sys.stderr)


if __name__ == "__main__":
    main()
