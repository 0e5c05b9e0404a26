// The board: pieces on the padded 16x16 mailbox, piece lists, side to move,
// incremental Zobrist key and material/piece-square sum, and the history of
// states needed for unmake and for repetition detection.
#pragma once

#include <algorithm>
#include <array>
#include <cassert>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "chariot/psqt.h"
#include "chariot/tables.h"
#include "chariot/types.h"

namespace chariot {

inline constexpr std::string_view StartFen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

// Most pieces of one kind a side can have (1 king, 2 of each officer, 5 pawns).
constexpr int maxPieceCount(PieceType t) { return t == PieceType::King ? 1 : t == PieceType::Pawn ? 5 : 2; }

class Position {
public:
    Position();  // the start position

    // Sets the position from a UCCI FEN. On failure returns a message naming
    // the field and the fault, and leaves *this unchanged.
    std::optional<std::string> setFen(std::string_view fen);
    std::string fen() const;

    // --- board queries ---------------------------------------------------
    Piece pieceOn(Square s) const { return board_[index(s)]; }
    // The whole padded board, by index(square) (OffBoard around the 90 squares).
    const std::array<Piece, BoardSize>& board() const { return board_; }
    bool isEmpty(Square s) const { return board_[index(s)] == Piece::Empty; }
    Color sideToMove() const { return side_; }
    Square kingSquare(Color c) const { return lists_[pieceIndex(c, PieceType::King)][0]; }
    int count(Piece p) const { return counts_[pieceIndex(p)]; }
    int count(Color c, PieceType t) const { return counts_[pieceIndex(c, t)]; }
    const Square* squares(Piece p) const { return lists_[pieceIndex(p)].data(); }
    uint64_t key() const { return state().key; }
    Score psq() const { return state().psq; }  // red minus black
    // Sum of psqt::attackUnits of the pieces attacking c's king.
    int attackUnits(Color c) const { return state().attackUnits[index(c)]; }
    bool inCheck() const { return state().inCheck; }
    // Plies since the last capture (the no-capture rule counter).
    int rule60() const { return state().rule60; }
    int gamePly() const { return gamePly_; }
    // Plies made since this position was set (search + game moves).
    int historyLength() const { return int(history_.size()) - 1; }
    Move lastMove() const { return state().move; }
    Piece lastCaptured() const { return state().captured; }

    // The first occupied square beyond s in direction Dir (one of Up, Down,
    // Right, Left), or the off-board square just past the edge: what walking
    // the empty squares would stop on, read from the row/column occupancy.
    // (isLegal, givesCheck and seeGe, which move pieces on board_ for a
    // moment, update the occupancy with it.)
    template <int Dir>
    Square nextOccupied(Square s) const {
        assert(tables::inBoard(s));
        // The off-board squares around the board are set in the occupancy
        // (sentinels), so there is always a bit to find: no edge case.
        // (The builtins, unlike std::countr_zero and std::bit_width, need
        // no zero test, and the sentinels rule zero out.)
        const unsigned i = index(s), row = i >> 4, col = i & 15;
        if constexpr (Dir == Right) {
            return Square(i + 1 + unsigned(__builtin_ctz(unsigned(rowOcc_[row]) >> (col + 1))));
        } else if constexpr (Dir == Left) {
            return Square((i & 0xF0) | unsigned(31 - __builtin_clz(rowOcc_[row] & ((1u << col) - 1u))));
        } else if constexpr (Dir == Up) {
            return Square(i + 16 * (1 + unsigned(__builtin_ctz(unsigned(colOcc_[col]) >> (row + 1)))));
        } else {
            static_assert(Dir == Down);
            return Square(unsigned(31 - __builtin_clz(colOcc_[col] & ((1u << row) - 1u))) * 16 + col);
        }
    }

    // The same with the direction known only at run time.
    Square nextOccupied(Square s, int dir) const {
        switch (dir) {
            case Up: return nextOccupied<Up>(s);
            case Down: return nextOccupied<Down>(s);
            case Right: return nextOccupied<Right>(s);
            default: return nextOccupied<Left>(s);
        }
    }

    // --- attacks ---------------------------------------------------------
    // Is the king of colour c attacked (facing kings included)?
    bool kingAttacked(Color c) const { return squareAttackedByKingRules(kingSquare(c), ~c); }
    // Would a king of ~by standing on s be attacked by colour `by`?
    bool squareAttackedByKingRules(Square s, Color by) const;

    // Static exchange evaluation: does the exchange sequence started by m on
    // m.to() (each side recapturing with its least valuable piece, either
    // side free to stop) win at least `threshold` for the side making m?
    bool seeGe(Move m, int threshold) const;
    // The exchange values used by seeGe.
    static constexpr int SeeValue[PieceTypeCount] = {20000, 200, 200, 400, 900, 450, 100};

