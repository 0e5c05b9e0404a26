// Opening-book tools (chariot_tools): building Chariot's binary book from the
// text source, and `chariot book build|probe|dump|bench`. The engine only
// loads and probes books (book.h).
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace chariot {

struct BookBuildStats {
    size_t lines = 0;
    size_t positions = 0;  // distinct positions with a book move (mirrors merged)
    size_t records = 0;
    size_t clamped = 0;  // records whose summed weight was capped at 65535
};

// Builds Chariot's binary book from the text source (format documented in
// books/README.md). Returns an error naming the line on failure.
std::optional<std::string> buildBook(const std::string& sourcePath, const std::string& outPath,
                                     BookBuildStats* stats = nullptr);

// `chariot book build|probe|dump|bench ...`; returns the exit code.
int runBookTool(const std::vector<std::string>& args, const std::function<void(const std::string&)>& print);

}  // namespace chariot
