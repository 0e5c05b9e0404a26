#!/usr/bin/env bash
# Build the Windows targets with MinGW-w64 and check them under wine:
#
#   1. scripts/build.sh windows (chariot.exe + chariot.book), then chariot_tests.exe
#   2. `chariot.exe bench` must search exactly as many nodes as the Linux build,
#      and chariot.exe must find its book in a folder with a non-ASCII name
#   3. the Catch2 suite under wine, less the tests that start engine processes
#      (test_protocol.cpp, test_hardening.cpp and the [process] tag: they fork
#      and exec through POSIX calls; the protocol is checked by step 4 instead)
#   4. ucci_probe.py through wine: every check must pass
#   5. a short match, wine chariot.exe against the Linux build: no forfeit, no
#      illegal move, no time loss
#
# Environment: CHARIOT_SHARED_TOOLS (ucci_probe.py, xqmatch.py, openings.txt;
# default ../shared/tools beside the repository), WINDOWS_BUILD_DIR (default
# build-windows), NATIVE_BUILD_DIR (the Linux build to compare with, default
# build; built if missing), MATCH_GAMES (default 4), MATCH_LIMIT (default
# "--tc 10+0.1"), MATCH_MARGIN_MS (default 250: xqmatch's 100 ms lost one
# game on time, for the Linux engine, with the 2 cores at load average 7),
# JOBS, WINEPREFIX (wine's default if unset).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tools="${CHARIOT_SHARED_TOOLS:-$root/../shared/tools}"
win_dir="${WINDOWS_BUILD_DIR:-$root/build-windows}"
native_dir="${NATIVE_BUILD_DIR:-$root/build}"
games="${MATCH_GAMES:-4}"
read -r -a match_limit <<< "${MATCH_LIMIT:---tc 10+0.1}"
margin_ms="${MATCH_MARGIN_MS:-250}"
jobs="${JOBS:-$(nproc 2>/dev/null || echo 2)}"
export WINEDEBUG="${WINEDEBUG:--all}"
wine="$(command -v wine || command -v wine64 || true)"
start=$(date +%s)
failed=0

fail() { echo "FAIL: $*"; failed=1; }
step() { echo "== $*"; }

[ -n "$wine" ] || { echo "wine is not installed" >&2; exit 2; }
for tool in ucci_probe.py xqmatch.py openings.txt; do
  [ -f "$tools/$tool" ] || { echo "$tools/$tool not found: set CHARIOT_SHARED_TOOLS" >&2; exit 2; }
done

step "1. building the Windows targets in $win_dir"
BUILD_DIR="$win_dir" JOBS="$jobs" "$root/scripts/build.sh" windows
cmake --build "$win_dir" -j "$jobs" --target chariot_tests
exe="$win_dir/chariot.exe"
[ -f "$win_dir/chariot.book" ] || { echo "FAIL: no chariot.book beside chariot.exe" >&2; exit 1; }
if [ ! -x "$native_dir/chariot" ]; then
  step "building the Linux reference in $native_dir"
  cmake -S "$root" -B "$native_dir" -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$native_dir" -j "$jobs" --target chariot chariot_book
fi
# The first wine start creates the prefix (half a minute); later starts take
# under a second, while its wineserver runs. The server is asked to stay up 30 s
# after its last client (not wine's default 3 s), so that no command below
# starts while it is exiting.
"$wine" "$exe" version | tr -d '\r'
timeout 30 "${wine%/*}/wineserver" -p 30 2>/dev/null || true

step "2. bench signature"
nodes() { tr -d '\r' | sed -n 's/^Nodes searched *: *//p'; }
linux_nodes=$("$native_dir/chariot" bench | nodes)
windows_nodes=$("$wine" "$exe" bench | nodes)
echo "Linux: $linux_nodes nodes, Windows (wine): $windows_nodes nodes"
if [ -z "$windows_nodes" ] || [ "$windows_nodes" != "$linux_nodes" ]; then fail "bench signatures differ"; fi

# The default book is found beside chariot.exe in a folder whose name is not
# ASCII: 棋 in GBK where the zh_CN.UTF-8 locale exists (wine's ANSI code page
# is then 936, as on a Chinese Windows), else é in code page 1252.
scratch="$(mktemp -d)"
if locale -a 2>/dev/null | grep -qix 'zh_CN.utf-8\|zh_CN.utf8'; then
  folder="$scratch/棋"; locale_vars=(LANG=zh_CN.UTF-8 LC_ALL=zh_CN.UTF-8)
