// The repetition rules (Asian rules as engines implement them): perpetual
// check and perpetual chase lose, every other repetition is a draw. Given a
// position with its history (game moves before the search root, search moves
// after it), find the repetition cycle and judge it. The search asks this
// module and nothing else judges repetitions.
//
// A chase, exactly as the shared referee (shared/tools/xqrules.py) defines it:
// side S's chase set in a position holds the enemy pieces X, other than the
// king and pawns on their own side of the river, that a piece of S other than
// its king and pawns can capture legally (a pinned piece only its pinner; a
// check already standing on S's king is ignored), where either a horse or
// cannon attacks a rook, or an advisor or elephant attacks a rook, cannon or
// horse (protected or not), or X is unprotected (with the capture made, the
// other side has no legal recapture) and, for an attacker of X's own type, X
// could not legally take it back. A move chases the pieces in the mover's
// chase set after it that were not in it before. Over a cycle pieces are
// followed as they move; a side that gave no check and whose moves all chase
// one same piece chases perpetually.
#pragma once

#include <bitset>
#include <string>
#include <vector>

#include "chariot/position.h"

namespace chariot::rules {

// The no-capture rule: a game with this many plies since the last capture
// is drawn (60 moves).
inline constexpr int NoCapturePlies = 120;

// A set of squares of the padded board (or of piece identities, which are
// squares at the start of a cycle).
using SquareSet = std::bitset<BoardSize>;

// The enemy pieces `side` chases in pos (whoever is to move there).
SquareSet chaseSet(const Position& pos, Color side);

enum class Verdict : uint8_t { None, Draw, PerpetualCheck, PerpetualChase };

struct Ruling {
    Verdict verdict = Verdict::None;
    Color offender = Color::Red;   // PerpetualCheck, PerpetualChase: the side that loses
    Square chased = Square::None;  // PerpetualChase: a piece chased on every move, where it stands now
    bool mutualChase = false;      // Draw: both sides chased perpetually
    int plies = 0;                 // the moves judged: plies back to the earlier occurrence used

    bool decided() const { return verdict == Verdict::PerpetualCheck || verdict == Verdict::PerpetualChase; }
};

struct Settings {
    bool judgeChase = true;  // false: chasing repetitions are draws (perpetual check still loses)
    // Earlier occurrences needed when the cycle reaches back before the root
    // (game history): 2 = the position's third occurrence, as the referee.
    int gameRepeats = 2;
};

// The verdict on pos's current position. plyFromRoot: plies since the search
// root, 0 for a game position (no search). An earlier occurrence inside the
// search (at most plyFromRoot plies back) makes one cycle enough; otherwise the
// position must have occurred gameRepeats times before, except that a verdict
// against the root side (the side to move where plyFromRoot is even) is taken
// at the first repetition, so that the search steers out of the cycle in time.
// Verdict::None when the position does not (yet) end the game.
Ruling judge(const Position& pos, int plyFromRoot, const Settings& settings = {});

// The verdict on the last `plies` moves of pos's history, a cycle that must
// lead back to the position of `plies` plies ago (plies even, >= 4, within
// pos.reversiblePlies()).
Ruling judgeCycle(const Position& pos, int plies, const Settings& settings = {});

// One line: "none", "draw", "draw (both chased)", "perpetual-check red",
// "perpetual-chase black (red rook on a7)".
std::string describe(const Ruling& r, const Position& pos);

}  // namespace chariot::rules
