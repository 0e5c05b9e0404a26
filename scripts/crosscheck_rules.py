#!/usr/bin/env python3
"""Cross-check Chariot's repetition verdicts against the shared referee.

  scripts/crosscheck_rules.py [--cycles N] [--seed S] [--chariot build/chariot]
                              [--xqrules DIR] [--verbose]

Builds repetition cycles, plays each twice through the referee (xqrules.Game,
which judges at the third occurrence) and asks `chariot rules <FEN> moves ...`
for its verdict on the same game; prints the counts and every disagreement.

Cases: every cycle of the referee's own tests (test_chase.py: the constructed
cases, recorded by running them, and its Fairy-Stockfish list), then N random
cycles: from random playouts of the start position and from random sparse
positions, each side shuttling one or two pieces (2, 3 or 4 moves per side),
with moves that create chases, flee from them or give checks preferred at
random, or built as a pursuit (a piece attacks, the target moves, the piece
attacks it again from where it came); most plain draws are thrown away
(--keep-draws), so that many verdicts are checks and chases. A chase verdict
agrees when the chaser is the same and the piece Chariot names is among those
the referee names.

xqrules is imported from --xqrules, else $XQRULES_DIR, else ../shared/tools
beside the repository. Exit status: 0 all agree, 1 some disagree, 77 xqrules
not found (a skip for CTest), 2 usage or setup errors.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import subprocess
import sys
import unittest
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SKIP = 77


def load_referee(path_arg: str | None):
    directory = path_arg or os.environ.get("XQRULES_DIR") or str(REPO.parent / "shared" / "tools")
    if (Path(directory) / "xqrules.py").is_file():
        sys.path.insert(0, directory)
        import xqrules  # noqa: E402
        return xqrules, Path(directory)
    return None, None


# ---------------------------------------------------------------------------
# Verdicts

def referee_verdict(xr, game) -> str:
    """The referee's outcome as 'none', 'draw', 'perpetual-check red', ..."""
    outcome = game.outcome()
    if outcome is None:
        return "none"
    if outcome.reason == "repetition":
        return "draw-both-chased" if "both sides chased" in outcome.detail else "draw"
    if outcome.reason == "perpetual check":
        return "perpetual-check " + ("black" if outcome.result == xr.RED_WINS else "red")
    if outcome.reason == "perpetual chase":
        # The detail names every piece chased throughout: "rook (now on d6)".
        squares = ",".join(sorted(re.findall(r"now on ([a-i][0-9])", outcome.detail)))
        return "perpetual-chase " + ("black" if outcome.result == xr.RED_WINS else "red") + " " + squares
    return "other:" + outcome.reason      # checkmate, stalemate, counters: not for this tool


def chariot_verdict(binary: str, fen: str, moves: list[str]) -> str:
    args = [binary, "rules", *fen.split()]
    if moves:
        args += ["moves", *moves]
    out = subprocess.run(args, capture_output=True, text=True, timeout=30)
    for line in out.stdout.splitlines():
        if line.startswith("verdict: "):
            words = line[len("verdict: "):].split()
            if words[0] == "draw" and "both chased" in line:
                return "draw-both-chased"
            if words[0] == "perpetual-chase":
                named = re.search(r" on ([a-i][0-9])\)", line)      # Chariot names one chased piece
                return " ".join(words[:2]) + " " + (named.group(1) if named else "?")
            return " ".join(words[:2]) if words[0].startswith("perpetual") else words[0]
    return f"error({out.returncode}): {out.stdout.strip()} {out.stderr.strip()}"


# ---------------------------------------------------------------------------
# The referee's own test cases

def referee_test_cases(xr, tools_dir: Path) -> list[tuple[str, str, list[str]]]:
    """(name, FEN, moves) for every cycle test_chase.py plays."""
    try:
        import test_chase  # noqa: E402  (found through the path load_referee added)
    except ImportError:
        return []
    cases = []
    original = test_chase.ChaseCase.play_cycle

    def recording(self, fen, cycle, times=2):
        cases.append((self.id().split(".")[-1], fen, cycle.split() * times))
        return original(self, fen, cycle, times)

    test_chase.ChaseCase.play_cycle = recording
    try:
        suite = unittest.defaultTestLoader.loadTestsFromModule(test_chase)
        unittest.TextTestRunner(stream=open(os.devnull, "w"), verbosity=0).run(suite)
    finally:
        test_chase.ChaseCase.play_cycle = original
    for name, fen, moves, _ in getattr(test_chase, "FAIRY_CASES", []):
        cases.append(("fairy: " + name, fen, moves.split()))
    return cases


