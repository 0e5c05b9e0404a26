// Static evaluation: material and piece-square values (kept incrementally by
// the position) plus xiangqi-specific terms, tapered between middlegame and
// endgame by the attacking material left.
#pragma once

#include <string>

#include "chariot/position.h"

namespace chariot {

// How much evaluation knowledge to use (UCCI option `knowledge`).
enum class Knowledge : uint8_t { None, Small, Medium, Large };

// Per-term breakdown, red's point of view, for the `eval` command.
struct EvalTrace {
    Score material;     // material + piece-square (the incremental sum)
    Score mobility;
    Score kingSafety;
    Score pieces;       // rook files, cannon/horse placement, pawn structure
    int phase = 0;      // 0 = bare endgame .. PhaseMax = full middlegame
    int scaled = 0;     // endgame scaling factor, /64
    Value total = 0;    // final value from red's view (tempo excluded)
};

constexpr int PhaseMax = 48;

// Score from the side to move's point of view.
Value evaluate(const Position& pos, Knowledge knowledge = Knowledge::Large);
// Same evaluation, with the terms written into `trace`.
Value evaluate(const Position& pos, EvalTrace& trace, Knowledge knowledge = Knowledge::Large);
// Human-readable breakdown (the `eval` command).
std::string evalReport(const Position& pos);

// Attacking material (rooks, horses, cannons, crossed... any pawn) of a side:
// used for draw detection and null-move safety.
bool hasAttackers(const Position& pos, Color c);
// Enough material for null-move pruning to be safe from zugzwang.
bool nullMoveSafe(const Position& pos);

}  // namespace chariot
