#!/usr/bin/env bash
# Set up a fresh Debian machine for Chariot, build it, and run one job.
#
#   scripts/build.sh bench   install what is missing, build Release, run `chariot bench`
#   scripts/build.sh test    install what is missing, build Release, run the whole test suite
#                            (it also installs what .ci/run's XBoard test needs: XBoard, Xvfb,
#                            xwd, ImageMagick and Fairy-Max's maxqi)
#
# Environment: BUILD_DIR (default build), BUILD_TYPE (default Release), JOBS.
set -euo pipefail

job="${1:-bench}"
case "$job" in bench|test) ;; *) echo "usage: $0 bench|test" >&2; exit 2 ;; esac

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${BUILD_DIR:-$root/build}"
build_type="${BUILD_TYPE:-Release}"
jobs="${JOBS:-$(nproc 2>/dev/null || echo 2)}"

# 1. Debian packages: install only what is missing.
packages=(cmake g++ make libfmt-dev catch2 python3)
if [ "$job" = test ]; then
  # scripts/test_xboard.sh: XBoard under a virtual X server, screenshots, and
  # a second xiangqi engine to play.
  packages+=(xboard xvfb x11-apps imagemagick fairymax)
fi
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "== installing: ${missing[*]}"
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "need root (or sudo) to install: ${missing[*]}" >&2; exit 1; }
    sudo="sudo"
  fi
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# 2. Configure and build.
echo "== building ($build_type) in $build_dir"
cmake -S "$root" -B "$build_dir" -DCMAKE_BUILD_TYPE="$build_type"
cmake --build "$build_dir" -j "$jobs"

# 3. The job.
if [ "$job" = bench ]; then
  exec "$build_dir/chariot" bench
fi
cd "$build_dir"
ctest --output-on-failure -j "$jobs"