# ---------------------------------------------------------------------------
# Random cycles

def random_sparse_fen(xr, rng: random.Random) -> str | None:
    """Kings plus a few random pieces on squares they may stand on."""
    board = [0] * xr.NUM_SQUARES
    kinds = [xr.ROOK, xr.ROOK, xr.HORSE, xr.HORSE, xr.CANNON, xr.CANNON, xr.ADVISOR, xr.ELEPHANT,
             xr.PAWN, xr.PAWN]
    for color in (xr.RED, xr.BLACK):
        palace = [xr.square(f, r) for f in (3, 4, 5) for r in ((0, 1, 2) if color == xr.RED else (7, 8, 9))]
        board[rng.choice(palace)] = xr.make_piece(color, xr.KING)
    counts: dict[int, int] = {}
    for _ in range(rng.randint(3, 9)):
        color, kind = rng.randint(0, 1), rng.choice(kinds)
        piece = xr.make_piece(color, kind)
        if counts.get(piece, 0) >= xr.MAX_COUNT[kind]:
            continue
        squares = [s for s in range(xr.NUM_SQUARES) if not board[s] and xr._allowed_square(color, kind, s)]
        if squares:
            board[rng.choice(squares)] = piece
            counts[piece] = counts.get(piece, 0) + 1
    pos = xr.Position()
    pos.board = board
    pos.kings = [board.index(xr.make_piece(c, xr.KING)) for c in (xr.RED, xr.BLACK)]
    pos.side = rng.randint(0, 1)
    fen = pos.fen()
    try:
        xr.Position.from_fen(fen, strict=True)
    except xr.FenError:
        return None
    if len(pos.legal_moves()) == 0:
        return None
    # Uncrossed pawns sharing a file are legal for the referee but not for
    # Chariot's FEN check (they cannot arise in a game).
    for color in (xr.RED, xr.BLACK):
        files = [xr.file_of(s) for s, p in enumerate(board)
                 if p == xr.make_piece(color, xr.PAWN) and not xr._pawn_crossed(p, s)]
        if len(files) != len(set(files)):
            return None
    return fen


def random_playout_fen(xr, rng: random.Random) -> str | None:
    game = xr.Game(max_plies=1000, no_capture_plies=1000)
    for _ in range(rng.randint(6, 70)):
        if game.outcome() is not None:
            return None
        game.play(rng.choice(game.legal_moves()))
    if game.outcome() is not None:
        return None
    pos = game.pos.copy()
    pos.halfmove = 0
    return pos.fen()


def quiet_moves(pos, piece_sq=None):
    return [m for m in pos.legal_moves() if not pos.board[m[1]] and (piece_sq is None or m[0] == piece_sq)]


def pick(xr, pos, moves, rng, style):
    """A move of `moves` for the side to move, preferring chases or checks."""
    if not moves:
        return None
    if style == "chase" and rng.random() < 0.85:
        mover = pos.side
        before = xr.chase_targets(pos, mover)
        good = []
        for m in moves:
            pos.make(m)
            if xr.chase_targets(pos, mover) - before:
                good.append(m)
            pos.unmake(m, 0)
        if good:
            return rng.choice(good)
    if style == "flee" and rng.random() < 0.85:
        chased = xr.chase_targets(pos, pos.side ^ 1)
        good = [m for m in moves if m[0] in chased]
        if good:
            return rng.choice(good)
    if style == "check" and rng.random() < 0.85:
        good = []
        for m in moves:
            pos.make(m)
            if pos.in_check():
                good.append(m)
            pos.unmake(m, 0)
        if good:
            return rng.choice(good)
    return rng.choice(moves)


