#!/bin/sh
# The third search-constant SPSA run, begun 2026-12-01 on the 707c7e2 engine
# (stack stk4; issue #14): razoring and ProbCut's margins, untuned since they
# were added, retuned together with the pruning margins they interact with
# (reverse futility, futility, SEE, quiescence delta) and the history bonus.
# Run from the repository root after building the tuning build (README,
# "Tuning the search constants"); stopped, the same command continues from
# docs/spsa/prune.json.
exec python3 ../shared/tools/xqspsa.py --engine build-tune/chariot \
  --openings ../shared/tools/openings.txt --tc 1+0.02 --concurrency 2 \
  --pairs-per-iter 2 --iterations 1000 --seed 31 \
  --option usebook=false \
  --param RazorBase,230,0,1000,20,0.01 \
  --param RazorPerDepth,150,0,1000,15,0.01 \
  --param ProbCutMargin,100,0,1000,12,0.01 \
  --param ReverseFutilityMargin,99,0,400,10,0.01 \
  --param FutilityBase,121,0,500,15,0.01 \
  --param FutilityPerDepth,91,0,400,10,0.01 \
  --param SeeQuietMargin,42,0,300,6,0.01 \
  --param SeeCaptureMargin,25,0,200,4,0.01 \
  --param DeltaMargin,185,0,1000,20,0.01 \
  --param HistoryBonusPerDepth,151,1,1000,15,0.01 \
  --param HistoryBonusMax,1621,100,8000,150,0.01 \
  --state docs/spsa/prune.json "$@"
