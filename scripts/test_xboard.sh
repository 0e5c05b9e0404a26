#!/usr/bin/env bash
# A real GUI test: XBoard, under a virtual X server (Xvfb), plays Chariot
# against itself (two games, colours swapped) and against Fairy-Max's xiangqi
# engine maxqi (one game), unattended. Then it checks
#   - the saved games: each one finished with a result (1-0, 0-1, 1/2-1/2),
#     and Chariot's thinking reached them (move comments with a score);
#   - XBoard's protocol log: Chariot never answered "Illegal move" or
#     "Error", and XBoard found nothing wrong with Chariot's moves or claims;
# and keeps a screenshot of each match's final board.
#
#   scripts/test_xboard.sh [chariot binary] [output folder]
#
# Defaults: build/chariot and build/xboard-test (match.pgn, xboard.debug and
# final-board.png per match). Needs xboard and xvfb-run (Debian packages
# xboard and xvfb; the screenshots x11-apps and imagemagick, the third game
# fairymax); without xboard or xvfb-run it says so and exits 77 (skipped).
# Games are 10 s + 0.1 s a move, at most 100 moves each (then XBoard
# adjudicates a draw); the engines ponder in the self-play games (XBoard's
# default), not against maxqi. Chariot keeps 150 ms a move for the GUI's
# latency (its option Move Overhead, set through XBoard): with the GUI, the
# X server and two pondering engines on two cores, the default 30 ms lost
# games on time once the clock had sunk to the increment. A loss on time is
# reported, not failed. The whole run takes one to three minutes.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

# --- under the X server: one match, then its screenshot --------------------
# Runs XBoard with the given arguments until the game file holds $games
# results, or $limit seconds pass (XBoard then shows the match's score and
# waits). Then the screen is captured (the final board) and the file kept as
# match.pgn before XBoard is closed (closing, it saves its last game once
# more, unfinished).
if [ "${1:-}" = --in-display ]; then
  shift
  games="$1" limit="$2" pgn="$3" shot="$4"
  shift 4
  dir="$(dirname "$pgn")"
  xboard "$@" >"$dir/xboard.stderr" 2>&1 &
  gui=$!
  start=$(date +%s)
  capture() { command -v xwd >/dev/null && xwd -root -silent >"$dir/screen.xwd.part" 2>/dev/null && mv "$dir/screen.xwd.part" "$dir/screen.xwd"; }
  results() {
    local c
    c=$(grep -cE '^\[Result "(1-0|0-1|1/2-1/2)"\]' "$pgn" 2>/dev/null) || true
    echo "${c:-0}"
  }
  last=0 ticks=0
  while kill -0 "$gui" 2>/dev/null && [ $(($(date +%s) - start)) -lt "$limit" ]; do
    n=$(results)
    if [ "$n" -ge "$games" ]; then
      cp "$pgn" "$dir/match.pgn"
      sleep 0.5  # the last move and the result are drawn
      capture || true
      break
    fi
    # Now and then too: the last board if XBoard stops early.
    if [ $((ticks % 8)) = 0 ] || [ "$n" != "$last" ]; then capture || true; fi
    last=$n ticks=$((ticks + 1))
    sleep 0.25
  done
  [ -f "$dir/match.pgn" ] || { [ -f "$pgn" ] && cp "$pgn" "$dir/match.pgn"; } || true
  sleep 0.5
  kill "$gui" 2>/dev/null || true
  wait "$gui" 2>/dev/null || true
  if [ -f "$dir/screen.xwd" ] && command -v convert >/dev/null; then
    # The desktop is black where no window is: crop to the windows.
    convert "xwd:$dir/screen.xwd" -bordercolor black -border 1 -trim +repage "png:$shot" || echo "screenshot failed"
    rm -f "$dir/screen.xwd"
  else
    echo "no screenshot: xwd and convert (Debian: x11-apps, imagemagick) are needed"
  fi
  exit 0
fi

chariot="${1:-$root/build/chariot}"
out="${2:-$root/build/xboard-test}"
PATH="$PATH:/usr/games"
for tool in xboard xvfb-run; do
  if ! command -v "$tool" >/dev/null; then
    echo "SKIPPED: $tool not found (Debian: apt-get install xboard xvfb x11-apps imagemagick fairymax)"
    exit 77
  fi
done
[ -x "$chariot" ] || { echo "no engine binary at $chariot (build first)" >&2; exit 1; }
chariot="$(cd "$(dirname "$chariot")" && pwd)/$(basename "$chariot")"  # XBoard starts it from another folder
rm -rf "$out"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
began=$(date +%s)

