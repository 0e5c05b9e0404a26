#!/usr/bin/env bash
# Release builds into dist/:
#
#   chariot-<version>-linux-x86-64          any x86-64 CPU (no -march=native)
#   chariot-<version>-linux-x86-64-avx2     -march=x86-64-v3 (AVX2, BMI2, POPCNT: Haswell, Zen and later)
#   chariot-<version>-windows-x86-64        chariot.exe, MinGW-w64, runs alone
#   chariot-<version>-windows-x86-64-avx2
#
# Each folder holds the binary, its opening book chariot.book, LICENSE and
# README.txt, and is also packed (.tar.gz for Linux, .zip for Windows);
# dist/SHA256SUMS lists every file. Each build is smoke-tested: its bench
# node count must equal the others' (the Windows builds run under wine; an
# AVX2 build is run only on a CPU that has AVX2 and BMI2).
#
# Environment: JOBS, RELEASE_BUILD_DIR (default build-release), DIST_DIR (default dist).
# Linux binaries link libstdc++ and libgcc statically and fmt header-only, so
# they need only glibc (of the build machine's version or newer).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
jobs="${JOBS:-$(nproc 2>/dev/null || echo 2)}"
builds="${RELEASE_BUILD_DIR:-$root/build-release}"
dist="${DIST_DIR:-$root/dist}"
export WINEDEBUG="${WINEDEBUG:--all}"
wine="$(command -v wine || command -v wine64 || true)"
start=$(date +%s)

command -v x86_64-w64-mingw32-g++-posix >/dev/null ||
  { echo "needs g++-mingw-w64-x86-64-posix (scripts/build.sh windows installs it)" >&2; exit 2; }
if [ -n "$(git -C "$root" status --porcelain --untracked-files=no 2>/dev/null)" ]; then
  echo "warning: the working tree has changes: the binaries will say <commit>-dirty" >&2
fi

cpu_has_avx2=0
if grep -qw avx2 /proc/cpuinfo && grep -qw bmi2 /proc/cpuinfo; then cpu_has_avx2=1; fi

# build <name> <cmake args...>: configure and build chariot and its book in $builds/<name>.
build() {
  local name="$1"
  shift
  echo "== building $name"
  cmake -S "$root" -B "$builds/$name" -DCMAKE_BUILD_TYPE=Release -DCHARIOT_BUILD_TESTS=OFF \
    -DCHARIOT_FMT_HEADER_ONLY=ON "$@" >/dev/null
  cmake --build "$builds/$name" -j "$jobs" --target chariot
  cmake --build "$builds/$name" -j "$jobs" --target chariot_book
}

linux_flags=(-DCMAKE_EXE_LINKER_FLAGS="-static-libstdc++ -static-libgcc")
windows_flags=(-DCMAKE_TOOLCHAIN_FILE="$root/cmake/mingw-w64-x86_64.cmake")

build linux-x86-64 "${linux_flags[@]}" -DCHARIOT_MARCH=
build linux-x86-64-avx2 "${linux_flags[@]}" -DCHARIOT_MARCH=x86-64-v3
# The Windows books come from the Linux build (the file is the same everywhere).
windows_flags+=(-DCHARIOT_BOOK_BUILDER="$builds/linux-x86-64/chariot")
build windows-x86-64 "${windows_flags[@]}" -DCHARIOT_MARCH=
build windows-x86-64-avx2 "${windows_flags[@]}" -DCHARIOT_MARCH=x86-64-v3

