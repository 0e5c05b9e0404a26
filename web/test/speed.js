#!/usr/bin/env node
// Node rates of the WebAssembly engine against the native one: `bench`
// (depth 11, 36 positions, 64 MB) with 1 and 2 threads, the engines run in
// turn (native, wasm, native, wasm...), the median nodes/s of each; with 1
// thread also the module without threads (chariot-st.js) in the same turns.
//
//   node web/test/speed.js <build-wasm> <native chariot> [runs per engine, default 5]
"use strict";
const { execFileSync } = require("child_process");
const path = require("path");

const build = path.resolve(process.argv[2] || "build-wasm");
const native = path.resolve(process.argv[3] || "build/chariot");
const runs = Number(process.argv[4] || 5);
const Chariot = require(path.join(build, "package", "chariot.js"));

const nps = (text) => Number((/Nodes\/second\s*:\s*(\d+)/.exec(text) || [])[1]);
const median = (xs) => {
  const s = xs.slice().sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

function wasmBench(engine, args) {
  return new Promise((resolve) => {
    const lines = [];
    const listen = (line) => {
      lines.push(line);
      if (line.startsWith("Evaluation")) {
        engine.removeMessageListener(listen);
        resolve(nps(lines.join("\n")));
      }
    };
    engine.addMessageListener(listen);
    engine.postMessage(`bench ${args.join(" ")}`);
  });
}

async function main() {
  const engine = await Chariot();
  const single = await Chariot({ threads: "single" });
  for (const threads of [1, 2]) {
    const args = ["11", "64", String(threads)];
    const rates = { native: [], wasm: [], single: [] };
    for (let i = 0; i < runs; i++) {
      rates.native.push(nps(execFileSync(native, ["bench", ...args], { encoding: "utf8" })));
      rates.wasm.push(await wasmBench(engine, args));
      if (threads === 1) rates.single.push(await wasmBench(single, args));
    }
    const n = median(rates.native), w = median(rates.wasm);
    console.log(`threads ${threads}: native ${Math.round(n)} nps, wasm ${Math.round(w)} nps, ` +
                `wasm/native ${(w / n).toFixed(2)} (medians of ${runs}; native ${rates.native.join(" ")}; ` +
                `wasm ${rates.wasm.join(" ")})`);
    if (threads === 1) {
      const st = median(rates.single);
      console.log(`threads 1: wasm without threads (chariot-st.js) ${Math.round(st)} nps, ` +
                  `against wasm with threads ${(st / w).toFixed(2)}, against native ${(st / n).toFixed(2)} ` +
                  `(median of ${runs}: ${rates.single.join(" ")})`);
    }
  }
  // A `go` (which polls for input every 5 ms without threads, and returns
  // to the event loop each time): the same search (`go depth 16` after
  // ucinewgame, the same nodes) in turn, its nodes/s, and how long an
  // `isready` sent after 0.5 s waits for its readyok.
  const go = { wasm: [], single: [] };
  const ready = { wasm: [], single: [] };
  for (let i = 0; i < runs; i++) {
    for (const [name, e] of [["wasm", engine], ["single", single]]) {
      const r = await timedGo(e);
      go[name].push(r.nps);
      ready[name].push(r.readyMs);
    }
  }
  const gw = median(go.wasm), gs = median(go.single);
  console.log(`go depth 16, 1 thread: wasm with threads ${Math.round(gw)} nps, without ${Math.round(gs)} nps, ` +
              `${(gs / gw).toFixed(2)} (medians of ${runs}; with ${go.wasm.join(" ")}; without ${go.single.join(" ")})`);
  console.log(`isready during that search: readyok after ${median(ready.wasm)} ms with threads, ` +
              `${median(ready.single)} ms without (medians; ${ready.wasm.join(" ")}; ${ready.single.join(" ")})`);
  engine.terminate();
  single.terminate();
}

function timedGo(engine) {
  return new Promise((resolve) => {
    let start = 0, sent = 0, readyMs = null, nodes = 0;
    const listen = (line) => {
      const m = /^info depth .* nodes (\d+)/.exec(line);
      if (m) nodes = Number(m[1]);
      if (line === "readyok" && sent) readyMs = Date.now() - sent;
      if (line === "readyok" && !start) {
        start = Date.now();
        engine.postMessage("go depth 16");
        setTimeout(() => {
          sent = Date.now();
          engine.postMessage("isready");
        }, 500);
      }
      if (line.startsWith("bestmove")) {
        engine.removeMessageListener(listen);
        resolve({ nps: Math.round((nodes * 1000) / (Date.now() - start)), readyMs });
      }
    };
    engine.addMessageListener(listen);
    engine.postMessage("setoption name UseBook value false");
    engine.postMessage("setoption name Threads value 1");
    engine.postMessage("ucinewgame");
    engine.postMessage("position startpos moves h2e2 h9g7");
    engine.postMessage("isready");
  });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
