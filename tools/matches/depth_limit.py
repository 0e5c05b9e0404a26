#!/usr/bin/env python3
"""Run a UCCI/UCI engine at a fixed search depth, whatever the GUI's clock says.

  depth_limit.py DEPTH ENGINE [ARG...]

Every `go ...` line from the GUI (but `go ponder ...`, passed on unchanged) is
rewritten to `go depth DEPTH`; everything else, and all the engine's output,
passes through untouched. The skill calibration (calibrate_skill.py) uses it
to make weakened, fixed anchors out of ElephantEye for the low end of the
UCI_Elo ladder: a depth-limited search plays the same strength at any clock.
Python 3 standard library only.
"""
from __future__ import annotations

import subprocess
import sys


def main() -> int:
    if len(sys.argv) < 3 or not sys.argv[1].isdigit() or int(sys.argv[1]) < 1:
        print("usage: depth_limit.py DEPTH ENGINE [ARG...]  (DEPTH a whole number >= 1)", file=sys.stderr)
        return 2
    depth = int(sys.argv[1])
    try:
        engine = subprocess.Popen(sys.argv[2:], stdin=subprocess.PIPE, text=True, bufsize=1)
    except OSError as error:
        print(f"depth_limit.py: cannot start {sys.argv[2]}: {error}", file=sys.stderr)
        return 1
    assert engine.stdin is not None
    try:
        for line in sys.stdin:
            words = line.split()
            if words and words[0] == "go" and "ponder" not in words[1:]:
                line = f"go depth {depth}\n"
            engine.stdin.write(line)
            engine.stdin.flush()
    except BrokenPipeError:
        pass
    try:
        engine.stdin.close()
    except BrokenPipeError:
        pass
    return engine.wait()


if __name__ == "__main__":
    sys.exit(main())