version=$("$builds/linux-x86-64/chariot" version | sed -n 's/^Chariot //p')
echo "== smoke tests (version $version)"
reference=""
for name in linux-x86-64 linux-x86-64-avx2 windows-x86-64 windows-x86-64-avx2; do
  run=()
  binary="$builds/$name/chariot"
  case "$name" in
    windows-*)
      binary="$binary.exe"
      if [ -z "$wine" ]; then echo "$name: no wine, not run"; continue; fi
      run=("$wine") ;;
  esac
  case "$name" in
    *-avx2) if [ "$cpu_has_avx2" -ne 1 ]; then echo "$name: this CPU has no AVX2/BMI2, not run"; continue; fi ;;
  esac
  isa=$("${run[@]}" "$binary" version | tr -d '\r' | sed -n 's/^built for //p')
  nodes=$("${run[@]}" "$binary" bench | tr -d '\r' | sed -n 's/^Nodes searched *: *//p')
  # The book beside the binary is found without a path.
  probe=$("${run[@]}" "$binary" book probe startpos | tr -d '\r' | grep -c '^[a-i][0-9][a-i][0-9] ' || true)
  echo "$name: built for $isa, bench $nodes nodes, book moves at the start: $probe"
  case "$name" in
    *-avx2) [[ "$isa" == *x86-64-avx2 ]] || { echo "FAIL: $name is built for $isa" >&2; exit 1; } ;;
    *) [[ "$isa" == *" x86-64" ]] || { echo "FAIL: $name is built for $isa" >&2; exit 1; } ;;
  esac
  [ -n "$nodes" ] || { echo "FAIL: $name: no bench result" >&2; exit 1; }
  [ "$probe" -gt 0 ] || { echo "FAIL: $name: the book beside the binary was not found" >&2; exit 1; }
  if [ -z "$reference" ]; then reference="$nodes"; fi
  [ "$nodes" = "$reference" ] || { echo "FAIL: $name searched $nodes nodes, not $reference" >&2; exit 1; }
done

echo "== packing $dist"
rm -rf "$dist"
mkdir -p "$dist"
for name in linux-x86-64 linux-x86-64-avx2 windows-x86-64 windows-x86-64-avx2; do
  folder="chariot-$version-$name"
  mkdir "$dist/$folder"
  case "$name" in
    windows-*) cp "$builds/$name/chariot.exe" "$dist/$folder/" ;;
    *) cp "$builds/$name/chariot" "$dist/$folder/" ;;
  esac
  cp "$builds/$name/chariot.book" "$root/LICENSE" "$dist/$folder/"
  {
    echo "Chariot $version ($name), a xiangqi engine for UCCI and UCI GUIs."
    "$builds/linux-x86-64/chariot" version | sed -n 's/^commit *//p' | sed 's/^/Commit: /'
    echo
    case "$name" in
      windows-*) echo "Point your GUI (XQWizard, BHGUI, WinBoard...) at chariot.exe in this folder." ;;
      *) echo "Point your GUI at ./chariot, or run it and type 'ucci' or 'uci'." ;;
    esac
    echo "Keep chariot.book beside it: that is the opening book it looks for."
    case "$name" in
      *-avx2) echo "This build needs a CPU with AVX2 and BMI2 (Intel Haswell 2013, AMD Zen 2017 or later)." ;;
      *) echo "This build runs on any 64-bit x86 CPU; the -avx2 build is faster where the CPU allows." ;;
    esac
    echo "'chariot version' tells what you have. Documentation: docs/install.md in the sources."
  } > "$dist/$folder/README.txt"
  case "$name" in
    windows-*) (cd "$dist" && zip -qr "$folder.zip" "$folder") ;;
    *) tar -C "$dist" -czf "$dist/$folder.tar.gz" "$folder" ;;
  esac
done
cat > "$dist/README.txt" <<EOF
Chariot $version: downloads

  chariot-$version-windows-x86-64.zip        Windows, any 64-bit PC
  chariot-$version-windows-x86-64-avx2.zip   Windows, faster on CPUs with AVX2 (2013 and later)
  chariot-$version-linux-x86-64.tar.gz       Linux x86-64 (glibc), any 64-bit PC
  chariot-$version-linux-x86-64-avx2.tar.gz  Linux, CPUs with AVX2

Unpack, keep chariot.book beside the engine, and add the engine to your GUI
as a UCCI engine (XQWizard, BHGUI) or UCI engine. Not sure which to take? The
plain x86-64 build runs everywhere. Check a download with: sha256sum -c SHA256SUMS
EOF
(cd "$dist" && find . -type f ! -name SHA256SUMS | sed 's|^\./||' | sort | xargs sha256sum > SHA256SUMS)
echo "== dist/ written in $(( $(date +%s) - start )) s:"
ls -l "$dist"
