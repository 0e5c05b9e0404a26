#!/usr/bin/env node
// The WebAssembly engine in Node, through the package's API (chariot.js):
//
//   node web/test/node-test.js <build-wasm> <native chariot>
//
//   1. `bench` searches exactly as many nodes as the native engine's bench
//      (the same search, the same net, SIMD kernels giving the same bits)
//   2. two threads search and answer a legal move (the legal moves from the
//      engine's own `perft 1`); Hash beyond the module's memory is clamped
//      with a message; a line sent during a search (`stop`) reaches it; the
//      API works inside a Node worker thread too
//   3. the module without threads (chariot-st.js, Chariot({threads:
//      "single"})): the same bench signature; `threads 2` answered with an
//      info string and kept at 1; `isready` answered during a search; `stop`
//      ends `go infinite`; commands sent during a search wait for it and run
//      in order; ponderhit; quit during a search
//   4. the tarball installs into an empty folder (npm, offline) and a script
//      there, and the package's bin on stdin/stdout, get a bestmove (with
//      either module)
"use strict";
const { execFileSync } = require("child_process");
const fs = require("fs");
const os = require("os");
const path = require("path");

const build = path.resolve(process.argv[2] || "build-wasm");
const native = path.resolve(process.argv[3] || "build/chariot");
const Chariot = require(path.join(build, "package", "chariot.js"));
const failures = [];
const check = (ok, what) => {
  console.log(`${ok ? "PASS" : "FAIL"}  ${what}`);
  if (!ok) failures.push(what);
};

// Sends `lines`, collects output until a line matches `until`.
function session(engine, lines, until, timeoutMs = 300000) {
  return new Promise((resolve, reject) => {
    const seen = [];
    const timer = setTimeout(() => {
      engine.removeMessageListener(listen);
      reject(new Error(`no ${until} within ${timeoutMs} ms; last lines: ${seen.slice(-5).join(" | ")}`));
    }, timeoutMs);
    function listen(line) {
      seen.push(line);
      if (until.test(line)) {
        clearTimeout(timer);
        engine.removeMessageListener(listen);
        resolve(seen);
      }
    }
    engine.addMessageListener(listen);
    for (const line of lines) engine.postMessage(line);
  });
}

const signature = (lines) => {
  const m = /Nodes searched\s*:\s*(\d+)/.exec(lines.join("\n"));
  return m ? Number(m[1]) : null;
};

