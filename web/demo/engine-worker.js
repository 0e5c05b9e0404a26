// The engine in a Web Worker: the page posts command lines, the worker posts
// back every line the engine writes ({line}), or {ready} once it has started,
// or {error} if it cannot start (no SharedArrayBuffer: not cross-origin isolated).
/* global Chariot */
"use strict";
importScripts("chariot.js");

// Every thread of the engine loads chariot.js: say where it is (a worker
// cannot find the URL of a script it imported).
Chariot({ mainScriptUrlOrBlob: new URL("chariot.js", self.location.href).href }).then(
  (engine) => {
    engine.addMessageListener((line) => postMessage({ line }));
    self.onmessage = (event) => engine.postMessage(event.data);
    postMessage({ ready: true });
  },
  (error) => postMessage({ error: error.message })
);
