// Appended inside the Emscripten module (--post-js): what the API in
// chariot-api.js needs of its internals. Ending the engine ends its workers
// (the pthreads), so that a Node process holding none else can exit.
Module["chariotTerminate"] = function () {
  PThread.terminateAllThreads();
};
