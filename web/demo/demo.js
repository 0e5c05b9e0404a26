// The demo page: a board to play Chariot on (the user has red), the engine's
// analysis beside it and a strength selector (UCI_LimitStrength + UCI_Elo).
// The engine runs in a Web Worker (engine-worker.js) and speaks UCI. The page
// knows no rules: after each move it asks the engine for the position (`d`
// gives its FEN) and the legal moves (`perft 1` lists them).
"use strict";

const PIECES = {
  K: "帥", A: "仕", B: "相", N: "傌", R: "俥", C: "炮", P: "兵",
  k: "將", a: "士", b: "象", n: "馬", r: "車", c: "砲", p: "卒",
};
const FILES = "abcdefghi";
const USER_SIDE = "w"; // red moves first

const $ = (id) => document.getElementById(id);
const state = {
  phase: "loading", // loading | user | engine | over | error
  moves: [],
  fen: "",
  board: {}, // "e0" -> "K"
  legal: [],
  selected: null,
  analysis: "",
  result: "",
  readyMs: null, // performance.now() at the first readyok: page load to ready
  threaded: null, // the engine runs on threads (false: chariot-st.js, one thread)
  elo: { min: null, max: null },
};
window.chariotDemo = state; // read by the browser test

const worker = new Worker("engine-worker.js");
const send = (line) => worker.postMessage(line);
// The `d` + `perft 1` queries sent and not yet answered, oldest first (the
// engine answers in order); only the latest one is shown.
const queries = [];

worker.onmessage = (event) => {
  const msg = event.data;
  if (msg.error) return fail(msg.error);
  if (msg.ready) {
    state.threaded = msg.threaded;
    $("engine").textContent = msg.threaded
      ? "The engine runs on WebAssembly threads."
      : "The engine runs on one thread: this page is not cross-origin isolated.";
    return send("uci");
  }
  onLine(msg.line);
};

function fail(message) {
  state.phase = "error";
  $("error").textContent = message;
  $("error").hidden = false;
  $("status").textContent = "The engine cannot run here.";
}

function onLine(line) {
  const words = line.split(/\s+/);
  if (words[0] === "option" && words[2] === "UCI_Elo") {
    state.elo.min = Number(words[words.indexOf("min") + 1]);
    state.elo.max = Number(words[words.indexOf("max") + 1]);
  } else if (line === "uciok") {
    fillStrength();
    send("isready");
  } else if (line === "readyok" && state.readyMs === null) {
    state.readyMs = performance.now();
    $("newgame").disabled = false;
    $("strength").disabled = false;
    newGame();
  } else if (queries.length && words[0] === "fen") {
    queries[0].fen = line.slice(4);
  } else if (queries.length && /^[a-i][0-9][a-i][0-9]: \d+$/.test(line)) {
    queries[0].legal.push(line.slice(0, 4));
  } else if (queries.length && line.startsWith("Nodes searched")) {
    const answer = queries.shift();
    if (queries.length === 0) onPosition(answer);
  } else if (words[0] === "info" && words.includes("pv")) {
    showAnalysis(words);
  } else if (words[0] === "bestmove" && state.phase === "engine") {
    state.moves.push(words[1]);
    refresh();
  }
}

function fillStrength() {
  const select = $("strength");
  const { min, max } = state.elo;
  if (min === null || max === null) return;
  // Steps of 200 from the top of the range down to its bottom.
  for (let elo = Math.floor(max / 100) * 100; elo >= min; elo -= 200) {
    const option = document.createElement("option");
    option.value = String(elo);
    option.textContent = `Elo ${elo}`;
    select.appendChild(option);
  }
}

function applyStrength() {
  const value = $("strength").value;
  if (value === "full") {
    send("setoption name UCI_LimitStrength value false");
  } else {
    send("setoption name UCI_LimitStrength value true");
    send(`setoption name UCI_Elo value ${value}`);
  }
}

function newGame() {
  if (state.phase === "engine") send("stop");
  state.moves = [];
  state.result = "";
  state.analysis = "";
  $("analysis").textContent = "";
  send("ucinewgame");
  applyStrength();
  refresh();
}

// Asks the engine for the position after state.moves and its legal moves.
function refresh() {
  state.phase = "wait";
  state.selected = null;
  queries.push({ fen: "", legal: [] });
  send(`position startpos${state.moves.length ? " moves " + state.moves.join(" ") : ""}`);
  send("d");
  send("perft 1");
}

function onPosition(answer) {
  state.fen = answer.fen;
  state.legal = answer.legal;
  state.board = parseFen(answer.fen);
  const toMove = answer.fen.split(" ")[1];
  $("moves").textContent = state.moves.map((m, i) => (i % 2 ? m : `${i / 2 + 1}. ${m}`)).join(" ");
  if (state.legal.length === 0) {
    state.phase = "over";
    state.result = toMove === USER_SIDE ? "Chariot wins" : "You win";
    $("status").textContent = `${state.result}: ${toMove === "w" ? "red" : "black"} has no move.`;
  } else if (toMove === USER_SIDE) {
    state.phase = "user";
    $("status").textContent = "Your move (red): click a piece, then its square.";
  } else {
    state.phase = "engine";
    $("status").textContent = "Chariot is thinking...";
    send(`go movetime ${$("movetime").value}`);
  }
  draw();
}

