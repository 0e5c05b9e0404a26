// The strength limiter: a skill level from 0 to 20 turned into
// search caps and a choice among the best root moves, and the table that
// maps Elo ratings to levels. No I/O and no engine state: the engine asks
// for the parameters of a level, runs its capped MultiPV search and lets
// chooseLine() pick the move.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "chariot/types.h"

namespace chariot::skill {

constexpr int MaxLevel = 20;  // full strength: the untouched engine
// Below this level the engine never resigns: a weaker player plays on (and
// the human opponent gets to finish the mate).
constexpr int MinResignLevel = 10;

// What one level does. Level 20 is not limited at all (none of this applies).
struct Params {
    double level = MaxLevel;
    int depth = 0;              // iterative deepening stops after this depth...
    double deeperChance = 0;    // ...or one ply later, with this chance per move
    uint64_t nodes = 0;         // node cap per move
    int multiPV = 1;            // root lines searched to choose from
    Value maxLoss = 0;          // never a move scoring more than this below the best line (internal units)
    Value temperature = 0;      // the choice: weight exp(-(best - score) / temperature)
    int timePercent = 100;      // of the normal planned time with a clock
    int minThinkPercent = 0;    // answer no sooner than this share of the (scaled) plan...
    int64_t minThinkCapMs = 0;  // ...and never wait longer than this for it
};

// The parameters of a level in [0, 20); a fractional level interpolates
// between the rows of the integer levels around it (node caps geometrically;
// the depth cap as a chance of the deeper one, not by rounding, so that
// UCI_Elo's fractional levels play between their neighbours).
// Levels outside the range are clamped; 20 and above give level 20 (limited()
// false).
Params paramsFor(double level);
inline bool limited(double level) { return level < MaxLevel; }
// The depth cap of one move: params.depth, or one more with
// params.deeperChance. Deterministic for a given seed.
int depthFor(const Params& params, uint64_t seed);

// One measured (or, until the calibration, provisional) point: a level and
// its Elo on the project's scale (ElephantEye 3.31 = 2000).
struct EloPoint {
    double level;
    int elo;
};
// The table, strictly increasing in both columns, from level 0 to level 20.
const std::vector<EloPoint>& eloTable();
int minElo();
int maxElo();
// Elo -> level (clamped to the table's range, linear between points) and back.
double levelForElo(int elo);
int eloForLevel(double level);

// Mated, or lost by the repetition rules: whichever of the two bands lies
// nearer to zero bounds both.
constexpr Value LostAtOrBelow = -std::min(ValueMateInMaxPly, ValueBanInMaxPly);
bool isLost(Value v);

// A root line the limited search produced: its move's score (internal units,
// from the side to move) in the line's order (best first).
struct Line {
    Move move;
    Value score = 0;
};

// Which line to play: never one scoring more than params.maxLoss below the
// first (best) line, never a lost one (mated or lost by the rules) when the
// best is not; among the rest, line i with probability proportional to
// exp(-(best - score_i) / temperature). Deterministic for a given seed.
// Returns an index into `lines` (0 when lines is empty).
size_t chooseLine(const std::vector<Line>& lines, const Params& params, uint64_t seed);

}  // namespace chariot::skill
