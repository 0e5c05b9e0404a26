#include "chariot/rules.h"

#include <array>
#include <cassert>

#include <fmt/format.h>

namespace chariot::rules {

using namespace tables;

namespace {

// A plain mailbox copy of a position for the chase analysis: it runs only
// when a repetition is found, so it favours plainness over speed, and it can
// be wound back through a cycle without touching the Position.
class Board {
public:
    explicit Board(const Position& pos) {
        for (int sq = 0; sq < BoardSize; ++sq) {
            const Square s = Square(sq);
            b_[sq] = inBoard(s) ? pos.pieceOn(s) : Piece::OffBoard;
            if (isPiece(b_[sq])) pieces_[count_++] = s;
        }
        king_[0] = pos.kingSquare(Color::Red);
        king_[1] = pos.kingSquare(Color::Black);
    }

    Piece at(Square s) const { return b_[index(s)]; }
    int pieceCount() const { return count_; }
    // The squares of the pieces; a piece lifted for a moment by a trial
    // capture keeps its entry, so readers check the board.
    Square pieceSquare(int i) const { return pieces_[i]; }

    // A move that captures nothing (a cycle holds no capture).
    void move(Square from, Square to) {
        assert(isPiece(at(from)) && at(to) == Piece::Empty);
        const Piece pc = at(from);
        b_[index(to)] = pc;
        b_[index(from)] = Piece::Empty;
        if (typeOf(pc) == PieceType::King) king_[index(colorOf(pc))] = to;
        for (int i = 0; i < count_; ++i)
            if (pieces_[i] == from) pieces_[i] = to;
    }

    // Can the piece on `from` capture on `to` by its movement alone (its own
    // king's safety aside)? A king only steps: the flying general is not a
    // capture here.
    bool canCapture(Square from, Square to) const {
        const Piece pc = at(from);
        return movementAllows(typeOf(pc), colorOf(pc), from, to, true,
                              [this](Square s) { return at(s) == Piece::Empty; });
    }

    // The squares of the enemy pieces giving check to c's king, a facing
    // enemy king included.
    SquareSet checkers(Color c) const {
        SquareSet found;
        const Square k = king_[index(c)];
        const Color by = ~c;
        const Piece rook = makePiece(by, PieceType::Rook), cannon = makePiece(by, PieceType::Cannon);
        for (int dir : OrthogonalSteps) {
            Square s = k + dir;
            while (at(s) == Piece::Empty) s += dir;
            if (at(s) == Piece::OffBoard) continue;
            if (at(s) == rook || (at(s) == makePiece(by, PieceType::King) && (dir == Up || dir == Down)))
                found.set(index(s));
            Square t = s + dir;
            while (at(t) == Piece::Empty) t += dir;
            if (at(t) == cannon) found.set(index(t));
        }
        const Piece horse = makePiece(by, PieceType::Horse);
        for (const Jump& j : HorseAttacks)
            if (at(k + j.to) == horse && at(k + j.block) == Piece::Empty) found.set(index(k + j.to));
        const Piece pawn = makePiece(by, PieceType::Pawn);
        if (at(k - forward(by)) == pawn) found.set(index(k - forward(by)));
        if (crossedRiver(k, by)) {
            if (at(k + Left) == pawn) found.set(index(k + Left));
            if (at(k + Right) == pawn) found.set(index(k + Right));
        }
        return found;
    }

    // Does moving the piece on `from` to `to` (a capture or not) leave its
    // own king safe? With `standing` (the checks on that king before the
    // move), only checks the move adds count.
    bool moveIsSafe(Square from, Square to, const SquareSet* standing = nullptr) {
        const Piece pc = at(from), captured = at(to);
        const Color c = colorOf(pc);
        const bool king = typeOf(pc) == PieceType::King;
        b_[index(to)] = pc;
        b_[index(from)] = Piece::Empty;
        if (king) king_[index(c)] = to;
        const SquareSet after = checkers(c);
        const bool safe = standing ? (after & ~*standing).none() : after.none();
        if (king) king_[index(c)] = from;
        b_[index(from)] = pc;
        b_[index(to)] = captured;
        return safe;
    }

