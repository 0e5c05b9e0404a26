#include "chariot/movegen.h"

#include <stdexcept>
#include <type_traits>

namespace chariot {

using namespace tables;

namespace {

// Emits moves to empty squares (quiets) and/or onto enemy pieces (captures).
template <GenType Type>
inline void addStep(const Position& pos, Move*& out, Square from, Square to, Color us) {
    Piece target = pos.pieceOn(to);
    if (target == Piece::Empty) {
        if constexpr (Type != GenType::Captures) *out++ = Move(from, to);
    } else if (isColor(target, ~us)) {
        if constexpr (Type != GenType::Quiets) *out++ = Move(from, to);
    }
}

}  // namespace

template <GenType Type>
void generate(const Position& pos, MoveList& list) {
    const Color us = pos.sideToMove();
    const Color them = ~us;
    // Written through a local cursor: the compiler then keeps it in a
    // register instead of updating list.size after every move.
    Move* out = list.moves + list.size;

    // Rooks and cannons slide; a rook captures the first piece it meets, a
    // cannon the first one behind exactly one screen. Captures alone need no
    // walk: the row/column occupancy gives those pieces directly.
    if constexpr (Type == GenType::Captures) {
        const Piece rook = makePiece(us, PieceType::Rook);
        const Square* sqs = pos.squares(rook);
        for (int i = 0, n = pos.count(rook); i < n; ++i) {
            const Square from = sqs[i];
            forEachDirection([&](auto dir) {
                const Square to = pos.nextOccupied<dir()>(from);
                if (isColor(pos.pieceOn(to), them)) *out++ = Move(from, to);
            });
        }
        const Piece cannon = makePiece(us, PieceType::Cannon);
        sqs = pos.squares(cannon);
        for (int i = 0, n = pos.count(cannon); i < n; ++i) {
            const Square from = sqs[i];
            forEachDirection([&](auto dir) {
                const Square screen = pos.nextOccupied<dir()>(from);
                if (pos.pieceOn(screen) == Piece::OffBoard) return;
                const Square to = pos.nextOccupied<dir()>(screen);
                if (isColor(pos.pieceOn(to), them)) *out++ = Move(from, to);
            });
        }
    } else {
        // Every empty square up to the first piece met; then a rook takes
        // that piece, a cannon the first one behind it.
        auto slide = [&](auto isCannon) {
            const Piece slider = makePiece(us, isCannon() ? PieceType::Cannon : PieceType::Rook);
            const Square* sqs = pos.squares(slider);
            for (int i = 0, n = pos.count(slider); i < n; ++i) {
                const Square from = sqs[i];
                for (int dir : OrthogonalSteps) {
                    Square to = from + dir;
                    while (pos.isEmpty(to)) {
                        *out++ = Move(from, to);
                        to += dir;
                    }
                    if constexpr (Type != GenType::Quiets) {
                        if constexpr (isCannon()) {
                            if (pos.pieceOn(to) == Piece::OffBoard) continue;
                            to += dir;  // jump the screen
                            while (pos.isEmpty(to)) to += dir;
                        }
                        if (isColor(pos.pieceOn(to), them)) *out++ = Move(from, to);
                    }
                }
            }
        };
        slide(std::false_type{});
        slide(std::true_type{});
    }
    {
        const Piece horse = makePiece(us, PieceType::Horse);
        const Square* sqs = pos.squares(horse);
        for (int i = 0, n = pos.count(horse); i < n; ++i) {
            Square from = sqs[i];
            for (const Jump& j : HorseJumps)
                if (pos.isEmpty(from + j.block)) addStep<Type>(pos, out, from, from + j.to, us);
        }
    }
    {
        const Piece pawn = makePiece(us, PieceType::Pawn);
        const Square* sqs = pos.squares(pawn);
        for (int i = 0, n = pos.count(pawn); i < n; ++i) {
            Square from = sqs[i];
            addStep<Type>(pos, out, from, from + forward(us), us);
            if (crossedRiver(from, us)) {
                addStep<Type>(pos, out, from, from + Left, us);
                addStep<Type>(pos, out, from, from + Right, us);
            }
        }
    }
    {
        const Piece elephant = makePiece(us, PieceType::Elephant);
        const Square* sqs = pos.squares(elephant);
        for (int i = 0, n = pos.count(elephant); i < n; ++i) {
            Square from = sqs[i];
            for (const Jump& j : ElephantJumps) {
                Square to = from + j.to;
                if (inOwnHalf(to, us) && pos.isEmpty(from + j.block)) addStep<Type>(pos, out, from, to, us);
            }
        }
    }
    {
        const Piece advisor = makePiece(us, PieceType::Advisor);
        const Square* sqs = pos.squares(advisor);
        for (int i = 0, n = pos.count(advisor); i < n; ++i) {
            Square from = sqs[i];
            for (int d : DiagonalSteps)
                if (inPalace(from + d, us)) addStep<Type>(pos, out, from, from + d, us);
        }
    }
    {
        Square from = pos.kingSquare(us);
        for (int d : OrthogonalSteps)
            if (inPalace(from + d, us)) addStep<Type>(pos, out, from, from + d, us);
    }
    list.size = int(out - list.moves);
}

template void generate<GenType::Captures>(const Position&, MoveList&);
template void generate<GenType::Quiets>(const Position&, MoveList&);
template void generate<GenType::All>(const Position&, MoveList&);

namespace {

// Calls onLegal(i) for each legal move list.moves[i], i >= start: in check
// with the plain test, otherwise with the king's shield gathered once.
template <typename OnLegal>
void forEachLegal(const Position& pos, const MoveList& list, int start, OnLegal onLegal) {
    if (pos.inCheck()) {
        for (int i = start; i < list.size; ++i)
            if (pos.isLegal(list.moves[i])) onLegal(i);
    } else {
        const Position::KingShield shield = pos.kingShield();
        for (int i = start; i < list.size; ++i)
            if (pos.isLegal(list.moves[i], shield)) onLegal(i);
    }
}

}  // namespace

void generateLegal(const Position& pos, MoveList& list) {
    // Generate in place, then squeeze out the illegal moves.
    const int start = list.size;
    generate<GenType::All>(pos, list);
    int kept = start;
    forEachLegal(pos, list, start, [&](int i) { list.moves[kept++] = list.moves[i]; });
    list.size = kept;
}

void generateEvasions(const Position& pos, MoveList& list) { generateLegal(pos, list); }

// ---------------------------------------------------------------------------

namespace {

template <bool Checked>
uint64_t perftImpl(Position& pos, int depth) {
    MoveList moves;
    if constexpr (Checked) {
        MoveList pseudo;
        generate<GenType::All>(pos, pseudo);
        for (Move m : pseudo) {
            if (!pos.isPseudoLegal(m)) throw std::logic_error("generated move is not pseudo-legal: " + m.toString());
            // The fast legality filter must agree with a full make + attack test.
            pos.makeMove(m);
            bool safe = !pos.kingAttacked(~pos.sideToMove());
            bool check = pos.inCheck();
            pos.unmakeMove();
            if (safe != pos.isLegal(m)) throw std::logic_error("isLegal disagrees for " + m.toString());
            if (!pos.inCheck() && safe != pos.isLegal(m, pos.kingShield()))
                throw std::logic_error("isLegal with the king's shield disagrees for " + m.toString());
            if (safe && check != pos.givesCheck(m)) throw std::logic_error("givesCheck disagrees for " + m.toString());
            if (safe) moves.push(m);
        }
        MoveList caps, quiets;
        generate<GenType::Captures>(pos, caps);
        generate<GenType::Quiets>(pos, quiets);
        if (caps.size + quiets.size != pseudo.size) throw std::logic_error("captures + quiets != all");
    } else if (depth == 1) {
        // Bulk counting: the leaves are only counted, never made.
        generate<GenType::All>(pos, moves);
        uint64_t legal = 0;
        forEachLegal(pos, moves, 0, [&](int) { ++legal; });
        return legal;
    } else {
        generateLegal(pos, moves);
    }
    if (depth <= 1) return depth == 1 ? uint64_t(moves.size) : 1;
    uint64_t nodes = 0;
    for (Move m : moves) {
        pos.makeMove(m);
        if constexpr (Checked)
            if (!pos.isConsistent()) throw std::logic_error("inconsistent after " + m.toString());
        nodes += perftImpl<Checked>(pos, depth - 1);
        pos.unmakeMove();
        if constexpr (Checked)
            if (!pos.isConsistent()) throw std::logic_error("inconsistent after undoing " + m.toString());
    }
    return nodes;
}

}  // namespace

uint64_t perft(Position& pos, int depth) { return depth <= 0 ? 1 : perftImpl<false>(pos, depth); }

uint64_t perftChecked(Position& pos, int depth) { return depth <= 0 ? 1 : perftImpl<true>(pos, depth); }

uint64_t perftDivide(Position& pos, int depth, const std::function<void(Move, uint64_t)>& perMove) {
    if (depth <= 0) return 1;
    MoveList moves;
    generateLegal(pos, moves);
    uint64_t total = 0;
    for (Move m : moves) {
        pos.makeMove(m);
        uint64_t n = perft(pos, depth - 1);
        pos.unmakeMove();
        perMove(m, n);
        total += n;
    }
    return total;
}

}  // namespace chariot
