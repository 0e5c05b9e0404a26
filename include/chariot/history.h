// Move-ordering statistics the search learns as it goes: the slots of the
// continuation history, the capture-history table and the update rule that
// keeps every entry within +-MaxHistory.
#pragma once

#include <array>
#include <cassert>
#include <cstdint>
#include <cstdlib>

#include "chariot/tables.h"
#include "chariot/types.h"

namespace chariot {

constexpr int MaxHistory = 16384;

// Continuation-history slot of "piece p arrives on square to": one per
// square the piece may stand on by the rules (tables::mayStand, which FEN
// validation enforces), so kings, advisors, elephants and unadvanced pawns
// take few: 692 slots instead of 14 x 90, and a history table of 0.9 MB
// instead of 3.2 MB that stays in the cache far better. The last slot
// catches anything else.
struct ContSlotTable {
    std::array<std::array<int16_t, BoardSize>, PieceIndexCount> slot{};
    int count = 0;
};
constexpr ContSlotTable makeContSlots() {
    ContSlotTable t;
    for (int pi = 0; pi < PieceIndexCount; ++pi) t.slot[pi].fill(-1);
    for (Color c : {Color::Red, Color::Black})
        for (int type = 0; type < PieceTypeCount; ++type)
            for (int rank = 0; rank < RankCount; ++rank)
                for (int file = 0; file < FileCount; ++file)
                    if (const Square s = makeSquare(file, rank); tables::mayStand(c, PieceType(type), s))
                        t.slot[pieceIndex(c, PieceType(type))][index(s)] = int16_t(t.count++);
    for (auto& row : t.slot)
        for (auto& s : row)
            if (s < 0) s = int16_t(t.count);  // the catch-all slot
    ++t.count;
    return t;
}
inline constexpr ContSlotTable ContSlotsTable = makeContSlots();
inline constexpr int ContSlots = ContSlotsTable.count;
static_assert(ContSlots == 2 * (3 * 90 + 9 + 5 + 7 + 55) + 1);
inline int contSlot(Piece p, Square to) {
    assert(tables::mayStand(colorOf(p), typeOf(p), to));
    return ContSlotsTable.slot[pieceIndex(p)][index(to)];
}

// Capture history: [moving piece][to][captured type].
using CaptureHistory = int16_t[PieceIndexCount][BoardSize][PieceTypeCount];

inline void gravity(int16_t& h, int bonus) { h = int16_t(h + bonus - h * std::abs(bonus) / MaxHistory); }

}  // namespace chariot
