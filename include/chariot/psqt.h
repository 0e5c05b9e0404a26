// Material and piece-square values, summed incrementally by the position
// (red minus black) so that the evaluation starts from a ready total. The
// values themselves are weights of the evaluation (eval_weights.h).
#pragma once

#include <array>
#include <cstdint>

#include "chariot/eval_weights.h"
#include "chariot/score.h"
#include "chariot/tables.h"
#include "chariot/types.h"

namespace chariot {
namespace psqt {

// Column of the half table (files a..e) that a file reads: f..i mirror d..a.
constexpr int halfFile(int file) { return file < HalfFiles ? file : FileCount - 1 - file; }

// Material + table entry of a red piece of `type` on (file, rank).
constexpr Score redValue(const EvalParams& p, int type, int file, int rank) {
    return p.pieceValue[type] + p.psqt[type][9 - rank][halfFile(file)];  // tables list rank 9 first
}

// psq[pieceIndex][square]: material + table entry, positive for red pieces and
// negative for black ones (black reads the table from its own side).
constexpr std::array<std::array<Score, BoardSize>, PieceIndexCount> makePsq(const EvalParams& p) {
    std::array<std::array<Score, BoardSize>, PieceIndexCount> psq{};
    for (int type = 0; type < PieceTypeCount; ++type)
        for (int rank = 0; rank < RankCount; ++rank)
            for (int file = 0; file < FileCount; ++file) {
                Score s = redValue(p, type, file, rank);
                psq[type][index(makeSquare(file, rank))] = s;
                psq[7 + type][index(flipRank(makeSquare(file, rank)))] = -s;
            }
    return psq;
}
inline constexpr auto Psq = makePsq(DefaultEvalParams);

constexpr Score value(Piece p, Square s) { return Psq[pieceIndex(p)][index(s)]; }

// King-safety attack units that a piece on s brings against the enemy king
// (summed incrementally like psq, per king attacked): full weight in the
// enemy half (pawns only on the middle files), half weight for rooks and
// cannons still in their own half (they get over fast).
inline constexpr int AttackUnits[PieceTypeCount] = {0, 0, 0, 2, 3, 2, 1};
constexpr int attackUnits(PieceType t, Color owner, Square s) {
    if (!tables::crossedRiver(s, owner)) return t == PieceType::Rook || t == PieceType::Cannon ? AttackUnits[int(t)] / 2 : 0;
    if (t == PieceType::Pawn && (fileOf(s) < 2 || fileOf(s) > 6)) return 0;
    return AttackUnits[int(t)];
}
constexpr std::array<std::array<uint8_t, BoardSize>, PieceIndexCount> makeAttackUnits() {
    std::array<std::array<uint8_t, BoardSize>, PieceIndexCount> table{};
    for (Color c : {Color::Red, Color::Black})
        for (int t = 0; t < PieceTypeCount; ++t)
            for (int s = 0; s < BoardSize; ++s)
                if (tables::inBoard(Square(s)))
                    table[pieceIndex(c, PieceType(t))][s] = uint8_t(attackUnits(PieceType(t), c, Square(s)));
    return table;
}
inline constexpr auto AttackUnitsOn = makeAttackUnits();
constexpr int attackUnits(Piece p, Square s) { return AttackUnitsOn[pieceIndex(p)][index(s)]; }

}  // namespace psqt
}  // namespace chariot
