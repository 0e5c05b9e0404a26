// Board geometry and hashing tables, all computed at compile time.
#pragma once

#include <array>
#include <cstdint>
#include <type_traits>

#include "chariot/types.h"

namespace chariot::tables {

// Per-square flags on the padded board.
enum SquareFlag : uint8_t {
    InBoard = 1,
    RedPalace = 2,
    BlackPalace = 4,
    RedHalf = 8,     // ranks 0..4: red elephants live here; black pawns here have crossed
    BlackHalf = 16,  // ranks 5..9
    AdvisorPoint = 32,
    ElephantPoint = 64,
};

constexpr std::array<uint8_t, BoardSize> makeSquareFlags() {
    std::array<uint8_t, BoardSize> flags{};
    for (int rank = 0; rank < RankCount; ++rank)
        for (int file = 0; file < FileCount; ++file) {
            uint8_t f = InBoard;
            bool palaceFile = file >= 3 && file <= 5;
            if (palaceFile && rank <= 2) f |= RedPalace;
            if (palaceFile && rank >= 7) f |= BlackPalace;
            f |= rank <= 4 ? RedHalf : BlackHalf;
            int r = rank <= 4 ? rank : 9 - rank;  // rank from the owner's side
            if ((r == 0 || r == 2) && (file == 3 || file == 5)) f |= AdvisorPoint;
            if (r == 1 && file == 4) f |= AdvisorPoint;
            if ((r == 0 || r == 4) && (file == 2 || file == 6)) f |= ElephantPoint;
            if (r == 2 && (file == 0 || file == 4 || file == 8)) f |= ElephantPoint;
            flags[index(makeSquare(file, rank))] = f;
        }
    return flags;
}
inline constexpr std::array<uint8_t, BoardSize> SquareFlags = makeSquareFlags();

constexpr bool inBoard(Square s) { return SquareFlags[index(s)] & InBoard; }
constexpr bool inPalace(Square s, Color c) {
    return SquareFlags[index(s)] & (c == Color::Red ? RedPalace : BlackPalace);
}
constexpr bool inOwnHalf(Square s, Color c) { return SquareFlags[index(s)] & (c == Color::Red ? RedHalf : BlackHalf); }
// A pawn of colour c on s has crossed the river (and may step sideways).
constexpr bool crossedRiver(Square s, Color c) {
    return SquareFlags[index(s)] & (c == Color::Red ? BlackHalf : RedHalf);
}

// May a piece of colour c and type t stand on s by the rules? Kings on their
// palace, advisors on its points, elephants on their points of their own
// half, pawns on or past their starting rank, and on their own (even) file
// until they cross the river. (FEN validation also allows only one
// uncrossed pawn per file.)
constexpr bool mayStand(Color c, PieceType t, Square s) {
    const uint8_t flags = SquareFlags[index(s)];
    switch (t) {
        case PieceType::King: return inPalace(s, c);
        case PieceType::Advisor: return inPalace(s, c) && (flags & AdvisorPoint);
        case PieceType::Elephant: return inOwnHalf(s, c) && (flags & ElephantPoint);
        case PieceType::Pawn: {
            const int ownRank = c == Color::Red ? rankOf(s) : 9 - rankOf(s);
            return ownRank >= 5 || (ownRank >= 3 && fileOf(s) % 2 == 0);
        }
        default: return inBoard(s);
    }
}

// Step offsets.
inline constexpr int OrthogonalSteps[4] = {Up, Down, Right, Left};
// Calls f(std::integral_constant<int, Dir>{}) for the four orthogonal directions
// in OrthogonalSteps order, for code that wants Dir at compile time.
template <typename F>
constexpr void forEachDirection(F&& f) {
    f(std::integral_constant<int, Up>{});
    f(std::integral_constant<int, Down>{});
    f(std::integral_constant<int, Right>{});
    f(std::integral_constant<int, Left>{});
}
inline constexpr int DiagonalSteps[4] = {Up + Right, Up + Left, Down + Right, Down + Left};

// Horse: eight jumps, each with the leg square (relative to the horse) that blocks it.
struct Jump {
    int to;
    int block;
};
inline constexpr Jump HorseJumps[8] = {
    {2 * Up + Right, Up},    {2 * Up + Left, Up},       {2 * Down + Right, Down}, {2 * Down + Left, Down},
    {Up + 2 * Right, Right}, {Down + 2 * Right, Right}, {Up + 2 * Left, Left},    {Down + 2 * Left, Left},
};
// A horse at target + to attacks target unless target + block is occupied
// (the leg of the attacking horse is the target's diagonal neighbour towards it).
inline constexpr Jump HorseAttacks[8] = {
    {2 * Up + Right, Up + Right},   {2 * Up + Left, Up + Left},     {2 * Down + Right, Down + Right},
    {2 * Down + Left, Down + Left}, {Up + 2 * Right, Up + Right},   {Down + 2 * Right, Down + Right},
    {Up + 2 * Left, Up + Left},     {Down + 2 * Left, Down + Left},
};
// The leg offset (from the horse) of a horse jump by `delta`, or 0 if delta
// is no horse jump. No other on-board displacement shares these deltas.
constexpr std::array<int8_t, 2 * BoardSize> makeHorseLegs() {
    std::array<int8_t, 2 * BoardSize> legs{};
    for (const Jump& j : HorseJumps) legs[j.to + BoardSize] = int8_t(j.block);
    return legs;
}
inline constexpr std::array<int8_t, 2 * BoardSize> HorseLegs = makeHorseLegs();
constexpr int horseLeg(int delta) { return HorseLegs[delta + BoardSize]; }

// Elephant: four two-point diagonal jumps, blocked by the eye (the midpoint).
inline constexpr Jump ElephantJumps[4] = {
    {2 * (Up + Right), Up + Right},
    {2 * (Up + Left), Up + Left},
    {2 * (Down + Right), Down + Right},
    {2 * (Down + Left), Down + Left},
};

// Direction from one square to another if they share a rank or file (with
// anything in between), else 0. (A displacement table cannot tell "8 files
// right" from "one rank up, 8 files left" on a 16-wide board, so compare.)
constexpr bool sameRank(Square a, Square b) { return ((index(a) ^ index(b)) & 0xF0) == 0; }
constexpr bool sameFile(Square a, Square b) { return ((index(a) ^ index(b)) & 0x0F) == 0; }
constexpr int lineDirection(Square from, Square to) {
    if (from == to) return 0;
    if (sameRank(from, to)) return index(to) > index(from) ? Right : Left;
    if (sameFile(from, to)) return index(to) > index(from) ? Up : Down;
    return 0;
}

// How a square relates to a king's square, looked up by displacement. Kings
// never leave their palace, so every board square is within 5 files of one and
// the displacement on the 16-wide board names a single square (unlike in
// lineDirection's general case).
struct KingRelation {
    int8_t line;    // direction from the king along its rank or file, 0 if off both
    uint8_t slot;   // on a line: the index of that direction in OrthogonalSteps
    uint8_t steps;  // on a line: how many steps from the king
    bool leg;       // a diagonal neighbour: the leg of a horse attacking the king
};
constexpr std::array<KingRelation, 2 * BoardSize> makeKingRelations() {
    std::array<KingRelation, 2 * BoardSize> rel{};
    for (int dr = -(RankCount - 1); dr < RankCount; ++dr)
        for (int df = -5; df <= 5; ++df) {
            KingRelation& r = rel[dr * Up + df * Right + BoardSize];
            if (dr == 0 && df != 0) r.line = int8_t(df > 0 ? Right : Left);
            if (df == 0 && dr != 0) r.line = int8_t(dr > 0 ? Up : Down);
            for (uint8_t slot = 0; slot < 4; ++slot)
                if (r.line && OrthogonalSteps[slot] == r.line) r.slot = slot;
            r.steps = uint8_t(r.line ? (dr ? dr * (dr > 0 ? 1 : -1) : df * (df > 0 ? 1 : -1)) : 0);
            r.leg = (dr == 1 || dr == -1) && (df == 1 || df == -1);
        }
    return rel;
}
inline constexpr std::array<KingRelation, 2 * BoardSize> KingRelations = makeKingRelations();
// k must be a palace square.
constexpr KingRelation kingRelation(Square k, Square s) { return KingRelations[index(s) - index(k) + BoardSize]; }

constexpr bool kingRelationsAgree() {
    for (int k = 0; k < BoardSize; ++k) {
        if (!inPalace(Square(k), Color::Red) && !inPalace(Square(k), Color::Black)) continue;
        for (int s = 0; s < BoardSize; ++s) {
            if (!inBoard(Square(s))) continue;
            const KingRelation r = kingRelation(Square(k), Square(s));
            const int dr = rankOf(Square(s)) - rankOf(Square(k)), df = fileOf(Square(s)) - fileOf(Square(k));
            const bool leg = (dr == 1 || dr == -1) && (df == 1 || df == -1);
            if (r.line != lineDirection(Square(k), Square(s)) || r.leg != leg) return false;
        }
    }
    return true;
}
static_assert(kingRelationsAgree());

// ---------------------------------------------------------------------------
// Zobrist keys from a compile-time SplitMix64 stream.
constexpr uint64_t splitMix64(uint64_t& state) {
    uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

struct ZobristKeys {
    std::array<std::array<uint64_t, BoardSize>, PieceIndexCount> piece{};
    uint64_t blackToMove = 0;
};

constexpr ZobristKeys makeZobrist() {
    ZobristKeys keys{};
    uint64_t state = 0x43686172696F7421ULL;  // "Chariot!"
    keys.blackToMove = splitMix64(state);
    for (auto& table : keys.piece)
        for (int sq = 0; sq < BoardSize; ++sq) table[sq] = inBoard(Square(sq)) ? splitMix64(state) : 0;
    return keys;
}
inline constexpr ZobristKeys Zobrist = makeZobrist();

constexpr uint64_t zobrist(Piece p, Square s) { return Zobrist.piece[pieceIndex(p)][index(s)]; }

static_assert(SquareFlags[index(makeSquare(4, 0))] & RedPalace);
static_assert(SquareFlags[index(makeSquare(4, 9))] & BlackPalace);
static_assert(!(SquareFlags[index(makeSquare(2, 0))] & RedPalace));
static_assert(inBoard(makeSquare(8, 9)) && !inBoard(makeSquare(8, 9) + Right) && !inBoard(makeSquare(0, 0) + Down));
// The movement rule of a piece of type t and colour c going from `from` to
// `to` (a square its own side does not hold; `capture`: an enemy piece
// stands there), the board seen through `isEmpty(square)`. The one
// statement of how pieces move that Position::isPseudoLegal and the
// repetition rules' capture test share (the generator unrolls it).
template <typename IsEmpty>
constexpr bool movementAllows(PieceType t, Color c, Square from, Square to, bool capture, const IsEmpty& isEmpty) {
    const int delta = index(to) - index(from);
    switch (t) {
        case PieceType::King:
            return inPalace(to, c) && (delta == Up || delta == Down || delta == Left || delta == Right);
        case PieceType::Advisor:
            return inPalace(to, c) &&
                   (delta == Up + Left || delta == Up + Right || delta == Down + Left || delta == Down + Right);
        case PieceType::Elephant:
            for (const Jump& j : ElephantJumps)
                if (j.to == delta) return inOwnHalf(to, c) && isEmpty(from + j.block);
            return false;
        case PieceType::Horse: {
            const int leg = horseLeg(delta);
            return leg && isEmpty(from + leg);
        }
        case PieceType::Pawn:
            return delta == forward(c) || ((delta == Left || delta == Right) && crossedRiver(from, c));
        case PieceType::Rook:
        case PieceType::Cannon: {
            const int dir = lineDirection(from, to);
            if (!dir) return false;
            int between = 0;
            for (Square s = from + dir; s != to; s += dir) between += !isEmpty(s);
            return between == (t == PieceType::Cannon && capture ? 1 : 0);
        }
        default: return false;
    }
}

static_assert(crossedRiver(makeSquare(0, 5), Color::Red) && !crossedRiver(makeSquare(0, 4), Color::Red));
static_assert(lineDirection(makeSquare(4, 0), makeSquare(4, 9)) == Up);
static_assert(lineDirection(makeSquare(1, 0), makeSquare(4, 1)) == 0);
static_assert(lineDirection(makeSquare(8, 0), makeSquare(0, 1)) == 0);

}  // namespace chariot::tables
