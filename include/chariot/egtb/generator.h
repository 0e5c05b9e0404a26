// The retrograde generator: solves one material (strong side red) given its
// solved sub-tables, for both sides to move, to exact distance to mate.
//
// Values, one uint16 per index and side to move: 0 a draw, Broken an index
// that is no legal position, otherwise dtm + 1, dtm being plies to mate with
// best play (even: the side to move loses, 0 = no legal move; odd: it wins).
//
// The rules as the tables have them: no legal move (mate or stalemate) loses;
// the kings may not face each other on an open file; a capture leaves the
// table for a smaller one (a side left without attackers cannot win: with no
// attacker on either side the game is a draw). What retrograde analysis does
// not decide is a draw. Not modelled: the no-capture rule (a table mate may be
// further than 60 moves), and repetition verdicts: the bare side cannot give
// check, a winning line never repeats, and a perpetual chase by advisors or
// elephants (a loss under Asian rules) is not looked for: a table draw may
// need one.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "chariot/egtb/index.h"
#include "chariot/egtb/material.h"

namespace chariot::egtb {

constexpr uint16_t TbDraw = 0;
constexpr uint16_t TbBroken = 0xFFFF;
constexpr bool isDecided(uint16_t v) { return v != TbDraw && v != TbBroken; }
constexpr int dtmOf(uint16_t v) { return int(v) - 1; }  // for decided values
constexpr bool isWinValue(uint16_t v) { return isDecided(v) && dtmOf(v) % 2 == 1; }
constexpr bool isLossValue(uint16_t v) { return isDecided(v) && dtmOf(v) % 2 == 0; }

// Sides to move, as the tables index them.
constexpr int StrongToMove = 0, WeakToMove = 1;

struct TableCounts {
    std::array<uint64_t, 2> legal{}, wins{}, losses{}, draws{};  // per side to move
    int maxDtm = 0;
};

// A solved table in memory.
struct Table {
    explicit Table(const Material& m) : indexer(m) {}
    Indexer indexer;
    std::array<std::vector<uint16_t>, 2> values;  // [side to move][index]
    const Material& material() const { return indexer.material(); }
    uint16_t value(int stm, uint64_t idx) const { return values[size_t(stm)][idx]; }
    TableCounts counts() const;
};

// Finds a solved table by material; null when it is not there.
using TableLookup = std::function<const Table*(const Material&)>;

struct GenerateOptions {
    int threads = 1;
    // Called now and then on the calling thread: fraction done (0..1).
    std::function<void(double)> progress;
};

// Solves m. Every material one capture away that keeps an attacker must be
// found by `subTables`; otherwise returns null with `error` set.
std::unique_ptr<Table> generate(const Material& m, const TableLookup& subTables, const GenerateOptions& options,
                                std::string& error);

// m with one piece of the kind fewer (m itself when it has none).
Material withoutPiece(const Material& m, Kind captured);

}  // namespace chariot::egtb
