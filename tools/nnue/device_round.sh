#!/usr/bin/env bash
# The heavy part of an NNUE round on a second machine with a GPU (many
# cores, CUDA's PyTorch, but no compiler toolchain for Chariot's
# dependencies; see docs/nnue.md "On a machine with a GPU"): build portable
# binaries here, copy the checkout with its .device folder there, run datagen
# or train there, and copy the output folder back. Three steps:
#
#   tools/nnue/device_round.sh prepare [DATA...]
#       here: builds .device/chariot-* (static libstdc++, fmt header-only, one
#       portable and one AVX2 binary; .device is git-ignored) and the opening
#       book, and copies the given data files into .device/data/ (a million
#       positions take about 5.6 MB)
#   tools/nnue/device_round.sh datagen [SEED] [SECONDS] [NET]
#       there: self-play data on every core for SECONDS (default 420): one
#       generator of 4 threads per 4 cores, seeds SEED, SEED+1, ... (default
#       1000), each into OUT/gen-s<seed>.data with its log; NET: 'embedded'
#       (default) or a net file
#   tools/nnue/device_round.sh train [train.py options...]
#       there: tools/nnue/train.py on the GPU (--device cuda) over
#       .device/data/*.data; the net, its .json, the last checkpoint and the
#       log are copied into OUT; PYTHON names the interpreter that has
#       PyTorch (default python3)
#
# OUT (an environment variable) is the folder the results go to, default
# .device/out. For example, there:
#   tools/nnue/device_round.sh datagen 1000 420
#   tools/nnue/device_round.sh train --init nets/chariot-50c50c8b70b0.nnue --lr 5e-4 --epochs 12
# The shards that come back are merged with `chariot datagen merge`.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
dev="$root/.device"
out="${OUT:-$dev/out}"
job="${1:-}"
shift || true

usage() {
  sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//' >&2
  exit 2
}

case "$job" in
  prepare)
    mkdir -p "$dev/data"
    jobs="${JOBS:-$(nproc 2>/dev/null || echo 2)}"
    for arch in portable x86-64-v3; do
      march=""
      [ "$arch" = portable ] || march="$arch"
      cmake -S "$root" -B "$root/build-device-$arch" -DCMAKE_BUILD_TYPE=Release -DCHARIOT_BUILD_TESTS=OFF \
        -DCHARIOT_FMT_HEADER_ONLY=ON -DCHARIOT_MARCH="$march" \
        -DCMAKE_EXE_LINKER_FLAGS="-static-libstdc++ -static-libgcc" >/dev/null
      cmake --build "$root/build-device-$arch" -j "$jobs" --target chariot chariot_book
      cp "$root/build-device-$arch/chariot" "$dev/chariot-$arch"
    done
    cp "$root/build-device-portable/chariot.book" "$dev/chariot.book"
    for f in "$@"; do
      [ -f "$f" ] || { echo "no such data file: $f" >&2; exit 1; }
      cp "$f" "$dev/data/"
    done
    du -sh "$dev"
    ;;
  datagen)
    mkdir -p "$out"
    seed="${1:-1000}"
    seconds="${2:-420}"
    net="${3:-embedded}"
    binary="$dev/chariot-portable"
    if grep -qw avx2 /proc/cpuinfo && grep -qw bmi2 /proc/cpuinfo; then binary="$dev/chariot-x86-64-v3"; fi
    [ -x "$binary" ] || { echo "no $binary: run 'prepare' first and copy .device along" >&2; exit 1; }
    # The book is found beside the binary.
    cores=$(nproc)
    shards=$(( cores / 4 > 0 ? cores / 4 : 1 ))
    echo "datagen: $binary, $shards generators x 4 threads, seeds $seed..$(( seed + shards - 1 )), ${seconds} s, net $net"
    pids=()
    for i in $(seq 0 $(( shards - 1 ))); do
      s=$(( seed + i ))
      timeout "$seconds" "$binary" datagen --threads 4 --nodes 5000 --seed "$s" --net "$net" --progress 60 \
        "$out/gen-s$s.data" 2>"$out/gen-s$s.log" &
      pids+=($!)
    done
    for p in "${pids[@]}"; do wait "$p" || true; done  # timeout's exit 124 is the plan
    "$binary" datagen check "$out"/gen-s*.data
    ;;
  train)
    mkdir -p "$out"
    shopt -s nullglob
    data=("$dev"/data/*.data)
    [ "${#data[@]}" -gt 0 ] || { echo "no data in $dev/data: run 'prepare DATA...' first" >&2; exit 1; }
    work=/tmp/nnue-round
    rm -rf "$work"
    mkdir -p "$work"
    set +e
    PYTHONUNBUFFERED=1 "${PYTHON:-python3}" "$root/tools/nnue/train.py" --data "${data[@]}" --out-dir "$work" \
      --device cuda --threads "$(nproc)" --progress 30 "$@" 2>&1 | tee "$out/train.log"
    rc=${PIPESTATUS[0]}
    set -e
    results=("$work"/*.nnue "$work"/*.json)
    checkpoints=("$work"/checkpoints/*.pt)
    [ "${#checkpoints[@]}" -eq 0 ] || results+=("${checkpoints[-1]}")
    [ "${#results[@]}" -eq 0 ] || cp "${results[@]}" "$out/"
    ls -la "$out"
    exit "$rc"
    ;;
  *) usage ;;
esac