else
  folder="$scratch/café"; locale_vars=(LANG=C.UTF-8 LC_ALL=C.UTF-8)
fi
mkdir "$folder"
cp "$exe" "$win_dir/chariot.book" "$folder/"
# Up to three tries: once in CI the wine client met the wineserver of the
# bench above while it was exiting ("wine client error:0: recvmsg: Connection
# reset by peer") and the command printed nothing. A missing book fails all three.
book_found=0
for attempt in 1 2 3; do
  book_out=$(env "${locale_vars[@]}" "$wine" "$folder/chariot.exe" book probe startpos 2>&1 | tr -d '\r' || true)
  if grep -aq '^h2e2 ' <<< "$book_out"; then book_found=1; break; fi
  echo "try $attempt: no h2e2 line; it printed:"; head -5 <<< "$book_out"
  timeout 30 "${wine%/*}/wineserver" -w 2>/dev/null || sleep 3
done
if [ $book_found -eq 1 ]; then
  echo "book found beside chariot.exe in $folder (${locale_vars[0]})"
else
  fail "the book beside chariot.exe in $folder was not found"
fi
rm -rf "$scratch"

step "3. Catch2 suite under wine"
step_start=$(date +%s)
# -# tags every test with its file name ([#test_protocol]).
rc=0
"$wine" "$win_dir/tests/chariot_tests.exe" -# "~[#test_protocol]~[#test_hardening]~[process]" \
  > "$win_dir/tests.log" 2>&1 || rc=$?
tr -d '\r' < "$win_dir/tests.log" | grep -v '^$' | tail -3
[ "$rc" -eq 0 ] || fail "Catch2 suite under wine (see $win_dir/tests.log)"
echo "($(( $(date +%s) - step_start )) s)"

step "4. UCCI probe through wine"
# An idle engine kept running under wine for steps 4 and 5: wineserver and
# wine's own processes stay up, so each engine the probe starts answers `ucci`
# in a few tens of milliseconds. Without it, once, six checks in a row saw no
# `ucciok` within the probe's 2 s (5 s in setup), at load average 10.
keep_dir="$(mktemp -d)"
mkfifo "$keep_dir/stdin"
"$wine" "$exe" < "$keep_dir/stdin" > /dev/null 2>&1 &
keeper=$!
exec 9> "$keep_dir/stdin"
# The keeper is told to quit (closing the fifo is not enough: a wineserver
# started meanwhile would inherit the write end and hold it open, so every
# command below gets 9>&-); if it has not gone after 10 s, it is killed.
release_keeper() {
  { echo quit >&9; } 2>/dev/null || true
  exec 9>&-
  for _ in $(seq 50); do kill -0 "$keeper" 2>/dev/null || break; sleep 0.2; done
  kill "$keeper" 2>/dev/null || true
  wait "$keeper" 2>/dev/null || true
  rm -rf "$keep_dir"
}
trap release_keeper EXIT
"$wine" "$exe" version > /dev/null 9>&-
python3 "$tools/ucci_probe.py" "$wine $exe" 9>&- | grep -E '^FAIL|handshake|passed' || fail "ucci_probe.py"

step "5. match: wine chariot.exe against the Linux build, $games games, ${match_limit[*]}, margin $margin_ms ms"
step_start=$(date +%s)
match_log="$win_dir/match.log"
if python3 "$tools/xqmatch.py" --engine1 "$wine $exe" --name1 "Chariot-wine" \
     --engine2 "$native_dir/chariot" --name2 "Chariot-linux" \
     --openings "$tools/openings.txt" --games "$games" "${match_limit[@]}" --margin-ms "$margin_ms" \
     > "$match_log" 2>&1 9>&-; then
  grep -E '^Game |^W/D/L' "$match_log"
  played=$(grep -c '^Game ' "$match_log" || true)
  [ "$played" -eq "$games" ] || fail "match: $played of $games games finished"
  if grep -E '^Game ' "$match_log" | grep -Eq 'illegal move|time forfeit|crash|no reply|start failure|nobestmove'; then
    fail "match: a game was lost by forfeit (see $match_log)"
  fi
else
  cat "$match_log"
  fail "xqmatch.py"
fi
echo "($(( $(date +%s) - step_start )) s)"

echo "== Windows checks $( [ $failed -eq 0 ] && echo passed || echo FAILED ) in $(( $(date +%s) - start )) s"
exit $failed
