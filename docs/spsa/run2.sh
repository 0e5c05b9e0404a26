#!/bin/sh
# The second search-constant SPSA run, begun 2026-11-29 on the 24cb920 engine
# (issue #14): the late-move reduction terms, now in 1024ths of a ply, with two
# new ones (not improving; the move's history) that start at zero, and the
# re-search margin. Run from the repository root after building the tuning
# build (README, "Tuning the search constants"); stopped, the same command
# continues from docs/spsa/lmr.json.
exec python3 ../shared/tools/xqspsa.py --engine build-tune/chariot \
  --openings ../shared/tools/openings.txt --tc 1+0.02 --concurrency 2 \
  --pairs-per-iter 2 --iterations 1200 --seed 29 \
  --option usebook=false \
  --param LmrBase,70,0,300,10,0.01 \
  --param LmrDivisor,179,50,600,15,0.01 \
  --param LmrPv,1024,-2048,4096,128,0.01 \
  --param LmrTtPv,1024,-2048,4096,128,0.01 \
  --param LmrKiller,1024,-2048,4096,128,0.01 \
  --param LmrCheck,1024,-2048,4096,128,0.01 \
  --param LmrCutNode,1024,-2048,4096,128,0.01 \
  --param LmrNotImproving,0,-2048,4096,128,0.01 \
  --param LmrHistory,0,-4096,8192,256,0.01 \
  --param ResearchDeeperMargin,30,0,300,6,0.01 \
  --param ResearchDeeperPerR,4,0,50,1,0.01 \
  --state docs/spsa/lmr.json "$@"
