// Material and piece-square values, summed incrementally by the position
// (red minus black) so that the evaluation starts from a ready total.
#pragma once

#include <array>
#include <cstdint>

#include "chariot/types.h"

namespace chariot {

// A middlegame/endgame pair packed in one int, so the incremental sum is one add.
class Score {
public:
    constexpr Score() = default;
    constexpr Score(int mg, int eg) : value_(int32_t(uint32_t(eg) << 16) + mg) {}
    constexpr int mg() const { return int16_t(uint16_t(uint32_t(value_))); }
    constexpr int eg() const { return int16_t(uint16_t(uint32_t(value_ + 0x8000) >> 16)); }
    constexpr Score operator+(Score o) const { return fromRaw(value_ + o.value_); }
    constexpr Score operator-(Score o) const { return fromRaw(value_ - o.value_); }
    constexpr Score operator-() const { return fromRaw(-value_); }
    constexpr Score& operator+=(Score o) { value_ += o.value_; return *this; }
    constexpr Score& operator-=(Score o) { value_ -= o.value_; return *this; }
    constexpr Score operator*(int k) const { return fromRaw(value_ * k); }
    constexpr bool operator==(const Score&) const = default;

private:
    constexpr static Score fromRaw(int32_t v) { Score s; s.value_ = v; return s; }
    int32_t value_ = 0;
};

namespace psqt {

// Material, internal units (a pawn before the river is about 100 in the middlegame).
inline constexpr Score PieceValue[PieceTypeCount] = {
    Score(0, 0),        // king
    Score(190, 210),    // advisor
    Score(190, 200),    // elephant
    Score(420, 460),    // horse
    Score(960, 1040),   // rook
    Score(470, 430),    // cannon
    Score(70, 110),     // pawn (its value after crossing the river comes from the table)
};

// Tables from red's point of view, rank 9 (black's back rank) first, files a..i.
using Table = std::array<std::array<int8_t, FileCount>, RankCount>;

inline constexpr Table KingTable = {{
    {0, 0, 0, 0, 0, 0, 0, 0, 0},
    {0, 0, 0, 0, 0, 0, 0, 0, 0},
    {0, 0, 0, 0, 0, 0, 0, 0, 0},
    {0, 0, 0, 0, 0, 0, 0, 0, 0},
    {0, 0, 0, 0, 0, 0, 0, 0, 0},
    {0, 0, 0, 0, 0, 0, 0, 0, 0},
    {0, 0, 0, 0, 0, 0, 0, 0, 0},
    {0, 0, 0, -30, -30, -30, 0, 0, 0},
    {0, 0, 0, -12, -10, -12, 0, 0, 0},
    {0, 0, 0, 2, 8, 2, 0, 0, 0},
}};
inline constexpr Table AdvisorTable = {{
    {0, 0, 0, 0, 0, 0, 0, 0, 0},
    {0, 0, 0, 0, 0, 0, 0, 0, 0},
    {0, 0, 0, 0, 0, 0, 0, 0, 0},
    {0, 0, 0, 0, 0, 0, 0, 0, 0},
    {0, 0, 0, 0, 0, 0, 0, 0, 0},
    {0, 0, 0, 0, 0, 0, 0, 0, 0},
    {0, 0, 0, 0, 0, 0, 0, 0, 0},
    {0, 0, 0, -4, 0, -4, 0, 0, 0},
    {0, 0, 0, 0, 8, 0, 0, 0, 0},
    {0, 0, 0, 2, 0, 2, 0, 0, 0},
}};
inline constexpr Table ElephantTable = {{
    {0, 0, 0, 0, 0, 0, 0, 0, 0},
    {0, 0, 0, 0, 0, 0, 0, 0, 0},
    {0, 0, 0, 0, 0, 0, 0, 0, 0},
    {0, 0, 0, 0, 0, 0, 0, 0, 0},
    {0, 0, 0, 0, 0, 0, 0, 0, 0},
    {0, 0, -6, 0, 0, 0, -6, 0, 0},
    {0, 0, 0, 0, 0, 0, 0, 0, 0},
    {-6, 0, 0, 0, 10, 0, 0, 0, -6},
    {0, 0, 0, 0, 0, 0, 0, 0, 0},
    {0, 0, 2, 0, 0, 0, 2, 0, 0},
}};
inline constexpr Table HorseTable = {{
    {4, 8, 16, 12, 4, 12, 16, 8, 4},
    {4, 10, 28, 16, 8, 16, 28, 10, 4},
    {12, 14, 16, 20, 18, 20, 16, 14, 12},
    {8, 24, 18, 24, 20, 24, 18, 24, 8},
    {6, 16, 14, 18, 16, 18, 14, 16, 6},
    {4, 12, 16, 14, 12, 14, 16, 12, 4},
    {2, 6, 8, 6, 10, 6, 8, 6, 2},
    {4, 2, 8, 8, 4, 8, 8, 2, 4},
    {0, 2, 4, 4, -10, 4, 4, 2, 0},
    {0, -4, 0, 0, 0, 0, 0, -4, 0},
}};
inline constexpr Table RookTable = {{
    {14, 14, 12, 18, 16, 18, 12, 14, 14},
    {16, 20, 18, 24, 26, 24, 18, 20, 16},
    {12, 12, 12, 18, 18, 18, 12, 12, 12},
    {12, 18, 16, 22, 22, 22, 16, 18, 12},
    {12, 14, 12, 18, 18, 18, 12, 14, 12},
    {12, 16, 14, 20, 20, 20, 14, 16, 12},
    {6, 10, 8, 14, 14, 14, 8, 10, 6},
    {4, 8, 6, 14, 12, 14, 6, 8, 4},
    {8, 4, 8, 16, 8, 16, 8, 4, 8},
    {-2, 10, 6, 14, 12, 14, 6, 10, -2},
}};
inline constexpr Table CannonTable = {{
    {6, 4, 0, -10, -12, -10, 0, 4, 6},
    {2, 2, 0, -4, -14, -4, 0, 2, 2},
    {2, 2, 0, -10, -8, -10, 0, 2, 2},
    {0, 0, -2, 4, 10, 4, -2, 0, 0},
    {0, 0, 0, 2, 8, 2, 0, 0, 0},
    {-2, 0, 4, 2, 6, 2, 4, 0, -2},
    {0, 0, 0, 2, 4, 2, 0, 0, 0},
    {4, 0, 8, 6, 10, 6, 8, 0, 4},
    {0, 2, 4, 6, 6, 6, 4, 2, 0},
    {0, 0, 2, 6, 6, 6, 2, 0, 0},
}};
// Pawns: middlegame and endgame tables, crossing bonus included.
inline constexpr Table PawnTableMg = {{
    {0, 3, 6, 9, 12, 9, 6, 3, 0},
    {18, 36, 56, 80, 120, 80, 56, 36, 18},
    {14, 26, 42, 60, 80, 60, 42, 26, 14},
    {10, 20, 30, 34, 40, 34, 30, 20, 10},
    {6, 12, 18, 18, 20, 18, 18, 12, 6},
    {2, 0, 8, 0, 8, 0, 8, 0, 2},
    {0, 0, -2, 0, 4, 0, -2, 0, 0},
    {0, 0, 0, 0, 0, 0, 0, 0, 0},
    {0, 0, 0, 0, 0, 0, 0, 0, 0},
    {0, 0, 0, 0, 0, 0, 0, 0, 0},
}};
inline constexpr Table PawnTableEg = {{
    {0, 10, 20, 30, 40, 30, 20, 10, 0},
    {40, 60, 80, 100, 110, 100, 80, 60, 40},
    {40, 60, 80, 100, 110, 100, 80, 60, 40},
    {40, 56, 72, 90, 96, 90, 72, 56, 40},
    {30, 46, 60, 76, 80, 76, 60, 46, 30},
    {6, 0, 10, 0, 16, 0, 10, 0, 6},
    {2, 0, 6, 0, 10, 0, 6, 0, 2},
    {0, 0, 0, 0, 0, 0, 0, 0, 0},
    {0, 0, 0, 0, 0, 0, 0, 0, 0},
    {0, 0, 0, 0, 0, 0, 0, 0, 0},
}};

// psq[pieceIndex][square]: material + table entry, positive for red pieces and
// negative for black ones (black reads the table from its own side).
constexpr std::array<std::array<Score, BoardSize>, PieceIndexCount> makePsq() {
    std::array<std::array<Score, BoardSize>, PieceIndexCount> psq{};
    const Table* tables[PieceTypeCount] = {&KingTable, &AdvisorTable, &ElephantTable, &HorseTable,
                                           &RookTable, &CannonTable, &PawnTableMg};
    for (int type = 0; type < PieceTypeCount; ++type)
        for (int rank = 0; rank < RankCount; ++rank)
            for (int file = 0; file < FileCount; ++file) {
                int row = 9 - rank;  // tables list rank 9 first
                int mg = (*tables[type])[row][file];
                int eg = type == int(PieceType::Pawn) ? PawnTableEg[row][file] : mg;
                Score s = PieceValue[type] + Score(mg, eg);
                psq[type][index(makeSquare(file, rank))] = s;
                psq[7 + type][index(flipRank(makeSquare(file, rank)))] = -s;
            }
    return psq;
}
inline constexpr auto Psq = makePsq();

constexpr Score value(Piece p, Square s) { return Psq[pieceIndex(p)][index(s)]; }

}  // namespace psqt
}  // namespace chariot