async function main() {
  // 1. bench signature.
  const nativeSig = signature(execFileSync(native, ["bench"], { encoding: "utf8" }).split("\n"));
  const engine = await Chariot();
  const bench = await session(engine, ["bench"], /^Evaluation/);
  const wasmSig = signature(bench);
  check(nativeSig !== null && wasmSig === nativeSig, `bench signature: wasm ${wasmSig}, native ${nativeSig}`);
  const evalLine = bench.find((l) => l.startsWith("Evaluation")) || "";
  check(/sse2/.test(evalLine), `the net's kernels are the SIMD ones: ${evalLine}`);

  // 2. threads, hash, stop.
  const fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
  const perft = await session(engine, ["ucci", `position fen ${fen} moves h2e2 h9g7`, "perft 1"], /^Nodes searched/);
  const legal = perft.filter((l) => /^[a-i]\d[a-i]\d: /.test(l)).map((l) => l.slice(0, 4));
  const nativeLegal = execFileSync(native, [], { input: `position fen ${fen} moves h2e2 h9g7\nperft 1\n`, encoding: "utf8" })
    .split("\n").filter((l) => /^[a-i]\d[a-i]\d: /.test(l)).map((l) => l.slice(0, 4));
  check(legal.length > 0 && legal.sort().join() === nativeLegal.sort().join(),
        `perft 1: the same ${legal.length} legal moves as the native engine`);
  const two = await session(engine, ["setoption usebook false", "setoption threads 2", "go depth 10"], /^bestmove/);
  const move = two[two.length - 1].split(" ")[1];
  check(legal.includes(move), `threads 2: bestmove ${move} is legal`);
  const many = await session(engine, ["setoption threads 64", "isready"], /^readyok/);
  check(many.some((l) => /threads: at most 32/.test(l)), "Threads 64 is clamped to 32 with a message");
  engine.postMessage("setoption threads 2");
  const hash = await session(engine, ["setoption hashsize 4096", "isready"], /^readyok/);
  const said = hash.find((l) => /hash table is \d+ MB/.test(l)) || "";
  const mb = Number((/(\d+) MB/.exec(said) || [])[1]);
  check(mb >= 64 && mb < 4096, `Hash 4096 is clamped with a message: '${said}'`);
  const t0 = Date.now();
  engine.postMessage("setoption hashsize 64");
  engine.postMessage("go infinite");
  setTimeout(() => engine.postMessage("stop"), 1000);
  const stopped = await session(engine, [], /^bestmove/, 30000);
  const ms = Date.now() - t0;
  check(ms >= 900 && ms < 10000 && legal.includes(stopped[stopped.length - 1].split(" ")[1]),
        `go infinite + stop after 1 s: ${stopped[stopped.length - 1]} after ${ms} ms`);
  await session(engine, ["quit"], /^bye/);
  check((await engine.exited) === 0, "quit: the engine ends with code 0");

  // The API inside a Node worker thread (the engine's own threads nest in it).
  const inWorker = await new Promise((resolve, reject) => {
    const { Worker } = require("worker_threads");
    const worker = new Worker(`
      const { parentPort } = require("worker_threads");
      require(${JSON.stringify(path.join(build, "package", "chariot.js"))})().then((engine) => {
        engine.addMessageListener((line) => {
          if (line.startsWith("bestmove")) { parentPort.postMessage(line); engine.terminate(); }
        });
        engine.postMessage("position startpos moves h2e2 h9g7");
        engine.postMessage("go depth 6");
      });`, { eval: true });
    worker.once("message", (line) => { worker.terminate(); resolve(line); });
    worker.once("error", reject);
  });
  check(/^bestmove [a-i]\d[a-i]\d/.test(inWorker), `in a worker thread: ${inWorker}`);

  // 3. the module without threads.
  await singleThreaded(nativeSig, legal, fen);

  // 4. the tarball in an empty folder.
  const tgz = fs.readdirSync(build).filter((f) => /^chariot-xiangqi-.*\.tgz$/.test(f));
  check(tgz.length === 1, `one tarball: ${tgz.join(", ")}`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "chariot-npm-"));
  try {
    fs.writeFileSync(path.join(dir, "package.json"), '{"name":"try-chariot","private":true}\n');
    execFileSync("npm", ["install", "--offline", "--no-audit", "--no-fund", "--silent", path.join(build, tgz[0])],
                 { cwd: dir, stdio: "inherit" });
    fs.writeFileSync(path.join(dir, "play.js"), `
const Chariot = require("chariot-xiangqi");
Chariot().then((engine) => {
  engine.addMessageListener((line) => {
    if (line.startsWith("bestmove")) { console.log(line); engine.terminate(); }
  });
  engine.postMessage("ucci");
  engine.postMessage("position startpos moves h2e2 h9g7");
  engine.postMessage("go depth 8");
});
`);
    const out = execFileSync("node", ["play.js"], { cwd: dir, encoding: "utf8", timeout: 120000 }).trim();
    check(/^bestmove [a-i]\d[a-i]\d/.test(out), `installed package: ${out}`);
    fs.writeFileSync(path.join(dir, "play-single.js"),
                     fs.readFileSync(path.join(dir, "play.js"), "utf8").replace("Chariot()", 'Chariot({ threads: "single" })'));
    const outSingle = execFileSync("node", ["play-single.js"], { cwd: dir, encoding: "utf8", timeout: 120000 }).trim();
    check(/^bestmove [a-i]\d[a-i]\d/.test(outSingle), `installed package, the module without threads: ${outSingle}`);
    const types = path.join(dir, "node_modules", "chariot-xiangqi", "chariot.d.ts");
    check(fs.existsSync(types), "the TypeScript declarations are installed");
    const bin = path.join(dir, "node_modules", ".bin", "chariot-xiangqi");
    const piped = execFileSync(bin, [], {
      input: "ucci\nposition startpos\ngo depth 5\n", encoding: "utf8", timeout: 120000,
    });
    const last = piped.trim().split("\n").pop();
    check(/^bestmove [a-i]\d[a-i]\d/.test(last), `the bin on stdin/stdout (input then end of input): ${last}`);
    const pipedSingle = execFileSync(bin, ["--single-threaded"], {
      input: "ucci\nsetoption threads 4\nposition startpos\ngo depth 5\n", encoding: "utf8", timeout: 120000,
    });
    const lastSingle = pipedSingle.trim().split("\n").pop();
    check(/^bestmove [a-i]\d[a-i]\d/.test(lastSingle) && /one thread only/.test(pipedSingle),
          `the bin --single-threaded: ${lastSingle}`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }

  if (failures.length) {
    console.log(`${failures.length} Node check(s) failed`);
    process.exit(1);
  }
  console.log("Node checks passed");
}

