// Small text helpers every layer uses: ASCII case folding, splitting a
// command into words, and strict number parsing.
#pragma once

#include <charconv>
#include <string>
#include <string_view>
#include <vector>

namespace chariot {

// ASCII lower case: option names and the protocol's words ignore case.
std::string asciiLower(std::string_view s);

// The whitespace-separated words of a line.
std::vector<std::string> splitWords(std::string_view line);

// Strict: the whole of `s` is a number (no sign '+', no spaces) within
// [lo, hi]; then `out` holds it. (The protocol's lenient reader of GUI
// numbers, which saturates and truncates, is parseInteger in options.h.)
template <typename T>
bool parseNumber(std::string_view s, T& out, T lo, T hi) {
    T value{};
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
    if (ec != std::errc() || p != s.data() + s.size() || value < lo || value > hi) return false;
    out = value;
    return true;
}

}  // namespace chariot
