// The WebAssembly front-end: the engine as a module for web pages and Node.
//
// JavaScript (web/chariot-api.js) calls chariot_command() with one line of
// UCCI / UCI / xboard text at a time and gets the engine's answers line by
// line through Module.onChariotLine. main() runs on a pthread of its own
// (-sPROXY_TO_PTHREAD): the protocol loop and the search block there, never
// the JavaScript thread that feeds them, so that `stop` reaches a running
// search. The core does not know this file: it reads its input through
// platform::readStdin, which this module defines for the WebAssembly build
// (a queue filled by chariot_command), and writes through the callback given
// to the protocol.
#include <emscripten.h>

// EM_ASM's JavaScript names its arguments $0, $1...
#pragma clang diagnostic ignored "-Wdollar-in-identifier-extension"

#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <mutex>
#include <string>

#include "chariot/platform.h"
#include "chariot/ucci.h"

namespace {

constexpr int MaxThreads = 32;

// The engine's standard input: the bytes of the lines given by JavaScript,
// in order, and whether the input has been closed.
struct Input {
    std::mutex mutex;
    std::condition_variable ready;
    std::string bytes;
    bool closed = false;
};

Input& input() {
    static Input in;
    return in;
}

}  // namespace

namespace chariot::platform {

size_t readStdin(char* buffer, size_t size) {
    Input& in = input();
    std::unique_lock lock(in.mutex);
    in.ready.wait(lock, [&] { return !in.bytes.empty() || in.closed; });
    const size_t n = std::min(size, in.bytes.size());
    std::memcpy(buffer, in.bytes.data(), n);
    in.bytes.erase(0, n);
    return n;  // 0 only once the input is closed and drained
}

}  // namespace chariot::platform

extern "C" {

// One line of input (the newline is added here; a line holding newlines is
// several commands, as on a pipe). Called on the JavaScript thread.
EMSCRIPTEN_KEEPALIVE void chariot_command(const char* line) {
    Input& in = input();
    {
        std::lock_guard lock(in.mutex);
        if (in.closed) return;
        in.bytes += line;
        in.bytes += '\n';
    }
    in.ready.notify_one();
}

// The end of input, as when a GUI closes the pipe: the engine finishes what
// it was given and its main() returns.
EMSCRIPTEN_KEEPALIVE void chariot_close_input() {
    Input& in = input();
    {
        std::lock_guard lock(in.mutex);
        in.closed = true;
    }
    in.ready.notify_one();
}

}  // extern "C"

int main() {
    // The protocol front-end alone, as `chariot` without arguments runs it
    // (the command-line tools are not part of this build).
    // At most 32 search threads: each is a Web Worker with an 8 MB stack in
    // the module's memory, which is 2 GB at most (the hash takes up to half).
    chariot::WorkCaps caps;
    caps.threads = MaxThreads;
    chariot::Protocol protocol(
        [](const std::string& line) {
            // Posted to the JavaScript thread, which frees the copy; one queue
            // for all threads keeps the lines in the order they were written.
            char* copy = strdup(line.c_str());
            MAIN_THREAD_ASYNC_EM_ASM(
                {
                    Module["onChariotLine"](UTF8ToString($0));
                    _free($0);
                },
                copy);
        },
        caps);
    const int code = protocol.runStdin();
    MAIN_THREAD_ASYNC_EM_ASM({ Module["onChariotExit"]($0); }, code);
    return code;
}
