#!/bin/sh
# The search-constant SPSA run begun 2026-11-28 on the cf4ecc1 engine (issue
# #14; it replaces the 2026-11-25 run, whose 123 iterations were played on an
# older search). Run from the repository root after building the tuning build
# (README, "Tuning the search constants"); stopped, the same command continues
# from docs/spsa/search.json.
exec python3 ../shared/tools/xqspsa.py --engine build-tune/chariot \
  --openings ../shared/tools/openings.txt --tc 1+0.02 --concurrency 2 \
  --pairs-per-iter 2 --iterations 2000 --seed 28 \
  --option usebook=false \
  --param ReverseFutilityMargin,95,0,400,10,0.01 \
  --param ReverseFutilityDepth,6,0,16,1,0.01 \
  --param FutilityBase,120,0,500,15,0.01 \
  --param FutilityPerDepth,90,0,400,10,0.01 \
  --param LmpBase,3,0,30,1,0.01 \
  --param SeeQuietMargin,60,0,300,8,0.01 \
  --param SeeCaptureMargin,25,0,200,4,0.01 \
  --param LmrBase,80,0,300,10,0.01 \
  --param LmrDivisor,200,50,600,15,0.01 \
  --param SingularMarginPerDepth,2,0,50,1,0.01 \
  --param AspirationDelta,36,5,200,5,0.01 \
  --param DeltaMargin,180,0,1000,20,0.01 \
  --param HistoryBonusPerDepth,140,1,1000,15,0.01 \
  --param HistoryBonusMax,1600,100,8000,150,0.01 \
  --state docs/spsa/search.json "$@"
