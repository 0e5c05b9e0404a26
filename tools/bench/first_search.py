#!/usr/bin/env python3
"""Times the first search after a new hash size: start the engine, set the
hash, wait for readyok, then `go time 50 movestogo 1` (a fixed 50 ms move) and
`go infinite` + `stop` 20 ms later. Prints each run and the medians.

    python3 tools/bench/first_search.py build/chariot --hash 1024 --runs 8

A search started after readyok should answer within its 50 ms and obey stop
within a few ms, whatever the hash size."""
import argparse
import statistics
import subprocess
import time

FEN = "r1bakabr1/9/2n3n1c/p3p1p1p/2p6/2P6/P1c1P1P1P/C1N1C1N2/9/1RBAKABR1 w - - 14 8"


def run_once(engine: str, hash_mb: int) -> tuple[float, float, float]:
    p = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(line: str) -> None:
        p.stdin.write(line + "\n")
        p.stdin.flush()

    def wait(prefix: str) -> str:
        while True:
            line = p.stdout.readline()
            if not line:
                raise RuntimeError(f"engine ended before '{prefix}'")
            if line.startswith(prefix):
                return line

    send("ucci")
    wait("ucciok")
    send("setoption usemillisec true")
    send("setoption usebook false")
    t = time.monotonic()
    send(f"setoption hashsize {hash_mb}")
    send("isready")
    wait("readyok")
    ready = time.monotonic() - t
    send(f"position fen {FEN}")
    t = time.monotonic()
    send("go time 50 movestogo 1")
    wait("bestmove")
    first = time.monotonic() - t
    send("go infinite")
    time.sleep(0.02)
    t = time.monotonic()
    send("stop")
    wait("bestmove")
    stop = time.monotonic() - t
    send("quit")
    p.wait(timeout=10)
    return ready * 1000, first * 1000, stop * 1000


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("engine")
    ap.add_argument("--hash", type=int, default=1024, help="hash size in MB (default 1024)")
    ap.add_argument("--runs", type=int, default=8)
    args = ap.parse_args()
    rows = []
    for i in range(args.runs):
        rows.append(run_once(args.engine, args.hash))
        print(f"run {i + 1}: readyok after {rows[-1][0]:.0f} ms; go time 50 answered after {rows[-1][1]:.0f} ms; "
              f"stop answered after {rows[-1][2]:.0f} ms")
    med = [statistics.median(r[k] for r in rows) for k in range(3)]
    worst = [max(r[k] for r in rows) for k in range(3)]
    print(f"hash {args.hash} MB, {args.runs} runs: median readyok {med[0]:.0f} ms, first go time 50 {med[1]:.0f} ms "
          f"(max {worst[1]:.0f}), stop {med[2]:.0f} ms (max {worst[2]:.0f})")


if __name__ == "__main__":
    main()
