#!/usr/bin/env python3
"""Rate Chariot's skill levels (issue #16) by games against fixed anchors.

Every level in --levels plays, with xqmatch.py (the shared referee), its
neighbours in the list (a ladder) and each fixed anchor whose rating is within
--window of the level's current estimate (the nearest anchor when none is; the
level list's top always meets one). All games go into one maximum-likelihood
fit (logistic Elo, draws half a point) with the anchors' ratings held fixed,
which prints each level's Elo with its 95% interval, a Markdown table for
docs/skill.md / docs/strength.md and the list of (level, Elo) points for
src/skill.cpp (made strictly increasing if the fit is not).

  tools/matches/calibrate_skill.py --games 100 --tc 10+0.1
  tools/matches/calibrate_skill.py --levels 0,5,10,15,20 --games 60 --tc 3+0.05 \\
      --anchor 'ElephantEye,2000,ucci,/work/ext/eleeye/eleeye/eleeye,usebook=false'
  tools/matches/calibrate_skill.py --levels 5 --games 2 --tc 2+0.05   # a smoke test: one pairing

Each pairing's xqmatch output and PGN are kept in --out; a pairing whose
output is already there (with its summary) is not played again, so an
interrupted run continues where it stopped, and --fit-only refits without
playing. Python 3 standard library only.
"""
from __future__ import annotations

import argparse
import math
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]  # the repository (this file is tools/matches/)
DEFAULT_XQMATCH = ROOT.parent / "shared" / "tools" / "xqmatch.py"
DEFAULT_OPENINGS = ROOT.parent / "shared" / "tools" / "openings.txt"
DEFAULT_ELEEYE = ROOT.parent / "ext" / "eleeye" / "eleeye" / "eleeye"
MAX_LEVEL = 20


@dataclass
class Player:
    name: str
    rating: float | None          # fixed anchors: their rating; levels: None (fitted)
    command: str
    proto: str = "ucci"
    options: list[str] = field(default_factory=list)
    guess: float = 0.0            # starting estimate (levels: the compiled-in table)

    @property
    def fixed(self) -> bool:
        return self.rating is not None


@dataclass
class Pairing:
    first: Player
    second: Player
    wins: int = 0
    draws: int = 0
    losses: int = 0
    ptnml: list[int] = field(default_factory=list)

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def points(self) -> float:
        return self.wins + 0.5 * self.draws

    @property
    def stem(self) -> str:
        return f"{slug(self.first.name)}_vs_{slug(self.second.name)}"


def slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9.+-]+", "-", text).strip("-")


def compiled_table(source: Path) -> list[tuple[float, float]]:
    """The (level, Elo) points of src/skill.cpp, for the starting estimates."""
    try:
        text = source.read_text()
    except OSError:
        return []
    block = re.search(r"points\s*=\s*\{(.*?)\};", text, re.S)
    if not block:
        return []
    return [(float(a), float(b)) for a, b in re.findall(r"\{\s*([0-9.]+)\s*,\s*([0-9]+)\s*\}", block.group(1))]


def interpolate(table: list[tuple[float, float]], level: float) -> float:
    if not table:
        return 1000 + 60 * level
    if level <= table[0][0]:
        return table[0][1]
    for (l0, e0), (l1, e1) in zip(table, table[1:]):
        if level <= l1:
            return e0 + (e1 - e0) * (level - l0) / (l1 - l0)
    return table[-1][1]


def parse_anchor(spec: str) -> Player:
    parts = spec.split(",")
    if len(parts) < 4:
        raise argparse.ArgumentTypeError(f"anchor '{spec}': expected NAME,ELO,PROTO,COMMAND[,OPTION=VALUE...]")
    name, elo, proto, command, *options = parts
    try:
        rating = float(elo)
    except ValueError:
        raise argparse.ArgumentTypeError(f"anchor '{spec}': '{elo}' is not a rating") from None
    return Player(name, rating, command, proto, options, rating)


