// Move generation in the stages the search needs, and perft.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "chariot/position.h"

namespace chariot {

// More than the most moves a legal xiangqi position allows (about 120).
constexpr int MaxMoves = 160;

struct MoveList {
    // The moves are left unfilled: only [0, size) is ever read, and a list
    // is made at every node, where zeroing 320 bytes would cost more than
    // generating.
    MoveList() {}
    union {
        Move moves[MaxMoves];
    };
    int size = 0;

    void push(Move m) { moves[size++] = m; }
    const Move* begin() const { return moves; }
    const Move* end() const { return moves + size; }
    bool contains(Move m) const {
        for (Move x : *this)
            if (x == m) return true;
        return false;
    }
};

enum class GenType : uint8_t {
    Captures,  // pseudo-legal captures
    Quiets,    // pseudo-legal non-captures
    All,       // pseudo-legal, both
};

// Pseudo-legal moves of the side to move (may leave the own king attacked;
// filter with Position::isLegal). Appends to the list.
template <GenType Type>
void generate(const Position& pos, MoveList& list);

// All legal moves; when in check these are exactly the evasions.
void generateLegal(const Position& pos, MoveList& list);
// Legal moves out of check (requires pos.inCheck()).
void generateEvasions(const Position& pos, MoveList& list);

// Perft: leaf count at `depth`.
uint64_t perft(Position& pos, int depth);
// Perft that also checks Position::isConsistent() after every make/unmake
// and that pseudo-legal/legal agree with the generator (for tests).
uint64_t perftChecked(Position& pos, int depth);
// Divide: calls `perMove` for every root move with its subtree count.
uint64_t perftDivide(Position& pos, int depth, const std::function<void(Move, uint64_t)>& perMove);

}  // namespace chariot
