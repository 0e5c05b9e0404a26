// Basic strong types shared by every module: colours, pieces, squares on the
// padded 16x16 board, moves and search values.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace chariot {

// ---------------------------------------------------------------------------
// Colours
enum class Color : uint8_t { Red = 0, Black = 1 };

constexpr Color operator~(Color c) { return Color(uint8_t(c) ^ 1); }
constexpr int index(Color c) { return int(c); }

// ---------------------------------------------------------------------------
// Pieces. A piece is (colour tag | type): red pieces are 8..14, black 16..22,
// so "is this square an enemy piece" is a single AND with the enemy's tag, and
// the off-board sentinel (32) and Empty (0) match neither colour.
enum class PieceType : uint8_t { King, Advisor, Elephant, Horse, Rook, Cannon, Pawn, None };
constexpr int PieceTypeCount = 7;

enum class Piece : uint8_t {
    Empty = 0,
    RedKing = 8,
    RedAdvisor,
    RedElephant,
    RedHorse,
    RedRook,
    RedCannon,
    RedPawn,
    BlackKing = 16,
    BlackAdvisor,
    BlackElephant,
    BlackHorse,
    BlackRook,
    BlackCannon,
    BlackPawn,
    OffBoard = 32,
};

constexpr int sideTag(Color c) { return 8 << int(c); }
constexpr Piece makePiece(Color c, PieceType t) { return Piece(sideTag(c) | int(t)); }
constexpr PieceType typeOf(Piece p) { return PieceType(uint8_t(p) & 7); }
constexpr Color colorOf(Piece p) { return Color(uint8_t(p) >> 4); }  // only for real pieces
constexpr bool isColor(Piece p, Color c) { return (uint8_t(p) & sideTag(c)) != 0; }
constexpr bool isPiece(Piece p) { return (uint8_t(p) & 24) != 0; }
// Dense index 0..13 (red K..P, then black K..P) for per-piece tables.
constexpr int pieceIndex(Piece p) { return (uint8_t(p) >> 4) * 7 + (uint8_t(p) & 7); }
constexpr int PieceIndexCount = 14;
// The same index without the round trip through Piece.
constexpr int pieceIndex(Color c, PieceType t) { return index(c) * PieceTypeCount + int(t); }
static_assert(pieceIndex(Color::Black, PieceType::Pawn) == pieceIndex(makePiece(Color::Black, PieceType::Pawn)));
static_assert(pieceIndex(Color::Red, PieceType::Horse) == pieceIndex(makePiece(Color::Red, PieceType::Horse)));

// FEN letters: upper case red, lower case black.
char pieceToChar(Piece p);
// Accepts KABNRCP plus the aliases E (elephant) and H (horse); Empty if unknown.
Piece charToPiece(char c);

// ---------------------------------------------------------------------------
// Squares: index = (rank + 3) * 16 + (file + 3) on a 16x16 board. Files a..i
// are 0..8 from red's left, ranks 0..9 from red's side. The padding of at
// least two squares on every side lets horse and elephant offsets be applied
// without bounds arithmetic; an off-board target is rejected by a table.
enum class Square : uint8_t { None = 0 };

constexpr int FileCount = 9;
constexpr int RankCount = 10;
constexpr int BoardSize = 256;

constexpr Square makeSquare(int file, int rank) { return Square((rank + 3) * 16 + file + 3); }
constexpr int fileOf(Square s) { return (uint8_t(s) & 15) - 3; }
constexpr int rankOf(Square s) { return (uint8_t(s) >> 4) - 3; }
constexpr int index(Square s) { return uint8_t(s); }
constexpr Square operator+(Square s, int d) { return Square(uint8_t(s) + d); }
constexpr Square operator-(Square s, int d) { return Square(uint8_t(s) - d); }
constexpr Square& operator+=(Square& s, int d) { return s = s + d; }
// Left-right mirror (file a <-> i).
constexpr Square mirrorSquare(Square s) { return Square((uint8_t(s) & 0xF0) | (14 - (uint8_t(s) & 15))); }
// Red <-> black view (rank r <-> 9 - r); used for piece-square tables.
constexpr Square flipRank(Square s) { return makeSquare(fileOf(s), 9 - rankOf(s)); }

