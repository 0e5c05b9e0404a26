#!/bin/sh
# The search-constant SPSA run begun 2026-11-25 (issue #14). Run from the
# repository root after building the tuning build (README, "Tuning the search
# constants"); stopped, the same command continues from docs/spsa/search.json.
exec python3 ../shared/tools/xqspsa.py --engine build-tune/chariot \
  --openings ../shared/tools/openings.txt --tc 1+0.02 --concurrency 2 \
  --pairs-per-iter 2 --iterations 3000 --seed 14 \
  --option usebook=false \
  --param ReverseFutilityMargin,95,0,400,10 \
  --param FutilityBase,120,0,500,15 \
  --param FutilityPerDepth,90,0,400,10 \
  --param LmpBase,3,0,30,1 \
  --param SeeQuietMargin,60,0,300,8 \
  --param SeeCaptureMargin,25,0,200,4 \
  --param LmrBase,80,0,300,10 \
  --param LmrDivisor,200,50,600,15 \
  --param SingularMarginPerDepth,4,0,50,1 \
  --param AspirationDelta,36,5,200,5 \
  --param DeltaMargin,180,0,1000,20 \
  --param HistoryBonusPerDepth,140,1,1000,15 \
  --state docs/spsa/search.json "$@"
