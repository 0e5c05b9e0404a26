// Small helpers shared by the command-line tools (chariot_tools only):
// strict number arguments, multi-line help text, and the engine settings of
// a tool's searches.
#pragma once

#include <functional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "chariot/engine.h"
#include "chariot/text.h"

namespace chariot::tools {

using chariot::parseNumber;

// Prints a text of newline-terminated lines one line at a time.
inline void printLines(const std::function<void(const std::string&)>& print, std::string_view text) {
    for (size_t nl; (nl = text.find('\n')) != std::string_view::npos; text.remove_prefix(nl + 1))
        print(std::string(text.substr(0, nl)));
}

// One flag of a tool's command line: with `takeValue` it reads the word
// after it (false: a bad value), else it is a switch and `set` runs.
struct Flag {
    std::string name;
    std::function<bool(const std::string&)> takeValue;
    std::function<void()> set;
};
// A flag with a number value in [lo, hi]; `given`, if any, is set when it appears.
template <typename T>
Flag numberFlag(std::string name, T& target, T lo, T hi, bool* given = nullptr) {
    return {std::move(name),
            [&target, lo, hi, given](const std::string& v) {
                if (given) *given = true;
                return parseNumber(v, target, lo, hi);
            },
            nullptr};
}
// Reads a tool's words: the flags, `help`/`--help`/`-h` (prints `usage` and
// ends with 0), other words to `positional` (false: refused, ends with 2).
// Returns -1 when every word was read, else the exit code; problems are
// reported on `err` as "<tool>: ...".
int readArgs(std::string_view tool, const std::vector<std::string>& args, const std::vector<Flag>& flags,
             const std::function<bool(const std::string&)>& positional,
             const std::function<void(const std::string&)>& print, std::ostream& err, std::string_view usage);

// A tool's searches: the given hash and threads, no book, no move overhead;
// the engine's messages go to `err` behind `prefix`.
inline void configureEngine(Engine& engine, int hashMB, int threads, std::ostream& err, std::string_view prefix) {
    auto set = [&](const char* name, const std::string& value) {
        for (const std::string& m : engine.setOption(name, value).messages) err << prefix << ": " << m << '\n';
    };
    set("hashsize", std::to_string(hashMB));
    set("threads", std::to_string(threads));
    set("moveoverhead", "0");
    set("usebook", "false");
}

}  // namespace chariot::tools