    // After the piece on `from` captured on `to` (already on the board):
    // can the other side take back legally?
    bool recapturePossible(Square to) {
        const Color them = ~colorOf(at(to));
        for (int i = 0; i < count_; ++i) {
            const Square s = pieces_[i];
            if (s != to && isColor(at(s), them) && canCapture(s, to) && moveIsSafe(s, to)) return true;
        }
        return false;
    }

    // Does the piece of `side` on `from` chase the enemy piece on `to`?
    bool chases(Square from, Square to, const SquareSet& standing) {
        const PieceType attacker = typeOf(at(from));
        const Piece victim = at(to);
        const PieceType target = typeOf(victim);
        if (target == PieceType::King) return false;
        if (target == PieceType::Pawn && !crossedRiver(to, colorOf(victim))) return false;
        if (!canCapture(from, to) || !moveIsSafe(from, to, &standing)) return false;
        // A lesser piece attacking a greater one: a chase even if protected.
        if ((attacker == PieceType::Horse || attacker == PieceType::Cannon) && target == PieceType::Rook) return true;
        if ((attacker == PieceType::Advisor || attacker == PieceType::Elephant) &&
            (target == PieceType::Rook || target == PieceType::Cannon || target == PieceType::Horse))
            return true;
        // Otherwise only an unprotected piece is chased.
        const Piece pc = at(from);
        b_[index(to)] = pc;
        b_[index(from)] = Piece::Empty;
        const bool protectedTarget = recapturePossible(to);
        b_[index(from)] = pc;
        b_[index(to)] = victim;
        if (protectedTarget) return false;
        // The same type that could take back: an offer to exchange.
        if (attacker == target && canCapture(to, from) && moveIsSafe(to, from)) return false;
        return true;
    }