function parseFen(fen) {
  const board = {};
  fen.split(" ")[0].split("/").forEach((row, i) => {
    let file = 0;
    for (const ch of row) {
      if (/\d/.test(ch)) file += Number(ch);
      else board[FILES[file++] + (9 - i)] = ch;
    }
  });
  return board;
}

function showAnalysis(words) {
  const at = (key) => words[words.indexOf(key) + 1];
  let score = "";
  const s = words.indexOf("score");
  if (s >= 0) score = words[s + 1] === "mate" ? `mate ${words[s + 2]}` : (Number(words[s + 2]) / 100).toFixed(2);
  const pv = words.slice(words.indexOf("pv") + 1).join(" ");
  state.analysis = `depth ${at("depth")}  score ${score}  nodes ${at("nodes")}  nps ${at("nps") || "-"}\n${pv}`;
  $("analysis").textContent = state.analysis;
}

// ------------------------------------------------------------------ board

const NS = "http://www.w3.org/2000/svg";
const xOf = (file) => 25 + file * 50;
const yOf = (rank) => 25 + (9 - rank) * 50;

function el(name, attrs, parent) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

function line(g, f1, r1, f2, r2) {
  el("line", { x1: xOf(f1), y1: yOf(r1), x2: xOf(f2), y2: yOf(r2), stroke: "#5a3b1a", "stroke-width": 1.5 }, g);
}

function draw() {
  const svg = $("board");
  svg.textContent = "";
  el("rect", { x: 0, y: 0, width: 450, height: 500, fill: "#e8c888" }, svg);
  const g = el("g", {}, svg);
  for (let r = 0; r <= 9; r++) line(g, 0, r, 8, r);
  for (let f = 0; f <= 8; f++) {
    if (f === 0 || f === 8) line(g, f, 0, f, 9);
    else { line(g, f, 0, f, 4); line(g, f, 5, f, 9); }
  }
  line(g, 3, 0, 5, 2); line(g, 5, 0, 3, 2); line(g, 3, 9, 5, 7); line(g, 5, 9, 3, 7);
  if ($("labels").value === "hanzi") {
    const river = el("text", { x: 225, y: 257, "text-anchor": "middle", "font-size": 22, fill: "#5a3b1a" }, svg);
    river.textContent = "楚 河        漢 界";
  }

  const last = state.moves[state.moves.length - 1];
  const targets = state.selected ? state.legal.filter((m) => m.startsWith(state.selected)).map((m) => m.slice(2)) : [];
  for (let r = 0; r <= 9; r++) {
    for (let f = 0; f <= 8; f++) {
      const sq = FILES[f] + r;
      const piece = state.board[sq];
      const x = xOf(f), y = yOf(r);
      if (last && (last.slice(0, 2) === sq || last.slice(2) === sq))
        el("rect", { x: x - 24, y: y - 24, width: 48, height: 48, fill: "none", stroke: "#2a7", "stroke-width": 2 }, svg);
      if (piece) {
        const red = piece === piece.toUpperCase();
        el("circle", { cx: x, cy: y, r: 21, fill: "#fdf3dc", stroke: red ? "#b00" : "#111",
                       "stroke-width": sq === state.selected ? 4 : 2 }, svg);
        const t = el("text", { x, y: y + 8, "text-anchor": "middle", "font-size": 24, fill: red ? "#b00" : "#111" }, svg);
        t.textContent = $("labels").value === "letters" ? piece.toUpperCase() : PIECES[piece];
      }
      if (targets.includes(sq)) el("circle", { cx: x, cy: y, r: 7, fill: "#2a7", opacity: 0.8 }, svg);
      const hit = el("rect", { x: x - 25, y: y - 25, width: 50, height: 50, fill: "transparent", class: "sq",
                               "data-square": sq }, svg);
      hit.addEventListener("click", () => onSquare(sq));
    }
  }
}

function onSquare(sq) {
  if (state.phase !== "user") return;
  if (state.selected && state.legal.includes(state.selected + sq)) {
    state.moves.push(state.selected + sq);
    refresh();
    return;
  }
  const piece = state.board[sq];
  const own = piece && (piece === piece.toUpperCase()) === (USER_SIDE === "w");
  state.selected = own && state.legal.some((m) => m.startsWith(sq)) ? sq : null;
  draw();
}

$("newgame").addEventListener("click", newGame);
$("labels").addEventListener("change", draw);
$("strength").addEventListener("change", () => {
  if (state.phase === "user" || state.phase === "over") applyStrength();
  else newGame();
});
draw();
