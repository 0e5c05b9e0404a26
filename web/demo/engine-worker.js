// The engine in a Web Worker: the page posts command lines, the worker posts
// back every line the engine writes ({line}), or {ready, threaded} once it has
// started, or {error} if it cannot start. Where the page is not cross-origin
// isolated (no SharedArrayBuffer), Chariot() runs the module without threads,
// chariot-st.js, from beside chariot.js.
/* global Chariot */
"use strict";
importScripts("chariot.js");

// Every thread of the engine loads chariot.js: say where it is (a worker
// cannot find the URL of a script it imported; chariot-st.js is beside it).
Chariot({ mainScriptUrlOrBlob: new URL("chariot.js", self.location.href).href }).then(
  (engine) => {
    engine.addMessageListener((line) => postMessage({ line }));
    self.onmessage = (event) => engine.postMessage(event.data);
    postMessage({ ready: true, threaded: engine.threaded });
  },
  (error) => postMessage({ error: error.message })
);
