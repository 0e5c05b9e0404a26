#!/usr/bin/env bash
# Build the WebAssembly engine and check it in Node and in a real browser:
#
#   1. install what is missing (Emscripten, Node.js, npm, chromium), then
#      scripts/build.sh wasm (the engine, its npm package, the demo page)
#   2. Node (web/test/node-test.js): `bench` through the package's API gives
#      the native engine's node signature; threads, Hash, stop; the same for
#      the module without threads (chariot-st.js), with isready, stop,
#      ponderhit and quit during its searches; the tarball installs into an
#      empty folder and a script there gets a bestmove
#   3. ucci_probe.py through the package's stdin/stdout bin, with either
#      module (--single-threaded): every check passes
#   4. a match of the bin against the native build (and a 2-game one of the
#      bin --single-threaded): no forfeit, no illegal move, no time loss
#   5. headless chromium plays the demo page (web/test/browser-test.js),
#      cross-origin isolated (threads) and not (chariot-st.js): moves by
#      clicks, the analysis read back, a screenshot, no console error
#
# Environment: CHARIOT_SHARED_TOOLS (ucci_probe.py, xqmatch.py, openings.txt;
# default ../shared/tools beside the repository), WASM_BUILD_DIR (default
# build-wasm), NATIVE_BUILD_DIR (default build), MATCH_GAMES (default 4),
# MATCH_LIMIT (default "--tc 2+0.05"), MATCH_MARGIN_MS (default 250, as for
# the Windows match: the 2 cores of CI are loaded), CHROMIUM (default
# /usr/bin/chromium).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tools="${CHARIOT_SHARED_TOOLS:-$root/../shared/tools}"
wasm_dir="${WASM_BUILD_DIR:-$root/build-wasm}"
native_dir="${NATIVE_BUILD_DIR:-$root/build}"
games="${MATCH_GAMES:-4}"
read -r -a match_limit <<< "${MATCH_LIMIT:---tc 2+0.05}"
margin_ms="${MATCH_MARGIN_MS:-250}"
start=$(date +%s)
failed=0

fail() { echo "FAIL: $*"; failed=1; }
step() { echo "== $*"; }

for tool in ucci_probe.py xqmatch.py openings.txt; do
  [ -f "$tools/$tool" ] || { echo "$tools/$tool not found (set CHARIOT_SHARED_TOOLS)" >&2; exit 2; }
done

step "1. build (scripts/build.sh wasm installs Emscripten, Node.js and npm where missing)"
step_start=$(date +%s)
if ! dpkg -s chromium >/dev/null 2>&1; then
  echo "== installing: chromium"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends chromium
fi
BUILD_DIR="$wasm_dir" NATIVE_BUILD_DIR="$native_dir" "$root/scripts/build.sh" wasm
bin="node $wasm_dir/package/bin/chariot-xiangqi.js"
echo "($(( $(date +%s) - step_start )) s)"

step "2. Node: bench signature, threads, hash, stop (both modules), the tarball installed"
step_start=$(date +%s)
node "$root/web/test/node-test.js" "$wasm_dir" "$native_dir/chariot" || fail "Node checks"
echo "($(( $(date +%s) - step_start )) s)"

step "3. UCCI probe through the package's bin, with threads and without"
step_start=$(date +%s)
python3 "$tools/ucci_probe.py" "$bin" | grep -E '^FAIL|handshake|passed' || fail "ucci_probe.py"
python3 "$tools/ucci_probe.py" "$bin --single-threaded" | grep -E '^FAIL|handshake|passed' ||
  fail "ucci_probe.py (--single-threaded)"
echo "($(( $(date +%s) - step_start )) s)"

# match <engine command> <name> <games> <log>: no forfeit, every game played.
match() {
  local engine="$1" name="$2" n="$3" log="$4"
  if python3 "$tools/xqmatch.py" --engine1 "$engine" --name1 "$name" \
       --engine2 "$native_dir/chariot" --name2 "Chariot-native" \
       --openings "$tools/openings.txt" --games "$n" "${match_limit[@]}" --margin-ms "$margin_ms" \
       > "$log" 2>&1; then
    grep -E '^Game |^W/D/L' "$log"
    played=$(grep -c '^Game ' "$log" || true)
    [ "$played" -eq "$n" ] || fail "match ($name): $played of $n games finished"
    if grep -E '^Game ' "$log" | grep -Eq 'illegal move|time forfeit|crash|no reply|start failure|nobestmove'; then
      fail "match ($name): a game was lost by forfeit (see $log)"
    fi
  else
    cat "$log"
    fail "xqmatch.py ($name)"
  fi
}
step "4. match: the WebAssembly build against the native one, $games games (and 2 without threads), ${match_limit[*]}, margin $margin_ms ms"
step_start=$(date +%s)
match "$bin" "Chariot-wasm" "$games" "$wasm_dir/match.log"
# The module without threads polls for its input while it searches: its
# clock must hold as well.
match "$bin --single-threaded" "Chariot-wasm-st" 2 "$wasm_dir/match-single.log"
echo "($(( $(date +%s) - step_start )) s)"

step "5. headless chromium plays the demo page"
step_start=$(date +%s)
# puppeteer-core from the lockfile (npm's registry), driving the system's chromium.
(cd "$root/web/test" && npm ci --no-audit --no-fund --silent) || fail "npm ci in web/test"
CHROMIUM="${CHROMIUM:-/usr/bin/chromium}" node "$root/web/test/browser-test.js" "$wasm_dir" || fail "browser test"
echo "($(( $(date +%s) - step_start )) s)"

echo "== WebAssembly checks $( [ $failed -eq 0 ] && echo passed || echo FAILED ) in $(( $(date +%s) - start )) s"
exit $failed
