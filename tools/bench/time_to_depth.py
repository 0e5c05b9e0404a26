#!/usr/bin/env python3
"""Time to depth: how long engine configurations take to finish `go depth D`
on the same positions, run in turn (A B A B ...) so that a machine's drift hits
them alike. Each search starts in a fresh engine process with a cleared hash
table; the time is from `go` to `bestmove`. Prints every position's median per
configuration, then each configuration's total of medians and its ratio to the
first configuration.

    python3 tools/bench/time_to_depth.py build/chariot --depth 15 --runs 3 \\
        --config nnue: --config hce:"Use NNUE=false" \\
        --config n2:"EvalFile=nets/chariot-fc5a21c1c1fd.nnue"

A configuration is NAME:OPTIONS, OPTIONS a comma-separated list of UCI
`Name=value` settings (empty for the engine's defaults). Options common to all
(64 MB hash, no book) come first; a configuration's own override them.
Positions: the start position and five middlegame and endgame positions of
`chariot bench` (or --fen, repeated)."""
import argparse
import statistics
import subprocess
import sys
import time

FENS = [
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "r1bakabn1/9/1cn5c/pCp1p1p1p/9/9/P1P1P1P1P/4C1N2/9/RNBAKAB2 b - - 1 6",
    "2bakab2/9/2n3n1c/p1p1p1p1p/1c7/3r5/P1P1P1P1P/1CN1C1N2/2R6/2BAKAB2 w - - 10 11",
    "r2aka3/9/3Rb1n1b/p3p4/c2n5/C8/P1P1P1P1P/4C1r2/1c2A4/RNB1KAB2 w - - 0 16",
    "2bakab2/1r7/2N6/pCR6/9/3n5/P3c1p2/4B4/4A4/4KAB2 w - - 2 26",
    "3ak1b2/4a3c/1Nn1b4/pR7/9/2P3BN1/8P/5r3/9/2BAKA3 b - - 18 32",
]
COMMON = [("Hash", "64"), ("OwnBook", "false")]


def parse_config(text):
    name, sep, opts = text.partition(":")
    if not sep or not name:
        raise argparse.ArgumentTypeError(f"'{text}': a configuration is NAME:OPTIONS (OPTIONS may be empty)")
    options = []
    for item in filter(None, (o.strip() for o in opts.split(","))):
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise argparse.ArgumentTypeError(f"'{item}': an option is Name=value")
        options.append((key.strip(), value.strip()))
    return name, options


class Engine:
    def __init__(self, path, options, timeout):
        self.timeout = timeout
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  text=True, bufsize=1)
        self.send("uci")
        self.wait("uciok")
        for key, value in COMMON + options:
            self.send(f"setoption name {key} value {value}")
        self.send("isready")
        for line in self.wait("readyok"):
            # An option the engine refuses is a broken measurement, not a slower one.
            if any(word in line.lower() for word in ("error", "unknown", "cannot", "keeping", "invalid", "unchanged", "ignored")):
                raise RuntimeError(f"the engine said: {line.strip()}")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def wait(self, prefix):
        seen = []
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError(f"the engine ended before '{prefix}': {self.p.stderr.read().strip()}")
            if line.startswith(prefix):
                return seen
            seen.append(line)
        raise RuntimeError(f"no '{prefix}' within {self.timeout} s")

    def time_to_depth(self, fen, depth):
        self.send(f"position fen {fen}")
        start = time.monotonic()
        self.send(f"go depth {depth}")
        self.wait("bestmove")
        return time.monotonic() - start

    def close(self):
        self.send("quit")
        try:
            self.p.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.p.kill()


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("engine", help="the engine (UCI)")
    ap.add_argument("--config", action="append", type=parse_config, required=True,
                    help="NAME:Name=value,... (repeat; the first is the reference of the ratios)")
    ap.add_argument("--depth", type=int, default=15)
    ap.add_argument("--runs", type=int, default=3, help="runs of every position and configuration")
    ap.add_argument("--fen", action="append", help="a position (repeat); default: six built-in ones")
    ap.add_argument("--timeout", type=float, default=300.0, help="seconds one search may take")
    args = ap.parse_args(argv)
    if args.depth < 1 or args.runs < 1:
        ap.error("--depth and --runs must be positive")
    fens = args.fen or FENS
    names = [name for name, _ in args.config]
    if len(set(names)) != len(names):
        ap.error("configuration names must differ")

    times = {name: [[] for _ in fens] for name in names}
    try:
        for _ in range(args.runs):
            for i, fen in enumerate(fens):
                for name, options in args.config:
                    engine = Engine(args.engine, options, args.timeout)
                    try:
                        times[name][i].append(engine.time_to_depth(fen, args.depth))
                    finally:
                        engine.close()
    except (OSError, RuntimeError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1

    print(f"time to depth {args.depth}, median of {args.runs} runs (seconds):")
    print("position  " + "".join(f"{n:>12}" for n in names))
    medians = {n: [statistics.median(t) for t in times[n]] for n in names}
    for i in range(len(fens)):
        print(f"{i + 1:>8}  " + "".join(f"{medians[n][i]:12.3f}" for n in names))
    totals = {n: sum(medians[n]) for n in names}
    print("total     " + "".join(f"{totals[n]:12.3f}" for n in names))
    ref = totals[names[0]]
    print(f"ratio     " + "".join(f"{totals[n] / ref:12.3f}" for n in names) + f"   (to {names[0]})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