    // --- moves -----------------------------------------------------------
    // Is m a move the side to move's piece can make on this board (ignoring
    // whether it leaves the own king attacked)? For TT and killer moves.
    bool isPseudoLegal(Move m) const;
    // For a pseudo-legal move: does it keep the own king safe?
    bool isLegal(Move m) const {
        const Square ksq = kingSquare(side_);
        if (m.from() != ksq) {
            const tables::KingRelation from = tables::kingRelation(ksq, m.from());
            const tables::KingRelation to = tables::kingRelation(ksq, m.to());
            if (!inCheck()) {
                // Most moves touch no line or horse leg of a king that is safe.
                if (!from.line && !from.leg && !to.line) return true;
            } else {
                // In check, a move must capture on, block or clear (a cannon's
                // screen) a line or horse jump to the king, or the check stays.
                if (!from.line && !to.line && !to.leg && !tables::horseLeg(index(ksq) - index(m.to()))) return false;
            }
        }
        return keepsKingSafe(m);
    }
    bool givesCheck(Move m) const;

    // What the legality of many moves at one node depends on, gathered once
    // for a side to move that is not in check: along each line of its king
    // (indexed like OrthogonalSteps), the squares whose leaving opens the line
    // to an attacker, and the steps to an enemy cannon with no screen yet.
    struct KingShield {
        Square ksq;
        const tables::KingRelation* relation;  // relation[index(s)]: s seen from the king
        Square pinned[4][2];
        uint8_t cannonSteps[4];  // 0: none
    };
    KingShield kingShield() const;  // requires !inCheck()
    // isLegal with the node's shield at hand.
    bool isLegal(Move m, const KingShield& shield) const {
        const Square ksq = shield.ksq;
        const tables::KingRelation from = shield.relation[index(m.from())];
        const tables::KingRelation to = shield.relation[index(m.to())];
        if (!from.line && !from.leg && !to.line) return true;  // (a king move always has to.line)
        // A king step: the line behind it holds the same pieces as before, and
        // so does the line ahead unless the step takes its first piece.
        if (m.from() == ksq) return m.to() != shield.pinned[to.slot][0] && kingStepSafe(m.to(), to.line);
        // A move along a line of the king: the full test.
        if (from.line && from.line == to.line) return keepsKingSafe(m);
        if (from.leg && horseThroughLeg(ksq, index(m.from()) - index(ksq), ~side_, m.to())) return false;
        if (from.line && (m.from() == shield.pinned[from.slot][0] || m.from() == shield.pinned[from.slot][1]))
            return false;
        // Arriving between the king and an unscreened cannon makes the screen
        // (cannonSteps is 0 when there is none).
        return !to.line || to.steps >= shield.cannonSteps[to.slot];
    }
    // Parses an ICCS move and checks it is legal here; none() otherwise.
    Move parseLegalMove(std::string_view text) const;

    // The key after m, without making it (to prefetch the TT entry early).
    uint64_t keyAfter(Move m) const {
        const Piece pc = board_[index(m.from())], captured = board_[index(m.to())];
        uint64_t k =
            state().key ^ tables::Zobrist.blackToMove ^ tables::zobrist(pc, m.from()) ^ tables::zobrist(pc, m.to());
        return captured == Piece::Empty ? k : k ^ tables::zobrist(captured, m.to());
    }
    void makeMove(Move m);
    void unmakeMove();
    void makeNullMove();
    void unmakeNullMove();

    // Recomputes key, material sum, piece lists and check flag from scratch
    // and compares them with the incremental ones (for asserts and tests).
    bool isConsistent() const;
    uint64_t computeKey() const;

    // The history, for the repetition rules (rules.h): n plies back from the
    // current position (0 = now), n <= historyLength().
    uint64_t keyBack(int n) const { return stateBack(n).key; }
    Move moveBack(int n) const { return stateBack(n).move; }  // the move that led there
    bool inCheckBack(int n) const { return stateBack(n).inCheck; }
    Piece capturedBack(int n) const { return stateBack(n).captured; }
    // The piece that made that move (Empty for a null move or the first position).
    Piece movedBack(int n) const { return stateBack(n).moved; }
    // How many plies back a position can repeat the current one: not past
    // the last capture, the last null move or the position first set.
    int reversiblePlies() const { return std::min({int(state().rule60), int(state().pliesFromNull), historyLength()}); }

    // Left-right mirror image of this position (same side to move).
    Position mirrored() const;

    // Drops the undo history before the current position (after a capture it
    // is useless for repetition); keeps memory bounded in very long games.
    void discardHistory();

private:
    struct State {
        uint64_t key;
        Score psq;
        Move move;       // the move that led here
        Piece captured;  // what it captured
        Piece moved;     // the piece that made it (Empty: none, or a null move)
        bool inCheck;    // the side to move is in check here
        int16_t rule60;  // plies since the last capture
        int16_t pliesFromNull;
        std::array<uint8_t, 2> attackUnits;  // psqt::attackUnits against the red and the black king
    };

