// Fuzzes the whole command loop: the input bytes are split into lines as the
// stdin reader splits them (LineSplitter) and run through the Protocol
// (runLines: searches on the engine's thread pool, commands deferred while one
// runs, end of input finishing or stopping the searches). One Protocol and its
// engine persist across inputs (runLines starts each input as a fresh session:
// options back to their defaults, start position, hash and histories cleared),
// so an execution costs the commands, not the set-up of threads and tables.
// Work caps keep every search, perft and bench tiny. Output lines must never
// contain a line break or a NUL, whatever the input echoes back.
//
// `bookfiles` lines are dropped: they would open arbitrary paths of this
// machine, which is not what is under test (book files have their own tests).
#include <algorithm>
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "chariot/ucci.h"
#include "fuzz_check.h"

using namespace chariot;
using chariot::fuzz::check;

namespace {

// Option names match case-insensitively with spaces and underscores ignored.
bool mentionsBookFiles(const std::string& line) {
    std::string canon;
    for (char c : line)
        if (c != ' ' && c != '_') canon += char(std::tolower(static_cast<unsigned char>(c)));
    return canon.find("bookfiles") != std::string::npos;
}

void checkOutput(const std::string& line) {
    check(line.find_first_of(std::string("\n\r\0", 3)) == std::string::npos,
          "an output line contains a line break or NUL", line.substr(0, 200));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    LineSplitter splitter;
    std::vector<LineSplitter::Line> split;
    splitter.feed(reinterpret_cast<const char*>(data), size, split);
    if (auto last = splitter.finish()) split.push_back(std::move(*last));
    std::vector<std::string> lines;
    for (auto& l : split)
        if (!l.truncated && !mentionsBookFiles(l.text)) lines.push_back(std::move(l.text));

    static Protocol protocol = [] {
        WorkCaps caps;
        caps.depth = 1;
        caps.nodes = 200;
        caps.hashMB = 1;
        caps.threads = 2;
        caps.benchPositions = 2;
        caps.minThinkMs = 0;  // a limited engine does not wait for a human-like time
        return Protocol(checkOutput, caps);
    }();
    const int code = protocol.runLines(lines);
    check(code == 0, "the loop returned a non-zero exit code");
    return 0;
}
