#!/usr/bin/env bash
# Checks that the C++ sources follow .clang-format (CI runs it); with --fix,
# rewrites them. Generated files (the tuner's eval_weights.h, the WDL fit's
# wdl_model.h) are left as their generators write them.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
if ! command -v clang-format >/dev/null; then
  echo "WARNING: clang-format not installed; format check skipped (apt-get install clang-format)"
  exit 0
fi
mapfile -t files < <(git ls-files 'src/*.cpp' 'src/**/*.cpp' 'include/*.h' 'tests/*.cpp' 'tests/*.h' 'tests/fuzz/*.cpp' |
                     grep -v -e 'include/chariot/eval_weights.h' -e 'include/chariot/wdl_model.h')
if [ "${1:-}" = --fix ]; then
  clang-format -i --style=file "${files[@]}"
  exit 0
fi
bad=0
for f in "${files[@]}"; do
  if ! clang-format --style=file "$f" | cmp -s "$f" -; then
    echo "not formatted: $f (scripts/check_format.sh --fix)"
    bad=1
  fi
done
[ "$bad" = 0 ] && echo "format: ${#files[@]} files follow .clang-format"
exit "$bad"
