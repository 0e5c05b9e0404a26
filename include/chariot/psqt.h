// Material and piece-square values and king-attack units, summed
// incrementally by the position (red minus black) so that the evaluation
// starts from a ready total. Only the tables' shape is declared here: their
// values are the evaluation's weights (eval_weights.h), filled in psqt.cpp,
// so that the board does not depend on the weights and a tuner's new
// weights rebuild only the evaluation.
#pragma once

#include <array>
#include <cstdint>

#include "chariot/score.h"
#include "chariot/types.h"

namespace chariot {
namespace psqt {

// Half tables cover files a..e; f..i mirror d..a.
constexpr int HalfTableFiles = 5;
// Column of the half table that a file reads.
constexpr int halfFile(int file) { return file < HalfTableFiles ? file : FileCount - 1 - file; }

// Psq[pieceIndex][square]: material + table entry, positive for red pieces
// and negative for black ones (black reads the table from its own side).
using PsqTable = std::array<std::array<Score, BoardSize>, PieceIndexCount>;
extern const PsqTable Psq;
inline Score value(Piece p, Square s) { return Psq[pieceIndex(p)][index(s)]; }

// King-safety attack units that a piece on s brings against the enemy king
// (summed incrementally like psq, per king attacked).
using AttackUnitTable = std::array<std::array<uint8_t, BoardSize>, PieceIndexCount>;
extern const AttackUnitTable AttackUnitsOn;
inline int attackUnits(Piece p, Square s) { return AttackUnitsOn[pieceIndex(p)][index(s)]; }

}  // namespace psqt
}  // namespace chariot
