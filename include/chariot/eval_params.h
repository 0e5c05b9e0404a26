// The evaluation's weights as one structure: every weight is a Score
// (middlegame, endgame) that the evaluation adds a whole number of times, so
// the shipped values can be compile-time constants (eval_weights.h) while the
// tuner (tune.h) treats the same structure as a flat vector of weights.
#pragma once

#include <cstddef>
#include <string>
#include <type_traits>

#include "chariot/score.h"
#include "chariot/types.h"

namespace chariot {

// Piece-square tables keep left-right symmetry: only files a..e are stored,
// f..i mirror them.
constexpr int HalfFiles = 5;
constexpr int KingDangerSize = 16;
constexpr int HorseMobilitySize = 9;
// Rook and cannon mobility: 0..17 squares along the lines.
constexpr int LineMobilitySize = 18;
// The non-king piece types (advisor..pawn, PieceType 1..6) of the imbalance table.
constexpr int ImbalanceTypes = 6;
// Enemy advisors left: 0..2.
constexpr int AdvisorCounts = 3;

struct EvalParams {
    // Material, internal units (a pawn before the river is about 100 in the middlegame).
    Score pieceValue[PieceTypeCount];
    // Added to the material: red's view, rank 9 (black's back rank) first, files a..e.
    Score psqt[PieceTypeCount][RankCount][HalfFiles];
    // By the number of free jumps (leg free, target not an own piece).
    Score horseMobility[HorseMobilitySize];
    // Rooks: by the squares reachable (quiet squares and captures).
    Score rookMobility[LineMobilitySize];
    // Cannons: by the empty squares along its lines.
    Score cannonMobility[LineMobilitySize];
    Score rookOpenFile;       // no own pawn ahead of the rook on its file
    Score connectedPawns;     // crossed pawns side by side
    Score hollowCannon;       // enemy cannon faces the king with nothing between
    Score cannonTwoScreens;   // cannon two screens away on the king's file
    Score rookPinOnKingFile;  // enemy rook on the king's line behind one piece
    Score missingAdvisor;     // per missing advisor, per two enemy attack units
    Score missingElephant;    // per missing elephant, per two enemy attack units
    // By the enemy attack units near our king (0..15).
    Score kingDanger[KingDangerSize];
    // Material imbalance: [our type][their type] over advisor..pawn (PieceType
    // minus one), used (our count) x (their count) times.
    Score imbalance[ImbalanceTypes][ImbalanceTypes];
    // Per crossed pawn not yet on the last rank, by the enemy advisors left.
    Score crossedPawnVsAdvisors[AdvisorCounts];
    // Per enemy rook, when walking forward from our king the first piece met
    // is not ours (an enemy piece, or none up to the edge). A penalty tunes
    // to a negative weight.
    Score exposedKingFile;
    Score palaceCentreHorse;  // our horse on our palace centre (e1 / e8)
    Score bottomCannon;       // our cannon on the enemy back rank, their king on it too
};

// The single weights by name, in declaration order: the ones declared before
// kingDanger, then the ones after the arrays (the tuner's writer needs the
// order; paramName both groups).
struct NamedScalar {
    Score EvalParams::*member;
    const char* name;
};
inline constexpr NamedScalar LeadingScalars[] = {
    {&EvalParams::rookOpenFile, "rookOpenFile"},           {&EvalParams::connectedPawns, "connectedPawns"},
    {&EvalParams::hollowCannon, "hollowCannon"},           {&EvalParams::cannonTwoScreens, "cannonTwoScreens"},
    {&EvalParams::rookPinOnKingFile, "rookPinOnKingFile"}, {&EvalParams::missingAdvisor, "missingAdvisor"},
    {&EvalParams::missingElephant, "missingElephant"},
};
inline constexpr NamedScalar TrailingScalars[] = {
    {&EvalParams::exposedKingFile, "exposedKingFile"},
    {&EvalParams::palaceCentreHorse, "palaceCentreHorse"},
    {&EvalParams::bottomCannon, "bottomCannon"},
};

static_assert(std::is_standard_layout_v<EvalParams> && std::is_trivially_copyable_v<EvalParams>);
constexpr int EvalParamCount = int(sizeof(EvalParams) / sizeof(Score));
static_assert(sizeof(EvalParams) == EvalParamCount * sizeof(Score), "EvalParams must hold Scores only");

// Flat views for the tuner (index 0..EvalParamCount-1, in declaration order).
inline Score* paramData(EvalParams& p) { return reinterpret_cast<Score*>(&p); }
inline const Score* paramData(const EvalParams& p) { return reinterpret_cast<const Score*>(&p); }
// Index of a weight given a reference into `p`.
inline int paramIndex(const EvalParams& p, const Score& w) {
    return int((reinterpret_cast<const char*>(&w) - reinterpret_cast<const char*>(&p)) / sizeof(Score));
}
// A readable name for weight i ("psqt.horse[7][c]", "kingDanger[4]", ...).
std::string paramName(int i);

}  // namespace chariot
