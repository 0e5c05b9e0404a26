#!/usr/bin/env python3
"""Scores games played from endgame-table positions (docs/egtb.md, Measurements).

The games come from a match runner's PGN (xqmatch.py writes one) whose openings
file was made by `chariot egtb sample`: every game starts from a table
position, in which one side has attackers (rook, horse, cannon, pawn) and the
other only its king, advisors and elephants. For every engine (the PGN's
Red/Black names) this prints how its games as the strong side and as the bare
side ended: the strong side's wins are conversions; a bare side's loss from a
drawn position is a thrown draw.

  egtb_games.py won.pgn [more.pgn ...]
"""
import argparse
import collections
import re
import sys

ATTACKERS = set("RNHCP")


def games(path):
    """(tags, result) for every game in a PGN file."""
    tags = {}
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = re.match(r'\[(\w+) "(.*)"\]', line.strip())
            if m:
                tags[m.group(1)] = m.group(2)
            elif tags and line.strip().endswith(("1-0", "0-1", "1/2-1/2", "*")) and "Result" in tags:
                yield tags
                tags = {}


def strong_colour(fen):
    """'red' or 'black': the side with attackers (None when both or neither have some)."""
    board = fen.split()[0]
    red = any(c in ATTACKERS for c in board)
    black = any(c.upper() in ATTACKERS and c.islower() for c in board)
    if red == black:
        return None
    return "red" if red else "black"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("pgn", nargs="+")
    args = parser.parse_args()
    # engine -> role -> outcome -> count; termination reasons of the strong side's non-wins
    table = collections.defaultdict(lambda: collections.defaultdict(collections.Counter))
    reasons = collections.defaultdict(collections.Counter)
    wins = collections.defaultdict(collections.Counter)  # how the strong side's wins ended
    win_plies = collections.defaultdict(list)  # and how long they took
    skipped = 0
    for path in args.pgn:
        for tags in games(path):
            strong = strong_colour(tags.get("FEN", ""))
            result = tags["Result"]
            if strong is None or result == "*":
                skipped += 1
                continue
            weak = "black" if strong == "red" else "red"
            strong_won = result == ("1-0" if strong == "red" else "0-1")
            weak_won = result == ("0-1" if strong == "red" else "1-0")
            outcome = "win" if strong_won else "loss" if weak_won else "draw"
            table[tags["Red" if strong == "red" else "Black"]]["strong"][outcome] += 1
            table[tags["Red" if weak == "red" else "Black"]]["bare"][outcome] += 1
            strong_name = tags["Red" if strong == "red" else "Black"]
            (wins if strong_won else reasons)[strong_name][tags.get("Termination", "?")] += 1
            if strong_won and tags.get("PlyCount", "").isdigit():
                win_plies[strong_name].append(int(tags["PlyCount"]))
    if not table:
        sys.exit("egtb_games.py: no finished game from a table position in " + ", ".join(args.pgn))
    for engine in sorted(table):
        for role in ("strong", "bare"):
            c = table[engine][role]
            n = sum(c.values())
            if not n:
                continue
            print(f"{engine} as the {role} side: {n} games, strong side won {c['win']} "
                  f"({100.0 * c['win'] / n:.1f}%), drawn {c['draw']}, bare side won {c['loss']}")
        if wins[engine]:
            plies = win_plies[engine]
            print(f"  {engine}'s strong-side wins by: "
                  + ", ".join(f"{r} {k}" for r, k in wins[engine].most_common())
                  + (f"; {sum(plies) / len(plies):.1f} plies on average, longest {max(plies)}" if plies else ""))
        if reasons[engine]:
            print(f"  {engine}'s strong-side games not won: "
                  + ", ".join(f"{r} {k}" for r, k in reasons[engine].most_common()))
    if skipped:
        print(f"({skipped} games skipped: unfinished, or not from a table position)")


if __name__ == "__main__":
    main()
