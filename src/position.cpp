#include "chariot/position.h"

#include <algorithm>
#include <cassert>
#include <cctype>
#include <charconv>

#include <fmt/format.h>

#include "chariot/text.h"

namespace chariot {

using namespace tables;

namespace {

constexpr std::string_view PieceNames[PieceTypeCount] = {"king", "advisor", "elephant", "horse",
                                                         "rook", "cannon",  "pawn"};
constexpr std::string_view colorName(Color c) { return c == Color::Red ? "red" : "black"; }

std::vector<std::string_view> splitFields(std::string_view text) {
    std::vector<std::string_view> fields;
    size_t i = 0;
    while (i < text.size()) {
        while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
        size_t start = i;
        while (i < text.size() && text[i] != ' ' && text[i] != '\t') ++i;
        if (i > start) fields.push_back(text.substr(start, i - start));
    }
    return fields;
}

// The FEN counters setFen accepts (and fen() writes at most).
constexpr int MaxFenHalfmoves = 9999;
constexpr int MaxFenMoveNumber = 99999;

}  // namespace

char pieceToChar(Piece p) {
    if (!isPiece(p)) return '.';
    char c = "KABNRCP"[int(typeOf(p))];
    return colorOf(p) == Color::Red ? c : char(c + ('a' - 'A'));
}

Piece charToPiece(char c) {
    Color color = (c >= 'a' && c <= 'z') ? Color::Black : Color::Red;
    char upper = color == Color::Black ? char(c - ('a' - 'A')) : c;
    switch (upper) {
        case 'K': return makePiece(color, PieceType::King);
        case 'A': return makePiece(color, PieceType::Advisor);
        case 'B':
        case 'E': return makePiece(color, PieceType::Elephant);
        case 'N':
        case 'H': return makePiece(color, PieceType::Horse);
        case 'R': return makePiece(color, PieceType::Rook);
        case 'C': return makePiece(color, PieceType::Cannon);
        case 'P': return makePiece(color, PieceType::Pawn);
        default: return Piece::Empty;
    }
}

std::string squareName(Square s) { return std::string{char('a' + fileOf(s)), char('0' + rankOf(s))}; }

std::string Move::toString() const {
    if (isNone() || isNull()) return "0000";
    return squareName(from()) + squareName(to());
}

Move Move::parse(std::string_view text) {
    if (text.size() != 4) return none();
    auto square = [](char f, char r) -> std::optional<Square> {
        if (f >= 'A' && f <= 'I') f = char(f - 'A' + 'a');
        if (f < 'a' || f > 'i' || r < '0' || r > '9') return std::nullopt;
        return makeSquare(f - 'a', r - '0');
    };
    auto from = square(text[0], text[1]);
    auto to = square(text[2], text[3]);
    if (!from || !to || *from == *to) return none();
    return Move(*from, *to);
}

// ---------------------------------------------------------------------------

Position::Position() {
    auto error = setFen(StartFen);
    assert(!error);
    (void)error;
}

void Position::clear() {
    for (int sq = 0; sq < BoardSize; ++sq) board_[sq] = inBoard(Square(sq)) ? Piece::Empty : Piece::OffBoard;
    for (auto& list : lists_) list.fill(Square::None);
    counts_.fill(0);
    listIndex_.fill(0);
    // Sentinels: the off-board squares at both ends of every row and column.
    // (Each also sets a bit of an off-board column or row, which nothing reads.)
    rowOcc_.fill(0);
    colOcc_.fill(0);
    for (int rank = 0; rank < RankCount; ++rank) {
        toggleOccupancy(makeSquare(0, rank) + Left);
        toggleOccupancy(makeSquare(FileCount - 1, rank) + Right);
    }
    for (int file = 0; file < FileCount; ++file) {
        toggleOccupancy(makeSquare(file, 0) + Down);
        toggleOccupancy(makeSquare(file, RankCount - 1) + Up);
    }
    side_ = Color::Red;
    gamePly_ = 0;
    history_.clear();
    history_.reserve(1024);
    history_.push_back(State{0, Score(), Move::none(), Piece::Empty, Piece::Empty, false, 0, 0, {}});
}

void Position::putPiece(Piece p, Square s) {
    int pi = pieceIndex(p);
    board_[index(s)] = p;
    toggleOccupancy(s);
    listIndex_[index(s)] = counts_[pi];
    lists_[pi][counts_[pi]++] = s;
}

void Position::removePiece(Square s) {
    Piece p = board_[index(s)];
    int pi = pieceIndex(p);
    // Move the last list entry into the hole.
    Square last = lists_[pi][--counts_[pi]];
    int slot = listIndex_[index(s)];
    lists_[pi][slot] = last;
    listIndex_[index(last)] = uint8_t(slot);
    board_[index(s)] = Piece::Empty;
    toggleOccupancy(s);
}

void Position::movePiece(Square from, Square to) {
    Piece p = board_[index(from)];
    board_[index(to)] = p;
    board_[index(from)] = Piece::Empty;
    toggleOccupancy(from);
    toggleOccupancy(to);
    int slot = listIndex_[index(from)];
    lists_[pieceIndex(p)][slot] = to;
    listIndex_[index(to)] = uint8_t(slot);
}

std::optional<std::string> Position::setFen(std::string_view fen) {
    auto fields = splitFields(fen);
    if (fields.empty()) return "FEN is empty";
    if (fields.size() < 2) return "FEN has no side-to-move field";

    Position p{EmptyTag{}};  // built aside; *this changes only on success
    std::string_view placement = fields[0];
    int rank = 9, file = 0;
    for (size_t i = 0; i <= placement.size(); ++i) {
        char c = i < placement.size() ? placement[i] : '/';
        if (c == '/') {
            if (file != FileCount) return fmt::format("FEN board: rank {} has {} files; expected 9", rank, file);
            if (--rank < -1) return "FEN board: more than 10 ranks";
            file = 0;
        } else if (c >= '1' && c <= '9') {
            file += c - '0';
            if (file > FileCount) return fmt::format("FEN board: rank {} has more than 9 files", rank);
        } else {
            Piece piece = charToPiece(c);
            if (piece == Piece::Empty)
                return fmt::format("FEN board: unknown piece letter '{}' on rank {}",
                                   (c >= 32 && c < 127) ? std::string(1, c) : fmt::format("\\x{:02x}", uint8_t(c)),
                                   rank);
            if (file >= FileCount) return fmt::format("FEN board: rank {} has more than 9 files", rank);
            if (p.count(piece) >= maxPieceCount(typeOf(piece)))
                return fmt::format("FEN board: {} has more than {} {}{}", colorName(colorOf(piece)),
                                   maxPieceCount(typeOf(piece)), PieceNames[int(typeOf(piece))],
                                   maxPieceCount(typeOf(piece)) > 1 ? "s" : "");
            p.putPiece(piece, makeSquare(file, rank));
            ++file;
        }
    }
    if (rank != -1) return fmt::format("FEN board: {} ranks; expected 10", 9 - rank);

    std::string_view sideField = fields[1];
    if (sideField == "w" || sideField == "r" || sideField == "W" || sideField == "R")
        p.side_ = Color::Red;
    else if (sideField == "b" || sideField == "B")
        p.side_ = Color::Black;
    else
        return fmt::format("FEN side to move: '{}' is not w, r or b", sideField.substr(0, 16));

    int halfmove = 0, fullmove = 1;
    if (fields.size() > 4) {
        if (!parseNumber(fields[4], halfmove, 0, MaxFenHalfmoves))
            return fmt::format("FEN no-capture counter: '{}' is not a number from 0 to {}", fields[4].substr(0, 16),
                               MaxFenHalfmoves);
    }
    if (fields.size() > 5) {
        if (!parseNumber(fields[5], fullmove, 1, MaxFenMoveNumber))
            return fmt::format("FEN move number: '{}' is not a number from 1 to {}", fields[5].substr(0, 16),
                               MaxFenMoveNumber);
    }

    if (auto error = p.validate()) return error;

    State& st = p.history_.back();
    p.initIncremental(st);
    st.inCheck = p.kingAttacked(p.side_);
    st.rule60 = int16_t(halfmove);
    st.pliesFromNull = 0;
    p.gamePly_ = 2 * (fullmove - 1) + (p.side_ == Color::Black);
    *this = std::move(p);
    return std::nullopt;
}

std::optional<std::string> Position::validate() const {
    for (Color c : {Color::Red, Color::Black}) {
        if (count(c, PieceType::King) != 1) return fmt::format("FEN board: {} has no king", colorName(c));
        for (int t = 0; t < PieceTypeCount; ++t) {
            Piece piece = makePiece(c, PieceType(t));
            uint16_t pawnFiles = 0;
            for (int i = 0; i < count(piece); ++i) {
                Square s = squares(piece)[i];
                auto where = [&] { return fmt::format("{} {} on {}", colorName(c), PieceNames[t], squareName(s)); };
                const int ownRank = c == Color::Red ? rankOf(s) : 9 - rankOf(s);
                if (!mayStand(c, PieceType(t), s)) {
                    switch (PieceType(t)) {
                        case PieceType::King: return fmt::format("FEN board: {} is outside its palace", where());
                        case PieceType::Advisor:
                            return fmt::format("FEN board: {} is not on an advisor point of its palace", where());
                        case PieceType::Elephant:
                            return fmt::format("FEN board: {} is not on an elephant point of its own half", where());
                        default:  // a pawn
                            return ownRank < 3
                                       ? fmt::format("FEN board: {} is behind its starting rank", where())
                                       : fmt::format("FEN board: {} has not crossed the river but is off its file",
                                                     where());
                    }
                }
                if (PieceType(t) == PieceType::Pawn && ownRank < 5) {  // not yet across the river
                    if (pawnFiles & (1u << fileOf(s)))
                        return fmt::format("FEN board: {} shares its file with another uncrossed pawn", where());
                    pawnFiles |= uint16_t(1u << fileOf(s));
                }
            }
        }
    }
    Square redKing = kingSquare(Color::Red), blackKing = kingSquare(Color::Black);
    if (fileOf(redKing) == fileOf(blackKing)) {
        bool blocked = false;
        for (Square s = redKing + Up; s != blackKing; s += Up) blocked |= !isEmpty(s);
        if (!blocked) return "FEN board: the kings face each other on an open file";
    }
    if (kingAttacked(~side_)) return fmt::format("FEN: the side not to move ({}) is in check", colorName(~side_));
    return std::nullopt;
}

std::string Position::fen() const {
    std::string out;
    for (int rank = 9; rank >= 0; --rank) {
        int empty = 0;
        for (int file = 0; file < FileCount; ++file) {
            Piece p = pieceOn(makeSquare(file, rank));
            if (p == Piece::Empty) {
                ++empty;
                continue;
            }
            if (empty) out += char('0' + empty);
            empty = 0;
            out += pieceToChar(p);
        }
        if (empty) out += char('0' + empty);
        if (rank) out += '/';
    }
    out += side_ == Color::Red ? " w - - " : " b - - ";
    // Within the ranges setFen accepts, so that any position's FEN reads back.
    out += fmt::format("{} {}", std::min(rule60(), MaxFenHalfmoves), std::min(gamePly_ / 2 + 1, MaxFenMoveNumber));
    return out;
}

uint64_t Position::computeKey() const {
    uint64_t key = side_ == Color::Black ? Zobrist.blackToMove : 0;
    for (int sq = 0; sq < BoardSize; ++sq)
        if (isPiece(board_[sq])) key ^= zobrist(board_[sq], Square(sq));
    return key;
}

void Position::initIncremental(State& st) const {
    st.key = computeKey();
    st.psq = Score{};
    st.attackUnits = {};
    for (int sq = 0; sq < BoardSize; ++sq) {
        const Piece p = board_[sq];
        if (!isPiece(p)) continue;
        st.psq += psqt::value(p, Square(sq));
        st.attackUnits[index(~colorOf(p))] += uint8_t(psqt::attackUnits(p, Square(sq)));
    }
}

bool Position::isConsistent() const {
    std::array<uint8_t, PieceIndexCount> counts{};
    for (int sq = 0; sq < BoardSize; ++sq) {
        Piece p = board_[sq];
        if (!inBoard(Square(sq))) {
            if (p != Piece::OffBoard) return false;
            continue;
        }
        if (p == Piece::OffBoard) return false;
        const bool occupied = (rowOcc_[sq >> 4] >> (sq & 15)) & 1;
        if (occupied != isPiece(p) || occupied != bool((colOcc_[sq & 15] >> (sq >> 4)) & 1)) return false;
        if (!isPiece(p)) continue;
        int pi = pieceIndex(p);
        ++counts[pi];
        if (listIndex_[sq] >= counts_[pi] || lists_[pi][listIndex_[sq]] != Square(sq)) return false;
    }
    State fresh{};
    initIncremental(fresh);
    return counts == counts_ && fresh.psq == state().psq && fresh.key == state().key &&
           fresh.attackUnits == state().attackUnits && inCheck() == kingAttacked(side_) &&
           count(Color::Red, PieceType::King) == 1 && count(Color::Black, PieceType::King) == 1;
}

// ---------------------------------------------------------------------------
// Attacks

bool Position::squareAttackedByKingRules(Square s, Color by) const {
    if (attackedByPawnOrHorse(s, by)) return true;
    return lineAttacked(s, Up, by) || lineAttacked(s, Down, by) || lineAttacked(s, Right, by) ||
           lineAttacked(s, Left, by);
}

bool Position::attackedByPawnOrHorse(Square s, Color by) const {
    const Piece horse = makePiece(by, PieceType::Horse);
    const Piece pawn = makePiece(by, PieceType::Pawn);
    const auto& b = board_;
    // Pawns: from the square in front (as seen by us), and from the sides once
    // they have crossed the river (s is then on their crossed side too).
    if (b[index(s - forward(by))] == pawn) return true;
    if (crossedRiver(s, by) && (b[index(s + Left)] == pawn || b[index(s + Right)] == pawn)) return true;
    for (const Jump& j : HorseAttacks)
        if (b[index(s + j.to)] == horse && b[index(s + j.block)] == Piece::Empty) return true;
    return false;
}

bool Position::kingStepSafe(Square to, int dir) const {
    // The king's origin is an orthogonal neighbour of `to`: never a horse's
    // leg or a pawn's square for attacks on `to`, and off its cross lines.
    const Color them = ~side_;
    const int cross = dir == Up || dir == Down ? Right : Up;
    return !attackedByPawnOrHorse(to, them) && !lineAttacked(to, cross, them) && !lineAttacked(to, -cross, them);
}

bool Position::lineAttacked(Square k, int dir, Color by) const {
    const Square t = nextOccupied(k, dir);
    const Piece first = board_[index(t)];
    if (first == makePiece(by, PieceType::Rook)) return true;
    if (first == Piece::OffBoard) return false;
    // Facing kings: the enemy king "attacks" along an open file.
    if (first == makePiece(by, PieceType::King) && (dir == Up || dir == Down)) return true;
    return board_[index(nextOccupied(t, dir))] == makePiece(by, PieceType::Cannon);
}

bool Position::checkAfterMove(Square from, Square to, Color us) const {
    const Square ek = kingSquare(~us);
    const KingRelation fromRel = kingRelation(ek, from), toRel = kingRelation(ek, to);
    // Lines: a slider arriving or uncovered, a new or vanished cannon screen,
    // our king arriving on or uncovered on the enemy king's file.
    if (fromRel.line && lineAttacked(ek, fromRel.line, us)) return true;
    if (toRel.line && toRel.line != fromRel.line && lineAttacked(ek, toRel.line, us)) return true;
    // A horse whose leg was `from`.
    if (fromRel.leg && horseThroughLeg(ek, index(from) - index(ek), us)) return true;
    return attacksOffLine(board_[index(to)], to, ek);
}

bool Position::attacksOffLine(Piece pc, Square s, Square k) const {
    switch (typeOf(pc)) {
        case PieceType::Horse: {
            const int leg = horseLeg(index(k) - index(s));
            return leg && board_[index(s + leg)] == Piece::Empty;
        }
        case PieceType::Pawn: {
            const Color c = colorOf(pc);
            return k == s + forward(c) || (crossedRiver(s, c) && (k == s + Left || k == s + Right));
        }
        default: return false;
    }
}

Square Position::leastValuableAttacker(Square s, Color by) const {
    const auto& b = board_;
    const Piece pawn = makePiece(by, PieceType::Pawn);
    if (b[index(s - forward(by))] == pawn) return s - forward(by);
    if (crossedRiver(s, by)) {
        if (b[index(s + Left)] == pawn) return s + Left;
        if (b[index(s + Right)] == pawn) return s + Right;
    }
    if (inPalace(s, by)) {
        const Piece advisor = makePiece(by, PieceType::Advisor);
        for (int d : DiagonalSteps)
            if (b[index(s + d)] == advisor) return s + d;
    }
    if (inOwnHalf(s, by)) {
        const Piece elephant = makePiece(by, PieceType::Elephant);
        for (const Jump& j : ElephantJumps)
            if (b[index(s + j.to)] == elephant && b[index(s + j.block)] == Piece::Empty) return s + j.to;
    }
    const Piece horse = makePiece(by, PieceType::Horse);
    for (const Jump& j : HorseAttacks)
        if (b[index(s + j.to)] == horse && b[index(s + j.block)] == Piece::Empty) return s + j.to;
    // Lines: a cannon behind one screen is cheaper than a rook in front.
    const Piece rook = makePiece(by, PieceType::Rook), cannon = makePiece(by, PieceType::Cannon);
    Square rookAt = Square::None, cannonAt = Square::None;
    forEachDirection([&](auto dir) {
        if (cannonAt != Square::None) return;
        const Square t = nextOccupied<dir()>(s);
        if (b[index(t)] == Piece::OffBoard) return;
        if (b[index(t)] == rook) rookAt = t;
        const Square u = nextOccupied<dir()>(t);
        if (b[index(u)] == cannon) cannonAt = u;
    });
    if (cannonAt != Square::None) return cannonAt;
    if (rookAt != Square::None) return rookAt;
    if (inPalace(s, by)) {
        const Piece king = makePiece(by, PieceType::King);
        for (int d : OrthogonalSteps)
            if (b[index(s + d)] == king) return s + d;
    }
    return Square::None;
}

bool Position::seeGe(Move m, int threshold) const {
    const Square from = m.from(), to = m.to();
    const Piece mover = board_[index(from)];
    const Piece target = board_[index(to)];
    int swap = (isPiece(target) ? SeeValue[int(typeOf(target))] : 0) - threshold;
    if (swap < 0) return false;
    swap = SeeValue[int(typeOf(mover))] - swap;
    if (swap <= 0) return true;

    // Play the exchange out on the board itself (restored below): pieces
    // leave their squares as they capture, which opens rook lines and
    // changes cannon screens exactly as in the game.
    Square removed[34];
    Piece removedPiece[34];
    int removedCount = 0;
    auto lift = [&](Square sq) {
        removed[removedCount] = sq;
        removedPiece[removedCount++] = board_[index(sq)];
        board_[index(sq)] = Piece::Empty;
        toggleOccupancy(sq);
    };
    lift(from);
    Color stm = colorOf(mover);
    bool result = true;
    while (true) {
        stm = ~stm;
        const Square attacker = leastValuableAttacker(to, stm);
        if (attacker == Square::None) break;
        const PieceType type = typeOf(board_[index(attacker)]);
        if (type == PieceType::King) {
            // The king may only take if the other side has no attacker left.
            if (leastValuableAttacker(to, ~stm) == Square::None) result = !result;
            break;
        }
        result = !result;
        swap = SeeValue[int(type)] - swap;
        if (swap < int(result)) break;
        lift(attacker);
    }
    while (removedCount > 0) {
        --removedCount;
        board_[index(removed[removedCount])] = removedPiece[removedCount];
        toggleOccupancy(removed[removedCount]);
    }
    return result;
}

// ---------------------------------------------------------------------------
// Move validity

bool Position::isPseudoLegal(Move m) const {
    Square from = m.from(), to = m.to();
    if (!inBoard(from) || !inBoard(to) || from == to) return false;
    Piece pc = board_[index(from)];
    if (!isColor(pc, side_)) return false;
    Piece target = board_[index(to)];
    if (isColor(target, side_)) return false;
    return movementAllows(typeOf(pc), side_, from, to, target != Piece::Empty, [this](Square s) { return isEmpty(s); });
}

bool Position::keepsKingSafe(Move m) const {
    const Square from = m.from(), to = m.to();
    const Piece pc = board_[index(from)];
    const Piece captured = board_[index(to)];
    const Square ksq = kingSquare(side_);
    bool attacked;
    board_[index(to)] = pc;
    board_[index(from)] = Piece::Empty;
    toggleMoveOccupancy(from, to, captured);
    if (from == ksq || inCheck()) {
        // Rare enough for the full attack test.
        attacked = squareAttackedByKingRules(from == ksq ? to : ksq, ~side_);
    } else {
        // The king was safe: only a piece leaving a line or a horse-leg square
        // of the king, or arriving on a line of the king (a new cannon
        // screen), can expose it, and only along those lines and legs.
        const KingRelation fromRel = kingRelation(ksq, from), toRel = kingRelation(ksq, to);
        attacked = (fromRel.line && lineAttacked(ksq, fromRel.line, ~side_)) ||
                   (toRel.line && toRel.line != fromRel.line && lineAttacked(ksq, toRel.line, ~side_)) ||
                   (fromRel.leg && horseThroughLeg(ksq, index(from) - index(ksq), ~side_));
    }
    board_[index(from)] = pc;
    board_[index(to)] = captured;
    toggleMoveOccupancy(from, to, captured);
    return !attacked;
}

Position::KingShield Position::kingShield() const {
    assert(!inCheck());
    const Square ksq = kingSquare(side_);
    const Color them = ~side_;
    const Piece rook = makePiece(them, PieceType::Rook), cannon = makePiece(them, PieceType::Cannon);
    const Piece king = makePiece(them, PieceType::King);
    const auto& b = board_;
    KingShield shield{};
    shield.ksq = ksq;
    shield.relation = KingRelations.data() + BoardSize - index(ksq);
    for (int slot = 0; slot < 4; ++slot) {
        const int dir = OrthogonalSteps[slot];
        // The first three pieces along the line (stopping at the edge).
        Square s1 = ksq + dir;
        while (b[index(s1)] == Piece::Empty) s1 += dir;
        if (b[index(s1)] == Piece::OffBoard) continue;
        Square s2 = s1 + dir;
        while (b[index(s2)] == Piece::Empty) s2 += dir;
        Square s3 = s2;
        if (b[index(s2)] != Piece::OffBoard) {
            s3 += dir;
            while (b[index(s3)] == Piece::Empty) s3 += dir;
        }
        const Piece p2 = b[index(s2)];
        const bool cannonThird = b[index(s3)] == cannon;
        // The king is safe, so the first piece is no rook or facing king,
        // and the second is no cannon: the attack would come from one further.
        if (p2 == rook || (p2 == king && (dir == Up || dir == Down)) || cannonThird) shield.pinned[slot][0] = s1;
        if (cannonThird) shield.pinned[slot][1] = s2;
        if (b[index(s1)] == cannon) shield.cannonSteps[slot] = kingRelation(ksq, s1).steps;
    }
    return shield;
}

bool Position::givesCheck(Move m) const {
    const Square from = m.from(), to = m.to();
    const Piece pc = board_[index(from)];
    const Piece captured = board_[index(to)];
    // A move off every line and horse leg of the enemy king can only check
    // with the moved piece itself. (A horse's new leg is never its origin.)
    const Square ek = kingSquare(~side_);
    const KingRelation fromRel = kingRelation(ek, from), toRel = kingRelation(ek, to);
    if (!fromRel.line && !fromRel.leg && !toRel.line) return attacksOffLine(pc, to, ek);
    board_[index(to)] = pc;
    board_[index(from)] = Piece::Empty;
    toggleMoveOccupancy(from, to, captured);
    const bool check = checkAfterMove(from, to, side_);
    board_[index(from)] = pc;
    board_[index(to)] = captured;
    toggleMoveOccupancy(from, to, captured);
    return check;
}

Move Position::parseLegalMove(std::string_view text) const {
    Move m = Move::parse(text);
    if (m.isNone() || !isPseudoLegal(m) || !isLegal(m)) return Move::none();
    return m;
}

// ---------------------------------------------------------------------------
// Make / unmake

void Position::makeMove(Move m) {
    Square from = m.from(), to = m.to();
    Piece pc = board_[index(from)];
    Piece captured = board_[index(to)];
    const State& prev = history_.back();
    // The counters saturate: 32767 plies without a capture must not wrap them negative.
    State next{prev.key ^ Zobrist.blackToMove,
               prev.psq,
               m,
               captured,
               pc,
               false,
               int16_t(prev.rule60 + (prev.rule60 < INT16_MAX)),
               int16_t(prev.pliesFromNull + (prev.pliesFromNull < INT16_MAX)),
               prev.attackUnits};
    const Color us = colorOf(pc);
    if (captured != Piece::Empty) {
        next.key ^= zobrist(captured, to);
        next.psq -= psqt::value(captured, to);
        next.attackUnits[index(us)] -= uint8_t(psqt::attackUnits(captured, to));
        next.rule60 = 0;
        removePiece(to);
    }
    next.key ^= zobrist(pc, from) ^ zobrist(pc, to);
    next.psq += psqt::value(pc, to) - psqt::value(pc, from);
    next.attackUnits[index(~us)] += uint8_t(psqt::attackUnits(pc, to) - psqt::attackUnits(pc, from));
    movePiece(from, to);
    side_ = ~side_;
    ++gamePly_;
    next.inCheck = checkAfterMove(from, to, ~side_);
    history_.push_back(next);
    assert(isConsistent());
}

void Position::unmakeMove() {
    const State& st = history_.back();
    Square from = st.move.from(), to = st.move.to();
    Piece captured = st.captured;
    movePiece(to, from);
    if (captured != Piece::Empty) putPiece(captured, to);
    side_ = ~side_;
    --gamePly_;
    history_.pop_back();
    assert(isConsistent());
}

void Position::makeNullMove() {
    const State& prev = history_.back();
    State next{prev.key ^ Zobrist.blackToMove,
               prev.psq,
               Move::null(),
               Piece::Empty,
               Piece::Empty,
               false,
               prev.rule60,
               0,
               prev.attackUnits};
    side_ = ~side_;
    ++gamePly_;
    history_.push_back(next);
    assert(isConsistent());
}

void Position::unmakeNullMove() {
    side_ = ~side_;
    --gamePly_;
    history_.pop_back();
    assert(isConsistent());
}

void Position::discardHistory() {
    State current = history_.back();
    history_.clear();
    history_.push_back(current);
}

Position Position::mirrored() const {
    Position p{EmptyTag{}};
    p.side_ = side_;
    for (int sq = 0; sq < BoardSize; ++sq)
        if (isPiece(board_[sq])) p.putPiece(board_[sq], mirrorSquare(Square(sq)));
    State& st = p.history_.back();
    p.initIncremental(st);
    st.inCheck = inCheck();
    st.rule60 = state().rule60;
    p.gamePly_ = gamePly_;
    return p;
}

// ---------------------------------------------------------------------------

std::optional<std::string> parsePositionText(const std::vector<std::string>& words, size_t first, bool bareFen,
                                             PositionText& out) {
    auto lower = [](std::string w) {
        for (char& c : w) c = char(std::tolower(static_cast<unsigned char>(c)));
        return w;
    };
    if (first >= words.size()) return std::string("expected 'startpos' or 'fen <FEN>'");
    PositionText text;
    size_t i = first;
    const std::string kind = lower(words[i]);
    if (kind == "startpos") {
        text.fen = StartFen;
        ++i;
        if (i < words.size() && lower(words[i]) != "moves" && Move::parse(words[i]).isNone())
            return std::string("startpos: unexpected text before 'moves'");
    } else {
        if (kind == "fen")
            ++i;
        else if (!bareFen)
            return fmt::format("expected 'startpos' or 'fen', got '{}'", words[i].substr(0, 32));
        constexpr size_t FenFields = 6;
        size_t fields = 0;
        for (; i < words.size() && lower(words[i]) != "moves" && !(fields > 0 && Move::parse(words[i])); ++i, ++fields)
            if (fields < FenFields) text.fen += (fields ? " " : "") + words[i];
        text.extraFenFields = fields > FenFields ? fields - FenFields : 0;
        if (text.fen.empty()) return std::string("the FEN is missing");
    }
    if (i < words.size() && lower(words[i]) == "moves") ++i;
    text.moves.assign(words.begin() + long(i), words.end());
    out = std::move(text);
    return std::nullopt;
}

std::optional<std::string> setupPosition(Position& out, std::string_view fen, const std::vector<std::string>& moves) {
    Position p;
    if (fen != StartFen)
        if (auto error = p.setFen(fen)) return error;
    for (size_t i = 0; i < moves.size(); ++i) {
        const Move m = p.parseLegalMove(moves[i]);
        if (!m)
            return fmt::format("move {} '{}' is {} in {}", i + 1, moves[i].substr(0, 16),
                               Move::parse(moves[i]) ? "illegal" : "not an ICCS move", p.fen());
        p.makeMove(m);
    }
    out = std::move(p);
    return std::nullopt;
}

}  // namespace chariot
