#!/usr/bin/env bash
# Set up a fresh Debian machine for Chariot, build it, and run one job.
#
#   scripts/build.sh bench     install what is missing, build Release, run `chariot bench`
#   scripts/build.sh test      install what is missing, build Release, run the whole test suite
#                              (it also installs what .ci/run's XBoard test needs: XBoard, Xvfb,
#                              xwd, ImageMagick and Fairy-Max's maxqi, and PyTorch for the
#                              NNUE trainer's tests)
#   scripts/build.sh windows   install what is missing, cross-compile build-windows/chariot.exe
#                              (MinGW-w64, cmake/mingw-w64-x86_64.cmake) and its chariot.book
#   scripts/build.sh wasm      install what is missing (Emscripten, Node.js, npm), build the
#                              WebAssembly engine in build-wasm/package/chariot.js (net and book
#                              inside) and, in build-wasm/single, its single-threaded module
#                              chariot-st.js, their npm package build-wasm/chariot-xiangqi-<version>.tgz
#                              and the demo page in build-wasm/demo (docs/web.md)
#
# Environment: BUILD_DIR (default build; build-windows for `windows`, build-wasm
# for `wasm`), BUILD_TYPE (default Release), JOBS. `windows` builds the book with
# wine if it is installed, else with a native chariot built in NATIVE_BUILD_DIR
# (default build); `wasm` always builds the book with that native chariot.
set -euo pipefail

job="${1:-bench}"
case "$job" in bench|test|windows|wasm) ;; *) echo "usage: $0 bench|test|windows|wasm" >&2; exit 2 ;; esac

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [ "$job" = windows ]; then
  build_dir="${BUILD_DIR:-$root/build-windows}"
elif [ "$job" = wasm ]; then
  build_dir="${BUILD_DIR:-$root/build-wasm}"
else
  build_dir="${BUILD_DIR:-$root/build}"
fi
build_type="${BUILD_TYPE:-Release}"
jobs="${JOBS:-$(nproc 2>/dev/null || echo 2)}"

# 1. Debian packages: install only what is missing.
packages=(cmake g++ make libfmt-dev libzstd-dev catch2 python3)
if [ "$job" = test ]; then
  # scripts/test_xboard.sh: XBoard under a virtual X server, screenshots, and
  # a second xiangqi engine to play.
  packages+=(xboard xvfb x11-apps imagemagick fairymax)
  # tools/nnue/test_nnue.py: the NNUE trainer's tests (CTest nnue.trainer).
  packages+=(python3-numpy python3-torch)
fi
# fmt and Catch2 are used header-only by the cross build; g++ builds the book
# builder when there is no wine.
if [ "$job" = windows ]; then packages+=(g++-mingw-w64-x86-64-posix); fi
# Emscripten (Debian's, with its clang and binaryen); Node.js and npm only if
# there is no node or npm (one from elsewhere, e.g. NodeSource, will do).
if [ "$job" = wasm ]; then
  packages+=(emscripten)
  command -v node >/dev/null || packages+=(nodejs)
  command -v npm >/dev/null || packages+=(npm)
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
if [ "$job" = windows ]; then
  book_builder=()
  if ! command -v wine >/dev/null && ! command -v wine64 >/dev/null; then
    native_dir="${NATIVE_BUILD_DIR:-$root/build}"
    echo "== no wine: building the native chariot in $native_dir to build the book"
    cmake -S "$root" -B "$native_dir" -DCMAKE_BUILD_TYPE="$build_type"
    cmake --build "$native_dir" -j "$jobs" --target chariot
    book_builder=(-DCHARIOT_BOOK_BUILDER="$native_dir/chariot")
  fi
  echo "== cross-compiling for Windows ($build_type) in $build_dir"
  # WINEDEBUG=-all: quiet wine, when it builds the book.
  export WINEDEBUG="${WINEDEBUG:--all}"
  cmake -S "$root" -B "$build_dir" -DCMAKE_BUILD_TYPE="$build_type" \
    -DCMAKE_TOOLCHAIN_FILE="$root/cmake/mingw-w64-x86_64.cmake" "${book_builder[@]}"
  # The book is built by wine (the toolchain file found it) or by the native build.
  cmake --build "$build_dir" -j "$jobs" --target chariot chariot_book
  echo "== built $build_dir/chariot.exe and $build_dir/chariot.book"
  exit 0
fi
if [ "$job" = wasm ]; then
  native_dir="${NATIVE_BUILD_DIR:-$root/build}"
  echo "== building the native chariot in $native_dir (it builds the book)"
  cmake -S "$root" -B "$native_dir" -DCMAKE_BUILD_TYPE="$build_type"
  cmake --build "$native_dir" -j "$jobs" --target chariot
  # Debian's Emscripten runs its JavaScript tools with Debian's node modules.
  export NODE_PATH="/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}"
  echo "== building the WebAssembly engine ($build_type) in $build_dir"
  emcmake cmake -S "$root" -B "$build_dir" -DCMAKE_BUILD_TYPE="$build_type" -DCHARIOT_BUILD_TESTS=OFF \
    -DCHARIOT_BOOK_BUILDER="$native_dir/chariot"
  cmake --build "$build_dir" -j "$jobs" --target chariot_web
  # The module without threads, for pages that are not cross-origin
  # isolated: the engine compiled again, without pthreads.
  echo "== building the single-threaded WebAssembly engine ($build_type) in $build_dir/single"
  emcmake cmake -S "$root" -B "$build_dir/single" -DCMAKE_BUILD_TYPE="$build_type" -DCHARIOT_BUILD_TESTS=OFF \
    -DCHARIOT_WEB_THREADS=OFF -DCHARIOT_BOOK_BUILDER="$native_dir/chariot"
  cmake --build "$build_dir/single" -j "$jobs" --target chariot_web
  "$root/web/assemble.sh" "$build_dir"
  exit 0
fi
echo "== building ($build_type) in $build_dir"
cmake -S "$root" -B "$build_dir" -DCMAKE_BUILD_TYPE="$build_type"
cmake --build "$build_dir" -j "$jobs"

# 3. The job.
if [ "$job" = bench ]; then
  exec "$build_dir/chariot" bench
fi
cd "$build_dir"
ctest --output-on-failure -j "$jobs"
