// The single-threaded WebAssembly front-end (chariot-st.js): the engine for
// pages that are not cross-origin isolated, which have no SharedArrayBuffer
// and so no WebAssembly threads.
//
// Everything runs on JavaScript's own thread. JavaScript calls
// chariot_command() with one line at a time, which only queues it; the engine
// (built with CHARIOT_NO_THREADS) reads its input through platform::pollStdin,
// here, when it has nothing else to do and, during a search, every few
// milliseconds. To let the lines arrive, pollStdin returns to the JavaScript
// event loop (Asyncify unwinds the WebAssembly stack, the loop runs, and the
// stack is rewound: chariot_host_wait below), so that `stop`, `isready` and
// `quit` reach a running search. Output goes to Module.onChariotLine at once.
#include <emscripten.h>

// EM_ASM's JavaScript names its arguments $0, $1...
#pragma clang diagnostic ignored "-Wdollar-in-identifier-extension"

#include <algorithm>
#include <cstring>
#include <string>

#include "chariot/platform.h"
#include "chariot/ucci.h"

static_assert(CHARIOT_NO_THREADS, "main_single.cpp is the front-end of the build without threads");

namespace {

// The engine's standard input: the bytes of the lines given by JavaScript,
// in order, and whether the input has been closed.
struct Input {
    std::string bytes;
    bool closed = false;
};

Input& input() {
    static Input in;
    return in;
}

}  // namespace

// Returns to the event loop for at most `waitMs` (0: one turn, which lets the
// lines sent meanwhile in; negative: until input arrives or ends): the
// JavaScript of engine-post-single.js. It never returns once the engine has
// been terminated (the module then stays asleep and is collected).
EM_ASYNC_JS(void, chariot_host_wait, (double waitMs), { await Module["chariotWait"](waitMs); });

namespace chariot::platform {

size_t pollStdin(char* buffer, size_t size, int64_t waitMs, bool& ended) {
    Input& in = input();
    if (waitMs == 0 || (in.bytes.empty() && !in.closed)) chariot_host_wait(double(waitMs));
    const size_t n = std::min(size, in.bytes.size());
    std::memcpy(buffer, in.bytes.data(), n);
    in.bytes.erase(0, n);
    ended = in.closed && in.bytes.empty();
    return n;
}

size_t readStdin(char* buffer, size_t size) {
    bool ended = false;
    size_t n = 0;
    while (n == 0 && !ended) n = pollStdin(buffer, size, -1, ended);
    return n;  // 0 only once the input is closed and drained
}

}  // namespace chariot::platform

extern "C" {

// One line of input (the newline is added here; a line holding newlines is
// several commands, as on a pipe).
EMSCRIPTEN_KEEPALIVE void chariot_command(const char* line) {
    Input& in = input();
    if (in.closed) return;
    in.bytes += line;
    in.bytes += '\n';
    EM_ASM({ Module["chariotInputArrived"](); });
}

// The end of input, as when a GUI closes the pipe: the engine finishes what
// it was given and its main() returns.
EMSCRIPTEN_KEEPALIVE void chariot_close_input() {
    input().closed = true;
    EM_ASM({ Module["chariotInputArrived"](); });
}

}  // extern "C"

int main() {
    // The protocol front-end alone, as `chariot` without arguments runs it.
    chariot::WorkCaps caps;
    caps.threads = 1;
    caps.threadsNote = "this WebAssembly module has no threads: they need a cross-origin-isolated page";
    chariot::Protocol protocol(
        [](const std::string& line) { EM_ASM({ Module["onChariotLine"](UTF8ToString($0)); }, line.c_str()); }, caps);
    const int code = protocol.runStdin();
    EM_ASM({ Module["onChariotExit"]($0); }, code);
    return code;
}
