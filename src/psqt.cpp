#include "chariot/psqt.h"

#include "chariot/eval_weights.h"
#include "chariot/tables.h"

namespace chariot::psqt {

static_assert(HalfTableFiles == HalfFiles);

namespace {

// Material + table entry of a red piece of `type` on (file, rank).
constexpr Score redValue(const EvalParams& p, int type, int file, int rank) {
    return p.pieceValue[type] + p.psqt[type][9 - rank][halfFile(file)];  // tables list rank 9 first
}

constexpr PsqTable makePsq(const EvalParams& p) {
    PsqTable psq{};
    for (int type = 0; type < PieceTypeCount; ++type)
        for (int rank = 0; rank < RankCount; ++rank)
            for (int file = 0; file < FileCount; ++file) {
                Score s = redValue(p, type, file, rank);
                psq[type][index(makeSquare(file, rank))] = s;
                psq[7 + type][index(flipRank(makeSquare(file, rank)))] = -s;
            }
    return psq;
}

// Full weight in the enemy half (pawns only on the middle files), half
// weight for rooks and cannons still in their own half (they get over fast).
constexpr int AttackUnits[PieceTypeCount] = {0, 0, 0, 2, 3, 2, 1};
constexpr int attackUnits(PieceType t, Color owner, Square s) {
    if (!tables::crossedRiver(s, owner))
        return t == PieceType::Rook || t == PieceType::Cannon ? AttackUnits[int(t)] / 2 : 0;
    if (t == PieceType::Pawn && (fileOf(s) < 2 || fileOf(s) > 6)) return 0;
    return AttackUnits[int(t)];
}
constexpr AttackUnitTable makeAttackUnits() {
    AttackUnitTable table{};
    for (Color c : {Color::Red, Color::Black})
        for (int t = 0; t < PieceTypeCount; ++t)
            for (int s = 0; s < BoardSize; ++s)
                if (tables::inBoard(Square(s)))
                    table[pieceIndex(c, PieceType(t))][s] = uint8_t(attackUnits(PieceType(t), c, Square(s)));
    return table;
}

}  // namespace

constexpr PsqTable Psq = makePsq(DefaultEvalParams);
constexpr AttackUnitTable AttackUnitsOn = makeAttackUnits();

}  // namespace chariot::psqt