def plan_cycle(xr, fen: str, rng: random.Random) -> list[str] | None:
    """One pass of a cycle from `fen` back to it, or None if this try failed.
    Each side follows a pattern of k moves: 'shuttle' X a-b, b-a (k = 2);
    'triangle' X a-b-c-a (k = 3); 'path' X a-b-c, c-b-a or 'pair' X a-b,
    Y c-d, X b-a, Y d-c (k = 4)."""
    pos = xr.Position.from_fen(fen)
    start_key = pos.key()
    k = rng.choice((2, 2, 3, 4, 4))
    patterns = {2: ["shuttle"], 3: ["triangle"], 4: ["path", "pair"]}[k]
    plan = {c: rng.choice(patterns) for c in (xr.RED, xr.BLACK)}
    style = {c: rng.choice(("chase", "chase", "flee", "check", "plain")) for c in (xr.RED, xr.BLACK)}
    done: dict[int, list[tuple[int, int]]] = {xr.RED: [], xr.BLACK: []}
    cycle: list[str] = []
    for step in range(2 * k):
        side = pos.side
        made = done[side]
        i, kind = len(made), plan[side]
        move = None
        if kind == "shuttle":
            move = pick(xr, pos, quiet_moves(pos), rng, style[side]) if i == 0 else (made[0][1], made[0][0])
        elif kind == "triangle":
            if i == 0:
                rooks = [m for m in quiet_moves(pos) if pos.board[m[0]] & 7 in (xr.ROOK, xr.CANNON, xr.KING, xr.ADVISOR)]
                move = pick(xr, pos, rooks, rng, style[side])
            elif i == 1:
                a, b = made[0]
                # c: reachable from b, with a reachable from c on today's board
                options = []
                for m in quiet_moves(pos, b):
                    pos.make(m)
                    pos.side ^= 1
                    if (m[1], a) in quiet_moves(pos, m[1]):
                        options.append(m)
                    pos.side ^= 1
                    pos.unmake(m, 0)
                move = pick(xr, pos, options, rng, style[side])
            else:
                move = (made[1][1], made[0][0])
        elif kind == "path":
            if i == 0:
                move = pick(xr, pos, quiet_moves(pos), rng, style[side])
            elif i == 1:
                move = pick(xr, pos, [m for m in quiet_moves(pos, made[0][1]) if m[1] != made[0][0]], rng, style[side])
            else:
                back = made[3 - i]
                move = (back[1], back[0])
        else:  # pair
            if i == 0:
                move = pick(xr, pos, quiet_moves(pos), rng, style[side])
            elif i == 1:
                move = pick(xr, pos, [m for m in quiet_moves(pos) if m[0] != made[0][1]], rng, style[side])
            else:
                back = made[i - 2]
                move = (back[1], back[0])
        if move is None or move not in pos.legal_moves() or pos.board[move[1]]:
            return None
        pos.make(move)
        made.append(move)
        cycle.append(xr.move_str(move))
    return cycle if pos.key() == start_key else None


def chases_anew(xr, pos, move) -> bool:
    mover = pos.side
    before = xr.chase_targets(pos, mover)
    pos.make(move)
    fresh = xr.chase_targets(pos, mover) - before
    pos.unmake(move, 0)
    return bool(fresh)


def plan_pursuit(xr, fen: str, rng: random.Random) -> list[str] | None:
    """A cycle built to be a chase: X a-b newly attacks some piece, the other
    side moves (the attacked piece first, if it can), X b-a newly attacks the
    same piece again, the other side moves back."""
    pos = xr.Position.from_fen(fen)
    chaser = pos.side
    first_moves = quiet_moves(pos)
    rng.shuffle(first_moves)
    for m1 in first_moves[:25]:
        before = xr.chase_targets(pos, chaser)
        pos.make(m1)
        new1 = xr.chase_targets(pos, chaser) - before
        replies = quiet_moves(pos) if new1 else []
        rng.shuffle(replies)
        mutual = rng.random() < 0.3
        if mutual:
            replies = replies[:15]
            replies.sort(key=lambda m: not chases_anew(xr, pos, m))   # counter-chases first
        else:
            replies.sort(key=lambda m: m[0] not in new1)                # the attacked piece flees
        for m2 in replies[:15]:
            pos.make(m2)
            back1, back2 = (m1[1], m1[0]), (m2[1], m2[0])
            found = False
            if back1 in quiet_moves(pos, m1[1]):
                before2 = xr.chase_targets(pos, chaser)
                pos.make(back1)
                new2 = xr.chase_targets(pos, chaser) - before2
                moved = {m2[1] if s == m2[0] else s for s in new1}
                found = bool(moved & new2) and back2 in quiet_moves(pos, m2[1])
                if found and mutual and rng.random() < 0.8:
                    # Insist that the other side chases one same piece too.
                    pos.unmake(back1, 0)
                    pos.unmake(m2, 0)
                    before_b = xr.chase_targets(pos, chaser ^ 1)
                    pos.make(m2)
                    new_b1 = xr.chase_targets(pos, chaser ^ 1) - before_b
                    pos.make(back1)
                    before_b = xr.chase_targets(pos, chaser ^ 1)
                    pos.make(back2)
                    new_b2 = xr.chase_targets(pos, chaser ^ 1) - before_b
                    pos.unmake(back2, 0)
                    found = bool({m1[0] if s == m1[1] else s for s in new_b1} & new_b2)
                pos.unmake(back1, 0)
            pos.unmake(m2, 0)
            if found:
                return [xr.move_str(m) for m in (m1, m2, back1, back2)]
        pos.unmake(m1, 0)
    return None


