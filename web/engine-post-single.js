// Appended inside the single-threaded module (chariot-st.js, --post-js): the
// event-loop side of its waits (src/web/main_single.cpp). The engine runs on
// JavaScript's thread and returns to the event loop (Asyncify) whenever it
// waits for input, and every few milliseconds while it searches; these
// promises say when it may go on.
(function () {
  var terminated = false;
  var pendingTimer = null; // the timer of a wait with a limit
  var wakeWaiter = null; // ends the wait in progress
  // One turn of the event loop, without the 1 to 4 ms that setTimeout adds:
  // setImmediate in Node, a MessageChannel message in browsers.
  var nextTurn;
  if (typeof setImmediate === "function") {
    nextTurn = function (fn) {
      setImmediate(fn);
    };
  } else {
    var turns = [];
    var channel = new MessageChannel();
    channel.port1.onmessage = function () {
      var fn = turns.shift();
      if (fn) fn();
    };
    nextTurn = function (fn) {
      turns.push(fn);
      channel.port2.postMessage(0);
    };
  }

  // Resolves after one turn (waitMs 0), once input arrives, or after waitMs
  // (negative: no limit). After terminate() it never resolves.
  Module["chariotWait"] = function (waitMs) {
    return new Promise(function (resolve) {
      if (terminated) return;
      if (waitMs === 0) {
        nextTurn(function () {
          if (!terminated) resolve();
        });
        return;
      }
      var done = false;
      function wake() {
        if (done) return;
        done = true;
        if (pendingTimer !== null) clearTimeout(pendingTimer);
        pendingTimer = null;
        if (wakeWaiter === wake) wakeWaiter = null;
        if (!terminated) resolve();
      }
      wakeWaiter = wake;
      if (waitMs > 0) pendingTimer = setTimeout(wake, waitMs);
    });
  };

  // A line (or the end of input) has been queued: a waiting engine goes on,
  // on a later turn (never inside the caller's postMessage).
  Module["chariotInputArrived"] = function () {
    var wake = wakeWaiter;
    if (wake) nextTurn(wake);
  };

  // Ends the engine: it stays asleep where it is, and no timer is left.
  Module["chariotTerminate"] = function () {
    terminated = true;
    if (pendingTimer !== null) clearTimeout(pendingTimer);
    pendingTimer = null;
    wakeWaiter = null;
  };
})();
