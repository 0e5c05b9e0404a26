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
// The engine runs on its own pthreads, so it needs SharedArrayBuffer: Node,
// a Web Worker or a page that is cross-origin isolated (docs/web.md).
(function () {
  "use strict";
  var factory = ChariotModule;

  function noSharedMemoryError() {
    return new Error(
      "Chariot needs SharedArrayBuffer (its search runs on WebAssembly threads): serve the page " +
        "cross-origin isolated, with the headers 'Cross-Origin-Opener-Policy: same-origin' and " +
        "'Cross-Origin-Embedder-Policy: require-corp'"
    );
  }

  function Chariot(options) {
    options = options || {};
    if (typeof SharedArrayBuffer === "undefined") return Promise.reject(noSharedMemoryError());
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
      };
      return engine;
    });
  }

  Chariot.ChariotModule = factory;
  // CommonJS (Node, bundlers): the module is this function; elsewhere (a
  // page's script tag, importScripts in a worker) a global.
  if (typeof module === "object" && module && module.exports) {
    module.exports = Chariot;
    module.exports.default = Chariot;
    module.exports.Chariot = Chariot;
  } else if (typeof globalThis === "object") {
    globalThis.Chariot = Chariot;
  } else if (typeof self === "object") {
    self.Chariot = Chariot;
  }
})();