    // Is the king on k attacked along direction dir by a rook, a cannon or
    // (on its file) the facing king of colour `by`?
    bool lineAttacked(Square k, int dir, Color by) const;
    // Does a horse of colour `by` attack k through the leg k + leg (a
    // diagonal neighbour of k)? Both such horses stand just beyond the leg.
    // A horse on `captured` does not count.
    bool horseThroughLeg(Square k, int leg, Color by, Square captured = Square::None) const {
        const Piece horse = makePiece(by, PieceType::Horse);
        const int vertical = leg > 0 ? Up : Down;
        const Square h1 = k + leg + vertical, h2 = k + leg + (leg - vertical);
        return (board_[index(h1)] == horse && h1 != captured) || (board_[index(h2)] == horse && h2 != captured);
    }
    // isLegal's full answer, for moves its quick test cannot pass.
    bool keepsKingSafe(Move m) const;
    // Is s attacked by a pawn or a horse of colour `by`?
    bool attackedByPawnOrHorse(Square s, Color by) const;
    // For a side to move that is not in check, whose king steps in direction
    // dir to `to`: is `to` safe from pawns, horses and the two lines across
    // the step? (The lines along it are the caller's.)
    bool kingStepSafe(Square to, int dir) const;
    // With the move from -> to by colour `us` already on the board: is the
    // enemy king attacked now? It was safe before, so only the moved piece
    // and the lines and horse legs through the two squares need a look.
    bool checkAfterMove(Square from, Square to, Color us) const;
    // Does piece pc on s attack the king on k other than along a line (as a
    // horse or a pawn), given the board's horse legs?
    bool attacksOffLine(Piece pc, Square s, Square k) const;
    struct EmptyTag {};
    explicit Position(EmptyTag) { clear(); }
    const State& state() const { return history_.back(); }
    const State& stateBack(int n) const {
        assert(n >= 0 && n <= historyLength());
        return history_[history_.size() - 1 - size_t(n)];
    }
    State& state() { return history_.back(); }
    void clear();
    // The state's key, psq and attack units, summed from the board.
    void initIncremental(State& st) const;
    void putPiece(Piece p, Square s);
    void removePiece(Square s);
    void movePiece(Square from, Square to);
    std::optional<std::string> validate() const;
    // Square of the least valuable piece of colour `by` attacking s (given
    // the current board), or Square::None.
    Square leastValuableAttacker(Square s, Color by) const;

    mutable std::array<Piece, BoardSize> board_;  // mutable: isLegal tries a move in place
    std::array<std::array<Square, 5>, PieceIndexCount> lists_{};
    std::array<uint8_t, PieceIndexCount> counts_{};
    std::array<uint8_t, BoardSize> listIndex_{};
    // Occupancy by row and by column of the padded board: bit c of rowOcc_[r]
    // and bit r of colOcc_[c] stand for square r * 16 + c holding a piece.
    // The off-board squares just outside the board's rows and columns are
    // always set (sentinels for nextOccupied).
    // Mutable like board_: the attack tests that try a move in place keep them in step.
    mutable std::array<uint16_t, 16> rowOcc_{};
    mutable std::array<uint16_t, 16> colOcc_{};
    void toggleOccupancy(Square s) const {
        rowOcc_[index(s) >> 4] ^= uint16_t(1u << (index(s) & 15));
        colOcc_[index(s) & 15] ^= uint16_t(1u << (index(s) >> 4));
    }
    // A move from -> to (capturing `captured`, maybe Empty) tried in place, or taken back.
    void toggleMoveOccupancy(Square from, Square to, Piece captured) const {
        toggleOccupancy(from);
        if (captured == Piece::Empty) toggleOccupancy(to);
    }
    Color side_ = Color::Red;
    int gamePly_ = 0;
    std::vector<State> history_;
};

// A position as commands and tools write it: `startpos [moves m...]`,
// `fen <FEN> [moves m...]` or (where `bareFen`) just `<FEN> [moves m...]`;
// the FEN ends at `moves` or at the first word that is an ICCS move (so the
// word `moves` may be left out), and has at most six fields.
struct PositionText {
    std::string fen;  // the start position's FEN for startpos
    std::vector<std::string> moves;
    size_t extraFenFields = 0;  // fields beyond the sixth, ignored
};
// Reads words[first...]; on failure returns why and leaves `out` alone.
std::optional<std::string> parsePositionText(const std::vector<std::string>& words, size_t first, bool bareFen,
                                             PositionText& out);
// The position reached from `fen` by the moves (each checked legal): on
// failure returns why ("move 3 'h2e9' is illegal in <FEN>") and leaves
// `out` alone.
std::optional<std::string> setupPosition(Position& out, std::string_view fen, const std::vector<std::string>& moves);

}  // namespace chariot
