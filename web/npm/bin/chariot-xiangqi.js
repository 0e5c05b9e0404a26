#!/usr/bin/env node
// Chariot's WebAssembly build on standard input and output, as the native
// engine: for GUIs, match runners and protocol probes that start an engine
// as a process (`npx chariot-xiangqi`, or `node bin/chariot-xiangqi.js`).
//
//   --single-threaded (or CHARIOT_THREADS=single in the environment): the
//   module without threads (chariot-st.js), as a page that is not
//   cross-origin isolated runs it
"use strict";
const readline = require("readline");
const Chariot = require("../chariot.js");

const args = process.argv.slice(2);
const unknown = args.filter((a) => a !== "--single-threaded");
if (unknown.length) {
  process.stderr.write(`chariot-xiangqi: unknown argument '${unknown[0]}' (the only one is --single-threaded)\n`);
  process.exit(2);
}
const single = args.includes("--single-threaded") || process.env.CHARIOT_THREADS === "single";

// Lines that arrive while the module loads wait here, in order.
const waiting = [];
let engine = null;
let inputClosed = false;

const input = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
input.on("line", (line) => (engine ? engine.postMessage(line) : waiting.push(line)));
input.on("close", () => {
  inputClosed = true;
  if (engine) engine.closeInput();
});

Chariot({ threads: single ? "single" : "auto" }).then(
  (started) => {
    engine = started;
    engine.addMessageListener((line) => process.stdout.write(line + "\n"));
    engine.exited.then((code) => process.exit(code || 0));
    for (const line of waiting.splice(0)) engine.postMessage(line);
    if (inputClosed) engine.closeInput();
  },
  (error) => {
    process.stderr.write(`chariot-xiangqi: ${error.message}\n`);
    process.exit(1);
  }
);
