#!/usr/bin/env node
// The demo page in a real browser: Debian's chromium, headless, driven by
// puppeteer-core (installed from this folder's package-lock.json by
// scripts/test_wasm.sh; no browser download).
//
//   node web/test/browser-test.js <build-wasm>
//
// Serves <build-wasm>/demo from loopback with web/serve.py, loads the page,
// waits for the engine's readyok (the time from navigation to it is
// reported), sets a strength, plays moves by clicking the board against the
// engine, reads the moves and the analysis back from the page, keeps a
// screenshot (<build-wasm>/demo-test.png) and fails on any console error or
// page error. Then the same with the page served without the cross-origin
// headers, where the engine must be the module without threads
// (chariot-st.js; screenshot demo-test-single.png).
"use strict";
const { spawn } = require("child_process");
const path = require("path");
const puppeteer = require("puppeteer-core");

const build = path.resolve(process.argv[2] || "build-wasm");
const root = path.resolve(__dirname, "..", "..");
const chromium = process.env.CHROMIUM || "/usr/bin/chromium";
const USER_MOVES = 3;

function serve(isolation) {
  const args = [path.join(root, "web", "serve.py"), path.join(build, "demo"), "--port", "0"];
  if (!isolation) args.push("--no-isolation");
  const server = spawn("python3", args, { stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    server.stdout.on("data", (data) => {
      const m = /at (http:\S+)/.exec(String(data));
      if (m) resolve({ server, url: m[1] });
    });
    server.on("exit", (code) => reject(new Error(`serve.py exited with ${code}`)));
  });
}

// Loads the page (served with the cross-origin headers or without),
// waits for readyok, sets a strength and plays USER_MOVES moves by clicks.
async function playPage(browser, isolation, check) {
  const { server, url } = await serve(isolation);
  const what = isolation ? "isolated page" : "page without the headers";
  try {
    const page = await browser.newPage();
    await page.setViewport({ width: 960, height: 640 });
    const errors = [];
    page.on("console", (msg) => {
      if (msg.type() === "error") errors.push(`console: ${msg.text()}`);
    });
    page.on("pageerror", (error) => errors.push(`page error: ${error.message}`));
    page.on("requestfailed", (req) => errors.push(`request failed: ${req.url()}`));

    await page.goto(url, { waitUntil: "load" });
    await page.waitForFunction(() => window.chariotDemo.readyMs !== null || window.chariotDemo.phase === "error",
                               { timeout: 60000 });
    const start = await page.evaluate(() => ({
      isolated: self.crossOriginIsolated,
      readyMs: window.chariotDemo.readyMs,
      threaded: window.chariotDemo.threaded,
      engineNote: document.getElementById("engine").textContent,
      error: document.getElementById("error").textContent,
      elo: window.chariotDemo.elo,
      strengths: [...document.querySelectorAll("#strength option")].map((o) => o.value),
    }));
    check(start.isolated === isolation, `${what}: crossOriginIsolated is ${start.isolated}`);
    check(start.threaded === isolation,
          `${what}: the engine ${start.threaded ? "runs on threads" : "runs on one thread"}: '${start.engineNote}'${start.error ? " error: " + start.error : ""}`);
    check(start.readyMs !== null, `${what}: engine ready: readyok ${Math.round(start.readyMs)} ms after navigation`);
    check(start.elo.min !== null && start.strengths.length > 2,
          `strength selector from the engine's UCI_Elo range ${start.elo.min}..${start.elo.max}: ${start.strengths.length} choices`);
    if (start.readyMs === null) return;

    // The quickest think time and a limited strength (a new game starts).
    const elo = start.strengths[Math.floor(start.strengths.length / 2)];
    // Letters on the pieces: the test machine may have no CJK font.
    await page.select("#labels", "letters");
    await page.select("#movetime", "300");
    await page.select("#strength", elo);
    await page.waitForFunction(() => window.chariotDemo.phase === "user", { timeout: 30000 });

    for (let i = 0; i < USER_MOVES; i++) {
      await page.waitForFunction(() => window.chariotDemo.phase === "user" || window.chariotDemo.phase === "over",
                                 { timeout: 60000 });
      const legal = await page.evaluate(() => window.chariotDemo.legal.slice());
      if (legal.length === 0) break;
      const move = legal[(i * 7) % legal.length]; // varied, deterministic
      const before = await page.evaluate(() => window.chariotDemo.moves.length);
      await page.click(`[data-square="${move.slice(0, 2)}"]`);
      await page.click(`[data-square="${move.slice(2)}"]`);
      await page.waitForFunction((n) => window.chariotDemo.moves.length >= n + 2 || window.chariotDemo.phase === "over",
                                 { timeout: 60000 }, before);
      const moves = await page.evaluate(() => window.chariotDemo.moves.slice());
      check(moves[before] === move, `clicked ${move}: the page played it`);
    }
    await page.waitForFunction(() => window.chariotDemo.phase === "user" || window.chariotDemo.phase === "over",
                               { timeout: 60000 });
    const end = await page.evaluate(() => ({
      moves: window.chariotDemo.moves.slice(),
      movesText: document.getElementById("moves").textContent,
      analysis: document.getElementById("analysis").textContent,
      fen: window.chariotDemo.fen,
    }));
    check(end.moves.length === 2 * USER_MOVES, `${what}: ${end.moves.length} plies played: ${end.movesText}`);
    check(/^depth \d+ .*score .*\n[a-i][0-9][a-i][0-9]/.test(end.analysis),
          `the analysis line is shown: ${end.analysis.replace("\n", " | ")}`);
    check(end.fen.split(" ").length >= 2, `the position the page shows: ${end.fen}`);
    const shot = path.join(build, isolation ? "demo-test.png" : "demo-test-single.png");
    await page.screenshot({ path: shot });
    console.log(`screenshot: ${shot}`);
    check(errors.length === 0, `${what}: no console or page error${errors.length ? ": " + errors.join("; ") : ""}`);
    await page.close();
  } finally {
    server.kill();
  }
}

async function main() {
  const failures = [];
  const check = (ok, what) => {
    console.log(`${ok ? "PASS" : "FAIL"}  ${what}`);
    if (!ok) failures.push(what);
  };
  const browser = await puppeteer.launch({
    executablePath: chromium,
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
  });
  try {
    // 1. The cross-origin-isolated page: the module with threads.
    await playPage(browser, true, check);
    // 2. The same page without the headers: no SharedArrayBuffer, so the
    // module without threads (chariot-st.js) plays, with no console error.
    await playPage(browser, false, check);
  } finally {
    await browser.close();
  }
  if (failures.length) {
    console.log(`${failures.length} browser check(s) failed`);
    process.exit(1);
  }
  console.log("browser test passed");
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
