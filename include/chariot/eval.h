// Static evaluation: material and piece-square values (kept incrementally by
// the position) plus xiangqi-specific terms, tapered between middlegame and
// endgame by the attacking material left.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "chariot/eval_params.h"
#include "chariot/position.h"

namespace chariot {

// Per-term breakdown, red's point of view, for the `eval` command.
struct EvalTrace {
    Score material;  // material + piece-square (the incremental sum)
    Score mobility;
    Score kingSafety;
    Score pieces;     // rook files, cannon/horse placement, pawn structure
    int phase = 0;    // 0 = bare endgame .. PhaseMax = full middlegame
    int scaled = 0;   // endgame scaling factor, /64
    Value total = 0;  // final value from red's view (tempo excluded)
};

constexpr int PhaseMax = 48;
// Bonus for the side to move, outside the taper and the endgame scale.
constexpr Value EvalTempo = 10;

// Score from the side to move's point of view.
Value evaluate(const Position& pos, Knowledge knowledge = Knowledge::Large);
// Same evaluation, with the terms written into `trace`.
Value evaluate(const Position& pos, EvalTrace& trace, Knowledge knowledge = Knowledge::Large);
// Lazy evaluation for quiescence stand-pat. When material and piece-square
// values alone are more than LazyMargin outside (alpha, beta), the positional
// terms are skipped and the rough value moved LazyMargin toward the window
// is returned (`exact` false): a bound on the side the window test needs (on
// the bench searches the full value differs from the rough one by more than
// 300 in under 1% of quiescence evaluations). Otherwise evaluate()'s value.
constexpr Value LazyMargin = 300;
Value evaluateLazy(const Position& pos, Value alpha, Value beta, Knowledge knowledge, bool& exact);
// Human-readable breakdown (the `eval` command).
std::string evalReport(const Position& pos);

// For the tuner: the Knowledge::Large evaluation is linear in the weights
// (EvalParams) up to the taper and the endgame scale. This records, for one
// position, how many times each weight is used (red's uses minus black's)
// and what the taper and scale will be.
struct EvalLinear {
    std::array<int16_t, EvalParamCount> coef{};
    int phase = 0;
    int scaleRed = 64, scaleBlack = 64;  // endgame scale when red / black is ahead
    Color sideToMove = Color::Red;
};
EvalLinear linearize(const Position& pos);
// The evaluation rebuilt from `lin` with weights `params` (side to move's
// view, tempo included): equals evaluate(pos) for DefaultEvalParams.
Value evaluateLinear(const EvalLinear& lin, const EvalParams& params);

// Attacking material (rooks, horses, cannons, crossed... any pawn) of a side:
// used for draw detection and null-move safety.
bool hasAttackers(const Position& pos, Color c);
// Enough material for null-move pruning to be safe from zugzwang.
bool nullMoveSafe(const Position& pos);

}  // namespace chariot
