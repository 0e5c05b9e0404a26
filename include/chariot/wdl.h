// Win/draw/loss estimates: what a search score means as game outcomes, from
// a model fitted to Chariot's own self-play games (tools/wdl/fit_wdl.py; the
// fitted constants are in wdl_model.h). The model is Stockfish's win-rate
// model: P(win) = 1 / (1 + exp(-(v - a(m)) / b(m))), P(loss) the same for -v,
// P(draw) the rest, with a and b cubic in the phase m (the attacking pieces
// left on the board).
#pragma once

#include "chariot/position.h"
#include "chariot/types.h"

namespace chariot::wdl {

// Per mille, the side to move's view; the three always sum to 1000.
struct Wdl {
    int win = 0;
    int draw = 1000;
    int loss = 0;
    constexpr bool operator==(const Wdl&) const = default;
};

// The phase the model reads: rooks, horses, cannons and pawns on the board,
// both sides together (0..22).
int phase(const Position& pos);

// The estimate for a score (internal units, side to move's view) at a
// phase, clamped to the range the model was fitted on. A mate or a win by the
// repetition rules is certain: 1000 0 0 for the winner.
Wdl fromValue(Value v, int phase);
inline Wdl fromValue(Value v, const Position& pos) { return fromValue(v, phase(pos)); }

}  // namespace chariot::wdl