def random_cases(xr, count: int, seed: int, keep_draws: float):
    """`count` random cycles; a cycle the referee calls a plain draw is kept
    with probability keep_draws only, so that decided cycles are common."""
    rng = random.Random(seed)
    made = 0
    while made < count:
        fen = random_sparse_fen(xr, rng) if rng.random() < 0.6 else random_playout_fen(xr, rng)
        if fen is None:
            continue
        pursuit = rng.random() < 0.4
        for _ in range(1 if pursuit else 20):
            cycle = plan_pursuit(xr, fen, rng) if pursuit else plan_cycle(xr, fen, rng)
            if not cycle:
                continue
            _, game = referee_game(xr, fen, cycle * 2)
            outcome = game.outcome()
            if outcome and outcome.reason == "repetition" and "both sides chased" not in outcome.detail \
                    and rng.random() >= keep_draws:
                break                       # a new position
            made += 1
            yield f"random {made}", fen, cycle * 2
            break


# ---------------------------------------------------------------------------

def referee_game(xr, fen: str, moves: list[str]):
    """Plays `moves` while the game lasts; returns (moves played, game)."""
    game = xr.Game(fen, max_plies=10000, no_capture_plies=10000)
    played = []
    for move in moves:
        if game.outcome() is not None:
            break
        game.play(move)
        played.append(move)
    return played, game


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cycles", type=int, default=2000, help="random cycles (default 2000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep-draws", type=float, default=0.3,
                        help="share of plain-draw random cycles kept (default 0.3)")
    parser.add_argument("--chariot", default=str(REPO / "build" / "chariot"))
    parser.add_argument("--xqrules", help="directory holding xqrules.py (default $XQRULES_DIR, ../shared/tools)")
    parser.add_argument("--verbose", action="store_true", help="print every case")
    args = parser.parse_args(argv)

    xr, tools_dir = load_referee(args.xqrules)
    if xr is None:
        print("crosscheck_rules: xqrules.py not found (--xqrules, $XQRULES_DIR, ../shared/tools); skipped")
        return SKIP
    if not os.access(args.chariot, os.X_OK):
        print(f"crosscheck_rules: no engine binary at {args.chariot}")
        return 2

    table: Counter = Counter()
    disagreements = []
    groups = [("referee tests", referee_test_cases(xr, tools_dir)),
              ("random", random_cases(xr, args.cycles, args.seed, args.keep_draws))]
    for group, cases in groups:
        count = 0
        for name, fen, moves in cases:
            played, game = referee_game(xr, fen, moves)
            ours = referee_verdict(xr, game)
            if ours.startswith("other:"):
                table[(group, "skipped (" + ours[6:] + ")")] += 1
                continue
            theirs = chariot_verdict(args.chariot, fen, played)
            count += 1
            agree = ours == theirs
            if ours.startswith("perpetual-chase") and theirs.startswith("perpetual-chase"):
                # Same chaser, and the piece Chariot names is one the referee names.
                agree = ours.split()[1] == theirs.split()[1] and theirs.split()[2] in ours.split()[2].split(",")
                ours, theirs = " ".join(ours.split()[:2]), " ".join(theirs.split()[:2]) + \
                    ("" if agree else f" (names {theirs.split()[2]}, referee {ours.split()[2]})")
            table[(group, ours if agree else f"{ours} != chariot {theirs}")] += 1
            if not agree:
                disagreements.append((name, fen, played, ours, theirs))
            if args.verbose:
                print(f"{name}: referee {ours}, chariot {theirs}")
        print(f"{group}: {count} cycles judged")
    for (group, verdict), n in sorted(table.items()):
        print(f"  {group:13} {verdict:40} {n:6}")
    for name, fen, moves, ours, theirs in disagreements:
        print(f"DISAGREE {name}: referee {ours}, chariot {theirs}\n  chariot rules {fen} moves {' '.join(moves)}")
    total = sum(n for (g, v), n in table.items() if not v.startswith("skipped"))
    print(f"total {total} judged, {len(disagreements)} disagreements")
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
