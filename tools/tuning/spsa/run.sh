#!/bin/sh
# Continue one of the search-constant SPSA runs (docs/tuning.md, "Tuning the
# search constants") from its state file:
#
#   tools/tuning/spsa/run.sh STATE.json [more xqspsa.py options]
#
#   tools/tuning/spsa/run.sh tools/tuning/spsa/search.json  # run 1, 2026-11-28, 14 constants
#   tools/tuning/spsa/run.sh tools/tuning/spsa/lmr.json     # run 2, 2026-11-29, the LMR terms
#   tools/tuning/spsa/run.sh tools/tuning/spsa/prune.json   # run 3, 2026-12-01, razoring, ProbCut, margins
#   tools/tuning/spsa/run.sh tools/tuning/spsa/net.json     # run 4, 2026-12-06, 15 constants with the net
#
# The state file is the parameter set: its "run" section holds the parameters
# (NAME,START,MIN,MAX,C_END,R_END), the iteration count, the game pairs per
# iteration and the gains, and "seed" the seed; xqspsa.py resumes a state only
# when the command repeats exactly these, so they are read from it. What the
# runs share is fixed here: the tuning build (build-tune/chariot, built with
# -DCHARIOT_TUNABLE=ON), 1 s + 0.02 s, concurrency 2, no book, the shared
# openings-book.txt (984 lines; runs 1-3 were played on the 42 of openings.txt:
# `--openings .../openings.txt` continues one as it began). Options after
# STATE.json go to xqspsa.py and override these (for example --concurrency 14
# on a larger machine).
#
# xqspsa.py and openings-book.txt come from the shared tools folder:
# $CHARIOT_SHARED_TOOLS, by default ../shared/tools beside the repository.
set -eu
if [ $# -lt 1 ] || [ ! -f "$1" ]; then
  echo "usage: $0 STATE.json [xqspsa.py options]   (state files: tools/tuning/spsa/*.json)" >&2
  exit 2
fi
state=$1
shift
root=$(cd "$(dirname "$0")/../../.." && pwd)
tools=${CHARIOT_SHARED_TOOLS:-$root/../shared/tools}

# The run's own arguments, one a line (none contains a space).
run_args=$(python3 - "$state" <<'EOF'
import json, sys
state = json.load(open(sys.argv[1], encoding="utf-8"))
run = state["run"]
print("--iterations", run["iterations"], "--pairs-per-iter", run["pairs_per_iter"],
      "--alpha", repr(run["alpha"]), "--gamma", repr(run["gamma"]), "--a-ratio", repr(run["a_ratio"]),
      "--seed", state["seed"], sep="\n")
for p in run["params"]:
    print("--param")
    print(",".join([p["name"]] + [repr(p[key]) for key in ("start", "min", "max", "c_end", "r_end")]))
EOF
)

# shellcheck disable=SC2086  # run_args is split on purpose
exec python3 "$tools/xqspsa.py" --engine "$root/build-tune/chariot" \
  --openings "$tools/openings-book.txt" --tc 1+0.02 --concurrency 2 \
  --option usebook=false \
  $run_args --state "$state" "$@"
