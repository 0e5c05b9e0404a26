#!/usr/bin/env python3
"""Pool the pentanomial counts of several runs of the same two binaries.

Sums the Ptnml(0-2) counts given on the command line (or read from xqmatch
logs) and prints the pooled Elo with its 95% interval and the SPRT LLR,
computed with xqmatch.py's own functions (found beside this repository in
../shared/tools, or through --xqmatch).

  pool_sprt.py --sprt 0 10 13,72,101,85,24 9,45,71,48,20
  pool_sprt.py --sprt 0 10 run1.log run2.log
"""
import argparse
import importlib.util
import math
import os
import re
import sys


def load_xqmatch(path):
    spec = importlib.util.spec_from_file_location("xqmatch", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["xqmatch"] = module  # its dataclasses look their module up
    sys.path.insert(0, os.path.dirname(path))
    spec.loader.exec_module(module)
    return module


def counts_of(item):
    if os.path.isfile(item):
        found = re.findall(r"^Ptnml\(0-2\): ([\d, ]+)", open(item, encoding="utf-8").read(), re.M)
        if not found:
            sys.exit(f"{item}: no Ptnml(0-2) summary line")
        item = found[-1]
    counts = [int(x) for x in re.split(r"[,\s]+", item.strip()) if x]
    if len(counts) != 5:
        sys.exit(f"{item!r}: five counts expected")
    return counts


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("runs", nargs="+", help="a,b,c,d,e counts or xqmatch log files")
    ap.add_argument("--sprt", nargs=2, type=float, default=[0.0, 10.0], metavar=("ELO0", "ELO1"))
    ap.add_argument("--xqmatch", default=os.path.join(here, "..", "..", "..", "shared", "tools", "xqmatch.py"))
    args = ap.parse_args()
    xq = load_xqmatch(args.xqmatch)
    pooled = [0] * 5
    for run in args.runs:
        for i, c in enumerate(counts_of(run)):
            pooled[i] += c
    elo, low, high = xq.pentanomial_elo(pooled)
    llr = xq.llr_logistic(pooled, *args.sprt)
    bound = math.log(0.95 / 0.05)
    print(f"pooled Ptnml {', '.join(map(str, pooled))} ({sum(pooled)} pairs, {2 * sum(pooled)} games)")
    print(f"Elo {elo:+.1f}, 95% [{low:+.1f}, {high:+.1f}]; LLR {llr:.2f} [{-bound:.2f}, {bound:.2f}] "
          f"for elo0 {args.sprt[0]:g}, elo1 {args.sprt[1]:g}")


if __name__ == "__main__":
    main()