// Directions on the padded board.
constexpr int Up = 16, Down = -16, Right = 1, Left = -1;
// "Forward" for a colour: red pawns walk up the ranks, black pawns down.
constexpr int forward(Color c) { return c == Color::Red ? Up : Down; }

std::string squareName(Square s);

// ---------------------------------------------------------------------------
// Moves: from | to << 8. Move::none() (0) is "no move"; Move::null() is the
// null move used by null-move pruning (from == to, never a real move).
class Move {
public:
    constexpr Move() = default;
    constexpr Move(Square from, Square to) : data_(uint16_t(index(from) | index(to) << 8)) {}
    constexpr static Move none() { return Move(); }
    constexpr static Move null() { return fromRaw(0x0101); }
    constexpr static Move fromRaw(uint16_t raw) {
        Move m;
        m.data_ = raw;
        return m;
    }

    constexpr Square from() const { return Square(data_ & 0xFF); }
    constexpr Square to() const { return Square(data_ >> 8); }
    constexpr uint16_t raw() const { return data_; }
    constexpr bool isNone() const { return data_ == 0; }
    constexpr bool isNull() const { return data_ == 0x0101; }
    constexpr explicit operator bool() const { return data_ != 0; }
    constexpr bool operator==(const Move&) const = default;

    // ICCS coordinates, lower case ("h2e2"); "0000" for none/null.
    std::string toString() const;
    // Parses 4-character ICCS (case-insensitive); none() if malformed.
    static Move parse(std::string_view text);
    Move mirrored() const { return Move(mirrorSquare(from()), mirrorSquare(to())); }

private:
    uint16_t data_ = 0;
};

// How much evaluation knowledge to use (UCCI option `knowledge`): a setting
// the engine passes through the search to the evaluation.
enum class Knowledge : uint8_t { None, Small, Medium, Large };

// ---------------------------------------------------------------------------
// Search values, centipawn-like ("a horse is about 400"), from the side to move's view.
// Kept as a plain int: it is pure arithmetic in the search, and the named
// limits below are what keeps its ranges apart.
using Value = int;
using Depth = int;

constexpr int MaxPly = 128;
constexpr Value ValueInfinite = 32000;
constexpr Value ValueMate = 30000;  // mate at the root
constexpr Value ValueMateInMaxPly = ValueMate - MaxPly;
// Scores from repetition verdicts (perpetual check/chase) are path-dependent,
// so the TT must never cut on them (the "ban" window). They sit above mate: a
// rule loss is certain once the cycle is played, while a mate still has to be
// found by the opponent, so the engine defends the longest mate rather than
// repeat into a forfeit (and takes a forfeit win only when no mate is there).
constexpr Value ValueBan = ValueMate + 1000;
constexpr Value ValueBanInMaxPly = ValueBan - MaxPly;
// |v| at or above: a mate or a repetition verdict, not an evaluation.
constexpr Value ValueDecisive = ValueMateInMaxPly;
constexpr Value ValueDraw = 0;
static_assert(ValueBan < ValueInfinite && ValueMate < ValueBanInMaxPly);

constexpr Value mateIn(int ply) { return ValueMate - ply; }
constexpr Value matedIn(int ply) { return -ValueMate + ply; }
constexpr bool isMateScore(Value v) {
    return (v >= ValueMateInMaxPly && v <= ValueMate) || (v <= -ValueMateInMaxPly && v >= -ValueMate);
}
constexpr bool isBanScore(Value v) { return v >= ValueBanInMaxPly || v <= -ValueBanInMaxPly; }
constexpr bool isDecisive(Value v) { return v >= ValueDecisive || v <= -ValueDecisive; }
// A mate score as moves to the mate: > 0 when the side to move mates, < 0
// when it is mated, 0 for any other value.
constexpr int mateInMoves(Value v) {
    if (!isMateScore(v)) return 0;
    return v > 0 ? (ValueMate - v + 1) / 2 : -(ValueMate + v) / 2;
}

}  // namespace chariot
