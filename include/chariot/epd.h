// `chariot epd`: runs a test suite of EPD lines (a FEN's first fields, then
// operations: `bm` best moves, `am` moves to avoid, `id "name"`) and counts
// the positions whose best move the search finds.
#pragma once

#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "chariot/engine.h"

namespace chariot::epd {

struct EpdEntry {
    int line = 0;
    std::string fen;  // completed to a full FEN
    std::string id;   // the `id` operand, else "line N"
    std::vector<Move> bm, am;

    // Does playing m solve it: one of bm (when given) and none of am?
    bool solvedBy(Move m) const;
};

// One line: the entry, or nullopt with the reason in *error. A line that is
// blank or starts with '#' is neither (nullopt, empty error).
std::optional<EpdEntry> parseLine(std::string_view line, int lineNo, std::string* error);

struct Outcome {
    bool solved = false;
    Move played;
    Value score = 0;
    int depth = 0;
    int64_t timeMs = 0;
    uint64_t nodes = 0;
    // From the iteration after which the move stayed a solving one.
    int solvedDepth = 0;
    int64_t solvedTimeMs = 0;
};

// Searches one entry from a cleared hash table.
Outcome solve(Engine& engine, const EpdEntry& entry, const SearchLimits& limits);

// `chariot epd ...`: one line per position and `solved N/M` on `print`,
// malformed lines on `err`. Returns 0, or 2 for usage errors and unreadable files.
int runEpdTool(const std::vector<std::string>& args, const std::function<void(const std::string&)>& print,
               std::ostream& err);

}  // namespace chariot::epd