def schedule(levels: list[Player], anchors: list[Player], window: float) -> list[Pairing]:
    """Neighbouring levels play each other; each level plays the anchors near
    its estimate (or the nearest one), so that every level is connected to a
    fixed rating."""
    pairings: list[Pairing] = []
    ordered = sorted(levels, key=lambda p: p.guess)
    for low, high in zip(ordered, ordered[1:]):
        pairings.append(Pairing(high, low))
    for level in ordered:
        near = [a for a in anchors if abs(a.guess - level.guess) <= window]
        if not near and anchors and (level is ordered[-1] or len(ordered) == 1):
            near = [min(anchors, key=lambda a: abs(a.guess - level.guess))]
        for anchor in near:
            pairings.append(Pairing(level, anchor))
    return pairings


SUMMARY_WDL = re.compile(r"^W/D/L \(.*\): (\d+) / (\d+) / (\d+)", re.M)
SUMMARY_PTNML = re.compile(r"^Ptnml\(0-2\): ([0-9, ]+?)\s+\(", re.M)


def read_result(pairing: Pairing, path: Path) -> bool:
    try:
        text = path.read_text(errors="replace")
    except OSError:
        return False
    wdl = SUMMARY_WDL.findall(text)
    if not wdl:
        return False
    pairing.wins, pairing.draws, pairing.losses = map(int, wdl[-1])
    ptnml = SUMMARY_PTNML.findall(text)
    pairing.ptnml = [int(x) for x in ptnml[-1].split(",")] if ptnml else []
    return True


def play(pairing: Pairing, args: argparse.Namespace, out: Path) -> None:
    log = out / f"{pairing.stem}.txt"
    if read_result(pairing, log):
        print(f"== {pairing.first.name} vs {pairing.second.name}: already played "
              f"(+{pairing.wins} ={pairing.draws} -{pairing.losses}), {log}")
        return
    command = [sys.executable, str(args.xqmatch)]
    for number, player in ((1, pairing.first), (2, pairing.second)):
        command += [f"--engine{number}", player.command, f"--proto{number}", player.proto,
                    f"--name{number}", player.name]
        for option in player.options:
            command += [f"--option{number}", option]
    command += ["--games", str(args.games), "--concurrency", str(args.concurrency),
                "--pgn", str(out / f"{pairing.stem}.pgn")]
    command += args.limit
    if args.openings:
        command += ["--openings", str(args.openings)]
    print(f"== {pairing.first.name} vs {pairing.second.name}: {shlex.join(command)}", flush=True)
    if args.dry_run:
        return
    partial = log.with_suffix(".part")
    with open(partial, "w") as sink:
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        assert process.stdout is not None
        for line in process.stdout:
            sink.write(line)
            sink.flush()
            if args.verbose or not line.startswith("Game "):
                print("   " + line, end="")
        code = process.wait()
    if code != 0:
        raise SystemExit(f"xqmatch exited with {code}; its output is in {partial}")
    os.replace(partial, log)
    if not read_result(pairing, log):
        raise SystemExit(f"no W/D/L summary in {log}")


def expected(diff: float) -> float:
    return 1 / (1 + 10 ** (-diff / 400))


def solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (small systems)."""
    n = len(vector)
    a = [row[:] + [vector[i]] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        if abs(a[pivot][col]) < 1e-12:
            raise ValueError("singular system: a level is not connected to an anchor")
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(n):
            if r != col:
                f = a[r][col] / a[col][col]
                for c in range(col, n + 1):
                    a[r][c] -= f * a[col][c]
    return [a[i][n] / a[i][i] for i in range(n)]


def inverse(matrix: list[list[float]]) -> list[list[float]]:
    n = len(matrix)
    columns = [solve(matrix, [1.0 if i == j else 0.0 for i in range(n)]) for j in range(n)]
    return [[columns[j][i] for j in range(n)] for i in range(n)]


def fit(players: list[Player], pairings: list[Pairing], prior_draws: float) -> dict[str, tuple[float, float]]:
    """Maximum likelihood ratings of the free players (Newton's method) with
    the anchors fixed: each pairing's points as a binomial count of its games
    (a draw half a point), plus `prior_draws` virtual draws per pairing so
    that a clean sweep still has a finite rating. Returns name -> (rating,
    standard error) from the inverse of the information matrix."""
    free = [p for p in players if not p.fixed]
    index = {p.name: i for i, p in enumerate(free)}
    rating = {p.name: (p.rating if p.fixed else p.guess) for p in players}
    k = math.log(10) / 400
    data = [(p.first.name, p.second.name, p.points + prior_draws / 2, p.games + prior_draws)
            for p in pairings if p.games > 0]
    info = [[0.0] * len(free) for _ in free]
    for _ in range(100):
        grad = [0.0] * len(free)
        info = [[0.0] * len(free) for _ in free]
        for a, b, points, games in data:
            e = expected(rating[a] - rating[b])
            g = k * (points - games * e)
            w = k * k * games * e * (1 - e)
            for name, sign in ((a, 1), (b, -1)):
                if name in index:
                    grad[index[name]] += sign * g
                    info[index[name]][index[name]] += w
            if a in index and b in index:
                info[index[a]][index[b]] -= w
                info[index[b]][index[a]] -= w
        step = solve(info, grad)
        for p in free:
            rating[p.name] += max(-400.0, min(400.0, step[index[p.name]]))
        if max(abs(s) for s in step) < 1e-6:
            break
    covariance = inverse(info)
    return {p.name: (rating[p.name], math.sqrt(max(covariance[index[p.name]][index[p.name]], 0.0))) for p in free}


def increasing(values: list[float], weights: list[float]) -> list[float]:
    """Weighted isotonic regression (pool adjacent violators), then at least
    1 Elo between neighbours: the compiled table must be strictly increasing."""
    blocks: list[list[float]] = []  # [value, weight, count]
    for v, w in zip(values, weights):
        blocks.append([v, w, 1])
        while len(blocks) > 1 and blocks[-2][0] >= blocks[-1][0]:
            v2, w2, c2 = blocks.pop()
            v1, w1, c1 = blocks.pop()
            blocks.append([(v1 * w1 + v2 * w2) / (w1 + w2), w1 + w2, c1 + c2])
    out: list[float] = []
    for v, _, c in blocks:
        out += [v] * c
    for i in range(1, len(out)):
        out[i] = max(out[i], out[i - 1] + 1)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engine", default=str(ROOT / "build" / "chariot"), help="Chariot binary (default build/chariot)")
    parser.add_argument("--levels", default="0,4,8,12,16,20",
                        help="comma-separated skill levels to rate (default 0,4,8,12,16,20; 20 is full strength)")
    parser.add_argument("--anchor", action="append", type=parse_anchor, default=[],
                        help="fixed anchor NAME,ELO,PROTO,COMMAND[,OPTION=VALUE...] (repeatable; default "
                             "ElephantEye 3.31 = 2000, UCCI, no book)")
    parser.add_argument("--window", type=float, default=400,
                        help="a level plays the anchors within this many Elo of its estimate (default 400)")
    parser.add_argument("--games", type=int, default=100, help="games per pairing (default 100; even: pairs)")
    limit = parser.add_mutually_exclusive_group()
    limit.add_argument("--tc", help="clock BASE+INC in seconds (default 3+0.05, the control of the ElephantEye yardstick)")
    limit.add_argument("--movetime", help="ms per move")
    parser.add_argument("--concurrency", type=int, default=1, help="xqmatch --concurrency (default 1: 2 cores)")
    parser.add_argument("--openings", type=Path, default=DEFAULT_OPENINGS if DEFAULT_OPENINGS.exists() else None)
    parser.add_argument("--xqmatch", type=Path, default=DEFAULT_XQMATCH)
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "calibration",
                        help="directory for each pairing's output and PGN (default build/calibration)")
    parser.add_argument("--prior-draws", type=float, default=1.0,
                        help="virtual draws added to every pairing in the fit (default 1)")
    parser.add_argument("--fit-only", action="store_true", help="play nothing; fit the pairings already in --out")
    parser.add_argument("--dry-run", action="store_true", help="print the xqmatch commands only")
    parser.add_argument("--verbose", action="store_true", help="also echo xqmatch's per-game lines")
    args = parser.parse_args()

    args.limit = ["--movetime", args.movetime] if args.movetime else ["--tc", args.tc or "3+0.05"]
    try:
        level_numbers = sorted({float(x) for x in args.levels.split(",") if x.strip()})
    except ValueError:
        parser.error(f"--levels: '{args.levels}' is not a list of numbers")
    if not level_numbers or any(not 0 <= x <= MAX_LEVEL for x in level_numbers):
        parser.error("--levels: numbers from 0 to 20")
    if not args.anchor:
        args.anchor = [Player("ElephantEye", 2000.0, str(DEFAULT_ELEEYE), "ucci", ["usebook=false"], 2000.0)]
    if not args.dry_run and not args.fit_only:
        for path in [Path(args.engine), args.xqmatch]:
            if not path.exists():
                parser.error(f"{path} does not exist")

    table = compiled_table(ROOT / "src" / "skill.cpp")
    levels = [Player(f"Chariot-L{x:g}", None, args.engine, "ucci", [f"skilllevel={x:g}", "usebook=false"],
                     interpolate(table, x)) for x in level_numbers]
    pairings = schedule(levels, args.anchor, args.window)
    args.out.mkdir(parents=True, exist_ok=True)
    control = " ".join(args.limit)
    print(f"{len(levels)} level(s), {len(args.anchor)} anchor(s), {len(pairings)} pairing(s) of {args.games} "
          f"games at {control}; output in {args.out}")

    for pairing in pairings:
        if args.fit_only:
            read_result(pairing, args.out / f"{pairing.stem}.txt")
        else:
            play(pairing, args, args.out)
    if args.dry_run:
        return 0

    played = [p for p in pairings if p.games > 0]
    print("\n=== pairings ===")
    print("| player | opponent | games | W / D / L | score | Elo difference (95%, per game) |")
    print("|---|---|---|---|---|---|")
    for p in played:
        s = p.points / p.games
        se = math.sqrt(max((p.wins * (1 - s) ** 2 + p.draws * (0.5 - s) ** 2 + p.losses * s ** 2) / p.games, 0)
                       / p.games)
        def elo(x: float) -> str:
            if x <= 0:
                return "-inf"
            if x >= 1:
                return "+inf"
            return f"{-400 * math.log10(1 / x - 1):+.0f}"
        print(f"| {p.first.name} | {p.second.name} | {p.games} | {p.wins} / {p.draws} / {p.losses} | "
              f"{100 * s:.1f}% | {elo(s)} [{elo(s - 1.96 * se)}, {elo(s + 1.96 * se)}] |")
    rated_levels = [lv for lv in levels if any(lv in (p.first, p.second) for p in played)]
    if not rated_levels:
        print("no games: nothing to fit")
        return 0
    try:
        ratings = fit(rated_levels + args.anchor, played, args.prior_draws)
    except ValueError as error:
        print(f"fit failed: {error}")
        return 1

    games_of = {lv.name: sum(p.games for p in played if lv in (p.first, p.second)) for lv in rated_levels}
    anchors = ", ".join(f"{a.name} = {a.rating:g}" for a in args.anchor)
    print(f"\n=== ratings ({anchors}; {control}; {args.prior_draws:g} virtual draw(s) per pairing) ===")
    print("| level | Elo | games | 95% interval | interval width |")
    print("|---|---|---|---|---|")
    for lv in rated_levels:
        r, se = ratings[lv.name]
        print(f"| {lv.name.removeprefix('Chariot-L')} | {r:.0f} | {games_of[lv.name]} | "
              f"[{r - 1.96 * se:.0f}, {r + 1.96 * se:.0f}] | {2 * 1.96 * se:.0f} |")
    values = [ratings[lv.name][0] for lv in rated_levels]
    weights = [1 / max(ratings[lv.name][1], 1.0) ** 2 for lv in rated_levels]
    table_values = increasing(values, weights)
    if table_values != values:
        print("note: the fitted ratings are not strictly increasing in the level; the table below is the "
              "weighted isotonic fit (pooled neighbours)")
    numbers = [float(lv.name.removeprefix("Chariot-L")) for lv in rated_levels]
    print("\nsrc/skill.cpp (the points must start at level 0 and end at level 20):")
    print("        " + ", ".join(f"{{{n:g}, {v:.0f}}}" for n, v in zip(numbers, table_values)) + ",")
    if numbers[0] != 0 or numbers[-1] != MAX_LEVEL:
        print("warning: levels 0 and 20 were not both rated; the compiled table needs both ends")
    return 0


if __name__ == "__main__":
    sys.exit(main())
