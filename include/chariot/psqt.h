// Material and piece-square values, summed incrementally by the position
// (red minus black) so that the evaluation starts from a ready total. The
// values themselves are weights of the evaluation (eval_weights.h).
#pragma once

#include <array>
#include <cstdint>

#include "chariot/eval_weights.h"
#include "chariot/score.h"
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

}  // namespace psqt
}  // namespace chariot
