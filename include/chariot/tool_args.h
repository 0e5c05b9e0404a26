// Small helpers shared by the command-line tools (chariot_tools only):
// strict number arguments, multi-line help text, and the engine settings of
// a tool's searches.
#pragma once

#include <charconv>
#include <functional>
#include <ostream>
#include <string>
#include <string_view>

#include "chariot/engine.h"

namespace chariot::tools {

// The whole of `s` is a number in [lo, hi]: then `out` holds it.
template <typename T>
bool parseNumber(const std::string& s, T& out, T lo, T hi) {
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc() && p == s.data() + s.size() && out >= lo && out <= hi;
}

// Prints a text of newline-terminated lines one line at a time.
inline void printLines(const std::function<void(const std::string&)>& print, std::string_view text) {
    for (size_t nl; (nl = text.find('\n')) != std::string_view::npos; text.remove_prefix(nl + 1))
        print(std::string(text.substr(0, nl)));
}

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
