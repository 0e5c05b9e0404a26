#!/usr/bin/env bash
# Build Chariot's libFuzzer targets (clang, ASan + UBSan) and run them.
#
#   scripts/fuzz.sh [RUNS] [TARGET...]
#
#   RUNS     executions per target (default 100000; 0 builds only)
#   TARGET   fuzz_fen, fuzz_moves, fuzz_protocol (default: all three)
#
# Environment: BUILD_DIR (default build-fuzz), JOBS (default 2), FUZZ_ARGS
# (extra libFuzzer flags, e.g. "-max_total_time=600 -jobs=2"), CORPUS_DIR
# (default $BUILD_DIR/corpus: the corpora live in the build directory and are
# never committed). A crash leaves its input as $BUILD_DIR/artifacts/crash-*;
# replay it with: $BUILD_DIR/tests/fuzz/<target> <file>.
set -euo pipefail

runs="${1:-100000}"
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(fuzz_fen fuzz_moves fuzz_protocol)

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${BUILD_DIR:-$root/build-fuzz}"
jobs="${JOBS:-2}"
corpus_root="${CORPUS_DIR:-$build_dir/corpus}"

# 1. Debian packages: clang with libFuzzer's runtime, cmake, fmt.
has_libfuzzer() {  # can clang++ link a fuzz target?
  command -v clang++ >/dev/null || return 1
  local dir; dir="$(mktemp -d)"
  echo 'extern "C" int LLVMFuzzerTestOneInput(const unsigned char*, unsigned long) { return 0; }' >"$dir/t.cpp"
  clang++ -fsanitize=fuzzer "$dir/t.cpp" -o "$dir/t" >/dev/null 2>&1
  local ok=$?
  rm -rf "$dir"
  return $ok
}
install() {
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "need root (or sudo) to install: $*" >&2; exit 1; }
    sudo="sudo"
  fi
  echo "== installing: $*"
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "$@"
}
need=()
command -v clang++ >/dev/null || need+=(clang)
command -v cmake >/dev/null || need+=(cmake)
dpkg -s libfmt-dev >/dev/null 2>&1 || need+=(libfmt-dev)
[ ${#need[@]} -eq 0 ] || install "${need[@]}"
if ! has_libfuzzer; then
  # Debian ships libFuzzer's runtime in libclang-rt-NN-dev (older releases: libfuzzer-NN-dev).
  major="$(clang++ -dumpversion | cut -d. -f1)"
  install "libclang-rt-$major-dev" || install "libfuzzer-$major-dev"
  has_libfuzzer || { echo "clang++ still cannot link -fsanitize=fuzzer" >&2; exit 1; }
fi

# 2. Build: CHARIOT_FUZZ instruments everything with
#    -fsanitize=fuzzer-no-link,address,undefined and links the targets with -fsanitize=fuzzer.
echo "== building the fuzz targets in $build_dir"
cmake -S "$root" -B "$build_dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
  -DCHARIOT_FUZZ=ON -DCHARIOT_BUILD_TESTS=OFF >/dev/null
cmake --build "$build_dir" -j "$jobs" --target "${targets[@]}"
[ "$runs" -gt 0 ] || exit 0

# 3. Run. Seeds: the start position and a few commands, so the fuzzer starts
#    from meaningful input.
mkdir -p "$build_dir/artifacts"
seed() {  # seed <target> <name> <text>
  mkdir -p "$corpus_root/$1"
  printf '%s' "$3" >"$corpus_root/$1/seed-$2"
}
start='rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1'
seed fuzz_fen start "$start"
seed fuzz_fen midgame 'r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1'
seed fuzz_fen check '4C3c/4a1P2/3k5/9/9/9/9/9/4K4/9 b - - 0 1'
seed fuzz_moves start "$start
h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 x y z"
seed fuzz_moves endgame '3k5/9/9/9/9/4c4/9/9/4C4/4K4 w - - 0 1
e1e2 d9d8 A B C D'
seed fuzz_protocol ucci 'ucci
setoption usemillisec true
setoption usebook false
setoption hashsize 16
position startpos moves h2e2 h9g7
go depth 3
isready
probe
d
quit'
seed fuzz_protocol uci 'uci
setoption name Hash value 8
setoption name MultiPV value 3
position fen 3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1 moves a1d1
go infinite
stop
go ponder wtime 1000 btime 1000
ponderhit
banmoves h2e2
eval
perft 2'

for target in "${targets[@]}"; do
  echo "== $target: $runs runs"
  mkdir -p "$corpus_root/$target"
  # Input sizes: a FEN is short; a few hundred moves or commands are plenty.
  case "$target" in fuzz_fen) max_len=512 ;; fuzz_moves) max_len=1024 ;; *) max_len=4096 ;; esac
  # -timeout: a hang is a finding (the protocol target caps every search at depth 2).
  # shellcheck disable=SC2086
  "$build_dir/tests/fuzz/$target" "$corpus_root/$target" -runs="$runs" -timeout=20 -rss_limit_mb=4096 \
    -max_len="$max_len" -print_final_stats=1 -artifact_prefix="$build_dir/artifacts/" ${FUZZ_ARGS:-}
done
