// Shared by the fuzz targets: an invariant check that aborts (a crash is what
// libFuzzer reports and minimises) with a readable reason.
#pragma once

#include <concepts>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace chariot::fuzz {

[[noreturn]] inline void fail(const char* what, const std::string& detail) {
    std::fprintf(stderr, "fuzz invariant failed: %s\n  %s\n", what, detail.c_str());
    std::abort();
}

inline void check(bool ok, const char* what, const std::string& detail = {}) {
    if (!ok) fail(what, detail);
}

// The detail is built only on failure: the per-move checks would otherwise
// format a FEN for every move, a tenth of an execution under ASan.
template <std::invocable Describe>
inline void check(bool ok, const char* what, Describe&& describe) {
    if (!ok) fail(what, describe());
}

}  // namespace chariot::fuzz