// The module without threads, as a page that is not cross-origin isolated
// runs it: everything on this thread, the input taken when the search polls.
async function singleThreaded(nativeSig, legal, fen) {
  const engine = await Chariot({ threads: "single" });
  check(engine.threaded === false, "Chariot({threads: 'single'}): the module without threads");
  const bench = await session(engine, ["bench"], /^Evaluation/);
  const sig = signature(bench);
  check(sig === nativeSig, `single-threaded bench signature: ${sig}, native ${nativeSig}`);

  const uci = await session(engine, ["uci", "setoption name Threads value 2", "isready"], /^readyok/);
  const note = uci.find((l) => /^info string threads:/.test(l)) || "";
  check(/one thread only/.test(note), `Threads 2 is answered: '${note}'`);
  engine.postMessage("setoption name UseBook value false");
  engine.postMessage(`position fen ${fen} moves h2e2 h9g7`);

  // isready during a search, then stop; what comes after the stop waits for
  // the answer and runs in order: a new position and a search of it.
  const t0 = Date.now();
  const seen = [];
  const listen = (line) => seen.push({ line, ms: Date.now() - t0 });
  engine.addMessageListener(listen);
  engine.postMessage("go infinite");
  await new Promise((r) => setTimeout(r, 500));
  engine.postMessage("isready");
  await new Promise((r) => setTimeout(r, 500));
  engine.postMessage("stop");
  engine.postMessage("position startpos moves h2e2");
  engine.postMessage("go depth 6");
  engine.postMessage("isready");
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no second bestmove: ${seen.map((x) => x.line).slice(-5)}`)), 60000);
    (function wait() {
      const count = (re) => seen.filter((x) => re.test(x.line)).length;
      if (count(/^bestmove/) >= 2 && count(/^readyok$/) >= 2) return clearTimeout(timer), resolve();
      setTimeout(wait, 20);
    })();
  });
  engine.removeMessageListener(listen);
  const bestmoves = seen.filter((s) => s.line.startsWith("bestmove"));
  const readies = seen.filter((s) => s.line === "readyok");
  check(readies.length === 2 && readies[0].ms >= 450 && readies[0].ms < 900,
        `isready during go infinite: readyok after ${readies[0] && readies[0].ms} ms (sent after 500 ms)`);
  const first = bestmoves[0].line.split(" ")[1];
  check(bestmoves[0].ms >= 950 && bestmoves[0].ms < 5000 && legal.includes(first),
        `go infinite + stop after 1 s: ${bestmoves[0].line} after ${bestmoves[0].ms} ms`);
  const afterH2e2 = execFileSync(native, [], { input: "position startpos moves h2e2\nperft 1\n", encoding: "utf8" })
    .split("\n").filter((l) => /^[a-i]\d[a-i]\d: /.test(l)).map((l) => l.slice(0, 4));
  const second = bestmoves[1].line.split(" ")[1];
  check(afterH2e2.includes(second),
        `the position and go sent during the search ran after it, in order: ${bestmoves[1].line}`);

  // ponderhit reaches a ponder search, which then answers by its clock.
  const t1 = Date.now();
  engine.postMessage("position startpos");
  engine.postMessage("go ponder movetime 300");
  setTimeout(() => engine.postMessage("ponderhit"), 600);
  const pondered = await session(engine, [], /^bestmove/, 30000);
  const ponderMs = Date.now() - t1;
  check(ponderMs >= 850 && ponderMs < 5000, `go ponder + ponderhit after 0.6 s: answered after ${ponderMs} ms (${pondered[pondered.length - 1]})`);

  // quit during a search: its answer, then bye, and the engine ends.
  engine.postMessage("go infinite");
  setTimeout(() => engine.postMessage("quit"), 300);
  const quitLines = await session(engine, [], /^bye/, 30000);
  check(quitLines.some((l) => l.startsWith("bestmove")), "quit during go infinite: bestmove, then bye");
  check((await engine.exited) === 0, "single-threaded quit: the engine ends with code 0");
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
