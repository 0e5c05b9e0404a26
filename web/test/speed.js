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
  engine.terminate();
  single.terminate();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