    SquareSet chaseSet(Color side) {
        SquareSet chased;
        const SquareSet standing = checkers(side);
        for (int i = 0; i < count_; ++i) {
            const Square from = pieces_[i];
            const Piece pc = at(from);
            if (!isColor(pc, side) || typeOf(pc) == PieceType::King || typeOf(pc) == PieceType::Pawn) continue;
            for (int j = 0; j < count_; ++j) {
                const Square to = pieces_[j];
                if (isColor(at(to), ~side) && !chased.test(index(to)) && chases(from, to, standing))
                    chased.set(index(to));
            }
        }
        return chased;
    }

private:
    std::array<Piece, BoardSize> b_{};
    std::array<Square, 32> pieces_{};
    int count_ = 0;
    Square king_[2]{};
};

// The side that made the move leading to the position n plies back.
Color moverBack(const Position& pos, int n) { return n % 2 == 0 ? ~pos.sideToMove() : pos.sideToMove(); }

// judgeCycle's work. With `onlyAgainst`, the caller wants nothing but a
// verdict against that side: the analysis stops as soon as none can come.
Ruling judgeWindow(const Position& pos, int plies, const Settings& settings, const Color* onlyAgainst) {
    assert(plies >= 4 && plies % 2 == 0 && plies <= pos.reversiblePlies());
    assert(pos.keyBack(plies) == pos.key());
    Ruling r;
    r.verdict = Verdict::Draw;
    r.plies = plies;

    // Checks first: one side checking on every move while the other does not loses.
    bool allChecks[2] = {true, true}, anyCheck[2] = {false, false};
    for (int n = 0; n < plies; ++n) {
        const int mover = index(moverBack(pos, n));
        const bool check = pos.inCheckBack(n);
        allChecks[mover] &= check;
        anyCheck[mover] |= check;
    }
    for (Color c : {Color::Red, Color::Black}) {
        if (allChecks[index(c)] && !allChecks[index(~c)]) {
            r.verdict = Verdict::PerpetualCheck;
            r.offender = c;
            return r;
        }
    }
    if (!settings.judgeChase) return r;

    // Chases, for the sides that gave no check at all.
    bool active[2] = {!anyCheck[0], !anyCheck[1]};
    if (onlyAgainst && !active[index(*onlyAgainst)]) return r;
    if (!active[0] && !active[1]) return r;

    // Wind a copy of the board back to the start of the cycle, then replay
    // it, following each piece by its square at the start (its identity).
    Board board(pos);
    for (int n = 0; n < plies; ++n) {
        const Move m = pos.moveBack(n);
        assert(!m.isNull() && pos.capturedBack(n) == Piece::Empty);
        board.move(m.to(), m.from());
    }
    std::array<uint8_t, BoardSize> identity;
    for (int sq = 0; sq < BoardSize; ++sq) identity[sq] = uint8_t(sq);
    SquareSet common[2];
    bool first[2] = {true, true};
    for (int n = plies - 1; n >= 0; --n) {
        const Move m = pos.moveBack(n);
        const int mover = index(moverBack(pos, n));
        assert(isColor(board.at(m.from()), Color(mover)));
        if (!active[mover]) {
            board.move(m.from(), m.to());
            identity[index(m.to())] = identity[index(m.from())];
            continue;
        }
        const SquareSet before = board.chaseSet(Color(mover));
        board.move(m.from(), m.to());
        identity[index(m.to())] = identity[index(m.from())];
        const SquareSet fresh = board.chaseSet(Color(mover)) & ~before;
        // The chased pieces did not move: map their squares to identities.
        SquareSet ids;
        for (int sq = 0; sq < BoardSize; ++sq)
            if (fresh.test(size_t(sq))) ids.set(identity[sq]);
        common[mover] = first[mover] ? ids : (common[mover] & ids);
        first[mover] = false;
        if (common[mover].none()) {
            active[mover] = false;
            if (onlyAgainst && index(*onlyAgainst) == mover) return r;
            if (!active[0] && !active[1]) return r;
        }
    }

    if (active[0] && active[1]) {
        r.mutualChase = true;
        return r;
    }
    const Color chaser = active[0] ? Color::Red : Color::Black;
    r.verdict = Verdict::PerpetualChase;
    r.offender = chaser;
    // Name one of the pieces chased throughout, on its square now.
    const SquareSet& ids = common[index(chaser)];
    for (int sq = 0; sq < BoardSize && r.chased == Square::None; ++sq)
        if (isColor(board.at(Square(sq)), ~chaser) && ids.test(identity[sq])) r.chased = Square(sq);
    return r;
}

constexpr const char* ColorNames[2] = {"red", "black"};
constexpr const char* TypeNames[PieceTypeCount] = {"king", "advisor", "elephant", "horse", "rook", "cannon", "pawn"};

}  // namespace

SquareSet chaseSet(const Position& pos, Color side) {
    Board board(pos);
    return board.chaseSet(side);
}

Ruling judgeCycle(const Position& pos, int plies, const Settings& settings) {
    return judgeWindow(pos, plies, settings, nullptr);
}

Ruling judge(const Position& pos, int plyFromRoot, const Settings& settings) {
    // The fast path, at every node of the search: a scan of the keys.
    const int reach = pos.reversiblePlies();
    if (reach < 4) return {};
    const uint64_t key = pos.key();
    int found = 0;
    for (int back = 4; back <= reach; back += 2) {
        if (pos.keyBack(back) != key) continue;
        ++found;
        // One cycle inside the search stands for the repetition; before the
        // root the game's count of occurrences decides.
        if (back <= plyFromRoot || found >= settings.gameRepeats) return judgeWindow(pos, back, settings, nullptr);
        if (plyFromRoot > 0) {
            // Not final yet, but a verdict against the root side is taken now
            // (it must leave the cycle while it still can). One that favours
            // the root side is none: the opponent may still deviate.
            const Color rootSide = plyFromRoot % 2 == 0 ? pos.sideToMove() : ~pos.sideToMove();
            const Ruling r = judgeWindow(pos, back, settings, &rootSide);
            if (r.decided() && r.offender == rootSide) return r;
        }
    }
    return {};
}

std::string describe(const Ruling& r, const Position& pos) {
    switch (r.verdict) {
        case Verdict::None: return "none";
        case Verdict::Draw: return r.mutualChase ? "draw (both chased)" : "draw";
        case Verdict::PerpetualCheck: return fmt::format("perpetual-check {}", ColorNames[index(r.offender)]);
        case Verdict::PerpetualChase: {
            std::string text = fmt::format("perpetual-chase {}", ColorNames[index(r.offender)]);
            if (const Piece p = pos.pieceOn(r.chased); isPiece(p))
                text += fmt::format(" ({} {} on {})", ColorNames[index(colorOf(p))], TypeNames[int(typeOf(p))],
                                    squareName(r.chased));
            return text;
        }
    }
    return "none";
}

}  // namespace chariot::rules
