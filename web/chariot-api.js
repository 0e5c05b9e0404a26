// The JavaScript API of Chariot's WebAssembly build (appended to chariot.js
// after the Emscripten module, --extern-post-js). The shape is the one of the
// npm packages stockfish.wasm and fairy-stockfish-nnue.wasm:
//
//   Chariot().then(function (engine) {
//     engine.addMessageListener(function (line) { console.log(line); });
//     engine.postMessage("ucci");
//   });
//
// Lines go in one at a time (postMessage) and come out one at a time (every
// message listener gets every line the engine writes, without the newline).
//
// The same file is appended to both modules (CMake fills in the variant):
// chariot.js, whose engine runs on its own pthreads and so needs
// SharedArrayBuffer (Node, or a page that is cross-origin isolated, and its
// Web Workers), and chariot-st.js, the engine without threads for the pages
// that are not. Chariot() of chariot.js loads chariot-st.js from beside it
// where there is no SharedArrayBuffer, or when asked ({threads: "single"}).
(function () {
  "use strict";
  var singleThreaded = "@web_variant@" === "single";
  var factory = singleThreaded ? ChariotSingleModule : ChariotModule;
  var SingleFile = "chariot-st.js";
  // Where this script was loaded from, for chariot-st.js beside it: Node's
  // folder of this file, a page's script element (known only now, while it
  // runs), or a worker's own location.
  var scriptDir = "";
  if (typeof __dirname === "string") scriptDir = __dirname + "/";
  else if (typeof document === "object" && document && document.currentScript && document.currentScript.src)
    scriptDir = document.currentScript.src.replace(/[^\/]*$/, "");
  else if (typeof self === "object" && self.location && self.location.href)
    scriptDir = self.location.href.replace(/[^\/]*$/, "");

  function sharedMemory() {
    // A page that is not cross-origin isolated may still name the
    // constructor (older browsers) but cannot share it with workers.
    return typeof SharedArrayBuffer !== "undefined" && !(typeof crossOriginIsolated === "boolean" && !crossOriginIsolated);
  }

  function noSharedMemoryError() {
    return new Error(
      "Chariot's threads need SharedArrayBuffer: serve the page cross-origin isolated, with the headers " +
        "'Cross-Origin-Opener-Policy: same-origin' and 'Cross-Origin-Embedder-Policy: require-corp' " +
        "(or leave out {threads: \"multi\"} to run on one thread)"
    );
  }

  // chariot-st.js's own Chariot, loaded once: require() in Node,
  // importScripts() in a worker, a script element in a page.
  var singleLoaded = null;
  function loadSingle(options) {
    if (singleLoaded) return singleLoaded;
    var dir = scriptDir;
    if (typeof options.mainScriptUrlOrBlob === "string") dir = options.mainScriptUrlOrBlob.replace(/[^\/]*$/, "");
    var url = options.locateFile ? options.locateFile(SingleFile, dir) : dir + SingleFile;
    singleLoaded = new Promise(function (resolve, reject) {
      if (typeof module === "object" && module && typeof require === "function" && typeof __dirname === "string") {
        resolve(require(url));
      } else if (typeof importScripts === "function") {
        importScripts(url);
        resolve(self.ChariotSingleThreaded);
      } else if (typeof document === "object" && document) {
        var script = document.createElement("script");
        script.src = url;
        script.onload = function () {
          resolve(globalThis.ChariotSingleThreaded);
        };
        script.onerror = function () {
          reject(new Error("Chariot: could not load " + url));
        };
        document.head.appendChild(script);
      } else {
        reject(new Error("Chariot: no way to load " + url + " here"));
      }
    });
    singleLoaded.catch(function () {
      singleLoaded = null; // a later call may try again
    });
    return singleLoaded;
  }

  function Chariot(options) {
    options = options || {};
    var threads = options.threads === undefined ? "auto" : options.threads;
    if (threads !== "auto" && threads !== "single" && threads !== "multi")
      return Promise.reject(new TypeError('Chariot: options.threads is "auto", "single" or "multi"'));
    if (!singleThreaded) {
      if (threads === "single" || (threads === "auto" && !sharedMemory())) {
        return loadSingle(options).then(function (single) {
          return single(options);
        });
      }
      if (!sharedMemory()) return Promise.reject(noSharedMemoryError());
    } else if (threads === "multi") {
      return Promise.reject(new Error("Chariot: chariot-st.js is the module without threads (use chariot.js)"));
    }
    var listeners = [];
    var threadsStopped = false;
    var mod = null;
    function stopThreads() {
      if (threadsStopped || !mod) return;
      threadsStopped = true;
      mod.chariotTerminate();
    }
    var resolveExit;
    var exited = new Promise(function (resolve) {
      resolveExit = resolve;
    });
    var moduleArg = {
      onChariotLine: function (line) {
        // A copy: a listener may remove itself (or add another) while called.
        // A listener that throws does not stop the others or the engine's
        // output queue: its error is thrown again on its own.
        var now = listeners.slice();
        for (var i = 0; i < now.length; i++) {
          try {
            now[i](line);
          } catch (error) {
            setTimeout(function () {
              throw error;
            }, 0);
          }
        }
      },
      onChariotExit: function (code) {
        // The engine has ended (`quit`, or the input closed): its threads
        // go too, so that nothing keeps a Node process alive.
        resolveExit(code);
        setTimeout(stopThreads, 0);
      },
    };
    // Where the worker script and the main script are, for pages that load
    // chariot.js from elsewhere or as a Blob; Emscripten's own options.
    ["locateFile", "mainScriptUrlOrBlob", "print", "printErr"].forEach(function (key) {
      if (options[key] !== undefined) moduleArg[key] = options[key];
    });

    return factory(moduleArg).then(function (instance) {
      mod = instance;
      var terminated = false;
      var engine = {
        // One command line (UCCI, UCI or xboard, as the native engine reads).
        postMessage: function (line) {
          if (terminated || threadsStopped) throw new Error("Chariot: the engine has ended");
          var text = String(line);
          var size = mod.lengthBytesUTF8(text) + 1;
          var ptr = mod._malloc(size);
          mod.stringToUTF8(text, ptr, size);
          mod._chariot_command(ptr);
          mod._free(ptr);
        },
        addMessageListener: function (listener) {
          if (typeof listener !== "function") throw new TypeError("Chariot: a listener is a function");
          listeners.push(listener);
        },
        removeMessageListener: function (listener) {
          var i = listeners.indexOf(listener);
          if (i >= 0) listeners.splice(i, 1);
        },
        // The end of input, as when a GUI closes the pipe: the engine
        // answers what it was given (a running search with limits ends and
        // answers; one without is stopped), then ends.
        closeInput: function () {
          if (!terminated && !threadsStopped) mod._chariot_close_input();
        },
        // Ends the engine at once: its threads are stopped wherever they
        // are and no line comes after. (To let it answer first, send `quit`.)
        terminate: function () {
          if (terminated) return;
          terminated = true;
          listeners = [];
          stopThreads();
          resolveExit(null);
        },
        // Resolves with the engine's exit code once it has ended by itself
        // (after `quit`), or with null when terminate() ended it.
        exited: exited,
        // True for the module with threads (chariot.js), false for the one
        // without (chariot-st.js), whose `threads` stays at 1.
        threaded: !singleThreaded,
      };
      return engine;
    });
  }

  Chariot.ChariotModule = factory;
  // CommonJS (Node, bundlers): the module is this function; elsewhere (a
  // page's script tag, importScripts in a worker) a global: Chariot, and
  // for chariot-st.js also ChariotSingleThreaded (which chariot.js uses;
  // its Chariot global, when it loaded first, stays the one defined).
  var global = typeof globalThis === "object" ? globalThis : typeof self === "object" ? self : null;
  if (typeof module === "object" && module && module.exports) {
    module.exports = Chariot;
    module.exports.default = Chariot;
    module.exports.Chariot = Chariot;
  } else if (global) {
    if (!singleThreaded) global.Chariot = Chariot;
    else {
      global.ChariotSingleThreaded = Chariot;
      if (typeof global.Chariot !== "function") global.Chariot = Chariot;
    }
  }
})();
