#!/usr/bin/env bash
# Packs the WebAssembly build (scripts/build.sh wasm runs this):
#   web/assemble.sh <build-wasm>
# <build-wasm>/package: chariot.js and chariot.worker.js (built there), and
#   chariot-st.js (the single-threaded module, built in <build-wasm>/single),
#   with the package files of web/npm, the licence and a package.json whose
#   version is the engine's (CMake's project version); `npm pack` makes
#   <build-wasm>/chariot-xiangqi-<version>.tgz from it.
# <build-wasm>/demo: the demo page (web/demo) with the engine beside it.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$(cd "${1:?usage: $0 <build-wasm>}" && pwd)"
pkg="$build/package"
[ -f "$pkg/chariot.js" ] && [ -f "$pkg/chariot.worker.js" ] || { echo "no engine in $pkg" >&2; exit 1; }
single="$build/single/package/chariot-st.js"
[ -f "$single" ] || { echo "no single-threaded engine: $single" >&2; exit 1; }
cp "$single" "$pkg/"

version="$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$build/CMakeCache.txt")"
[ -n "$version" ] || { echo "no project version in $build/CMakeCache.txt" >&2; exit 1; }
sed "s/@VERSION@/$version/" "$root/web/npm/package.json.in" >"$pkg/package.json"
cp "$root/web/npm/README.md" "$root/web/npm/chariot.d.ts" "$root/LICENSE" "$pkg/"
mkdir -p "$pkg/bin"
cp "$root/web/npm/bin/chariot-xiangqi.js" "$pkg/bin/"
rm -f "$build"/chariot-xiangqi-*.tgz
(cd "$pkg" && npm pack --silent --pack-destination "$build" >/dev/null)
echo "== packed $build/chariot-xiangqi-$version.tgz"

if [ -d "$root/web/demo" ]; then
  rm -rf "$build/demo"
  mkdir -p "$build/demo"
  cp -r "$root/web/demo/." "$build/demo/"
  cp "$pkg/chariot.js" "$pkg/chariot.worker.js" "$pkg/chariot-st.js" "$build/demo/"
  echo "== demo page in $build/demo (serve it with web/serve.py $build/demo)"
fi
