#!/usr/bin/python3
"""Scored positions for `chariot tune --labels` from Chariot's own self-play.

Reads `chariot datagen` files (the format in include/chariot/datagen.h) and
writes one line per chosen position in the form label_positions.py's `blend`
reads: game<TAB>result<TAB>score<TAB>FEN, with the game result (1, 0.5, 0)
and the search score Chariot's generator stored for the position, both from
red's view. Only training positions are taken (searched, not in check, best
move quiet, score not decisive), every Nth of each game.

The evaluation is thus fitted to Chariot's own games and its own net's search,
never to another engine's opinion:

  selfplay_scores.py --every 4 pool.data gen.data > scored.tsv
  label_positions.py blend --weight 0.75 scored.tsv labels.tsv
  chariot tune --labels labels.tsv --lambda 1e-9 --iterations 1000 --out eval_weights.h
"""
import argparse
import itertools
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "nnue"))
import data  # noqa: E402  (tools/nnue/data.py: the reader and replay)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+", help="chariot datagen files")
    ap.add_argument("--every", type=int, default=4, help="keep every Nth training position of a game (default 4)")
    ap.add_argument("--offset", type=int, default=0, help="which of the N to keep first (default 0)")
    ap.add_argument("--max-positions", type=int, default=0, help="stop after this many (0: all)")
    ap.add_argument("--out", default="-", help="output file (default: standard output)")
    a = ap.parse_args()
    if a.every < 1 or not 0 <= a.offset < a.every:
        ap.error("--every must be at least 1 and --offset below it")

    results = {0: "0", 1: "0.5", 2: "1"}
    counts = {"games": 0}

    def chosen():
        """game<TAB>result<TAB>score<TAB>FEN lines of the chosen positions, file by file."""
        for path in a.files:
            for game in data.read_games(path):
                counts["games"] += 1
                taken = 0
                for _, board, stm, score, flags in data.replay(game):
                    if not flags & data.FLAG_QUIET:
                        continue
                    taken += 1
                    if (taken - 1) % a.every == a.offset:
                        red_score = score if stm == data.RED else -score
                        fen = data.board_to_fen(bytearray(board), stm)
                        yield f"{counts['games']}\t{results[game.result]}\t{red_score}\t{fen}\n"

    out = sys.stdout if a.out == "-" else open(a.out, "w", encoding="ascii")
    written = 0
    try:
        for line in itertools.islice(chosen(), a.max_positions or None):
            out.write(line)
            written += 1
    except (data.DataError, OSError) as e:
        sys.exit(f"selfplay_scores.py: {e}")
    finally:
        if out is not sys.stdout:
            out.close()
    games = counts["games"]
    print(f"selfplay_scores.py: {written} positions from {games} games", file=sys.stderr)


if __name__ == "__main__":
    main()