# One match: its folder, games, time limit, then the engines' XBoard options.
match() {
  local name="$1" games="$2" limit="$3"
  shift 3
  local dir="$out/$name"
  mkdir -p "$dir/home"
  local t0
  t0=$(date +%s)
  # A home of its own: no settings file is read or written, no sound is
  # played; XBoard's oriental xiangqi theme (its themes/conf/xq), no side windows.
  # Tried twice where XBoard never started (no debug log at all: on a loaded
  # machine xvfb-run -a can lose the race for a display number); a game that
  # went wrong is not retried.
  local try
  for try in 1 2; do
    HOME="$dir/home" xvfb-run -a -s "-screen 0 1024x768x24" "$0" --in-display "$games" "$limit" \
      "$dir/games.pgn" "$dir/final-board.png" \
      -variant xiangqi -mg "$games" -matchPause 500 -tc 0:10 -inc 0.1 -adjudicateDrawMoves 100 \
      -autoCallFlag true -showThinking true -pgnExtendedInfo true \
      -saveGameFile "$dir/games.pgn" -debugMode true -nameOfDebugFile "$dir/xboard.debug" \
      -saveSettingsOnExit false -soundProgram true -popupExitMessage true -engineOutputUp false \
      -moveHistoryUp false -evalGraphUp false \
      -pid "~~/themes/xiangqi" -trueColors true -useBoardTexture true -overrideLineGap 0 \
      -liteBackTextureFile "~~/themes/textures/xqboard-9x10.png" \
      -darkBackTextureFile "~~/themes/textures/xqboard-9x10.png" \
      -highlightMoveWithArrow true "$@"
    [ -s "$dir/xboard.debug" ] && break
    if [ "$try" = 1 ]; then echo "== $name: XBoard did not start (no debug log); once more"; fi
  done
  echo "== $name: $(($(date +%s) - t0)) s"
}

# Checks a match's game file and log; Chariot is XBoard's first engine, and
# its second too where `both`.
check() {
  python3 - "$out/$1" "$2" "$3" <<'EOF'
import re, sys
folder, expected, both = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "both"
problems = []
try:
    text = open(f"{folder}/match.pgn", encoding="utf-8", errors="replace").read()
except OSError:
    text = ""
games = [g for g in re.split(r"(?=\[Event )", text) if g.strip()]
if len(games) != expected:
    problems.append(f"{len(games)} game(s) saved, {expected} expected")
for number, game in enumerate(games, 1):
    tags = dict(re.findall(r'^\[(\w+) "(.*)"\]$', game, re.M))
    result = tags.get("Result", "?")
    body = game[game.rfind("]") + 1:]
    reason = re.findall(r"\{([^{}]*)\}\s*(?:1-0|0-1|1/2-1/2|\*)\s*$", body)
    # Move comments with XBoard's thinking: {+0.25/12 0.4}.
    scores = re.findall(r"\{[+-]?\d+\.\d\d/\d+", body)
    numbers = [int(n) for n in re.findall(r"(?:^|\s)(\d+)\.(?=\s)", re.sub(r"\{[^{}]*\}", " ", body))]
    moves = max(numbers, default=0)
    print(f"game {number}: {tags.get('White', '?')} - {tags.get('Black', '?')} {result}"
          f" {{{reason[0] if reason else ''}}}, {moves} moves, {len(scores)} with a score")
    if result not in ("1-0", "0-1", "1/2-1/2"):
        problems.append(f"game {number} has no result ({result})")
    if "Chariot" not in tags.get("White", "") + tags.get("Black", ""):
        problems.append(f"game {number}: Chariot did not play")
    if len(scores) < 5:
        problems.append(f"game {number}: {len(scores)} moves with a score (thinking output not parsed)")
    if reason and re.search(r"illegal|false|forfeit", reason[0], re.I):
        problems.append(f"game {number} ended by XBoard's verdict on an engine: {reason[0]}")
    if reason and "on time" in reason[0]:
        # Not a protocol fault: on a loaded machine (the GUI, the X server
        # and two engines on two cores) a 10 s clock can still run out.
        print(f"note: game {number} was lost on time")
try:
    log = open(f"{folder}/xboard.debug", encoding="utf-8", errors="replace").read().splitlines()
except OSError:
    log = []
    problems.append("no XBoard debug log")
who = r"(first |second)" if both else r"first "
said = [l for l in log if re.match(rf"^\d+ <{who}: ", l)]
bad = [l for l in said if re.match(rf"^\d+ <{who}: (Illegal move|Error)", l)]
if not said:
    problems.append("the log holds nothing Chariot said")
for l in bad[:5]:
    problems.append(f"Chariot said: {l}")
thinking = [l for l in said if re.match(rf"^\d+ <{who}: \d+ -?\d+ \d+ \d+ ", l)]
print(f"log: {len(said)} lines from Chariot, {len(thinking)} thinking lines, {len(bad)} errors")
if not thinking:
    problems.append("no thinking output in the log")
for p in problems:
    print("FAIL:", p)
sys.exit(1 if problems else 0)
EOF
}

status=0
latency=(-firstOptions "Move Overhead=150" -secondOptions "Move Overhead=150")
match selfplay 2 150 -ponderNextMove true "${latency[@]}" -fcp "$chariot" -fd "$out/selfplay" \
  -scp "$chariot" -sd "$out/selfplay"
check selfplay 2 both || status=1
if command -v maxqi >/dev/null; then
  # maxqi finds its rules (qmax.ini) by itself; it speaks CECP (protocol 2).
  match maxqi 1 80 -ponderNextMove false "${latency[@]:0:2}" -fcp "$chariot" -fd "$out/maxqi" -scp "$(command -v maxqi)" -sd "$out/maxqi"
  check maxqi 1 first || status=1
else
  echo "== maxqi: not found (Debian package fairymax); the game against it is skipped"
fi
echo "== XBoard test: $(($(date +%s) - began)) s; games, logs and screenshots in $out"
[ "$status" = 0 ] && echo "PASSED" || echo "FAILED"
exit "$status"
