#!/usr/bin/env python3
"""Find where an engine lost its games: a stronger engine scores every position.

For each game of a PGN file (xqmatch's ICCS PGN) that the engine named by
--player lost (or every game it played with --all), a judge engine (UCI or
UCCI) searches the position before each of the player's moves and the one
after it to a fixed depth. The drop of a move is the judge's score before it
minus the score after it, both from the player's side. Printed per game: the
largest drops (ply, move, before -> after) and the first move that turned a
level game (>= --level) into a clearly worse one (<= --worse). The summary
counts where those turning moves fell (by ply bucket) and the drop sizes, and
shows how the games went: the judge's median score for the player at plies
20, 40, 60, 80 and 120 (before its first move from there on), and how many
games stood below --level and at or below --worse there. A game lost by one
blunder has a turning move; one lost by small steps drifts in that profile.

Example:
  review_games.py --judge ../ext/pikafish/src/pikafish --proto uci --depth 12 \\
      --player Chariot --jobs 2 games.pgn
"""
import argparse
import multiprocessing
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from engine_client import EngineClient  # noqa: E402  (tools/engine_client.py)
ProfilePlies = (20, 40, 60, 80, 120)


def profile(rows, checkpoints=ProfilePlies):
    """The judge's score before the player's first move at or after each checkpoint ply
    ({ply: score}; a game that ended before a checkpoint has no entry there)."""
    out = {}
    for checkpoint in checkpoints:
        for ply, _move, before, _after in rows:
            if ply >= checkpoint:
                out[checkpoint] = before
                break
    return out


def parse_pgn(text):
    """Yield (tags, moves) per game; moves in lower-case ICCS ("h2e2")."""
    games = []
    tags, body = {}, []
    for line in text.splitlines() + [""]:
        m = re.match(r'\[(\w+) "(.*)"\]', line.strip())
        if m:
            if body:
                games.append((tags, " ".join(body)))
                tags, body = {}, []
            tags[m.group(1)] = m.group(2)
        elif line.strip():
            body.append(line.strip())
    if tags or body:
        games.append((tags, " ".join(body)))
    out = []
    for tags, text in games:
        text = re.sub(r"\{[^}]*\}", " ", text)
        moves = [w.replace("-", "").lower() for w in text.split() if re.fullmatch(r"[A-Ia-i]\d-?[A-Ia-i]\d", w)]
        out.append((tags, moves))
    return out


def review(job):
    index, tags, moves, side, args = job
    judge = EngineClient(args.judge, args.proto, [o.split("=", 1) for o in args.option])
    fen = tags.get("FEN", "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1")
    first = 0 if fen.split()[1] in ("w", "r") else 1  # colour to move at ply 0: 0 red
    rows = []
    for ply in range(len(moves)):
        mover = (first + ply) % 2
        if mover != side or ply < args.skip:
            continue
        before = judge.score(fen, moves[:ply], args.depth)
        after = judge.score(fen, moves[:ply + 1], args.depth)
        if before is None or after is None:
            continue
        rows.append((ply + 1, moves[ply], before, -after))
    judge.close()
    return index, tags, rows


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("pgn")
    ap.add_argument("--judge", required=True, help="the judging engine's binary")
    ap.add_argument("--proto", default="uci", choices=["uci", "ucci"])
    ap.add_argument("--option", action="append", default=[], help="NAME=VALUE for the judge (repeatable)")
    ap.add_argument("--depth", type=int, default=12)
    ap.add_argument("--player", required=True, help="a substring of the reviewed engine's Red/Black tag")
    ap.add_argument("--all", action="store_true", help="every game of the player, not only its losses")
    ap.add_argument("--skip", type=int, default=0, help="plies not reviewed (the opening line)")
    ap.add_argument("--level", type=int, default=-60)
    ap.add_argument("--worse", type=int, default=-150)
    ap.add_argument("--top", type=int, default=3, help="largest drops printed per game")
    ap.add_argument("--jobs", type=int, default=1)
    args = ap.parse_args()

    jobs = []
    for i, (tags, moves) in enumerate(parse_pgn(open(args.pgn, encoding="utf-8", errors="replace").read())):
        red, black, result = tags.get("Red", ""), tags.get("Black", ""), tags.get("Result", "*")
        if args.player in red:
            side, lost = 0, result == "0-1"
        elif args.player in black:
            side, lost = 1, result == "1-0"
        else:
            continue
        if lost or args.all:
            jobs.append((i, tags, moves, side, args))
    if not jobs:
        sys.exit(f"no game of {args.player!r} to review")

    turning_buckets, drops = {}, []
    profiles = {p: [] for p in ProfilePlies}
    with multiprocessing.Pool(args.jobs) as pool:
        for index, tags, rows in sorted(pool.imap_unordered(review, jobs)):
            print(f"game {index + 1} ({tags.get('Red')} - {tags.get('Black')}, {tags.get('Result')}, "
                  f"{tags.get('Termination', '?')}, opening {tags.get('Opening', '?')})")
            for checkpoint, score in profile(rows).items():
                profiles[checkpoint].append(score)
            turning = None
            for ply, move, before, after in rows:
                drops.append(before - after)
                if turning is None and before >= args.level and after <= args.worse:
                    turning = (ply, move, before, after)
            for ply, move, before, after in sorted(rows, key=lambda r: r[3] - r[2])[:args.top]:
                print(f"  ply {ply:3d} {move}  {before:+5d} -> {after:+5d}  (drop {before - after})")
            if turning:
                ply, move, before, after = turning
                print(f"  turning move: ply {ply} {move}  {before:+d} -> {after:+d}")
                bucket = "1-30" if ply <= 30 else "31-80" if ply <= 80 else "81+"
                turning_buckets[bucket] = turning_buckets.get(bucket, 0) + 1
            sys.stdout.flush()
    print(f"games reviewed: {len(jobs)}; turning moves by ply: {turning_buckets}")
    if drops:
        for threshold in (50, 100, 200, 300):
            print(f"  moves dropping >= {threshold}: {sum(d >= threshold for d in drops)} of {len(drops)}")
    print(f"the judge's score for {args.player} by ply (median; games below {args.level}; at or below {args.worse}):")
    for checkpoint, scores in profiles.items():
        if scores:
            print(f"  ply {checkpoint:3d}: {statistics.median(scores):+7.1f} over {len(scores)} games; "
                  f"{sum(v < args.level for v in scores)} below {args.level}, "
                  f"{sum(v <= args.worse for v in scores)} at or below {args.worse}")


if __name__ == "__main__":
    main()
